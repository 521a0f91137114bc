// SPDX-License-Identifier: MIT
/*
 * otattestd on a private dbus-daemon with a fake kernel (bus/bus_fixture.h):
 * the update agent's methods: InstallImage and CheckImage (streamed, with
 * progress; an image file that never answers), bad update input, every
 * device status as a named error, the update properties, the runtime's
 * version across an update reset.
 */
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bus/bus_fixture.h"
#include "tu_main.h"

/* sd-bus and sd-event callbacks, as the daemon they test (daemon/build.mk). */
#pragma GCC diagnostic ignored "-Wunused-parameter"

struct progress_seen {
	unsigned n;
	uint32_t last_done, total;
	bool in_order;
};

static int on_install_progress(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct progress_seen *p = userdata;
	uint32_t done, total;

	ck_assert_int_ge(sd_bus_message_read(m, "uu", &done, &total), 0);
	if (p->n && done <= p->last_done)
		p->in_order = false;
	p->n++;
	p->last_done = done;
	p->total = total;
	return 0;
}

/* The FUSE helper beside this test binary (daemon/build.mk builds it there). */
static void helper_path(char *out, size_t len, const char *name)
{
	char self[512];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	slash = strrchr(self, '/');
	ck_assert_ptr_nonnull(slash);
	*slash = '\0';
	snprintf(out, len, "%s/%s", self, name);
}

struct async_reply {
	bool done;
	char error[128];
};

static int on_async_reply(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct async_reply *a = userdata;
	const sd_bus_error *err = sd_bus_message_get_error(m);

	a->done = true;
	snprintf(a->error, sizeof(a->error), "%s", err && err->name ? err->name : "");
	return 0;
}

/*
 * An install image on a FUSE file whose reads never answer (a hung
 * network or user-space file system): otattestd reads it off its loop,
 * so it keeps answering other calls, and the install fails with Timeout
 * at its deadline, leaving the device free for the next install. (It read
 * on the loop: every call waited, until the watchdog killed it.)
 */
START_TEST(install_image_that_never_answers)
{
	char mnt[] = "/tmp/fuse-stuck.XXXXXX", helper[600], file[64];
	struct async_reply install = { 0 };
	sd_bus_message *call = NULL, *reply = NULL;
	sd_bus_error e = SD_BUS_ERROR_NULL;
	struct stat st;
	struct timespec t0, t1;
	pid_t fs;
	int fd, i;

	if (access("/dev/fuse", R_OK | W_OK) != 0 || geteuid() != 0) {
		fprintf(stderr, "install_image_that_never_answers: needs root and /dev/fuse; not run\n");
		return;
	}
	cfg.image_read_timeout_usec = 1500000;
	go();
	helper_path(helper, sizeof(helper), "fuse-stuck");
	ck_assert_ptr_nonnull(mkdtemp(mnt));
	fs = fork();
	ck_assert_int_ge(fs, 0);
	if (fs == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execl(helper, helper, "-f", mnt, (char *)NULL);
		_exit(127);
	}
	snprintf(file, sizeof(file), "%s/image", mnt);
	for (i = 0; i < 500 && (stat(file, &st) != 0 || st.st_size != 4096); i++)
		usleep(10000);
	ck_assert_msg(stat(file, &st) == 0 && st.st_size == 4096, "the FUSE file system did not come up");
	fd = open(file, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);

	ck_assert_int_ge(sd_bus_message_new_method_call(client, &call, OTA_BUS_NAME, DEV_PATH,
							OTA_BUS_DEVICE_IFACE, "InstallImage"), 0);
	ck_assert_int_ge(sd_bus_message_append(call, "hsu", fd, "bl0", OTA_UPDATE_SLOT_OTHER), 0);
	ck_assert_int_ge(sd_bus_call_async(client, NULL, call, on_async_reply, &install, 20000000), 0);
	sd_bus_message_unref(call);
	ck_assert_int_ge(sd_bus_flush(client), 0);
	usleep(300000); /* the read is stuck in the file system by now */

	/* Served meanwhile, promptly. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_msg(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "GetRecord", &e,
					 &reply, NULL) >= 0,
		      "GetRecord while an image read hangs: %s", e.message ? e.message : "");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sd_bus_message_unref(reply);
	ck_assert_int_lt(t1.tv_sec - t0.tv_sec, 2);

	for (i = 0; i < 500 && !install.done; i++) {
		sd_bus_wait(client, 20000);
		while (sd_bus_process(client, NULL) > 0)
			;
	}
	ck_assert_msg(install.done, "no answer to the install");
	ck_assert_str_eq(install.error, OTA_BUS_ERROR_PREFIX "Timeout");

	/* The device is free again: a readable image installs. */
	{
		int good = image_fd(2 * 4096 + 100);

		reply = NULL;
		ck_assert_msg(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						 "InstallImage", &e, &reply, "hsu", good, "bl0",
						 OTA_UPDATE_SLOT_OTHER) >= 0,
			      "the next install: %s", e.message ? e.message : "");
		sd_bus_message_unref(reply);
		close(good);
	}
	close(fd);
	kill(fs, SIGKILL);
	waitpid(fs, NULL, 0);
	umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	finish();
}
END_TEST

