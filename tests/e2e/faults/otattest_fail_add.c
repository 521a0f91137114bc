// SPDX-License-Identifier: GPL-2.0
/*
 * otattest_fail_add: test equipment for kernel-probe-fail. Makes the next
 * device_add() of a device of class "otattest" fail the way a real
 * failure there would, after otattest.ko's probe has requested its
 * interrupts, so the scenario can show what the probe's error path does
 * with an event interrupt that already queued work.
 *
 * How: a kretprobe on device_add(). While armed (fail_count > 0), its
 * entry handler hides the name of an otattest class device, and
 * device_add() refuses a nameless device first thing (-EINVAL, before the
 * device is registered anywhere: nothing to undo); the return handler puts
 * the name back before the driver frees it. Nothing else is touched.
 */
#include <linux/device.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/string.h>

static unsigned int fail_count = 1;
module_param(fail_count, uint, 0644);
MODULE_PARM_DESC(fail_count, "otattest device_add() calls still to fail (default 1)");

static atomic_t failed = ATOMIC_INIT(0);

static int failed_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&failed));
}

static const struct kernel_param_ops failed_ops = {
	.get = failed_get,
};
module_param_cb(failed, &failed_ops, NULL, 0444);
MODULE_PARM_DESC(failed, "device_add() calls failed so far");

struct fail_add_data {
	struct device *dev; /* the device whose name was hidden, or NULL */
	const char *name;
};

static int fail_add_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct device *dev = (struct device *)regs_get_kernel_argument(regs, 0);
	struct fail_add_data *d = (struct fail_add_data *)ri->data;
	unsigned int left = READ_ONCE(fail_count);

	d->dev = NULL;
	if (!left || !dev || !dev->class || strcmp(dev->class->name, "otattest"))
		return 0;
	WRITE_ONCE(fail_count, left - 1);
	d->dev = dev;
	d->name = dev->kobj.name;
	dev->kobj.name = NULL;
	return 0;
}

static int fail_add_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct fail_add_data *d = (struct fail_add_data *)ri->data;

	if (d->dev) {
		d->dev->kobj.name = d->name;
		atomic_inc(&failed);
	}
	return 0;
}

static struct kretprobe fail_add_probe = {
	.kp.symbol_name = "device_add",
	.entry_handler = fail_add_entry,
	.handler = fail_add_return,
	.data_size = sizeof(struct fail_add_data),
	.maxactive = 8,
};

static int __init fail_add_init(void)
{
	return register_kretprobe(&fail_add_probe);
}

static void __exit fail_add_exit(void)
{
	unregister_kretprobe(&fail_add_probe);
}

module_init(fail_add_init);
module_exit(fail_add_exit);

MODULE_DESCRIPTION("test equipment: fail otattest's device_add() (kernel-probe-fail)");
MODULE_LICENSE("GPL");
