// SPDX-License-Identifier: MIT
/*
 * otattestd on a private dbus-daemon with a fake kernel (bus/bus_fixture.h):
 * signals and history: rotation progress and RotationFinished, TagMismatch
 * and its counter, GetHistory in pages.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bus/bus_fixture.h"
#include "tu_main.h"

/* sd-bus and sd-event callbacks, as the daemon they test (daemon/build.mk). */
#pragma GCC diagnostic ignored "-Wunused-parameter"

struct rot {
	int progress;
	int finished;
	int record_changed;
};

static int on_rot_signal(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct rot *r = userdata;

	if (sd_bus_message_is_signal(m, OTA_BUS_DEVICE_IFACE, "RotationProgress"))
		r->progress++;
	else if (sd_bus_message_is_signal(m, OTA_BUS_DEVICE_IFACE, "RotationFinished"))
		r->finished++;
	else if (sd_bus_message_is_signal(m, OTA_BUS_DEVICE_IFACE, "RecordChanged"))
		r->record_changed++;
	return 0;
}

/* Watch the device's signals into rot, and rotate: the reply's old and new key versions and stages re-tagged. */
static void rotate_watching(struct rot *rot, uint32_t *old_kv, uint32_t *new_kv, uint32_t *n)
{
	sd_bus_message *reply = NULL;

	ck_assert_int_ge(sd_bus_add_match(client, NULL,
					  "type='signal',interface='" OTA_BUS_DEVICE_IFACE "'",
					  on_rot_signal, rot), 0);
	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "RotateTags", NULL, &reply, NULL), 0);
	ck_assert_int_ge(sd_bus_message_read(reply, "uuu", old_kv, new_kv, n), 0);
	sd_bus_message_unref(reply);
}

/*
 * A progress event read after the rotation was answered is the tail of
 * that rotation, not another one: RotationFinished once (the daemon took
 * it for a rotation it only observed and reported it again when the next
 * record came).
 */
START_TEST(rotation_finished_once_with_late_progress)
{
	struct rot rot = { 0 };
	uint32_t gen, old_kv, new_kv, n;
	int i;

	cfg.late_rotation_progress = true;
	go();
	rotate_watching(&rot, &old_kv, &new_kv, &n);
	/* The late progress, and the rotation's record in the daemon's cache. */
	for (i = 0; i < 100 && (rot.progress < 2 || rot.record_changed < 1); i++) {
		sd_bus_wait(client, 20000);
		while (sd_bus_process(client, NULL) > 0)
			;
	}
	ck_assert_int_eq(rot.progress, 2);
	ck_assert_int_ge(rot.record_changed, 1);
	gen = generation(); /* before the signal: the change may be done before we look */
	kill(server_pid, SIGURG); /* the next record */
	pump_until_generation(gen + 1);
	for (i = 0; i < 10; i++) {
		sd_bus_wait(client, 20000);
		while (sd_bus_process(client, NULL) > 0)
			;
	}
	ck_assert_int_eq(rot.finished, 1);
	finish();
}
END_TEST

START_TEST(rotate_as_root_with_signals)
{
	struct rot rot = { 0 };
	uint32_t old_kv, new_kv, n, kv;
	int i;

	go();
	rotate_watching(&rot, &old_kv, &new_kv, &n);
	ck_assert_uint_eq(old_kv, 1);
	ck_assert_uint_eq(new_kv, 2);
	ck_assert_uint_eq(n, 2);
	for (i = 0; i < 100 && (rot.finished < 1 || rot.record_changed < 1); i++) {
		sd_bus_wait(client, 20000);
		while (sd_bus_process(client, NULL) > 0)
			;
	}
	ck_assert_int_eq(rot.progress, 2);
	ck_assert_int_eq(rot.finished, 1);
	ck_assert_int_ge(rot.record_changed, 1);
	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "TagKeyVersion", NULL, 'u', &kv), 0);
	ck_assert_uint_eq(kv, 2);
	finish();
}
END_TEST

struct mismatch {
	int signals;
	uint32_t generation, kv, status;
	char stage[16], slot[4];
	size_t measurement_len;
};

static int on_tag_mismatch(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct mismatch *mm = userdata;
	const char *stage, *slot;
	const void *meas;

	if (!sd_bus_message_is_signal(m, OTA_BUS_DEVICE_IFACE, "TagMismatch"))
		return 0;
	ck_assert_int_ge(sd_bus_message_read(m, "ussu", &mm->generation, &stage, &slot, &mm->kv), 0);
	ck_assert_int_ge(sd_bus_message_read_array(m, 'y', &meas, &mm->measurement_len), 0);
	ck_assert_int_ge(sd_bus_message_read(m, "u", &mm->status), 0);
	snprintf(mm->stage, sizeof(mm->stage), "%s", stage);
	snprintf(mm->slot, sizeof(mm->slot), "%s", slot);
	mm->signals++;
	return 0;
}

static uint64_t tag_mismatches(void)
{
	uint64_t n = 0;

	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "TagMismatches", NULL, 't', &n), 0);
	return n;
}

