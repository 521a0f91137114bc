// SPDX-License-Identifier: MIT
/*
 * otattestd on a private dbus-daemon with a fake kernel (bus/bus_fixture.h):
 * who may do what: the daemon's own checks, their messages, and polkit (a
 * fake authority on the private bus).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bus/bus_fixture.h"
#include "bus/private_bus.h"
#include "tu_main.h"

/* sd-bus and sd-event callbacks, as the daemon they test (daemon/build.mk). */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* An unprivileged rotate says who may, and says nothing of rotating first. */
static int nobody_rotates(sd_bus *bus)
{
	char *argv[] = { "rotate", NULL };
	struct ctl c = { 0 };
	char *out, *err;
	int r, bad = 0;

	c.bus = bus;
	r = run_ctl(cmd_rotate, &c, 1, argv, &out, &err);
	bad |= r != 20;
	bad |= strstr(out, "rotating") != NULL;
	bad |= strstr(err, "RotateTags needs root, membership in group " OTA_UPDATE_GROUP
			   ", or polkit authorization for " OTA_POLKIT_ACTION_ROTATE) == NULL;
	if (bad)
		fprintf(stderr, "rotate as nobody: exit %d, stdout '%s', stderr '%s'\n", r, out, err);
	free(out);
	free(err);
	return bad;
}

START_TEST(unprivileged_rotate_says_who_may)
{
	go();
	as_nobody(nobody_rotates);
	finish();
}
END_TEST

static int nobody_privileged_denied(sd_bus *bus)
{
	static const uint8_t msg[16] = "0123456789abcdef";
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int r;

	/* nobody: not root, in no group of ours; the test bus lets it through. */
	r = sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "RotateTags", &e,
			       NULL, NULL);
	if (r >= 0)
		return 91;
	if (strcmp(e.name, SD_BUS_ERROR_ACCESS_DENIED) != 0)
		return 92;
	sd_bus_error_free(&e);
	/* Stable-key signatures are privileged too (group otattest-sign). */
	r = sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "SignWithStableKey",
			       &e, NULL, "ayu", (int)sizeof(msg), msg[0], msg[1], msg[2], msg[3], msg[4],
			       msg[5], msg[6], msg[7], msg[8], msg[9], msg[10], msg[11], msg[12], msg[13],
			       msg[14], msg[15], 0u);
	if (r >= 0)
		return 93;
	if (strcmp(e.name, SD_BUS_ERROR_ACCESS_DENIED) != 0 ||
	    !strstr(e.message, "group " OTA_SIGN_GROUP))
		return 94;
	sd_bus_error_free(&e);
	/* Reads stay open to it. */
	return attest(bus, 16, 5) == NULL ? 0 : 95;
}

START_TEST(privileged_unprivileged_denied_by_daemon)
{
	go();
	as_nobody(nobody_privileged_denied);
	finish();
}
END_TEST

/* ---- polkit over D-Bus, with a fake authority on the private bus ---- */

static int polkit_answer = -1; /* 1 authorized, 0 not */
static char polkit_action[128], polkit_subject_kind[64];

static int fake_check_authorization(sd_bus_message *m, void *userdata, sd_bus_error *error)
{
	const char *kind, *action;

	ck_assert_int_ge(sd_bus_message_enter_container(m, 'r', "sa{sv}"), 0);
	ck_assert_int_ge(sd_bus_message_read(m, "s", &kind), 0);
	snprintf(polkit_subject_kind, sizeof(polkit_subject_kind), "%s", kind);
	ck_assert_int_ge(sd_bus_message_skip(m, "a{sv}"), 0);
	ck_assert_int_ge(sd_bus_message_exit_container(m), 0);
	ck_assert_int_ge(sd_bus_message_read(m, "s", &action), 0);
	snprintf(polkit_action, sizeof(polkit_action), "%s", action);
	return sd_bus_reply_method_return(m, "(bba{ss})", polkit_answer, 0, 0);
}

static const sd_bus_vtable fake_polkit_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("CheckAuthorization", "(sa{sv})sa{ss}us", "(bba{ss})", fake_check_authorization,
		      SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

/* nobody's call, with its error name (NULL: it succeeded) written to *err_name's buffer. */
typedef int (*nobody_call_fn)(sd_bus *bus, sd_bus_error *e);

static int nobody_rotate_call(sd_bus *bus, sd_bus_error *e)
{
	return sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "RotateTags", e, NULL,
				  NULL);
}

static int nobody_check_call(sd_bus *bus, sd_bus_error *e)
{
	int fd = image_fd(100);

	return sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "CheckImage", e, NULL,
				  "hsu", fd, "bl0", OTA_UPDATE_SLOT_OTHER);
}

