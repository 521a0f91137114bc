// SPDX-License-Identifier: GPL-2.0
/*
 * The state userspace sees, and telling it about changes.
 *
 * A refresh reads the info block and the record (shm.c), decides what
 * state to show, swaps the result into the snapshot sysfs and netlink
 * read, and publishes what changed since it last published: sysfs_notify
 * on "generation" and "state", a KOBJ_CHANGE uevent, and the netlink
 * "events" multicast.
 *
 * Refreshes run from the event interrupt (coalesced through delayed work,
 * so an interrupt storm costs at most one refresh per event_interval_ms),
 * when the mailbox reports that its verdict on liveness changed (the
 * snapshot shows it at once, the work publishes it), after a request that
 * changes the record (netlink.c), and by polling while the device is not
 * ready (its "I am back" doorbell may have rung before anyone was
 * listening). Reading the record through netlink or sysfs never reads
 * the device: it is the snapshot.
 *
 * The runtime's version. What BL0 says its code is (GET_INFO) is part of
 * the snapshot too. When the record's stages change - a boot of other
 * images (an update reset, a revert), or the first record - the version
 * read before may no longer be what runs: the snapshot forgets it with
 * the record that changed, and once the device is ready the version work
 * asks GET_INFO (reader lane), stores the answer and publishes it
 * (sysfs_notify on runtime_version, the runtime-changed event). It runs
 * apart from the refresh, so a runtime that never answers (a hung BL0)
 * delays no refresh and no reset command's reply; it just stays unknown,
 * and the request's timeout marks the device unresponsive as any other
 * request's would. A record change within a boot (an install, a dry run)
 * keeps the stages, and the version. Remove cancels the work (main.c).
 */
#include <linux/jiffies.h>
#include <linux/kobject.h>
#include <linux/ratelimit.h>
#include <linux/string.h>

#include "otattest.h"
#include "parse.h"

const char *otattest_state_name(u32 state)
{
	const char *name = otattest_driver_state_name(state);

	return name ? name : ota_device_state_name(state);
}

void otattest_state_init(struct otattest_device *od)
{
	mutex_init(&od->refresh_lock);
	mutex_init(&od->install_lock);
	mutex_init(&od->state_lock);
	INIT_DELAYED_WORK(&od->event_work, otattest_event_work);
	od->snap.state = OTA_DEV_OFF;
	od->snap.state_detail = OTA_DRIVER_NO_RECORD;
	od->snap.info_status = OTA_DRIVER_NO_RECORD;
	od->published_state = od->snap.state;
	od->published_detail = od->snap.state_detail;
	od->event_next = jiffies;
	od->version_stale = true;
	INIT_WORK(&od->version_work, otattest_version_work);
}

/* The same images booted: stage for stage the same attempts (refresh_lock, state_lock held). */
static bool otattest_same_stages(const struct ota_record *a, u32 a_len, const struct ota_record *b,
				 u32 b_len)
{
	/* Validated records: stage_count <= OTA_RECORD_MAX_STAGES. */
	return a_len && b_len && a->hdr.stage_count == b->hdr.stage_count &&
	       !memcmp(a->stage, b->stage, a->hdr.stage_count * sizeof(a->stage[0]));
}

/*
 * Ask the running BL0 its version (the version work; no lock held).
 * True with the answer in version, or "" for a refusal or a malformed
 * answer (the device answered: no use asking again until it boots
 * again); false after a failure on this side (timeout, the device silent
 * or gone, the lane full): the next refresh asks again.
 */
