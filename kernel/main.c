// SPDX-License-Identifier: GPL-2.0
/*
 * otattest.ko: the boot-attestation device behind QEMU's ivshmem-doorbell
 * PCI function (1af4:1110). Any ivshmem device matches that id, so probe
 * binds only when BAR2 starts with an otattest info block this driver
 * speaks, and says why it declined otherwise.
 *
 * This file: module init/exit, parameters, the registry netlink finds
 * devices in, and PCI probe/remove with their ordering rules.
 */
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "otattest.h"

/*
 * How long a mailbox request may wait for the device. The model answers
 * in well under a millisecond; reset and rotation re-verify signatures,
 * which takes a few milliseconds natively and longer under TCG.
 */
unsigned int otattest_timeout_ms = 3000;
static int timeout_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 10, 60000);
}

static const struct kernel_param_ops timeout_ops = {
	.set = timeout_set,
	.get = param_get_uint,
};
module_param_cb(timeout_ms, &timeout_ops, &otattest_timeout_ms, 0644);
MODULE_PARM_DESC(timeout_ms, "mailbox request timeout in ms (10..60000, default 3000)");

/*
 * Doorbells rung at an absent peer vanish, so a device that comes back
 * (model restarted) may never tell us. While the device is not ready the
 * driver re-reads the info block at this interval; 0 disables polling.
 */
unsigned int otattest_poll_ms = 1000;
static int poll_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, 60000);
}

static const struct kernel_param_ops poll_ops = {
	.set = poll_set,
	.get = param_get_uint,
};
module_param_cb(poll_ms, &poll_ops, &otattest_poll_ms, 0644);
MODULE_PARM_DESC(poll_ms, "re-read interval in ms while the device is not ready (0 = off, default 1000)");

/*
 * Event interrupts arriving faster than this are coalesced into one
 * refresh, so a device ringing in a loop costs a bounded amount of work.
 */
unsigned int otattest_event_interval_ms = 10;
static int interval_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, 1000);
}

static const struct kernel_param_ops interval_ops = {
	.set = interval_set,
	.get = param_get_uint,
};
module_param_cb(event_interval_ms, &interval_ops, &otattest_event_interval_ms, 0644);
MODULE_PARM_DESC(event_interval_ms, "minimum ms between refreshes caused by event interrupts (1..1000, default 10)");

/*
 * How many mailbox requests one caller (effective uid) may have waiting
 * or in flight in a lane. More get HOST_QUEUE_FULL at once: a caller that
 * floods the device cannot push everyone else back (mailbox.c).
 */
unsigned int otattest_caller_queue = 4;
static int caller_queue_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 1, OTATTEST_LANE_MAX);
}

static const struct kernel_param_ops caller_queue_ops = {
	.set = caller_queue_set,
	.get = param_get_uint,
};
module_param_cb(caller_queue, &caller_queue_ops, &otattest_caller_queue, 0644);
MODULE_PARM_DESC(caller_queue, "mailbox requests one caller may have queued per lane (1..32, default 4)");

/*
 * Devices by index. An entry is reserved at probe and filled only once
 * the device is fully set up, so lookups never see a half-built one.
 */
static DEFINE_XARRAY_ALLOC(otattest_devices);

struct otattest_device *otattest_get(u32 index)
{
	struct otattest_device *od;

	xa_lock(&otattest_devices);
	od = xa_load(&otattest_devices, index);
	if (od)
		get_device(&od->dev);
	xa_unlock(&otattest_devices);
	return od;
}

/* For dumps: the first device at or after *index, referenced. */
struct otattest_device *otattest_get_next(unsigned long *index)
{
	struct otattest_device *od;

	xa_lock(&otattest_devices);
	od = xa_find(&otattest_devices, index, ULONG_MAX, XA_PRESENT);
	if (od)
		get_device(&od->dev);
	xa_unlock(&otattest_devices);
	return od;
}

void otattest_put(struct otattest_device *od)
{
	put_device(&od->dev);
}

static void otattest_release(struct device *dev)
{
	kfree(to_otattest(dev));
}

static irqreturn_t otattest_irq_mailbox(int irq, void *data)
{
	otattest_mbox_irq(data);
	return IRQ_HANDLED;
}

static irqreturn_t otattest_irq_event(int irq, void *data)
{
	otattest_event_irq(data);
	return IRQ_HANDLED;
}

/*
 * Map the BARs and check the info block. Returns 0 with *info filled, or
 * -ENODEV after logging why this is not a device we drive.
 */
static int otattest_probe_check(struct pci_dev *pdev, struct otattest_device *od,
				struct ota_shm_info *info)
{
	resource_size_t bar2 = pci_resource_len(pdev, 2);
	void __iomem *const *map;
	ota_status_t st;
	int ret, vectors;
	s32 pos;

	if (pci_resource_len(pdev, 0) < OTA_IVSHMEM_DOORBELL + 4 ||
	    !(pci_resource_flags(pdev, 2) & IORESOURCE_MEM)) {
		dev_info(&pdev->dev, "declined: no ivshmem register BAR0 or memory BAR2\n");
		return -ENODEV;
	}
	if (bar2 < sizeof(*info) || bar2 > U32_MAX) {
		dev_info(&pdev->dev, "declined: BAR2 is %pa bytes, not an otattest region\n",
			 &bar2);
		return -ENODEV;
	}

