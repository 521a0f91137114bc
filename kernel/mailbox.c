// SPDX-License-Identifier: GPL-2.0
/*
 * The mailbox: the transport to the device, one request in flight,
 * answered through the response region and the OTA_VEC_MAILBOX interrupt
 * (protocol in otattest/shm.h).
 *
 * Who goes next. The device serves one request at a time, so requests
 * queue for the mailbox in two FIFO lanes: privileged requests (rotation,
 * update reset) are granted it before any waiting reader, so they wait
 * at most for the one request the device is serving. Each lane holds at
 * most OTATTEST_LANE_MAX requests and one caller (an effective uid) at
 * most caller_queue of them, counting the one being served: a caller that
 * floods gets HOST_QUEUE_FULL at once instead of pushing everyone else
 * back. Every wait is killable: a caller killed while it waits leaves the
 * queue; one killed after its request was rung leaves at once too, but
 * the request stays in flight ("orphaned") until the device answers it or
 * its deadline passes, and nothing else is sent meanwhile: the device
 * would refuse it, and its late answer could not be told apart.
 *
 * Liveness. A request that gets no answer in timeout_ms makes the device
 * unresponsive; while it is, nothing queues: a request is sent only when
 * the mailbox is idle (it probes the device), every other one fails at
 * once with DRIVER_UNRESPONSIVE instead of waiting timeout_ms in turn. An
 * answer, or the device's event counter moving (state.c), ends it. The
 * verdict is reported to state.c, which shows and publishes it; nothing
 * here publishes.
 *
 * What the driver relies on in an answer, and nothing more: the response
 * header's sequence number tells which request it belongs to. An answer
 * for another sequence is stale and ignored; every wait is bounded
 * because a doorbell to a peer that is gone vanishes without an error.
 * What each command sends and may get back comes from the one command
 * table (otattest/mailbox.h).
 */
#include <linux/cred.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/ratelimit.h>
#include <linux/sched/signal.h>

#include "otattest.h"
#include "parse.h"

#define OTA_RESP_SEQ offsetof(struct ota_mbox_header, seq)

/* A request waiting for the mailbox; lives on its sender's stack. */
struct otattest_mbox_waiter {
	struct list_head node; /* in its lane's queue until granted */
	kuid_t caller;
	enum otattest_lane lane;
	bool granted;
};

void otattest_mbox_init(struct otattest_device *od, u32 last_answered_seq)
{
	unsigned int l;

	init_waitqueue_head(&od->mbox_wq);
	for (l = 0; l < OTATTEST_LANES; l++)
		INIT_LIST_HEAD(&od->mbox_queue[l]);
	od->mbox_seq = last_answered_seq;
}

/* Hard IRQ: an answer arrived; the waiters check whose it is. */
void otattest_mbox_irq(struct otattest_device *od)
{
	if (READ_ONCE(od->mbox_awaited))
		wake_up_all(&od->mbox_wq);
}

bool otattest_mbox_unresponsive(struct otattest_device *od)
{
	bool ret;

	spin_lock(&od->lock);
	ret = od->mbox_unresponsive;
	spin_unlock(&od->lock);
	return ret;
}

void otattest_mbox_device_moved(struct otattest_device *od)
{
	spin_lock(&od->lock);
	od->mbox_unresponsive = false;
	spin_unlock(&od->lock);
}

/*
 * Called by remove with od->gone already set: wake every waiter (they
 * return HOST_NO_DEVICE), then wait until the request holding the mailbox
 * has let go, so nothing touches the BARs after remove returns. Waiters
 * that never held it read BAR2 only under od->lock after checking gone.
 */
void otattest_mbox_shutdown(struct otattest_device *od)
{
	wake_up_all(&od->mbox_wq);
	wait_event(od->mbox_wq, ({
		bool idle;

		spin_lock(&od->lock);
		idle = !od->mbox_busy;
		spin_unlock(&od->lock);
		idle;
	}));
}

/*
 * With od->lock held: is the orphaned request in flight over (answered,
 * or past its deadline)? BAR2 is read only while !gone, under the lock
 * remove sets gone under.
 */
static bool otattest_mbox_orphan_over(struct otattest_device *od, bool *answered)
{
	void __iomem *rs = od->shm + od->layout.response_offset;

	*answered = !od->gone && readl(rs + OTA_RESP_SEQ) == od->mbox_awaited;
	return *answered || od->gone || time_after_eq(jiffies, od->mbox_deadline);
}