static bool otattest_ask_runtime_version(struct otattest_device *od,
					 char version[OTA_VERSION_STRING_BYTES + 1])
{
	struct ota_resp_info r;
	ota_status_t st;
	u32 len = 0;

	memset(version, 0, OTA_VERSION_STRING_BYTES + 1);
	st = otattest_mbox_call(od, OTATTEST_LANE_READER, OTA_CMD_GET_INFO, NULL, 0, &r, sizeof(r),
				&len);
	if (st == OTA_OK)
		st = otattest_info_check(&r, len);
	if (st != OTA_OK && otattest_status_is_host_only(st) && st != OTA_HOST_PROTOCOL)
		return false;
	if (st == OTA_OK)
		memcpy(version, r.runtime_version, OTA_VERSION_STRING_BYTES);
	else
		dev_warn_ratelimited(&od->dev, "runtime version unknown: %s (status %#010x)\n",
				     ota_status_message(st) ?: "unknown status", st);
	return true;
}

/* What the driver shows, worst news first; state_lock held. */
static void otattest_decide(struct otattest_device *od)
{
	struct otattest_snapshot *s = &od->snap;

	if (s->info_status != OTA_OK) {
		s->state = OTATTEST_STATE_INFO_INVALID;
		s->state_detail = s->info_status;
	} else if (s->record_status != OTA_OK && s->record_status != OTA_DRIVER_NO_RECORD) {
		s->state = OTATTEST_STATE_RECORD_INVALID;
		s->state_detail = s->record_status;
	} else if (otattest_mbox_unresponsive(od)) {
		s->state = OTATTEST_STATE_UNRESPONSIVE;
		s->state_detail = OTA_HOST_TIMEOUT;
	} else {
		s->state = s->info.device_state;
		s->state_detail = s->info.state_detail;
	}
}

/* Why a state is bad news worth a line in the log, or NULL. */
static const char *otattest_state_complaint(u32 state)
{
	switch (state) {
	case OTATTEST_STATE_INFO_INVALID:
		return "info block refused";
	case OTATTEST_STATE_RECORD_INVALID:
		return "boot record refused";
	case OTATTEST_STATE_UNRESPONSIVE:
		return "device stopped answering";
	}
	return NULL;
}

static void otattest_uevent(struct otattest_device *od, bool record_changed, bool state_changed)
{
	char ev_record[] = "OTATTEST_RECORD_CHANGED=1";
	char ev_state[] = "OTATTEST_STATE_CHANGED=1";
	char *envp[3];
	int n = 0;

	if (record_changed)
		envp[n++] = ev_record;
	if (state_changed)
		envp[n++] = ev_state;
	envp[n] = NULL;
	/* otattest_class.dev_uevent adds the current state and generation. */
	kobject_uevent_env(&od->dev.kobj, KOBJ_CHANGE, envp);
}

