// SPDX-License-Identifier: MIT
/*
 * Device tracking: which otattest devices exist, their state and the cached
 * boot record. Property reads and GetRecord are answered from this cache,
 * so they never wait on the device.
 *
 * One notification path per change: uevents (udev.c) say which devices
 * exist; the family's events say what changed, and carry it: a state
 * change is applied as it comes, a record change fetches the record
 * (GET_RECORD, the driver's snapshot). A full refresh (GET_DEVICE, then
 * GET_RECORD) is for a device that appears, for events that were lost,
 * and for kernels whose events we cannot receive (then a "change" uevent
 * stands in for them). One request per device is in flight at a time;
 * changes that arrive meanwhile ask for one more, of the larger kind,
 * instead of piling up requests.
 *
 * The runtime's version (RuntimeVersion) comes in both replies and in
 * the runtime-changed event: the kernel forgets it when other images
 * boot (the record that shows them comes without it) and announces it
 * once the runtime has said it. Events and replies come on two sockets,
 * so a reply built before an event may be read after it: each carries
 * the record generation, events are taken in order, and a reply only when
 * it is of a newer record, or brings the version an event of its record
 * has not yet (apply_runtime_version).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "manager.h"

static void drop_record(struct device *d);
static void refresh_start(struct device *d, int kind);

struct device *device_find(struct manager *m, uint32_t index)
{
	struct device *d;

	for (d = m->devices; d; d = d->next)
		if (d->index == index)
			return d;
	return NULL;
}

struct device *device_find_by_name(struct manager *m, const char *name)
{
	struct device *d;

	for (d = m->devices; d; d = d->next)
		if (strcmp(d->name, name) == 0)
			return d;
	return NULL;
}

struct device *device_get(struct manager *m, uint32_t index)
{
	struct device *d = device_find(m, index), **pp;

	if (d)
		return d;
	/* Devices are kept once seen (an absent one shows as "absent"). */
	if (m->n_devices >= OTA_MAX_DEVICES) {
		log_warning("ignoring otattest%u: already tracking %u devices", index, OTA_MAX_DEVICES);
		return NULL;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->m = m;
	d->index = index;
	snprintf(d->name, sizeof(d->name), "%s%u", OTA_DEVICE_NAME_PREFIX, index);
	snprintf(d->path, sizeof(d->path), "%s/%s", OTA_BUS_DEVICE_PREFIX, d->name);
	/* Sorted by index, so listings are stable. */
	for (pp = &m->devices; *pp && (*pp)->index < index; pp = &(*pp)->next)
		;
	d->next = *pp;
	*pp = d;
	m->n_devices++;
	bus_emit_device_added(m, d);
	return d;
}

const char *device_state_string(const struct device *d)
{
	if (!d->present)
		return OTA_STATE_ABSENT;
	if (!transport_available(&d->m->transport) || !d->have_state)
		return OTA_STATE_UNREACHABLE;
	/* The driver's own verdicts (record_invalid, ...) first: genl.h. */
	return otattest_driver_state_name(d->state) ?: ota_device_state_name(d->state);
}

/*
 * No refusal while stopping: the name is released first, so a call that
 * still reaches us was sent before that, and draining serves it like the
 * others instead of losing it.
 */
bool device_usable(const struct device *d, const struct manager *m, struct ota_err *e)
{
	if (!d->present) {
		ota_err_set_statusf(e, OTA_HOST_DEVICE_GONE, "%s went away", d->name);
		return false;
	}
	if (!transport_available(&m->transport)) {
		ota_err_set_statusf(e, OTA_HOST_DEVICE_GONE,
				    "%s: the otattest kernel driver is not loaded (no netlink family); "
				    "load it: modprobe otattest",
				    d->name);
		return false;
	}
	return true;
}

void device_set_present(struct device *d, bool present)
{
	if (d->present == present)
		return;
	d->present = present;
	if (present) {
		log_event(LOG_INFO, 0, MID_DEVICE_ADDED, d->name, NULL, 0, "device appeared");
		device_refresh(d);
	} else {
		log_event(LOG_NOTICE, 0, MID_DEVICE_REMOVED, d->name, NULL, 0, "device went away");
		/* Nothing about a device that is gone is current any more. */
		d->have_state = false;
		drop_record(d);
		d->rotating = false;
	}
	bus_emit_properties_changed(d);
	bus_update_status(d->m);
}

/* No valid record: the properties read zero (bus-device.c relies on it). */
static void drop_record(struct device *d)
{
	memset(&d->record, 0, sizeof(d->record));
	d->record_len = 0;
	d->generation = 0;
	d->have_record = false;
	d->runtime_version[0] = '\0';
	d->have_runtime_gen = false;
}