/* With od->lock held: w holds the mailbox from now on. */
static void otattest_mbox_grant(struct otattest_device *od, struct otattest_mbox_waiter *w)
{
	w->granted = true;
	od->mbox_busy = true;
	od->mbox_holder = w->caller;
	od->mbox_holder_lane = w->lane;
}

/*
 * With od->lock held: settle an orphan that is over, then hand the
 * mailbox to the next waiter, privileged lane first, if it is free and
 * the device is not silent. Returns true when the liveness verdict
 * changed: the caller reports it after dropping the lock.
 */
static bool otattest_mbox_dispatch(struct otattest_device *od)
{
	struct otattest_mbox_waiter *w = NULL;
	bool answered, changed = false;
	unsigned int l;

	if (od->mbox_busy)
		return false;
	if (od->mbox_orphan) {
		if (!otattest_mbox_orphan_over(od, &answered))
			return false;
		od->mbox_orphan = false;
		WRITE_ONCE(od->mbox_awaited, 0);
		od->mbox_queued[od->mbox_holder_lane]--;
		if (!od->gone) {
			changed = od->mbox_unresponsive == answered;
			od->mbox_unresponsive = !answered;
		}
	}
	if (od->mbox_unresponsive)
		return changed;
	for (l = OTATTEST_LANES; l-- > 0 && !w;)
		w = list_first_entry_or_null(&od->mbox_queue[l], struct otattest_mbox_waiter, node);
	if (w) {
		list_del_init(&w->node);
		otattest_mbox_grant(od, w);
	}
	return changed;
}

/* Requests of one caller in a lane: waiting, or holding or orphaning the mailbox. */
static unsigned int otattest_mbox_caller_count(struct otattest_device *od, enum otattest_lane lane,
					       kuid_t caller)
{
	struct otattest_mbox_waiter *w;
	unsigned int n = 0;

	list_for_each_entry(w, &od->mbox_queue[lane], node)
		n += uid_eq(w->caller, caller);
	if ((od->mbox_busy || od->mbox_orphan) && od->mbox_holder_lane == lane &&
	    uid_eq(od->mbox_holder, caller))
		n++;
	return n;
}

/*
 * Join w's lane, or, while the device is silent, take the idle mailbox
 * to probe it. OTA_OK when queued or granted; otherwise why not: the
 * device is gone, the lane or the caller's share of it is full, or the
 * device is silent and the mailbox is not idle.
 */
static ota_status_t otattest_mbox_enqueue(struct otattest_device *od, struct otattest_mbox_waiter *w)
{
	ota_status_t st = OTA_OK;
	bool changed = false;

	spin_lock(&od->lock);
	if (od->gone) {
		st = OTA_HOST_NO_DEVICE;
	} else if (od->mbox_queued[w->lane] >= OTATTEST_LANE_MAX ||
		   otattest_mbox_caller_count(od, w->lane, w->caller) >=
			   READ_ONCE(otattest_caller_queue)) {
		st = OTA_HOST_QUEUE_FULL;
	} else {
		/* An orphan that is over frees the mailbox before the verdict. */
		changed = otattest_mbox_dispatch(od);
		if (!od->mbox_unresponsive) {
			list_add_tail(&w->node, &od->mbox_queue[w->lane]);
			od->mbox_queued[w->lane]++;
			otattest_mbox_dispatch(od);
		} else if (od->mbox_busy || od->mbox_orphan ||
			   od->mbox_queued[OTATTEST_LANE_READER] ||
			   od->mbox_queued[OTATTEST_LANE_PRIVILEGED]) {
			st = OTA_DRIVER_UNRESPONSIVE;
		} else {
			od->mbox_queued[w->lane]++;
			otattest_mbox_grant(od, w);
		}
	}
	spin_unlock(&od->lock);
	if (changed)
		otattest_state_liveness_changed(od);
	return st;
}

/*
 * Wait-condition helper: granted, gone, or the device fell silent (then
 * nothing waits behind it). Also settles an orphan whose answer came.
 */