START_TEST(install_streams_the_image_with_progress)
{
	struct progress_seen seen = { .in_order = true };
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	const char *stage, *version;
	uint32_t slot, svn;
	const void *meas;
	size_t meas_len;
	int fd;

	go();
	ck_assert_int_ge(sd_bus_match_signal(client, NULL, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					     "InstallProgress", on_install_progress, &seen), 0);
	/* Three chunks: 4096, 4096 and 1808 bytes, held byte for byte by the fake device. */
	fd = image_fd(10000);
	ck_assert_msg(call_install(client, "InstallImage", fd, "bl0", OTA_UPDATE_SLOT_OTHER, &e, &reply) >= 0,
		      "InstallImage: %s", e.message);
	ck_assert_int_ge(sd_bus_message_read(reply, "suus", &stage, &slot, &svn, &version), 0);
	ck_assert_str_eq(stage, "bl0");
	ck_assert_uint_eq(slot, OTA_SLOT_A);
	ck_assert_uint_eq(svn, 7);
	ck_assert_str_eq(version, "bl0-2.0");
	ck_assert_int_ge(sd_bus_message_read_array(reply, 'y', &meas, &meas_len), 0);
	ck_assert_uint_eq(meas_len, OTA_SHA256_BYTES);
	/* The device's measurement byte for byte (the fake's is 0x5a throughout). */
	for (size_t k = 0; k < meas_len; k++)
		ck_assert_uint_eq(((const uint8_t *)meas)[k], 0x5a);
	sd_bus_message_unref(reply);
	while (sd_bus_process(client, NULL) > 0)
		;
	/* BEGIN, then each chunk the device acknowledged. */
	ck_assert_uint_eq(seen.n, 4);
	ck_assert(seen.in_order);
	ck_assert_uint_eq(seen.last_done, 10000);
	ck_assert_uint_eq(seen.total, 10000);

	/* A check of the same descriptor: the same answer, a dry run. */
	ck_assert_msg(call_install(client, "CheckImage", fd, "bl0", OTA_SLOT_B, &e, &reply) >= 0,
		      "CheckImage: %s", e.message);
	ck_assert_int_ge(sd_bus_message_read(reply, "suus", &stage, &slot, &svn, &version), 0);
	ck_assert_uint_eq(slot, OTA_SLOT_B);
	sd_bus_message_unref(reply);
	close(fd);
	finish();
}
END_TEST

/* Expect method's call to fail with error name `want`; ask again for the message. */
#define EXPECT_ERROR(r, e, want)                                                            \
	do {                                                                                \
		ck_assert_msg((r) < 0, "succeeded; expected %s", want);                     \
		ck_assert_msg(!strcmp((e)->name, want), "%s: %s (expected %s)", (e)->name, \
			      (e)->message, want);                                          \
		sd_bus_error_free(e);                                                       \
	} while (0)