/*
 * The runtime version an event (from_event) or a reply carries ("" without
 * one: unknown, or an older kernel), with the generation of the record it
 * goes with (tb's GENERATION; none: no record). An event is always newer
 * than what came before it; a reply only when its record is newer than the
 * one the version was last set for, or, of that same record, when it
 * brings a version where there was none. The bounds (genl-bounds.h) held
 * it to OTA_VERSION_STRING_BYTES characters; the device's own rule
 * (printable ASCII) is checked again here. True when it changed.
 */
static bool apply_runtime_version(struct device *d, const struct nlattr *const *tb, bool from_event)
{
	const struct nlattr *attr = tb[OTATTEST_A_RUNTIME_VERSION];
	char v[OTA_VERSION_STRING_BYTES + 1] = "";
	const char *s = attr ? mnl_attr_get_str(attr) : "";
	size_t i, n = strnlen(s, OTA_VERSION_STRING_BYTES + 1);
	uint32_t gen = tb[OTATTEST_A_GENERATION] ? mnl_attr_get_u32(tb[OTATTEST_A_GENERATION]) : 0;

	for (i = 0; i < n && s[i] >= 0x20 && s[i] <= 0x7e; i++)
		;
	if (i == n && n <= OTA_VERSION_STRING_BYTES)
		memcpy(v, s, n);
	else
		log_warning("%s: kernel reports a runtime version that is not printable ASCII", d->name);
	if (!from_event && d->have_runtime_gen &&
	    !((int32_t)(gen - d->runtime_gen) > 0 ||
	      (gen == d->runtime_gen && !*d->runtime_version && *v)))
		return false;
	d->have_runtime_gen = true;
	d->runtime_gen = gen;
	if (!strcmp(v, d->runtime_version))
		return false;
	memcpy(d->runtime_version, v, sizeof(v));
	log_event(LOG_INFO, 0, NULL, d->name, NULL, 0, "runtime version %s", *v ? v : "unknown");
	return true;
}

static bool records_differ(const struct device *d, const struct ota_record *r, uint32_t len)
{
	return !d->have_record || d->record_len != len || memcmp(&d->record, r, len) != 0;
}

/*
 * Every record seen goes to the boot history (history.h); a write failure
 * is only logged. history_add's answer: 1 new, 0 its device's newest
 * entry already (seen before this instance, or before the device went
 * away), negative when it could not be written.
 */
static int record_history(struct device *d, const struct ota_record *rec, uint32_t len)
{
	uint64_t now = 0;
	int r;

	if (sd_event_now(d->m->event, CLOCK_REALTIME, &now) < 0)
		now = 0;
	r = history_add(&d->m->history, d->name, rec, len, now);
	if (r < 0)
		log_event(LOG_WARNING, r, NULL, d->name, NULL, 0,
			  "cannot write generation %u to the boot history (kept until otattestd stops): %m",
			  rec->hdr.generation);
	return r;
}

static void finish_observed_rotation(struct device *d)
{
	struct ota_err e;

	/*
	 * A rotation we did not start (another tool, or a previous otattestd
	 * killed mid-way): the device's state and record tell how it ended.
	 */
	uint32_t new_kv = d->have_record ? d->record.hdr.tag_key_version : 0;

	ota_err_clear(&e);
	if (d->have_state && d->state == OTA_DEV_FAILED)
		ota_err_set_status(&e, d->state_detail ? d->state_detail : OTA_HOST_INTERNAL);
	if (e.cls == OTA_CLASS_OK && d->rotation_reported && new_kv == d->rotation_reported_kv) {
		/* The tail (a late progress event) of a rotation already reported. */
		log_debug("%s: rotation to key version %u already reported", d->name, new_kv);
		return;
	}
	d->rotation_reported = true;
	d->rotation_reported_kv = new_kv;
	bus_emit_rotation_finished(d, d->rotate_old_key_version, new_kv, d->progress_total,
				   e.cls == OTA_CLASS_OK ? NULL : &e);
	log_event(LOG_INFO, 0, MID_ROTATION_FINISHED, d->name, NULL, 0,
		  "tag rotation observed to finish (key version %u -> %u)", d->rotate_old_key_version,
		  d->have_record ? d->record.hdr.tag_key_version : 0);
}

