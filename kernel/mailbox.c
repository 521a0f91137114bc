// SPDX-License-Identifier: GPL-2.0
/*
 * The mailbox: one request in flight, answered by the device through the
 * response region and the OTA_VEC_MAILBOX interrupt (protocol in
 * otattest/shm.h).
 *
 * What the driver relies on, and nothing more: the response header's
 * sequence number tells which request an answer belongs to. An answer
 * for another sequence is stale (the device finishing a request that
 * timed out) and is ignored; every wait is bounded by timeout_ms because
 * a doorbell to a peer that is gone vanishes without an error.
 *
 * What each command sends and may get back comes from the one command
 * table (otattest/mailbox.h): a request of another length never leaves
 * the driver, and an answer longer than the command's bound is refused
 * whatever buffer the caller offered.
 */
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/ratelimit.h>

#include "otattest.h"
#include "parse.h"

#define OTA_RESP_SEQ offsetof(struct ota_mbox_header, seq)

void otattest_mbox_init(struct otattest_device *od, u32 last_answered_seq)
{
	mutex_init(&od->mbox_lock);
	init_waitqueue_head(&od->mbox_wq);
	od->mbox_seq = last_answered_seq;
}

/* Hard IRQ: an answer arrived; the waiter checks whose it is. */
void otattest_mbox_irq(struct otattest_device *od)
{
	if (READ_ONCE(od->mbox_awaited))
		wake_up(&od->mbox_wq);
}

/*
 * Called by remove with od->gone already set: wake the waiter, then wait
 * until it has left the mailbox, so no request touches the BARs after
 * remove returns.
 */
void otattest_mbox_shutdown(struct otattest_device *od)
{
	wake_up_all(&od->mbox_wq);
	mutex_lock(&od->mbox_lock);
	mutex_unlock(&od->mbox_lock);
}

static u32 otattest_mbox_next_seq(struct otattest_device *od, void __iomem *resp)
{
	u32 answered = readl(resp + OTA_RESP_SEQ);
	u32 seq = od->mbox_seq;

	/* Never 0, never what the response region already holds. */
	do
		seq++;
	while (!seq || seq == answered);
	od->mbox_seq = seq;
	return seq;
}

/* May the driver talk to the device at all? Fills the peer to ring. */
static ota_status_t otattest_mbox_precheck(struct otattest_device *od, u32 *peer)
{
	ota_status_t st = OTA_OK;

	mutex_lock(&od->state_lock);
	if (od->snap.state == OTATTEST_STATE_INFO_INVALID)
		st = od->snap.state_detail; /* offsets and peer id are not trusted */
	else if (od->snap.state == OTA_DEV_OFF)
		st = OTA_DRIVER_DEVICE_OFF;
	/* Validated to fit the doorbell register by the refresh that stored it. */
	*peer = od->snap.info.device_peer_id;
	mutex_unlock(&od->state_lock);
	return st;
}

static bool otattest_mbox_answered(struct otattest_device *od, void __iomem *resp, u32 seq)
{
	return READ_ONCE(od->gone) || readl(resp + OTA_RESP_SEQ) == seq;
}

static ota_status_t otattest_mbox_read_response(struct otattest_device *od, void __iomem *resp,
						u32 seq, u32 command, void *buf, u32 cap,
						u32 *len)
{
	struct ota_mbox_header h;
	ota_status_t st;

	rmb(); /* the sequence number before the rest of the answer */
	memcpy_fromio(&h, resp, sizeof(h));
	st = otattest_response_check(&h, seq, command, od->layout.response_size, cap);
	switch (st) {
	case OTA_OK:
		break;
	case OTA_HOST_PROTOCOL:
		dev_warn_ratelimited(&od->dev,
				     "answer to request %u (%s) claims request %u, command %u\n",
				     seq, ota_mbox_command_name(command), h.seq, h.command);
		return st;
	case OTA_DRIVER_RESPONSE_OVERSIZE:
		dev_warn_ratelimited(&od->dev,
				     "%s: %u-byte response, region %u bytes, at most %u expected\n",
				     ota_mbox_command_name(command), h.length,
				     od->layout.response_size, cap);
		return st;
	case OTA_DRIVER_UNKNOWN_STATUS:
		dev_warn_ratelimited(&od->dev, "%s failed with unknown status %#010x\n",
				     ota_mbox_command_name(command), h.status);
		return st;
	default:
		return st; /* the device's refusal */
	}
	memcpy_fromio(buf, resp + sizeof(h), h.length);
	/* The device zeroes seq before writing another answer over this one. */
	rmb();
	if (readl(resp + OTA_RESP_SEQ) != seq) {
		dev_warn_ratelimited(&od->dev, "answer to request %u changed while being read\n", seq);
		return OTA_HOST_PROTOCOL;
	}
	*len = h.length;
	return OTA_OK;
}