static bool otattest_mbox_may_proceed(struct otattest_device *od, struct otattest_mbox_waiter *w,
				      bool *changed)
{
	bool ret;

	spin_lock(&od->lock);
	*changed |= otattest_mbox_dispatch(od);
	ret = w->granted || od->gone || od->mbox_unresponsive;
	spin_unlock(&od->lock);
	return ret;
}

/* How long to sleep before looking again: an orphan's deadline wakes nobody. */
static long otattest_mbox_recheck(struct otattest_device *od)
{
	long left = msecs_to_jiffies(READ_ONCE(otattest_timeout_ms));

	spin_lock(&od->lock);
	if (od->mbox_orphan)
		left = time_after(od->mbox_deadline, jiffies) ? (long)(od->mbox_deadline - jiffies) + 1 : 1;
	spin_unlock(&od->lock);
	return left;
}

/*
 * Wait, killably, until w holds the mailbox. OTA_OK when it does;
 * HOST_NO_DEVICE when the device went away; DRIVER_UNRESPONSIVE when the
 * device fell silent meanwhile (nothing queues behind a silent device).
 * *killed when the caller was killed; then w is out of every queue.
 */
static ota_status_t otattest_mbox_wait_grant(struct otattest_device *od,
					     struct otattest_mbox_waiter *w, bool *killed)
{
	ota_status_t st;
	bool changed = false;
	long left;

	while (!otattest_mbox_may_proceed(od, w, &changed)) {
		left = wait_event_killable_timeout(od->mbox_wq,
						   otattest_mbox_may_proceed(od, w, &changed),
						   otattest_mbox_recheck(od));
		if (left < 0) {
			*killed = true;
			break;
		}
	}
	spin_lock(&od->lock);
	if (w->granted && !*killed && !od->gone) {
		st = OTA_OK;
	} else {
		if (w->granted) {
			/* Granted as it was killed or the device left: pass it on. */
			od->mbox_busy = false;
			changed |= otattest_mbox_dispatch(od);
		} else {
			list_del(&w->node);
		}
		od->mbox_queued[w->lane]--;
		st = od->gone ? OTA_HOST_NO_DEVICE : OTA_DRIVER_UNRESPONSIVE;
	}
	spin_unlock(&od->lock);
	if (st != OTA_OK)
		wake_up_all(&od->mbox_wq);
	if (changed)
		otattest_state_liveness_changed(od);
	return st;
}

/*
 * Let go of the mailbox after the request's answer, timeout, or the
 * device's departure. With orphan (the sender was killed after ringing)
 * the request stays tracked until the device answers it or it times out.
 */