void otattest_refresh(struct otattest_device *od)
{
	ota_status_t info_st, rec_st = OTA_DRIVER_NO_RECORD;
	bool record_changed, state_changed, progress_changed, publish, version_changed = false;
	u32 len = 0, state, detail, new_stages, generation = 0;
	struct ota_shm_info info;
	const char *complaint;

	mutex_lock(&od->refresh_lock);
	if (READ_ONCE(od->gone))
		goto out;

	info_st = otattest_shm_read_info(od, &info);
	if (info_st == OTA_OK)
		info_st = otattest_shm_check_layout(od, &info);
	if (info_st == OTA_OK) {
		/* The device moved on: whatever silence the mailbox saw is over. */
		if (info.event_counter != od->last_event_counter)
			otattest_mbox_device_moved(od);
		od->last_event_counter = info.event_counter;
		rec_st = otattest_shm_read_record(od, &od->scratch, &len);
	}
	if (rec_st != OTA_OK)
		len = 0;

	mutex_lock(&od->state_lock);
	record_changed = len != od->snap.record_len ||
			 memcmp(&od->scratch, &od->snap.record, len);
	progress_changed = info_st == OTA_OK &&
			   (info.progress_done != od->snap.info.progress_done ||
			    info.progress_total != od->snap.info.progress_total);
	if (record_changed) {
		/* Other images booted (or none): what runs is unknown until it says. */
		if (!otattest_same_stages(&od->scratch, len, &od->snap.record, od->snap.record_len)) {
			version_changed = od->snap.runtime_version[0] != '\0';
			od->snap.runtime_version[0] = '\0';
			od->version_stale = true;
			od->version_epoch++;
		}
		memset(&od->snap.record, 0, sizeof(od->snap.record));
		memcpy(&od->snap.record, &od->scratch, len);
		od->snap.record_len = len;
	}
	if (info_st == OTA_OK)
		od->snap.info = info;
	od->snap.info_status = info_st;
	od->snap.record_status = rec_st;
	otattest_decide(od);
	state = od->snap.state;
	detail = od->snap.state_detail;
	new_stages = len ? od->snap.record.hdr.stage_count : 0;
	if (len)
		generation = od->snap.record.hdr.generation;
	mutex_unlock(&od->state_lock);

	WRITE_ONCE(od->stage_count_visible, new_stages);
	publish = od->registered;
	/* Against what was last published: a liveness report may have shown it already. */
	state_changed = state != od->published_state || detail != od->published_detail;
	od->published_state = state;
	od->published_detail = detail;

	complaint = otattest_state_complaint(state);
	if (state_changed && complaint)
		dev_warn_ratelimited(&od->dev, "%s: %s (status %#010x)\n", complaint,
				     ota_status_message(detail) ?: "unknown status", detail);
	else if (state_changed && publish)
		dev_dbg(&od->dev, "state %s, detail %#010x\n", otattest_state_name(state), detail);

	/* Ask the runtime once it can answer; the work publishes what it says. */
	if (od->version_stale && state == OTA_DEV_READY)
		queue_work(system_wq, &od->version_work);
	if (!publish)
		goto out;
	if (new_stages != od->stages_shown) {
		otattest_sysfs_update_stages(od);
		od->stages_shown = new_stages;
	}
	if (record_changed || state_changed)
		otattest_uevent(od, record_changed && len, state_changed);
	if (version_changed) {
		sysfs_notify(&od->dev.kobj, NULL, "runtime_version");
		otattest_genl_notify_runtime(od, "", generation);
	}
	if (record_changed && len) {
		sysfs_notify(&od->dev.kobj, NULL, "generation");
		otattest_genl_notify_record(od, generation);
	}
	if (state_changed) {
		sysfs_notify(&od->dev.kobj, NULL, "state");
		otattest_genl_notify_state(od, state, detail);
	}
	if (progress_changed && state == OTA_DEV_ROTATING)
		otattest_genl_notify_progress(od, info.progress_done, info.progress_total);
out:
	mutex_unlock(&od->refresh_lock);
}

/*
 * The version work: ask the running BL0 its version (a request like any
 * other, which may wait up to timeout_ms) and, unless other images booted
 * meanwhile (version_epoch moved) or the device went away, store and
 * publish the answer. A failure on this side leaves the version stale: the
 * next refresh that finds the device ready queues the work again.
 */
void otattest_version_work(struct work_struct *work)
{
	struct otattest_device *od = container_of(work, struct otattest_device, version_work);
	char version[OTA_VERSION_STRING_BYTES + 1];
	bool known, changed = false;
	u32 epoch, generation = 0;

	mutex_lock(&od->refresh_lock);
	epoch = od->version_epoch;
	if (READ_ONCE(od->gone) || !od->version_stale) {
		mutex_unlock(&od->refresh_lock);
		return;
	}
	mutex_unlock(&od->refresh_lock);

	known = otattest_ask_runtime_version(od, version);

	mutex_lock(&od->refresh_lock);
	if (known && !READ_ONCE(od->gone) && epoch == od->version_epoch) {
		od->version_stale = false;
		mutex_lock(&od->state_lock);
		changed = strcmp(version, od->snap.runtime_version) != 0;
		memcpy(od->snap.runtime_version, version, sizeof(version));
		if (od->snap.record_len)
			generation = od->snap.record.hdr.generation;
		mutex_unlock(&od->state_lock);
	}
	if (changed && od->registered) {
		sysfs_notify(&od->dev.kobj, NULL, "runtime_version");
		otattest_genl_notify_runtime(od, version, generation);
	}
	mutex_unlock(&od->refresh_lock);
}