START_TEST(tag_mismatch_signal_counter_and_reasons)
{
	struct mismatch mm = { 0 };
	struct ctl c = { 0 };
	struct ctl_device d;

	go();
	c.bus = client;
	ck_assert_int_ge(sd_bus_add_match(client, NULL,
					  "type='signal',interface='" OTA_BUS_DEVICE_IFACE "'",
					  on_tag_mismatch, &mm), 0);
	ck_assert_uint_eq(tag_mismatches(), 0);
	ck_assert_int_eq(ctl_get_device(&c, DEV_PATH, &d), 0);
	ck_assert_uint_eq(d.n_stages, 2);
	ck_assert_str_eq(d.stages[0].path_reason, "none");
	ck_assert_str_eq(d.stages[1].path_reason, "none");

	kill(server_pid, SIGWINCH);
	pump_until_generation(5);
	ck_assert_int_eq(mm.signals, 1);
	ck_assert_uint_eq(mm.generation, 5);
	ck_assert_str_eq(mm.stage, "bl0");
	ck_assert_str_eq(mm.slot, "a");
	ck_assert_uint_eq(mm.kv, 1);
	ck_assert_uint_eq(mm.measurement_len, OTA_SHA256_BYTES);
	ck_assert_uint_eq(mm.status, OTA_OK);
	ck_assert_uint_eq(tag_mismatches(), 1);
	ck_assert_int_eq(ctl_get_device(&c, DEV_PATH, &d), 0);
	ck_assert_str_eq(d.stages[0].path_reason, "none");
	ck_assert_str_eq(d.stages[1].path_reason, "tag-mismatch");
	ck_assert(!d.stages[0].debug);
	ck_assert(!d.stages[1].debug);

	/* The same boot's record moving on is not a second mismatch. */
	kill(server_pid, SIGURG);
	pump_until_generation(6);
	ck_assert_int_eq(mm.signals, 1);
	ck_assert_uint_eq(tag_mismatches(), 1);
	/* Another boot with a mismatch is. */
	kill(server_pid, SIGWINCH);
	pump_until_generation(7);
	ck_assert_int_eq(mm.signals, 2);
	ck_assert_uint_eq(tag_mismatches(), 2);
	finish();
}
END_TEST

struct revert {
	int signals;
	uint32_t generation;
	char slot[4], reason[16];
};

static int on_trial_reverted(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct revert *rv = userdata;
	const char *slot, *reason;

	if (!sd_bus_message_is_signal(m, OTA_BUS_DEVICE_IFACE, "TrialReverted"))
		return 0;
	ck_assert_int_ge(sd_bus_message_read(m, "uss", &rv->generation, &slot, &reason), 0);
	snprintf(rv->slot, sizeof(rv->slot), "%s", slot);
	snprintf(rv->reason, sizeof(rv->reason), "%s", reason);
	rv->signals++;
	return 0;
}

static uint64_t trial_reverts(void)
{
	uint64_t n = 0;

	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "TrialReverts", NULL, 't', &n), 0);
	return n;
}

static bool has_finding(const struct ctl_device *d, const char *kind)
{
	struct ctl_attention att[CTL_ATTENTION_MAX];
	size_t i, n = ctl_device_attention(d, att, CTL_ATTENTION_MAX);

	for (i = 0; i < n; i++)
		if (!strcmp(att[i].kind, kind))
			return true;
	return false;
}

/*
 * A trial the device reverted (issue 28, item 1): the properties say so as
 * long as the record does, `status` finds "reverted-trial" (it exits 3),
 * and the revert is signalled and counted once - not again for the same
 * boot's record moving on, nor for a later boot whose record still
 * carries it.
 */
START_TEST(trial_revert_signal_counter_and_finding)
{
	struct revert rv = { 0 };
	struct ctl c = { 0 };
	struct ctl_device d;

	go();
	c.bus = client;
	ck_assert_int_ge(sd_bus_add_match(client, NULL,
					  "type='signal',interface='" OTA_BUS_DEVICE_IFACE "'",
					  on_trial_reverted, &rv), 0);
	ck_assert_uint_eq(trial_reverts(), 0);
	ck_assert_int_eq(ctl_get_device(&c, DEV_PATH, &d), 0);
	ck_assert_uint_eq(d.trial_boots, 1);
	ck_assert_str_eq(d.revert_reason, "none");
	ck_assert_str_eq(d.reverted_slot, "");
	ck_assert(!has_finding(&d, "reverted-trial"));

	kill(server_pid, SIGPWR);
	pump_until_generation(5);
	ck_assert_int_eq(rv.signals, 1);
	ck_assert_uint_eq(rv.generation, 5);
	ck_assert_str_eq(rv.slot, "b");
	ck_assert_str_eq(rv.reason, "watchdog");
	ck_assert_uint_eq(trial_reverts(), 1);
	ck_assert_int_eq(ctl_get_device(&c, DEV_PATH, &d), 0);
	ck_assert_uint_eq(d.trial_boots, 0);
	ck_assert_str_eq(d.revert_reason, "watchdog");
	ck_assert_str_eq(d.reverted_slot, "b");
	ck_assert_uint_eq(d.trial_reverts, 1);
	ck_assert(has_finding(&d, "reverted-trial"));

	kill(server_pid, SIGURG); /* the same boot's record moving on */
	pump_until_generation(6);
	kill(server_pid, SIGPWR); /* a later boot, the revert still in its record */
	pump_until_generation(7);
	ck_assert_int_eq(rv.signals, 1);
	ck_assert_uint_eq(trial_reverts(), 1);
	ck_assert_int_eq(ctl_get_device(&c, DEV_PATH, &d), 0);
	ck_assert(has_finding(&d, "reverted-trial"));
	finish();
}
END_TEST