START_TEST(update_bad_input_named_errors)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	uint8_t short_cmd[sizeof(struct ota_revocation) - 1] = { 0 };
	int pipefd[2], dirfd, empty, big;

	go();
	/* Not a regular file: a pipe could make the daemon wait forever. */
	ck_assert_int_eq(pipe(pipefd), 0);
	EXPECT_ERROR(call_install(client, "InstallImage", pipefd[0], "bl0", OTA_UPDATE_SLOT_OTHER, &e, NULL),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	close(pipefd[0]);
	close(pipefd[1]);
	/* A directory has a size that passes the bound: the file type alone refuses it. */
	dirfd = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(dirfd, 0);
	ck_assert_int_lt(call_install(client, "CheckImage", dirfd, "bl0", OTA_UPDATE_SLOT_OTHER, &e, NULL), 0);
	ck_assert_str_eq(e.name, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	ck_assert_msg(strstr(e.message, "regular file"), "%s", e.message);
	sd_bus_error_free(&e);
	close(dirfd);
	empty = image_fd(0);
	EXPECT_ERROR(call_install(client, "CheckImage", empty, "bl0", OTA_UPDATE_SLOT_OTHER, &e, NULL),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	/* Past the daemon's bound (a sparse file: nothing is read). */
	big = image_fd(0);
	ck_assert_int_eq(ftruncate(big, 1024 * 1024 + 1), 0);
	EXPECT_ERROR(call_install(client, "InstallImage", big, "bl0", OTA_UPDATE_SLOT_OTHER, &e, NULL),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	EXPECT_ERROR(call_install(client, "InstallImage", empty, "bl1", OTA_UPDATE_SLOT_OTHER, &e, NULL),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	EXPECT_ERROR(call_install(client, "InstallImage", empty, "bl0", 2, &e, NULL), &e,
		     OTA_BUS_ERROR_PREFIX "InvalidArgument");
	close(empty);
	close(big);
	EXPECT_ERROR(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Commit",
					&e, NULL, "u", 2u),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	EXPECT_ERROR(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Ratchet",
					&e, NULL, "su", "bl0", 256u),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	EXPECT_ERROR(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Ratchet",
					&e, NULL, "su", "rom-ext", 1u),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	EXPECT_ERROR(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					"RatchetWithFlags", &e, NULL, "sut", "bl0", 1u, (uint64_t)2),
		     &e, OTA_BUS_ERROR_PREFIX "InvalidArgument");
	EXPECT_ERROR(call_bytes(client, "Revoke", short_cmd, sizeof(short_cmd), &e, NULL), &e,
		     OTA_BUS_ERROR_PREFIX "Malformed");
	/* A hybrid command is 8000 bytes exactly: one byte less or more is malformed. */
	{
		static uint8_t hybrid[sizeof(struct ota_revocation_hybrid) + 1];

		EXPECT_ERROR(call_bytes(client, "Revoke", hybrid, sizeof(hybrid) - 2, &e, NULL), &e,
			     OTA_BUS_ERROR_PREFIX "Malformed");
		EXPECT_ERROR(call_bytes(client, "Revoke", hybrid, sizeof(hybrid), &e, NULL), &e,
			     OTA_BUS_ERROR_PREFIX "Malformed");
		/* Whole, it reaches the kernel (as OTATTEST_A_REVOCATION_HYBRID, 8000 bytes). */
		ck_assert_msg(call_bytes(client, "Revoke", hybrid, sizeof(hybrid) - 1, &e, NULL) >= 0, "%s: %s",
			      e.name, e.message);
	}
	/* None of it reached the (fake) kernel, which would have died: it still serves. */
	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Commit",
					    &e, NULL, "u", 1u), 0);
	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Ratchet",
					    &e, NULL, "su", "bl0", 4u), 0);
	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "RatchetWithFlags", &e, NULL, "sut", "bl0", 4u,
					    (uint64_t)OTA_RATCHET_F_FORCE), 0);
	finish();
}
END_TEST

/* Statuses only a host part produces; the driver refuses them from a device. */
static bool host_only(ota_status_t st)
{
	uint32_t module = (st >> 8) & 0xffu;

	return module == OTA_MOD_HOST || module == OTA_MOD_SHM || module == OTA_MOD_DRIVER ||
	       module == OTA_MOD_VERIFY;
}