/*
 * With otattestd asking polkit: nobody makes call; the fake authority (in
 * this process) answers, and must have been asked for want_action.
 */
static void nobody_with_polkit(nobody_call_fn call, int answer, const char *want_error,
			       const char *want_action)
{
	sd_bus *pk;
	pid_t pid;
	int status = -1, i;

	cfg.use_polkit = true;
	go();
	polkit_answer = answer;
	pk = connect_bus();
	ck_assert_int_ge(sd_bus_add_object_vtable(pk, NULL, "/org/freedesktop/PolicyKit1/Authority",
						  "org.freedesktop.PolicyKit1.Authority",
						  fake_polkit_vtable, NULL), 0);
	ck_assert_int_ge(sd_bus_request_name(pk, "org.freedesktop.PolicyKit1", 0), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		sd_bus_error e = SD_BUS_ERROR_NULL;
		sd_bus *bus;
		int r;

		private_bus_become_nobody();
		bus = connect_bus();
		r = call(bus, &e);
		if (want_error ? r >= 0 || strcmp(e.name, want_error) != 0 : r < 0)
			_exit(91);
		_exit(0);
	}
	/* Serve the authority until the child is done. */
	for (i = 0; i < 500; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		while (sd_bus_process(pk, NULL) > 0)
			;
		sd_bus_wait(pk, 10000);
	}
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "nobody's call with polkit=%d: %d",
		      answer, WEXITSTATUS(status));
	ck_assert_str_eq(polkit_action, want_action);
	ck_assert_str_eq(polkit_subject_kind, "system-bus-name");
	sd_bus_flush_close_unref(pk);
	finish();
}

/* CheckImage, a dry run, asks its own action, not InstallImage's. */
START_TEST(check_image_asks_its_own_action)
{
	nobody_with_polkit(nobody_check_call, 0, SD_BUS_ERROR_ACCESS_DENIED, OTA_POLKIT_ACTION_CHECK);
}
END_TEST

START_TEST(polkit_allows)
{
	nobody_with_polkit(nobody_rotate_call, 1, NULL, OTA_POLKIT_ACTION_ROTATE);
}
END_TEST

START_TEST(polkit_denies)
{
	nobody_with_polkit(nobody_rotate_call, 0, SD_BUS_ERROR_ACCESS_DENIED, OTA_POLKIT_ACTION_ROTATE);
}
END_TEST

static int nobody_update_denied(sd_bus *bus)
{
	static const char *const plain[] = { "WarmReset" };
	uint8_t cmd[sizeof(struct ota_revocation)] = { 0 };
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int fd = image_fd(64), rc = 100;
	size_t i;

	/* Each refused by otattestd itself (the test bus lets anything through). */
#define DENIED(call)                                                                         \
	do {                                                                                 \
		if ((call) >= 0)                                                             \
			return rc;                                                           \
		if (strcmp(e.name, SD_BUS_ERROR_ACCESS_DENIED) || !strstr(e.message, "group " OTA_UPDATE_GROUP)) \
			return rc + 1;                                                       \
		sd_bus_error_free(&e);                                                       \
		rc += 2;                                                                     \
	} while (0)
	DENIED(call_install(bus, "InstallImage", fd, "bl0", OTA_UPDATE_SLOT_OTHER, &e, NULL));
	DENIED(call_install(bus, "CheckImage", fd, "bl0", OTA_UPDATE_SLOT_OTHER, &e, NULL));
	DENIED(sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Commit", &e, NULL,
				  "u", 1u));
	DENIED(sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "Ratchet", &e,
				  NULL, "su", "bl0", 3u));
	DENIED(sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE,
				  "RatchetWithFlags", &e, NULL, "sut", "bl0", 3u, (uint64_t)1));
	DENIED(call_bytes(bus, "Revoke", cmd, sizeof(cmd), &e, NULL));
	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		DENIED(sd_bus_call_method(bus, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, plain[i], &e,
					  NULL, NULL));
#undef DENIED
	close(fd);
	return 0;
}

START_TEST(update_methods_denied_to_unprivileged)
{
	go();
	as_nobody(nobody_update_denied);
	finish();
}
END_TEST

BUS_TEST_MAIN("daemon_bus_access",
	      unprivileged_rotate_says_who_may,
	      privileged_unprivileged_denied_by_daemon,
	      check_image_asks_its_own_action,
	      polkit_allows,
	      polkit_denies,
	      update_methods_denied_to_unprivileged)