static void apply_state(struct device *d, uint32_t state, uint32_t detail)
{
	bool changed = !d->have_state || d->state != state || d->state_detail != detail;

	if (state > OTA_DEV_STATE_MAX && !otattest_driver_state_name(state)) {
		/* A newer driver's state: shown as unknown, not trusted. */
		log_warning("%s: kernel reports unknown state %u", d->name, state);
	}
	if (state == OTA_DEV_ROTATING && !d->rotating) {
		d->rotating = true;
		d->rotate_old_key_version = d->have_record ? d->record.hdr.tag_key_version : 0;
		d->progress_done = d->progress_total = 0;
	}
	d->have_state = true;
	d->state = state;
	d->state_detail = detail;
	if (changed)
		bus_emit_properties_changed(d);
	/*
	 * A rotation we only watched ended: its outcome is in the record
	 * (the new key version), which on_record reports once fetched.
	 */
	if (d->rotating && state != OTA_DEV_ROTATING && !d->rotation_ours)
		device_fetch_record(d);
}

static void on_record(void *userdata, const struct genl_result *res)
{
	struct device *d = userdata;
	bool was_rotating = d->rotating && d->state != OTA_DEV_ROTATING;

	d->refreshing = false;
	if (!res->ok) {
		/* No record (device off, failed boot, or invalid): say so, keep serving. */
		if (d->have_record) {
			drop_record(d);
			bus_emit_properties_changed(d);
		}
		log_event(LOG_INFO, 0, NULL, d->name, NULL, res->err.status,
			  "no boot record: %s", res->err.message);
	} else if (res->tb[OTATTEST_A_RECORD]) {
		const void *p = mnl_attr_get_payload(res->tb[OTATTEST_A_RECORD]);
		uint32_t len = mnl_attr_get_payload_len(res->tb[OTATTEST_A_RECORD]);
		struct ota_record rec;
		ota_status_t s;

		/* Copy first, then validate the copy: the same checks the kernel ran. */
		memset(&rec, 0, sizeof(rec));
		memcpy(&rec, p, len <= sizeof(rec) ? len : sizeof(rec));
		s = len <= sizeof(rec) ? ota_record_validate(&rec, len) : OTA_RECORD_BAD_LENGTH;
		if (s != OTA_OK) {
			log_event(LOG_WARNING, 0, NULL, d->name, NULL, s,
				  "kernel handed over an invalid boot record: %s", ota_status_message(s));
			if (d->have_record) {
				drop_record(d);
				bus_emit_properties_changed(d);
			}
		} else if (records_differ(d, &rec, len)) {
			/*
			 * A record the history held already had its tag mismatches
			 * and its trial revert reported when it was new (before a restart of otattestd
			 * or a re-plug of the device): not again.
			 */
			if (record_history(d, &rec, len) != 0 || d->have_record) {
				device_report_tag_mismatches(d, &d->record, d->have_record, &rec);
				device_report_trial_revert(d, &d->record, d->have_record, &rec);
			}
			device_refusals_on_record(d, &d->record, d->have_record, &rec);
			d->record = rec;
			d->record_len = len;
			d->have_record = true;
			d->generation = rec.hdr.generation;
			log_event(LOG_INFO, 0, MID_RECORD_CHANGED, d->name, NULL, 0,
				  "boot record generation %u: boot status %s, tag key version %u",
				  rec.hdr.generation,
				  ota_status_name(rec.hdr.boot_status) ? ota_status_name(rec.hdr.boot_status)
									 : "unknown",
				  rec.hdr.tag_key_version);
			apply_runtime_version(d, res->tb, false);
			bus_emit_properties_changed(d);
			bus_emit_record_changed(d);
		} else if (apply_runtime_version(d, res->tb, false)) {
			bus_emit_properties_changed(d);
		}
	}
	if (was_rotating) {
		d->rotating = false;
		if (!d->rotation_ours)
			finish_observed_rotation(d);
	}
	if (d->refresh_again != REFRESH_NONE) {
		int kind = d->refresh_again;

		d->refresh_again = REFRESH_NONE;
		refresh_start(d, kind);
	}
}

static void on_device_info(void *userdata, const struct genl_result *res)
{
	struct device *d = userdata;
	int r;

	/* The version: from the record's reply that follows. */
	if (res->ok && res->tb[OTATTEST_A_STATE])
		apply_state(d, mnl_attr_get_u32(res->tb[OTATTEST_A_STATE]),
			    res->tb[OTATTEST_A_STATE_DETAIL]
				    ? mnl_attr_get_u32(res->tb[OTATTEST_A_STATE_DETAIL])
				    : 0);
	else if (!res->ok && res->err.cls == OTA_CLASS_NOT_FOUND) {
		/* The kernel does not know it (any more): absent. */
		d->refreshing = false;
		device_set_present(d, false);
		return;
	}
	r = transport_request(&d->m->transport, OTATTEST_CMD_GET_RECORD, d->index, NULL,
			 d->m->request_timeout_usec, on_record, d);
	if (r < 0) {
		d->refreshing = false;
		log_event(LOG_WARNING, r, NULL, d->name, NULL, 0, "cannot ask for the record: %m");
	}
}