START_TEST(every_device_status_is_a_named_error)
{
	static const ota_status_t all[] = {
#define OTA_X_ALL(name, cls, mod, idx, msg) OTA_##name,
		OTA_STATUS_LIST(OTA_X_ALL)
#undef OTA_X_ALL
	};
	struct ota_revocation cmd;
	unsigned checked = 0;
	size_t i;

	/* The client side of the map, as otattestctl registers it. */
	ck_assert_int_ge(ota_bus_errors_register(), 0);
	go();
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		sd_bus_error e = SD_BUS_ERROR_NULL;
		int r;

		if (host_only(all[i]))
			continue;
		/* The fake device answers Revoke with the status in value. */
		memset(&cmd, 0, sizeof(cmd));
		cmd.value = all[i];
		r = call_bytes(client, "Revoke", &cmd, sizeof(cmd), &e, NULL);
		ck_assert_msg(r < 0, "status %#x: Revoke succeeded", all[i]);
		ck_assert_msg(!strcmp(e.name, ota_class_error_name(ota_status_class(all[i]))),
			      "status %#x: %s, not its class's", all[i], e.name);
		ck_assert_str_eq(e.message, ota_status_message(all[i]));
		/* And the class's errno comes back to a client, as otattestctl's exit code. */
		ck_assert_int_eq(sd_bus_error_get_errno(&e), ota_status_errno(all[i]));
		sd_bus_error_free(&e);
		checked++;
	}
	ck_assert_uint_gt(checked, 100);
	finish();
}
END_TEST

START_TEST(update_properties_from_the_record)
{
	sd_bus_message *reply = NULL;
	const char *stage, *slot, *version;
	uint32_t seq = 0, svn;
	unsigned n = 0;
	char *s = NULL;

	go();
#define STR_PROP(name, want)                                                                   \
	do {                                                                                   \
		ck_assert_int_ge(sd_bus_get_property_string(client, OTA_BUS_NAME, DEV_PATH,    \
							    OTA_BUS_DEVICE_IFACE, name, NULL, &s), 0); \
		ck_assert_str_eq(s, want);                                                     \
		free(s);                                                                       \
	} while (0)
	STR_PROP("UpdateState", "trial");
	STR_PROP("PrimarySlot", "a");
	STR_PROP("RunningRomExtSlot", "a");
	STR_PROP("RunningBl0Slot", "b");
	STR_PROP("PendingStage", "");
	STR_PROP("PendingSlot", "");
#undef STR_PROP
	ck_assert_int_ge(sd_bus_get_property_trivial(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						     "RevocationSequence", NULL, 'u', &seq), 0);
	ck_assert_uint_eq(seq, 3);
	ck_assert_int_ge(sd_bus_get_property(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					     "Slots", NULL, &reply, "a" OTA_SLOT_STRUCT_SIG), 0);
	ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', OTA_SLOT_STRUCT_SIG), 0);
	while (sd_bus_message_enter_container(reply, 'r', "ssusas") > 0) {
		char flags[64] = "";
		const char *f;

		ck_assert_int_ge(sd_bus_message_read(reply, "ssus", &stage, &slot, &svn, &version), 0);
		ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "s"), 0);
		while (sd_bus_message_read(reply, "s", &f) > 0) {
			strcat(flags, f);
			strcat(flags, " ");
		}
		ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
		ck_assert_int_ge(sd_bus_message_exit_container(reply), 0);
		if (n == 3) { /* BL0 slot B: on trial */
			ck_assert_str_eq(stage, "bl0");
			ck_assert_str_eq(slot, "b");
			ck_assert_uint_eq(svn, 5);
			ck_assert_str_eq(version, "bl0-2.0");
			ck_assert_str_eq(flags, "present verified running ");
		}
		if (n == 2)
			ck_assert_str_eq(flags, "present primary ");
		n++;
	}
	ck_assert_uint_eq(n, 4);
	sd_bus_message_unref(reply);
	finish();
}
END_TEST