	ret = pcim_iomap_regions(pdev, BIT(0) | BIT(2), OTATTEST_DRV_NAME);
	if (ret) {
		dev_warn(&pdev->dev, "declined: cannot map BAR0/BAR2 (%d)\n", ret);
		return ret;
	}
	map = pcim_iomap_table(pdev);
	od->regs = map[0];
	od->shm = map[2];
	od->shm_size = (u32)bar2;

	st = otattest_shm_read_info(od, info);
	switch (st) {
	case OTA_OK:
		break;
	case OTA_SHM_BAD_MAGIC:
		dev_info(&pdev->dev, "declined: no otattest info block in BAR2 (magic %#010x)\n",
			 info->magic);
		return -ENODEV;
	case OTA_SHM_BAD_VERSION:
		dev_warn(&pdev->dev,
			 "declined: device speaks ABI %u.%u (info size %u), driver speaks %u.x\n",
			 info->abi_major, info->abi_minor, info->info_size, OTA_SHM_ABI_MAJOR);
		return -ENODEV;
	default:
		dev_warn(&pdev->dev, "declined: %s (status %#010x)\n", ota_status_message(st), st);
		return -ENODEV;
	}
	/* ivshmem-plain has the memory but no doorbell: no MSI-X at all. */
	vectors = pci_msix_vec_count(pdev);
	if (vectors < (int)OTA_VEC_COUNT) {
		dev_info(&pdev->dev, "declined: %d MSI-X vectors, needs %u (ivshmem-doorbell vectors=%u)\n",
			 vectors < 0 ? 0 : vectors, OTA_VEC_COUNT, OTA_VEC_COUNT);
		return -ENODEV;
	}
	/* Our doorbell peer id; -1 until the server has greeted QEMU. */
	pos = (s32)readl(od->regs + OTA_IVSHMEM_IV_POSITION);
	if (pos < 0 || pos > 0xffff) {
		dev_info(&pdev->dev, "declined: no doorbell peer id (IVPosition %d)\n", pos);
		return -ENODEV;
	}
	od->peer_id = (u32)pos;
	/*
	 * The device is peer OTA_SHM_DEVICE_PEER_ID, fixed by the ABI and never
	 * read from the shared memory; a server that gave it to us does not
	 * reserve it for the device.
	 */
	if (od->peer_id == OTA_SHM_DEVICE_PEER_ID) {
		dev_warn(&pdev->dev, "declined: this guest is peer %u, the device's (reserved for it)\n",
			 od->peer_id);
		return -ENODEV;
	}
	return 0;
}

/*
 * No more refreshes: gone is set (under lock, which every queueing of the
 * event work checks, and refresh_lock, so a refresh in progress is over),
 * the event interrupt freed, and the work cancelled, waiting for a run in
 * progress; then the version work (state.c), whose request, if it waits
 * in the mailbox, ends at once: gone is set and the waiters are woken.
 * Used by remove and by probe's error path.
 */
static void otattest_stop_events(struct otattest_device *od, int event_irq)
{
	mutex_lock(&od->refresh_lock);
	spin_lock(&od->lock);
	od->gone = true;
	spin_unlock(&od->lock);
	mutex_unlock(&od->refresh_lock);
	free_irq(event_irq, od);
	cancel_delayed_work_sync(&od->event_work);
	wake_up_all(&od->mbox_wq);
	cancel_work_sync(&od->version_work);
}