/* Ask for the record, or the state and then the record; one request at a time. */
static void refresh_start(struct device *d, int kind)
{
	int r;

	assert(kind == REFRESH_RECORD || kind == REFRESH_FULL);
	if (!d->present || !transport_available(&d->m->transport))
		return;
	if (d->refreshing) {
		if (kind > (int)d->refresh_again)
			d->refresh_again = kind;
		return;
	}
	if (kind == REFRESH_FULL)
		r = transport_request(&d->m->transport, OTATTEST_CMD_GET_DEVICE, d->index, NULL,
				 d->m->request_timeout_usec, on_device_info, d);
	else
		r = transport_request(&d->m->transport, OTATTEST_CMD_GET_RECORD, d->index, NULL,
				 d->m->request_timeout_usec, on_record, d);
	if (r < 0) {
		log_event(LOG_WARNING, r, NULL, d->name, NULL, 0, "cannot refresh: %m");
		return;
	}
	d->refreshing = true;
}

void device_refresh(struct device *d)
{
	refresh_start(d, REFRESH_FULL);
}

void device_fetch_record(struct device *d)
{
	refresh_start(d, REFRESH_RECORD);
}

void device_refresh_all(struct manager *m)
{
	struct device *d;

	for (d = m->devices; d; d = d->next)
		device_refresh(d);
}

void device_on_event(struct manager *m, uint32_t event, const struct nlattr *const *tb)
{
	struct device *d;
	uint32_t index;

	if (!tb) {
		/* Events were lost: refresh everything. */
		device_refresh_all(m);
		return;
	}
	if (!tb[OTATTEST_A_DEVICE])
		return;
	index = mnl_attr_get_u32(tb[OTATTEST_A_DEVICE]);
	if (event == OTATTEST_EVENT_DEVICE_ADDED) {
		d = device_get(m, index);
		if (d)
			device_set_present(d, true);
		return;
	}
	d = device_find(m, index);
	if (!d)
		return;
	switch (event) {
	case OTATTEST_EVENT_DEVICE_REMOVED:
		device_set_present(d, false);
		break;
	case OTATTEST_EVENT_RECORD_CHANGED:
		if (!tb[OTATTEST_A_GENERATION] || !d->have_record ||
		    mnl_attr_get_u32(tb[OTATTEST_A_GENERATION]) != d->generation)
			device_fetch_record(d);
		break;
	case OTATTEST_EVENT_STATE_CHANGED:
		/* The event carries the state; a new record comes with its own event. */
		if (tb[OTATTEST_A_STATE])
			apply_state(d, mnl_attr_get_u32(tb[OTATTEST_A_STATE]),
				    tb[OTATTEST_A_STATE_DETAIL] ? mnl_attr_get_u32(tb[OTATTEST_A_STATE_DETAIL]) : 0);
		else
			device_refresh(d);
		break;
	case OTATTEST_EVENT_RUNTIME_CHANGED:
		/* The version as the runtime said it (absent: unknown again). */
		if (apply_runtime_version(d, tb, true))
			bus_emit_properties_changed(d);
		break;
	case OTATTEST_EVENT_ROTATE_PROGRESS:
		if (tb[OTATTEST_A_PROGRESS_DONE] && tb[OTATTEST_A_PROGRESS_TOTAL]) {
			if (!d->rotating) {
				d->rotating = true;
				d->rotate_old_key_version = d->have_record ? d->record.hdr.tag_key_version : 0;
			}
			d->progress_done = mnl_attr_get_u32(tb[OTATTEST_A_PROGRESS_DONE]);
			d->progress_total = mnl_attr_get_u32(tb[OTATTEST_A_PROGRESS_TOTAL]);
			bus_emit_rotation_progress(d, d->progress_done, d->progress_total);
		}
		break;
	default:
		break; /* a newer kernel's event */
	}
}

void device_on_family(struct manager *m, bool available)
{
	struct device *d;

	for (d = m->devices; d; d = d->next) {
		if (!available)
			d->have_state = false;
		bus_emit_properties_changed(d);
	}
	if (available)
		device_refresh_all(m);
	bus_update_status(m);
}

void device_free_all(struct manager *m)
{
	struct device *d, *n;

	for (d = m->devices; d; d = n) {
		n = d->next;
		device_announced_free(d);
		free(d);
	}
	m->devices = NULL;
	m->n_devices = 0;
}