/* RefusedSlots as "stage slot status message;" items; how many. */
static unsigned refused_slots(char *out, size_t len)
{
	sd_bus_message *reply = NULL;
	const char *stage, *slot, *msg;
	uint32_t status;
	unsigned n = 0;

	out[0] = '\0';
	ck_assert_int_ge(sd_bus_get_property(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					     "RefusedSlots", NULL, &reply, "a(ssus)"), 0);
	ck_assert_int_ge(sd_bus_message_enter_container(reply, 'a', "(ssus)"), 0);
	while (sd_bus_message_read(reply, "(ssus)", &stage, &slot, &status, &msg) > 0) {
		size_t used = strlen(out);

		snprintf(out + used, len - used, "%s %s %#x %s;", stage, slot, status, msg);
		n++;
	}
	sd_bus_message_unref(reply);
	return n;
}

/*
 * An UpdateReset the device refuses with its verdict on the slot's image:
 * the slot is listed in RefusedSlots (the record, unchanged, still calls
 * it verified: RAUC read it as good), until a new boot judges it again.
 */
START_TEST(refused_update_reset_lists_the_slot)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	char got[512], want[256];

	fail_command(OTATTEST_CMD_UPDATE_RESET, EBADMSG, OTA_MANIFEST_BAD_MAGIC,
		     ota_status_message(OTA_MANIFEST_BAD_MAGIC));
	go();
	ck_assert_uint_eq(refused_slots(got, sizeof(got)), 0);
	EXPECT_ERROR(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					"UpdateReset", &e, NULL, "u", (uint32_t)OTA_SLOT_A),
		     &e, OTA_BUS_ERROR_PREFIX "Malformed");
	ck_assert_uint_eq(refused_slots(got, sizeof(got)), 1);
	snprintf(want, sizeof(want), "bl0 a %#x %s;", OTA_MANIFEST_BAD_MAGIC,
		 ota_status_message(OTA_MANIFEST_BAD_MAGIC));
	ck_assert_str_eq(got, want);
	/* The next boot's record judges every slot afresh. */
	kill(server_pid, SIGWINCH);
	pump_until_generation(5);
	ck_assert_uint_eq(refused_slots(got, sizeof(got)), 0);
	finish();
}
END_TEST

/* A refusal that says nothing of the image (the device busy) lists nothing. */
START_TEST(busy_update_reset_lists_nothing)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	char got[512];

	fail_command(OTATTEST_CMD_UPDATE_RESET, EBUSY, OTA_MBOX_BUSY, ota_status_message(OTA_MBOX_BUSY));
	go();
	EXPECT_ERROR(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					"UpdateReset", &e, NULL, "u", (uint32_t)OTA_UPDATE_SLOT_OTHER),
		     &e, OTA_BUS_ERROR_PREFIX "Busy");
	ck_assert_uint_eq(refused_slots(got, sizeof(got)), 0);
	finish();
}
END_TEST

/*
 * An update reset into slot A that the device answers OK with slot B
 * booted (seen under the soak's load, issue 32) is no success to the
 * agent: a named Protocol error, not the reply otattestctl printed as
 * done (exit 0).
 */
START_TEST(update_reset_into_a_slot_that_did_not_boot_fails)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;

	cfg.update_reset_booted_plus1 = OTA_SLOT_B + 1;
	go();
	EXPECT_ERROR(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					"UpdateReset", &e, NULL, "u", (uint32_t)OTA_SLOT_A),
		     &e, OTA_BUS_ERROR_PREFIX "ProtocolError");
	/* OTHER names no slot: whichever booted is the answer. */
	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "UpdateReset", &e, &reply, "u",
					    (uint32_t)OTA_UPDATE_SLOT_OTHER), 0);
	sd_bus_message_unref(reply);
	finish();
}
END_TEST

/* The slot asked for booted: its answer. */
START_TEST(update_reset_into_a_slot_answers_it)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	uint32_t st, gen, slot;

	go();
	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "UpdateReset", &e, &reply, "u", (uint32_t)OTA_SLOT_A), 0);
	ck_assert_int_ge(sd_bus_message_read(reply, "uuu", &st, &gen, &slot), 0);
	ck_assert_uint_eq(st, OTA_OK);
	ck_assert_uint_eq(slot, OTA_SLOT_A);
	sd_bus_message_unref(reply);
	finish();
}
END_TEST