static int otattest_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct otattest_device *od;
	struct ota_shm_info info;
	u32 index, last_seq;
	int ret, irq0, irq1;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;

	od = kzalloc(sizeof(*od), GFP_KERNEL);
	if (!od)
		return -ENOMEM;
	od->pdev = pdev;
	spin_lock_init(&od->lock);

	ret = otattest_probe_check(pdev, od, &info);
	if (ret)
		goto err_free;
	otattest_layout_from_info(&od->layout, &info);

	/* MSI-X only signals with bus mastering on (the write is a DMA). */
	pci_set_master(pdev);
	ret = pci_alloc_irq_vectors(pdev, OTA_VEC_COUNT, OTA_VEC_COUNT, PCI_IRQ_MSIX);
	if (ret < 0) {
		dev_warn(&pdev->dev, "cannot allocate %u MSI-X vectors: %d\n", OTA_VEC_COUNT, ret);
		goto err_free;
	}

	ret = xa_alloc(&otattest_devices, &index, NULL, xa_limit_31b, GFP_KERNEL);
	if (ret)
		goto err_vectors;
	od->index = index;

	/* Start past whatever the device last answered: it refuses a repeat. */
	last_seq = readl(od->shm + od->layout.response_offset +
			 offsetof(struct ota_mbox_header, seq));
	otattest_mbox_init(od, last_seq);
	otattest_state_init(od);

	device_initialize(&od->dev);
	od->dev.class = &otattest_class;
	od->dev.parent = &pdev->dev;
	od->dev.release = otattest_release;
	ret = dev_set_name(&od->dev, "otattest%u", index);
	if (ret)
		goto err_put;

	irq0 = pci_irq_vector(pdev, OTA_VEC_MAILBOX);
	irq1 = pci_irq_vector(pdev, OTA_VEC_EVENT);
	ret = request_irq(irq0, otattest_irq_mailbox, 0, dev_name(&od->dev), od);
	if (ret)
		goto err_put;
	ret = request_irq(irq1, otattest_irq_event, 0, dev_name(&od->dev), od);
	if (ret)
		goto err_irq0;

	/*
	 * Read the record before device_add so the attribute groups (and
	 * which stage groups are visible) are right when the add uevent
	 * goes out. No refresh runs between device_add and "registered":
	 * a change the first read missed is published by the one below.
	 */
	otattest_refresh(od);
	mutex_lock(&od->refresh_lock);
	ret = device_add(&od->dev);
	if (!ret) {
		od->stages_shown = READ_ONCE(od->stage_count_visible);
		od->registered = true;
	}
	mutex_unlock(&od->refresh_lock);
	if (ret)
		goto err_irq1;
	pci_set_drvdata(pdev, od);
	xa_store(&otattest_devices, index, od, GFP_KERNEL);
	otattest_genl_notify_device(od, OTATTEST_EVENT_DEVICE_ADDED);

	mutex_lock(&od->state_lock);
	dev_info(&pdev->dev, "%s: ABI %u.%u, peer %u, device peer %u, state %s, %u-byte record\n",
		 dev_name(&od->dev), info.abi_major, info.abi_minor, od->peer_id,
		 OTA_SHM_DEVICE_PEER_ID, otattest_state_name(od->snap.state), od->snap.record_len);
	mutex_unlock(&od->state_lock);

	/* Anything that changed between the first read and now. */
	otattest_event_irq(od);
	return 0;

err_irq1:
	/*
	 * The event interrupt may have queued the refresh (which re-arms
	 * itself to poll a device that is not ready): nothing may be queued
	 * once the interrupt is gone, and nothing may run when od is freed.
	 */
	otattest_stop_events(od, irq1);
	free_irq(irq0, od);
	goto err_put;
err_irq0:
	free_irq(irq0, od);
err_put:
	xa_erase(&otattest_devices, index);
	pci_free_irq_vectors(pdev);
	put_device(&od->dev); /* frees od */
	return ret;
err_vectors:
	pci_free_irq_vectors(pdev);
err_free:
	kfree(od);
	return ret;
}

/*
 * Order matters: stop new lookups, fail waiting requests, silence the
 * interrupts and the work they schedule, and only then let the PCI core
 * unmap the BARs (after we return). Netlink requests still holding a
 * reference see od->gone and never touch the BARs again; the last
 * reference frees od.
 */
static void otattest_remove(struct pci_dev *pdev)
{
	struct otattest_device *od = pci_get_drvdata(pdev);

	xa_erase(&otattest_devices, od->index);
	/* Also waits for a refresh already past its od->gone check. */
	otattest_stop_events(od, pci_irq_vector(pdev, OTA_VEC_EVENT));
	otattest_mbox_shutdown(od); /* waiters get -ENODEV */
	free_irq(pci_irq_vector(pdev, OTA_VEC_MAILBOX), od);

	otattest_genl_notify_device(od, OTATTEST_EVENT_DEVICE_REMOVED);
	dev_info(&pdev->dev, "%s: removed\n", dev_name(&od->dev));
	device_del(&od->dev);
	pci_free_irq_vectors(pdev);
	put_device(&od->dev);
}

static const struct pci_device_id otattest_ids[] = {
	{ PCI_DEVICE(OTA_PCI_VENDOR, OTA_PCI_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, otattest_ids);

static struct pci_driver otattest_pci_driver = {
	.name = OTATTEST_DRV_NAME,
	.id_table = otattest_ids,
	.probe = otattest_probe,
	.remove = otattest_remove,
};

static int __init otattest_init(void)
{
	int ret;

	/* Family first: probe announces devices on it. */
	ret = otattest_genl_register();
	if (ret)
		return ret;
	ret = class_register(&otattest_class);
	if (ret)
		goto err_genl;
	ret = pci_register_driver(&otattest_pci_driver);
	if (ret)
		goto err_class;
	return 0;

err_class:
	class_unregister(&otattest_class);
err_genl:
	otattest_genl_unregister();
	return ret;
}

/*
 * Unbinding fails every waiting request with -ENODEV; unregistering the
 * family afterwards waits for those requests to return.
 */
static void __exit otattest_exit(void)
{
	pci_unregister_driver(&otattest_pci_driver);
	class_unregister(&otattest_class);
	otattest_genl_unregister();
	WARN_ON(!xa_empty(&otattest_devices));
}

module_init(otattest_init);
module_exit(otattest_exit);

MODULE_DESCRIPTION("otattest boot-attestation device (ivshmem-doorbell)");
MODULE_AUTHOR("otattest developers");
MODULE_LICENSE("GPL");
