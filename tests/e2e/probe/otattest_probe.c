// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * otattest_probe: a test-only PCI driver for the QEMU smoke test of the
 * device model (tests/e2e/scenarios/model-smoke.sh). It is not the
 * otattest driver (kernel/): it exists to show, before that driver exists
 * and independently of it, that the model behind QEMU's ivshmem-doorbell
 * device is reachable from a guest kernel: the info block checks out, a
 * GET_RECORD request rung through the doorbell is answered, and the answer
 * is signalled by an MSI-X interrupt.
 *
 * On probe it waits for the device to finish booting, performs `rounds`
 * mailbox round trips, each waiting for the mailbox interrupt with a
 * timeout, checks each response (sequence number, command, status,
 * length, a valid record with the right magic, byte-identical to the
 * record region), and publishes the outcome as read-only module
 * parameters under /sys/module/otattest_probe/parameters/: `result` is
 * "pass" or "fail: <reason>".
 *
 * It deliberately has no MODULE_DEVICE_TABLE: nothing loads it unless a
 * scenario does, so it never competes with the real driver.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/random.h>
#include <linux/slab.h>

#include <otattest/shm.h>

#define DRV_NAME "otattest_probe"

static unsigned int rounds = 1;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "GET_RECORD round trips to perform (1..1000)");

static unsigned int timeout_ms = 2000;
module_param(timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms, "how long to wait for each mailbox interrupt");

static unsigned int ready_timeout_ms = 10000;
module_param(ready_timeout_ms, uint, 0444);
MODULE_PARM_DESC(ready_timeout_ms, "how long to wait for the device to finish booting");

/* Results, read-only. */
static char result[160] = "not probed";
module_param_string(result, result, sizeof(result), 0444);
MODULE_PARM_DESC(result, "pass, or fail: <reason>");

static unsigned int mbox_irqs;
module_param(mbox_irqs, uint, 0444);
MODULE_PARM_DESC(mbox_irqs, "mailbox interrupts received");

static unsigned int event_irqs;
module_param(event_irqs, uint, 0444);
MODULE_PARM_DESC(event_irqs, "event interrupts received");

static unsigned int completed;
module_param(completed, uint, 0444);
MODULE_PARM_DESC(completed, "round trips that passed every check");

static unsigned int own_peer = ~0u;
module_param(own_peer, uint, 0444);
MODULE_PARM_DESC(own_peer, "this guest's ivshmem peer id (IVPosition)");

static unsigned int device_peer = ~0u;
module_param(device_peer, uint, 0444);
MODULE_PARM_DESC(device_peer, "the device's peer id (OTA_SHM_DEVICE_PEER_ID, fixed by the ABI)");

static char device_state[16] = "unknown";
module_param_string(device_state, device_state, sizeof(device_state), 0444);
MODULE_PARM_DESC(device_state, "device state from the info block once it settled");

static unsigned int state_detail;
module_param(state_detail, uint, 0444);
MODULE_PARM_DESC(state_detail, "status code the info block gives for that state");

static unsigned int boot_status;
module_param(boot_status, uint, 0444);
MODULE_PARM_DESC(boot_status, "boot_status of the record received");

static char boot_status_name[48] = "";
module_param_string(boot_status_name, boot_status_name, sizeof(boot_status_name), 0444);
MODULE_PARM_DESC(boot_status_name, "status.h name of boot_status (empty if unknown)");

static unsigned int record_generation;
module_param(record_generation, uint, 0444);
MODULE_PARM_DESC(record_generation, "the generation field of the record received");

static unsigned int record_stages;
module_param(record_stages, uint, 0444);
MODULE_PARM_DESC(record_stages, "stage_count of the record received");

static unsigned int region_generation;
module_param(region_generation, uint, 0444);
MODULE_PARM_DESC(region_generation, "the record region's seqlock counter when last read");

static unsigned int record_length;
module_param(record_length, uint, 0444);
MODULE_PARM_DESC(record_length, "length of the last record received");

static unsigned long rtt_min_ns, rtt_avg_ns, rtt_max_ns;
module_param(rtt_min_ns, ulong, 0444);
module_param(rtt_avg_ns, ulong, 0444);
module_param(rtt_max_ns, ulong, 0444);
MODULE_PARM_DESC(rtt_min_ns, "fastest doorbell-to-interrupt round trip");
MODULE_PARM_DESC(rtt_avg_ns, "mean round trip");
MODULE_PARM_DESC(rtt_max_ns, "slowest round trip");