/*
 * One page of GetHistory's generations, oldest first (device "" for all),
 * from since_usec; *next where the next page starts. Each entry names
 * otattest0, has a time and a record that validates, and its typed
 * numbers and stages agree with the record. -ENODEV for NoSuchDevice.
 */
static int history_page(const char *device, uint64_t since_usec, uint32_t count, uint32_t *gens,
			size_t max, size_t *n, uint64_t *next)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	int r;

	r = sd_bus_call_method(client, OTA_BUS_NAME, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
			       "GetHistory", &e, &reply, "stu", device, since_usec, count);
	if (r < 0) {
		r = sd_bus_error_has_name(&e, OTA_BUS_ERROR_PREFIX "NoSuchDevice") ? -ENODEV : r;
		sd_bus_error_free(&e);
		return r;
	}
	*n = 0;
	ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "a{sv}"), 0);
	for (;;) {
		struct ota_record rec;
		const char *dev = NULL;
		struct dict_bytes record = { 0 };
		uint64_t seen = 0;
		uint32_t gen = 0;
		unsigned stages = 0;
		const struct dict_field fields[] = {
			{ "device", "s", &dev },   { "seen_usec", "t", &seen }, { "generation", "u", &gen },
			{ "record", "ay", &record }, { "stages", "aa{sv}", &stages },
		};

		if (!read_dict(reply, fields, sizeof(fields) / sizeof(fields[0])))
			break;
		ck_assert_ptr_nonnull(dev);
		ck_assert_str_eq(dev, "otattest0");
		ck_assert_uint_gt(seen, 0);
		ck_assert_ptr_nonnull(record.p);
		ck_assert_uint_le(record.len, sizeof(rec));
		memcpy(&rec, record.p, record.len);
		ck_assert_int_eq(ota_record_validate(&rec, (uint32_t)record.len), OTA_OK);
		ck_assert_uint_eq(gen, rec.hdr.generation);
		ck_assert_uint_eq(stages, rec.hdr.stage_count);
		ck_assert_uint_lt(*n, max);
		gens[(*n)++] = rec.hdr.generation;
	}
	ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
	ck_assert_int_ge(sd_bus_message_read(reply, "t", next), 0);
	sd_bus_message_unref(reply);
	return 0;
}

static int history_generations(const char *device, uint32_t count, uint32_t *gens, size_t max,
			       size_t *n)
{
	uint64_t next;

	return history_page(device, 0, count, gens, max, n, &next);
}

/* Manager.GetHistory: every record the daemon saw, in order, by device and page. */
START_TEST(history_over_the_bus)
{
	uint32_t g[8];
	uint64_t next;
	size_t n;

	go();
	ck_assert_int_eq(history_generations("", 0, g, 8, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(g[0], 4);
	kill(server_pid, SIGWINCH); /* a reboot */
	pump_until_generation(5);
	kill(server_pid, SIGURG); /* the record moves on */
	pump_until_generation(6);
	ck_assert_int_eq(history_page("", 0, 0, g, 8, &n, &next), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(g[0], 4);
	ck_assert_uint_eq(g[1], 5);
	ck_assert_uint_eq(g[2], 6);
	ck_assert_uint_eq(next, 0);
	/* Pages of two: the first two, then from where the next starts, the rest. */
	ck_assert_int_eq(history_page("otattest0", 0, 2, g, 8, &n, &next), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(g[0], 4);
	ck_assert_uint_eq(g[1], 5);
	ck_assert_uint_ne(next, 0);
	ck_assert_int_eq(history_page("otattest0", next, 2, g, 8, &n, &next), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(g[0], 6);
	ck_assert_uint_eq(next, 0);
	/* A device name never seen: nothing; not a device name: NoSuchDevice. */
	ck_assert_int_eq(history_generations("otattest7", 0, g, 8, &n), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(history_generations("../etc", 0, g, 8, &n), -ENODEV);
	finish();
}
END_TEST

BUS_TEST_MAIN("daemon_bus_events",
	      rotation_finished_once_with_late_progress,
	      rotate_as_root_with_signals,
	      tag_mismatch_signal_counter_and_reasons,
	      trial_revert_signal_counter_and_finding,
	      history_over_the_bus)