/*
 * Send one request and wait for its answer. Returns OTA_OK with *resp_len
 * bytes in resp, the device's (known) failure status, OTA_HOST_TIMEOUT,
 * OTA_HOST_NO_DEVICE when the device is removed meanwhile, or why the
 * answer was refused. OTA_HOST_BAD_ARGUMENT, before anything is sent,
 * for a command not in the table or a request not of its length. At most
 * the command's response bound is accepted, however large resp_cap is.
 * Sleeps; at most timeout_ms plus the time to get the mailbox.
 */
ota_status_t otattest_mbox_call(struct otattest_device *od, u32 command, const void *req,
				u32 req_len, void *resp, u32 resp_cap, u32 *resp_len)
{
	const struct ota_mbox_command_desc *desc = ota_mbox_command(command);
	unsigned long left = msecs_to_jiffies(READ_ONCE(otattest_timeout_ms));
	void __iomem *rq, *rs;
	ota_status_t st;
	u32 seq, peer;

	if (!desc || req_len != desc->request_len)
		return OTA_HOST_BAD_ARGUMENT;
	resp_cap = min(resp_cap, desc->response_max);

	mutex_lock(&od->mbox_lock);
	if (READ_ONCE(od->gone)) {
		mutex_unlock(&od->mbox_lock);
		return OTA_HOST_NO_DEVICE;
	}
	if (req_len > od->layout.request_size - sizeof(struct ota_mbox_header)) {
		mutex_unlock(&od->mbox_lock);
		return OTA_HOST_BAD_ARGUMENT;
	}
	st = otattest_mbox_precheck(od, &peer);
	if (st != OTA_OK) {
		mutex_unlock(&od->mbox_lock);
		return st;
	}
	rq = od->shm + od->layout.request_offset;
	rs = od->shm + od->layout.response_offset;
	seq = otattest_mbox_next_seq(od, rs);

	/* Payload, then header with the sequence number last, then doorbell. */
	if (req_len)
		memcpy_toio(rq + sizeof(struct ota_mbox_header), req, req_len);
	wmb();
	writel(command, rq + offsetof(struct ota_mbox_header, command));
	writel(req_len, rq + offsetof(struct ota_mbox_header, length));
	writel(0, rq + offsetof(struct ota_mbox_header, status));
	wmb();
	writel(seq, rq + offsetof(struct ota_mbox_header, seq));
	WRITE_ONCE(od->mbox_awaited, seq);
	wmb();
	writel(peer << 16 | OTA_VEC_MAILBOX, od->regs + OTA_IVSHMEM_DOORBELL);

	/*
	 * Stale answers wake us too; the condition sends us back to sleep
	 * for whatever is left of the timeout.
	 */
	left = wait_event_timeout(od->mbox_wq, otattest_mbox_answered(od, rs, seq), left);
	if (READ_ONCE(od->gone))
		st = OTA_HOST_NO_DEVICE;
	else if (!left && readl(rs + OTA_RESP_SEQ) != seq)
		st = OTA_HOST_TIMEOUT;
	else
		st = otattest_mbox_read_response(od, rs, seq, command, resp, resp_cap, resp_len);
	WRITE_ONCE(od->mbox_awaited, 0);
	if (st == OTA_HOST_TIMEOUT) {
		dev_warn_ratelimited(&od->dev, "%s (command %u, request %u): no answer in %u ms\n",
				     desc->name, command, seq, READ_ONCE(otattest_timeout_ms));
	}
	mutex_unlock(&od->mbox_lock);

	if (st != OTA_HOST_NO_DEVICE)
		otattest_set_unresponsive(od, st == OTA_HOST_TIMEOUT);
	return st;
}