struct probe_dev {
	struct pci_dev *pdev;
	void __iomem *regs; /* BAR0: ivshmem registers */
	void __iomem *shm;  /* BAR2: the device's shared memory */
	resource_size_t shm_len;
	struct ota_shm_info info; /* copied out and validated */
	struct completion mbox_done;
	u32 seq;
	struct ota_record *resp;   /* the record from the response */
	struct ota_record *region; /* the record from the record region */
};

static irqreturn_t probe_mbox_irq(int irq, void *data)
{
	struct probe_dev *p = data;

	WRITE_ONCE(mbox_irqs, READ_ONCE(mbox_irqs) + 1);
	complete(&p->mbox_done);
	return IRQ_HANDLED;
}

static irqreturn_t probe_event_irq(int irq, void *data)
{
	WRITE_ONCE(event_irqs, READ_ONCE(event_irqs) + 1);
	return IRQ_HANDLED;
}

static __printf(3, 4) int probe_fail(struct probe_dev *p, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = scnprintf(result, sizeof(result), "fail: ");
	va_start(ap, fmt);
	vscnprintf(result + n, sizeof(result) - n, fmt, ap);
	va_end(ap);
	dev_err(&p->pdev->dev, "%s\n", result);
	return err;
}

static const char *status_text(u32 st)
{
	const char *s = ota_status_message(st);

	return s ? s : "unknown status";
}

/*
 * Copy the info block. It is a seqlock around event_counter: a copy taken
 * between two equal, even reads of the counter is consistent.
 */
static ota_status_t probe_read_info(struct probe_dev *p)
{
	void __iomem *counter = p->shm + offsetof(struct ota_shm_info, event_counter);
	unsigned int tries;
	u32 c;

	for (tries = 0; tries < 16; tries++) {
		c = readl(counter);
		if (!(c & 1u)) {
			rmb(); /* the counter before the contents */
			memcpy_fromio(&p->info, p->shm, sizeof(p->info));
			rmb(); /* the contents before the second read */
			if (readl(counter) == c)
				return OTA_OK;
		}
		usleep_range(20, 100);
	}
	return OTA_DRIVER_INFO_TORN;
}

/*
 * Wait until the info block is valid and the device has finished booting:
 * "ready", or "failed" (a blank device fails its cold boot, and still
 * serves GET_RECORD with a record saying why).
 */
static int probe_wait_settled(struct probe_dev *p)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(ready_timeout_ms);
	ota_status_t st;

	for (;;) {
		st = probe_read_info(p);
		if (st == OTA_OK)
			st = ota_shm_info_validate(&p->info, (u32)p->shm_len);
		if (st == OTA_OK && (p->info.device_state == OTA_DEV_READY ||
				     p->info.device_state == OTA_DEV_FAILED))
			return 0;
		if (time_after(jiffies, deadline))
			break;
		msleep(10);
	}
	if (st != OTA_OK)
		return probe_fail(p, -ENODEV, "info block invalid after %u ms: %s (magic %#x, abi %u.%u)",
				  ready_timeout_ms, status_text(st), p->info.magic,
				  p->info.abi_major, p->info.abi_minor);
	return probe_fail(p, -ETIMEDOUT, "device still %s after %u ms (detail %#x)",
			  ota_device_state_name(p->info.device_state), ready_timeout_ms,
			  p->info.state_detail);
}

/*
 * Copy the record region under its seqlock: an odd or changed generation
 * means the device was writing, so retry (bounded).
 */
static int probe_read_region(struct probe_dev *p, u32 *len)
{
	void __iomem *rec = p->shm + p->info.record_offset;
	struct ota_shm_record h;
	u32 gen2;
	int tries;

	for (tries = 0; tries < 16; tries++) {
		memcpy_fromio(&h, rec, sizeof(h));
		rmb();
		if (h.generation & 1u)
			goto retry;
		if (h.length > sizeof(*p->region) ||
		    h.length > p->info.record_size - sizeof(h))
			return probe_fail(p, -EPROTO, "record region length %u out of bounds", h.length);
		memcpy_fromio(p->region, rec + sizeof(h), h.length);
		rmb();
		gen2 = readl(rec + offsetof(struct ota_shm_record, generation));
		if (gen2 == h.generation) {
			*len = h.length;
			region_generation = h.generation;
			return 0;
		}
retry:
		usleep_range(100, 200);
	}
	return probe_fail(p, -EBUSY, "record region kept changing while read");
}