/* A PropertiesChanged that names RuntimeVersion: its value. */
struct version_seen {
	unsigned n;
	char last[OTA_VERSION_STRING_BYTES + 1];
};

static int on_version_changed(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	struct version_seen *v = userdata;
	const char *iface, *name, *val;

	ck_assert_int_ge(sd_bus_message_read(m, "s", &iface), 0);
	ck_assert_int_ge(sd_bus_message_enter_container(m, 'a', "{sv}"), 0);
	while (sd_bus_message_enter_container(m, 'e', "sv") > 0) {
		ck_assert_int_ge(sd_bus_message_read(m, "s", &name), 0);
		if (!strcmp(name, "RuntimeVersion")) {
			ck_assert_int_ge(sd_bus_message_read(m, "v", "s", &val), 0);
			snprintf(v->last, sizeof(v->last), "%s", val);
			v->n++;
		} else {
			ck_assert_int_ge(sd_bus_message_skip(m, "v"), 0);
		}
		ck_assert_int_ge(sd_bus_message_exit_container(m), 0);
	}
	return 0;
}

/*
 * Once generation gen shows, RuntimeVersion becomes want, announced as
 * the n-th change the signals named.
 */
static void expect_version(const struct version_seen *seen, uint32_t gen, const char *want, unsigned n)
{
	char *v = NULL;
	int i;

	pump_until_generation(gen);
	for (i = 0; i < 200 && seen->n < n; i++) {
		sd_bus_wait(client, 10000);
		while (sd_bus_process(client, NULL) > 0)
			;
	}
	ck_assert_int_ge(sd_bus_get_property_string(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
						    "RuntimeVersion", NULL, &v), 0);
	ck_assert_str_eq(v, want);
	free(v);
	ck_assert_uint_eq(seen->n, n);
	if (n)
		ck_assert_str_eq(seen->last, want);
}

/*
 * RuntimeVersion is what the running BL0 says (the kernel's
 * runtime-version): "1.0.0"; an update reset into other code: unknown
 * ("") with the new record, then "2.0.0" from the runtime-changed event,
 * each announced in PropertiesChanged; the device back on A's code,
 * "1.0.0" again with its record, announced too. Failed on the daemon
 * without the property (no such property).
 */
START_TEST(runtime_version_follows_the_code_that_runs)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	struct version_seen seen = { 0 };
	uint32_t st, gen, slot;

	cfg.update_reset_runtime_version = "2.0.0";
	go();
	ck_assert_int_ge(sd_bus_match_signal(client, NULL, OTA_BUS_NAME, DEV_PATH,
					     "org.freedesktop.DBus.Properties", "PropertiesChanged",
					     on_version_changed, &seen), 0);
	expect_version(&seen, 4, "1.0.0", 0);

	ck_assert_int_ge(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
					    "UpdateReset", &e, &reply, "u", (uint32_t)OTA_SLOT_B), 0);
	ck_assert_int_ge(sd_bus_message_read(reply, "uuu", &st, &gen, &slot), 0);
	sd_bus_message_unref(reply);
	ck_assert_uint_eq(st, OTA_OK);
	expect_version(&seen, 5, "2.0.0", 2);
	kill(server_pid, SIGPWR); /* the trial reverted: back on A */
	expect_version(&seen, 6, "1.0.0", 3);
	finish();
}
END_TEST

BUS_TEST_MAIN("daemon_bus_update",
	      runtime_version_follows_the_code_that_runs,
	      install_image_that_never_answers,
	      install_streams_the_image_with_progress,
	      update_bad_input_named_errors,
	      every_device_status_is_a_named_error,
	      update_properties_from_the_record,
	      refused_update_reset_lists_the_slot,
	      busy_update_reset_lists_nothing,
	      update_reset_into_a_slot_answers_it,
	      update_reset_into_a_slot_that_did_not_boot_fails)
