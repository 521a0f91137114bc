/* SPDX-License-Identifier: MIT */
/*
 * The fixture of the test_daemon_bus_*.c suites: otattestd's D-Bus API end
 * to end on a private dbus-daemon, with the kernel replaced by a fake one
 * plugged in as the daemon's transport (daemon/otattestd/transport.h;
 * genl-parse.o, the real attribute parser, still turns the fake's netlink
 * messages into results). The fake answers after configurable delays and
 * can fail a command with an errno and extack message, exactly as the
 * kernel reports failures.
 *
 * Each test sets cfg (bus_tcase resets it), calls go() to start its own
 * dbus-daemon and a server process running the daemon's real code
 * (bus_setup, the device cache, bounds, auth) on its own sd-event loop,
 * acts as a client on `client`, and ends with finish().
 *
 * The server process answers signals as events of the fake kernel:
 * SIGUSR1 the device removed, SIGUSR2 added again; SIGWINCH a new boot
 * whose BL0 tag did not match (re-tagged on the signature path); SIGURG
 * the record moving on within the same boot; SIGPWR a new boot after the
 * device reverted the trial of BL0 slot B (watchdog), back on primary A
 * (whose runtime says "1.0.0").
 */
#ifndef OTATTEST_TESTS_BUS_FIXTURE_H
#define OTATTEST_TESTS_BUS_FIXTURE_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../../../daemon/otattestctl/ctl.h"
#include "../../../daemon/otattestd/manager.h"

#define DEV_PATH OTA_BUS_DEVICE_PREFIX "/otattest0"

/* What the fake kernel and the server do; reset to defaults before each test. */
struct fake_cfg {
	uint64_t delay_usec[OTATTEST_CMD_MAX + 1];
	int fail_errno[OTATTEST_CMD_MAX + 1];
	ota_status_t fail_status[OTATTEST_CMD_MAX + 1]; /* the extack cookie's */
	const char *fail_msg[OTATTEST_CMD_MAX + 1];
	struct client_limits limits;
	bool use_polkit; /* ask (a fake) polkit instead of skipping it */
	/*
	 * The rotation's last progress event reaches the daemon after the
	 * reply: events and replies travel on two sockets, so the kernel's
	 * order is not the order the loop reads them in.
	 */
	bool late_rotation_progress;
	uint64_t image_read_timeout_usec; /* 0: the daemon's default */
	/* UpdateReset answered OK with this BL0 slot booted; 0: the slot asked for (B for OTHER). */
	uint32_t update_reset_booted_plus1;
	/*
	 * Non-NULL: UpdateReset boots other code, whose GET_INFO says this
	 * (the fake device starts on "1.0.0"), as otattest.ko reports it:
	 * the version unknown (runtime-changed without one) and a new record
	 * (its event before the reply), then 20 ms later runtime-changed
	 * with this version, which the replies carry from then on.
	 */
	const char *update_reset_runtime_version;
};

extern struct fake_cfg cfg;
/* The fake kernel fails cmd as otattest.ko does: errno err, status in the extack cookie, message msg. */
void fail_command(uint8_t cmd, int err, ota_status_t status, const char *msg);
/* The test's connection (go() opens it) and the server process's pid. */
extern sd_bus *client;
extern pid_t server_pid;

/* The record the fake device starts with (generation, tag key version). */
void build_record(struct ota_record *r, uint32_t *len, uint32_t generation, uint32_t kv);

/* Start the bus and the server; wait until the device is ready. */
void go(void);
void finish(void);

sd_bus *connect_bus(void);
bool name_has_owner(sd_bus *bus);
/* The device ready with a valid record. */
bool ready(sd_bus *bus);
void wait_until(sd_bus *bus, bool (*cond)(sd_bus *));

/* Call method with one "ay" argument (sd_bus_call_method's "ay" takes elements, not a buffer). */
int call_bytes(sd_bus *bus, const char *method, const void *p, size_t len, sd_bus_error *e,
	       sd_bus_message **reply);
sd_bus_message *new_attest(sd_bus *bus, size_t len);
/* Call Attest with a nonce of len bytes; returns the error name or NULL. */
char *attest(sd_bus *bus, size_t len, uint8_t fill);

/* Replies to asynchronous calls, counted by kind. */
struct replies {
	int ok, busy, other;
	char last_error[256];
};
int on_reply(sd_bus_message *m, void *userdata, sd_bus_error *e);
void pump(sd_bus *bus, struct replies *r, int want, int max_ms);

/*
 * Run fn(bus) in a child as uid 65534 (nobody: not root, in no group of
 * ours; the test bus lets it send anything), on a connection of its own.
 * fn returns 0 for success; the child's exit status says which check
 * failed.
 */
void as_nobody(int (*fn)(sd_bus *bus));

/* The device's Generation property; pump the client until it is want. */
uint32_t generation(void);
void pump_until_generation(uint32_t want);

/*
 * The typed dictionaries (a{sv}) of Stages and GetHistory: each field a
 * key, the signature of its value and where it goes: "s" a const char *,
 * "u" a uint32_t, "t" a uint64_t, "ay" a struct dict_bytes, any other
 * array the count of its elements (unsigned).
 */
struct dict_field {
	const char *key;
	const char *sig;
	void *out;
};
struct dict_bytes {
	const void *p;
	size_t len;
};
/* Read the next a{sv} of an array m is in; keys not listed are skipped. 0 at the array's end. */
int read_dict(sd_bus_message *m, const struct dict_field *fields, size_t n_fields);

/* Run an otattestctl command in this process, its stdout and stderr captured. */
int run_ctl(int (*cmd)(struct ctl *, int, char **), struct ctl *c, int argc, char **argv, char **out,
	    char **err);

/* A temporary regular file of len bytes of the image the fake device expects; its descriptor. */
int image_fd(size_t len);
int call_install(sd_bus *bus, const char *method, int fd, const char *stage, uint32_t slot,
		 sd_bus_error *e, sd_bus_message **reply);

/* A suite of tests (NULL-terminated) in one case, with the fixture's setup and timeout. */
Suite *bus_suite(const char *name, const TTest *const *tests);
/* Every test runs a private dbus-daemon: without one nothing can be tested. */
void bus_require_dbus_daemon(void);

/* main() of a test_daemon_bus_*.c: its suite's name, then its tests. */
#define BUS_TEST_MAIN(name, ...)                                                \
	static Suite *bus_suite_of_file(void)                                   \
	{                                                                       \
		const TTest *const list[] = { __VA_ARGS__, NULL };              \
		return bus_suite(name, list);                                   \
	}                                                                       \
	OTA_TEST_MAIN_PREPARED(bus_require_dbus_daemon(), bus_suite_of_file)

#endif /* OTATTEST_TESTS_BUS_FIXTURE_H */