static void otattest_mbox_release(struct otattest_device *od, struct otattest_mbox_waiter *w,
				  bool orphan, bool answered, bool timed_out)
{
	bool changed = false;

	spin_lock(&od->lock);
	od->mbox_busy = false;
	if (orphan && !od->gone) {
		od->mbox_orphan = true;
	} else {
		WRITE_ONCE(od->mbox_awaited, 0);
		od->mbox_queued[w->lane]--;
		if (answered || timed_out) {
			changed = od->mbox_unresponsive != timed_out;
			od->mbox_unresponsive = timed_out;
		}
	}
	changed |= otattest_mbox_dispatch(od);
	spin_unlock(&od->lock);
	wake_up_all(&od->mbox_wq);
	if (changed)
		otattest_state_liveness_changed(od);
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

/*
 * May the driver talk to the device at all? Re-reads the info block: a
 * device (or anyone writing its memory) that broke it since the last
 * refresh is not rung. The verdict goes to state.c through a refresh.
 */
static ota_status_t otattest_mbox_precheck(struct otattest_device *od)
{
	struct ota_shm_info info;
	ota_status_t st;
	u32 state;

	st = otattest_shm_read_info(od, &info);
	if (st == OTA_OK)
		st = otattest_shm_check_layout(od, &info);
	if (st != OTA_OK) {
		otattest_state_kick(od);
		return st;
	}
	mutex_lock(&od->state_lock);
	state = od->snap.state;
	mutex_unlock(&od->state_lock);
	return state == OTA_DEV_OFF ? OTA_DRIVER_DEVICE_OFF : OTA_OK;
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

/* Write the request, sequence number last, and ring the device. */
static u32 otattest_mbox_send(struct otattest_device *od, u32 command, const void *req,
			      u32 req_len)
{
	void __iomem *rq = od->shm + od->layout.request_offset;
	void __iomem *rs = od->shm + od->layout.response_offset;
	u32 seq = otattest_mbox_next_seq(od, rs);

	if (req_len)
		memcpy_toio(rq + sizeof(struct ota_mbox_header), req, req_len);
	wmb();
	writel(command, rq + offsetof(struct ota_mbox_header, command));
	writel(req_len, rq + offsetof(struct ota_mbox_header, length));
	writel(0, rq + offsetof(struct ota_mbox_header, status));
	wmb();
	writel(seq, rq + offsetof(struct ota_mbox_header, seq));
	spin_lock(&od->lock);
	od->mbox_deadline = jiffies + msecs_to_jiffies(READ_ONCE(otattest_timeout_ms));
	WRITE_ONCE(od->mbox_awaited, seq);
	spin_unlock(&od->lock);
	wmb();
	writel(OTA_SHM_DEVICE_PEER_ID << 16 | OTA_VEC_MAILBOX, od->regs + OTA_IVSHMEM_DOORBELL);
	return seq;
}

/*
 * Send one request in `lane` and wait for its answer. Returns OTA_OK with
 * *resp_len bytes in resp, the device's (known) failure status,
 * HOST_TIMEOUT, HOST_NO_DEVICE when the device is removed meanwhile,
 * HOST_QUEUE_FULL when the caller or the lane has too many requests,
 * DRIVER_UNRESPONSIVE while the device is silent and the mailbox is not
 * idle, HOST_INTERRUPTED when the caller was killed (its request, if sent,
 * stays tracked), or why the answer was refused. HOST_BAD_ARGUMENT, before anything is sent, for a command not in
 * the table or a request not of its length. At most the command's response
 * bound is accepted, however large resp_cap is. Sleeps killably.
 */
ota_status_t otattest_mbox_call(struct otattest_device *od, enum otattest_lane lane, u32 command,
				const void *req, u32 req_len, void *resp, u32 resp_cap,
				u32 *resp_len)
{
	const struct ota_mbox_command_desc *desc = ota_mbox_command(command);
	void __iomem *rs = od->shm + od->layout.response_offset;
	struct otattest_mbox_waiter w = { .caller = current_euid(), .lane = lane };
	bool killed = false, answered = false;
	ota_status_t st;
	long left;
	u32 seq;

	if (!desc || req_len != desc->request_len ||
	    req_len > od->layout.request_size - sizeof(struct ota_mbox_header))
		return OTA_HOST_BAD_ARGUMENT;
	resp_cap = min(resp_cap, desc->response_max);
	INIT_LIST_HEAD(&w.node);

	st = otattest_mbox_enqueue(od, &w);
	if (st != OTA_OK)
		return st;
	st = otattest_mbox_wait_grant(od, &w, &killed);
	if (killed)
		return OTA_HOST_INTERRUPTED;
	if (st != OTA_OK)
		return st;
	st = otattest_mbox_precheck(od);
	if (st != OTA_OK) {
		otattest_mbox_release(od, &w, false, false, false);
		return st;
	}
	seq = otattest_mbox_send(od, command, req, req_len);

	/* Stale answers wake us too; the condition sends us back to sleep. */
	left = wait_event_killable_timeout(od->mbox_wq, otattest_mbox_answered(od, rs, seq),
					   msecs_to_jiffies(READ_ONCE(otattest_timeout_ms)));
	if (READ_ONCE(od->gone)) {
		st = OTA_HOST_NO_DEVICE;
	} else if (left < 0) {
		/* Killed: the device still owes this request its answer. */
		otattest_mbox_release(od, &w, true, false, false);
		return OTA_HOST_INTERRUPTED;
	} else if (!left && readl(rs + OTA_RESP_SEQ) != seq) {
		st = OTA_HOST_TIMEOUT;
		dev_warn_ratelimited(&od->dev, "%s (command %u, request %u): no answer in %u ms\n",
				     desc->name, command, seq, READ_ONCE(otattest_timeout_ms));
	} else {
		answered = true;
		st = otattest_mbox_read_response(od, rs, seq, command, resp, resp_cap, resp_len);
	}
	otattest_mbox_release(od, &w, false, answered, st == OTA_HOST_TIMEOUT);
	return st;
}