/* One GET_RECORD round trip, checked end to end. */
static int probe_round_trip(struct probe_dev *p, u64 *rtt)
{
	void __iomem *req = p->shm + p->info.request_offset;
	void __iomem *rsp = p->shm + p->info.response_offset;
	struct ota_mbox_header h = { 0 };
	unsigned long left;
	ota_status_t st;
	u32 region_len;
	u64 t0;
	int err;

	p->seq = p->seq + 1 ? p->seq + 1 : 1; /* never 0 */
	h.seq = p->seq;
	h.command = OTA_CMD_GET_RECORD;
	reinit_completion(&p->mbox_done);
	memcpy_toio(req, &h, sizeof(h));
	wmb(); /* the request is in shared memory before the doorbell rings */
	t0 = ktime_get_ns();
	writel((OTA_SHM_DEVICE_PEER_ID << 16) | OTA_VEC_MAILBOX, p->regs + OTA_IVSHMEM_DOORBELL);

	left = wait_for_completion_timeout(&p->mbox_done, msecs_to_jiffies(timeout_ms));
	*rtt = ktime_get_ns() - t0;
	if (!left)
		return probe_fail(p, -ETIMEDOUT, "no mailbox interrupt within %u ms (seq %u)",
				  timeout_ms, h.seq);

	memcpy_fromio(&h, rsp, sizeof(h));
	if (h.seq != p->seq)
		return probe_fail(p, -EPROTO, "response sequence %u, expected %u", h.seq, p->seq);
	if (h.command != OTA_CMD_GET_RECORD)
		return probe_fail(p, -EPROTO, "response command %u, expected GET_RECORD", h.command);
	if (h.status != OTA_OK)
		return probe_fail(p, -EIO, "GET_RECORD failed: %#x %s", h.status, status_text(h.status));
	if (h.length > sizeof(*p->resp) || h.length > p->info.response_size - sizeof(h))
		return probe_fail(p, -EPROTO, "response length %u out of bounds", h.length);
	memset(p->resp, 0, sizeof(*p->resp));
	memcpy_fromio(p->resp, rsp + sizeof(h), h.length);
	record_length = h.length;

	st = ota_record_validate(p->resp, h.length);
	if (st != OTA_OK)
		return probe_fail(p, -EBADMSG, "record in the response is invalid: %s", status_text(st));
	if (p->resp->hdr.magic != OTA_RECORD_MAGIC) /* validate checks it; say it here too */
		return probe_fail(p, -EBADMSG, "record magic %#x", p->resp->hdr.magic);
	boot_status = p->resp->hdr.boot_status;
	strscpy(boot_status_name, ota_status_name(boot_status) ?: "", sizeof(boot_status_name));
	record_generation = p->resp->hdr.generation;
	record_stages = p->resp->hdr.stage_count;

	err = probe_read_region(p, &region_len);
	if (err)
		return err;
	if (region_len != h.length || memcmp(p->region, p->resp, h.length))
		return probe_fail(p, -EPROTO, "GET_RECORD answer differs from the record region (%u vs %u bytes)",
				  h.length, region_len);
	return 0;
}