/*
 * Hard IRQ: the device says the record or its state changed. Arms the
 * refresh for the end of the current coalescing interval; until the work
 * runs, further interrupts only count (one atomic op each), so a storm
 * cannot keep the timer code busy either.
 */
void otattest_event_irq(struct otattest_device *od)
{
	unsigned long next = READ_ONCE(od->event_next), now = jiffies;

	atomic_inc(&od->event_irqs);
	if (test_and_set_bit(OTATTEST_EVENT_QUEUED, &od->event_flags))
		return;
	/* mod_: a pending poll may be much later than this refresh. */
	mod_delayed_work(system_wq, &od->event_work,
			 time_before(now, next) ? next - now : 0);
}

/*
 * Every real event moves info.event_counter. Interrupts that arrive while
 * it stands still are spurious; OTATTEST_STORM_IRQS of them in a row is a
 * storm, however fast or slow they came (a loaded guest sees a 50 kHz
 * storm at a few hundred a second, and how many fall into one coalescing
 * interval says more about the guest than the device). Event work only,
 * which never runs twice at once.
 */
static void otattest_storm_count(struct otattest_device *od, int irqs)
{
	u32 counter = READ_ONCE(od->last_event_counter);

	if (counter != od->storm_counter) {
		/* The device moved: the interrupts were for that. */
		od->storm_counter = counter;
		od->storm_irqs = 0;
		return;
	}
	if (irqs <= 0)
		return;
	if (!od->storm_irqs)
		od->storm_since = jiffies;
	od->storm_irqs += irqs;
	if (od->storm_irqs < OTATTEST_STORM_IRQS)
		return;
	dev_notice_ratelimited(&od->dev,
			       "event interrupt storm: %u interrupts in %u ms, the device reported no event\n",
			       od->storm_irqs, jiffies_to_msecs(jiffies - od->storm_since));
	od->storm_irqs = 0;
}

void otattest_event_work(struct work_struct *work)
{
	struct otattest_device *od =
		container_of(to_delayed_work(work), struct otattest_device, event_work);
	unsigned int interval = READ_ONCE(otattest_event_interval_ms);
	unsigned int poll = READ_ONCE(otattest_poll_ms);
	int irqs = atomic_xchg(&od->event_irqs, 0);
	bool ready;

	WRITE_ONCE(od->event_next, jiffies + msecs_to_jiffies(interval));
	/* Interrupts from now on need another refresh after this one. */
	clear_bit(OTATTEST_EVENT_QUEUED, &od->event_flags);
	smp_mb__after_atomic();
	otattest_refresh(od);
	otattest_storm_count(od, irqs);

	mutex_lock(&od->state_lock);
	ready = od->snap.state == OTA_DEV_READY;
	mutex_unlock(&od->state_lock);
	/* Interrupts requeue sooner; queue_ does not push them back. */
	if (!ready && poll && !READ_ONCE(od->gone))
		queue_delayed_work(system_wq, &od->event_work, msecs_to_jiffies(poll));
}

void otattest_state_kick(struct otattest_device *od)
{
	/* Under lock, which remove sets gone under before it cancels the work. */
	spin_lock(&od->lock);
	if (!od->gone)
		mod_delayed_work(system_wq, &od->event_work, 0);
	spin_unlock(&od->lock);
}

/*
 * The mailbox's verdict on liveness changed (a request timed out, or the
 * device answered again). The snapshot shows it before the caller's reply
 * goes out, so sysfs and GET_DEVICE agree with the error it gets; the
 * event work publishes it and re-reads the device, and while the device
 * is not ready it keeps polling for its return (event_work re-arms
 * itself).
 */
void otattest_state_liveness_changed(struct otattest_device *od)
{
	mutex_lock(&od->state_lock);
	/* Before the first refresh there is nothing to fold it into. */
	if (od->snap.info_status == OTA_OK)
		otattest_decide(od);
	mutex_unlock(&od->state_lock);
	otattest_state_kick(od);
}