static int probe_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct probe_dev *p;
	u64 rtt, sum = 0;
	unsigned int i;
	int err, nvec;

	p = devm_kzalloc(&pdev->dev, sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->pdev = pdev;
	init_completion(&p->mbox_done);
	p->resp = devm_kzalloc(&pdev->dev, sizeof(*p->resp), GFP_KERNEL);
	p->region = devm_kzalloc(&pdev->dev, sizeof(*p->region), GFP_KERNEL);
	if (!p->resp || !p->region)
		return -ENOMEM;
	if (rounds < 1 || rounds > 1000)
		return probe_fail(p, -EINVAL, "rounds=%u is not in 1..1000", rounds);

	err = pcim_enable_device(pdev);
	if (err)
		return probe_fail(p, err, "cannot enable the PCI device (%d)", err);
	err = pcim_iomap_regions(pdev, BIT(0) | BIT(2), DRV_NAME);
	if (err)
		return probe_fail(p, err, "cannot map BAR0 and BAR2 (%d)", err);
	p->regs = pcim_iomap_table(pdev)[0];
	p->shm = pcim_iomap_table(pdev)[2];
	p->shm_len = pci_resource_len(pdev, 2);
	if (p->shm_len < sizeof(struct ota_shm_info) || p->shm_len > U32_MAX)
		return probe_fail(p, -ENODEV, "BAR2 is %pa bytes", &p->shm_len);

	/* Without bus mastering the MSI-X writes never reach the guest. */
	pci_set_master(pdev);
	nvec = pci_alloc_irq_vectors(pdev, OTA_VEC_COUNT, OTA_VEC_COUNT, PCI_IRQ_MSIX);
	if (nvec < 0)
		return probe_fail(p, nvec, "no %u MSI-X vectors (%d)", OTA_VEC_COUNT, nvec);
	err = request_irq(pci_irq_vector(pdev, OTA_VEC_MAILBOX), probe_mbox_irq, 0,
			  DRV_NAME "-mbox", p);
	if (err) {
		probe_fail(p, err, "cannot request the mailbox interrupt (%d)", err);
		goto free_vectors;
	}
	err = request_irq(pci_irq_vector(pdev, OTA_VEC_EVENT), probe_event_irq, 0,
			  DRV_NAME "-event", p);
	if (err) {
		probe_fail(p, err, "cannot request the event interrupt (%d)", err);
		goto free_mbox;
	}
	pci_set_drvdata(pdev, p);

	own_peer = readl(p->regs + OTA_IVSHMEM_IV_POSITION);
	err = probe_wait_settled(p);
	if (err)
		goto free_event;
	device_peer = OTA_SHM_DEVICE_PEER_ID;
	strscpy(device_state, ota_device_state_name(p->info.device_state), sizeof(device_state));
	state_detail = p->info.state_detail;
	if (device_peer == own_peer) {
		err = probe_fail(p, -EPROTO, "we are peer %u, the device's (the server must reserve it)",
				 own_peer);
		goto free_event;
	}

	get_random_bytes(&p->seq, sizeof(p->seq));
	rtt_min_ns = ULONG_MAX;
	for (i = 0; i < rounds; i++) {
		err = probe_round_trip(p, &rtt);
		if (err)
			goto free_event;
		completed++;
		sum += rtt;
		rtt_min_ns = min_t(unsigned long, rtt_min_ns, rtt);
		rtt_max_ns = max_t(unsigned long, rtt_max_ns, rtt);
	}
	rtt_avg_ns = div_u64(sum, rounds);
	strscpy(result, "pass", sizeof(result));
	dev_info(&pdev->dev,
		 "pass: peer %u -> device peer %u, state %s, record generation %u, %u stages, %u bytes; %u round trips, rtt min/avg/max %lu/%lu/%lu us\n",
		 own_peer, device_peer, ota_device_state_name(p->info.device_state),
		 record_generation, record_stages, record_length, rounds, rtt_min_ns / 1000, rtt_avg_ns / 1000,
		 rtt_max_ns / 1000);
	return 0;

free_event:
	free_irq(pci_irq_vector(pdev, OTA_VEC_EVENT), p);
free_mbox:
	free_irq(pci_irq_vector(pdev, OTA_VEC_MAILBOX), p);
free_vectors:
	pci_free_irq_vectors(pdev);
	return err;
}

static void probe_remove(struct pci_dev *pdev)
{
	struct probe_dev *p = pci_get_drvdata(pdev);

	free_irq(pci_irq_vector(pdev, OTA_VEC_EVENT), p);
	free_irq(pci_irq_vector(pdev, OTA_VEC_MAILBOX), p);
	pci_free_irq_vectors(pdev);
}

static const struct pci_device_id probe_ids[] = {
	{ PCI_DEVICE(OTA_PCI_VENDOR, OTA_PCI_DEVICE) },
	{ 0 }
};

static struct pci_driver probe_driver = {
	.name = DRV_NAME,
	.id_table = probe_ids,
	.probe = probe_probe,
	.remove = probe_remove,
};
module_pci_driver(probe_driver);

MODULE_DESCRIPTION("otattest e2e: test-only probe of the device model over ivshmem-doorbell");
MODULE_LICENSE("Dual MIT/GPL");
