// SPDX-License-Identifier: MIT
/*
 * otattestd on a private dbus-daemon with a fake kernel (bus/bus_fixture.h):
 * fairness between local users: slow attestations do not hold up reads;
 * per-user rate, queue and history bounds; the client table keyed by user
 * and privilege class.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bus/bus_fixture.h"
#include "tu_main.h"

/* sd-bus and sd-event callbacks, as the daemon they test (daemon/build.mk). */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* Order of replies, to show what waited for what (no clock involved). */
static char order[16];

static int on_order(sd_bus_message *m, void *userdata, sd_bus_error *e)
{
	size_t n = strlen(order);

	if (n + 1 < sizeof(order))
		order[n] = sd_bus_message_is_method_error(m, NULL) ? 'E' : *(const char *)userdata;
	return 0;
}

START_TEST(slow_attestation_does_not_block_reads)
{
	sd_bus_message *call = NULL;
	sd_bus *other;
	int i;

	/* The "device" takes 1.5 s to attest; everything else is at once. */
	cfg.delay_usec[OTATTEST_CMD_ATTEST] = 1500000;
	go();
	other = connect_bus();
	memset(order, 0, sizeof(order));
	call = new_attest(client, 16);
	ck_assert_int_ge(sd_bus_call_async(client, NULL, call, on_order, "A", 5000000), 0);
	sd_bus_message_unref(call);
	sd_bus_flush(client);
	/* While it is outstanding, another client reads a property and the record. */
	ck_assert_int_ge(sd_bus_message_new_method_call(other, &call, OTA_BUS_NAME, DEV_PATH,
							"org.freedesktop.DBus.Properties", "Get"), 0);
	ck_assert_int_ge(sd_bus_message_append(call, "ss", OTA_BUS_DEVICE_IFACE, "Generation"), 0);
	ck_assert_int_ge(sd_bus_call_async(other, NULL, call, on_order, "P", 5000000), 0);
	sd_bus_message_unref(call);
	ck_assert_int_ge(sd_bus_message_new_method_call(other, &call, OTA_BUS_NAME, DEV_PATH,
							OTA_BUS_DEVICE_IFACE, "GetRecord"), 0);
	ck_assert_int_ge(sd_bus_call_async(other, NULL, call, on_order, "R", 5000000), 0);
	sd_bus_message_unref(call);
	for (i = 0; i < 1000 && strlen(order) < 3; i++) {
		sd_bus_wait(other, 5000);
		while (sd_bus_process(other, NULL) > 0)
			;
		while (sd_bus_process(client, NULL) > 0)
			;
	}
	/* Both reads were answered first; the attestation still completed. */
	ck_assert_str_eq(order, "PRA");
	sd_bus_flush_close_unref(other);
	finish();
}
END_TEST

static int nobody_attests(sd_bus *bus)
{
	return attest(bus, 16, 1) == NULL ? 0 : 1;
}

/*
 * The bucket is the user's: a second connection of the same user gets
 * Busy too (a connection each used to buy a fresh bucket), another user
 * has its own.
 */
START_TEST(attest_rate_limited_per_user)
{
	sd_bus *same;
	char *name;
	int i;

	cfg.limits.attest_burst = 3;
	cfg.limits.attest_per_sec = 1;
	go();
	for (i = 0; i < 3; i++)
		ck_assert_ptr_null(attest(client, 16, (uint8_t)i));
	name = attest(client, 16, 9);
	ck_assert_ptr_nonnull(name);
	ck_assert_str_eq(name, OTA_BUS_ERROR_PREFIX "Busy");
	free(name);
	same = connect_bus();
	name = attest(same, 16, 9);
	ck_assert_ptr_nonnull(name);
	ck_assert_str_eq(name, OTA_BUS_ERROR_PREFIX "Busy");
	free(name);
	sd_bus_flush_close_unref(same);
	as_nobody(nobody_attests);
	usleep(1100000); /* one token back */
	ck_assert_ptr_null(attest(client, 16, 4));
	finish();
}
END_TEST

/* The queue is the user's too: requests from two of its connections share it. */
START_TEST(queue_bounded_per_user)
{
	struct replies rep = { 0 };
	sd_bus *other = NULL;
	int i;

	cfg.limits.max_queued = 2;
	cfg.delay_usec[OTATTEST_CMD_ATTEST] = 500000;
	go();
	other = connect_bus();
	for (i = 0; i < 3; i++) {
		sd_bus *bus = i == 1 ? other : client;
		sd_bus_message *call = new_attest(bus, 16);

		ck_assert_int_ge(sd_bus_call_async(bus, NULL, call, on_reply, &rep, 5000000), 0);
		sd_bus_message_unref(call);
		ck_assert_int_ge(sd_bus_flush(bus), 0);
	}
	for (i = 0; i < 200 && rep.ok + rep.busy + rep.other < 3; i++) {
		pump(client, &rep, 3, 20);
		pump(other, &rep, 3, 20);
	}
	ck_assert_int_eq(rep.ok, 2);
	ck_assert_int_eq(rep.busy, 1);
	ck_assert_int_eq(rep.other, 0);
	/* Once they are answered the queue has room again. */
	ck_assert_ptr_null(attest(client, 16, 7));
	sd_bus_flush_close_unref(other);
	finish();
}
END_TEST

/*
 * Ordinary users cannot lock the update agent out: with the table's share
 * for ordinary users full (one, here: nobody's attestation waiting on the
 * device), root's rotation is still admitted (it was LimitExceeded).
 */
static int nobody_holds_a_slot(sd_bus *bus)
{
	sd_bus_message *call = new_attest(bus, 16);
	int r = sd_bus_call(bus, call, 5000000, NULL, NULL);

	sd_bus_message_unref(call);
	return r < 0;
}

START_TEST(ordinary_users_cannot_fill_the_agents_share)
{
	sd_bus_message *reply = NULL;
	sd_bus_error e = SD_BUS_ERROR_NULL;
	pid_t pid;
	int status;

	cfg.limits.max_clients = 1;
	cfg.delay_usec[OTATTEST_CMD_ATTEST] = 1500000;
	go();
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		as_nobody(nobody_holds_a_slot);
		_exit(0);
	}
	usleep(400000); /* nobody's attestation waits on the (fake) device */
	ck_assert_msg(sd_bus_call_method(client, OTA_BUS_NAME, DEV_PATH, OTA_BUS_DEVICE_IFACE, "RotateTags",
					 &e, &reply, NULL) >= 0,
		      "root's RotateTags: %s", e.message ? e.message : "");
	sd_bus_message_unref(reply);
	waitpid(pid, &status, 0);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	finish();
}
END_TEST

/* GetHistory pages are rate-limited per user (there was no limit). */
START_TEST(history_rate_limited)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int i, ok = 0, busy = 0;

	cfg.limits.history_burst = 5;
	cfg.limits.history_per_sec = 1;
	go();
	for (i = 0; i < 20; i++) {
		sd_bus_message *reply = NULL;

		if (sd_bus_call_method(client, OTA_BUS_NAME, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
				       "GetHistory", &e, &reply, "stu", "", (uint64_t)0, 0u) >= 0)
			ok++;
		else if (sd_bus_error_has_name(&e, OTA_BUS_ERROR_PREFIX "Busy"))
			busy++;
		sd_bus_error_free(&e);
		sd_bus_message_unref(reply);
	}
	/* Five at once, and one a second meanwhile. */
	ck_assert_int_ge(ok, 5);
	ck_assert_int_le(ok, 7);
	ck_assert_int_eq(ok + busy, 20);
	finish();
}
END_TEST

/*
 * Many connections of one user hold one entry of the client table: with
 * room for two users, root's six connections, each with an attestation
 * waiting, leave room for another user (a table of connections was full
 * after the second and refused everyone with LimitExceeded).
 */

START_TEST(connections_do_not_fill_the_table)
{
	struct replies rep = { 0 };
	sd_bus *conn[6];
	int i;

	cfg.limits.max_clients = 2;
	cfg.limits.max_queued = 8;
	cfg.delay_usec[OTATTEST_CMD_ATTEST] = 800000;
	go();
	for (i = 0; i < 6; i++) {
		sd_bus_message *call;

		conn[i] = connect_bus();
		call = new_attest(conn[i], 16);
		ck_assert_int_ge(sd_bus_call_async(conn[i], NULL, call, on_reply, &rep, 5000000), 0);
		sd_bus_message_unref(call);
		ck_assert_int_ge(sd_bus_flush(conn[i]), 0);
	}
	usleep(200000); /* all six are waiting on the (fake) device */
	as_nobody(nobody_attests);
	for (i = 0; i < 300 && rep.ok + rep.busy + rep.other < 6; i++) {
		int k;

		for (k = 0; k < 6; k++)
			pump(conn[k], &rep, 6, 20);
	}
	ck_assert_msg(rep.ok == 6, "ok %d busy %d other %d (%s)", rep.ok, rep.busy, rep.other, rep.last_error);
	for (i = 0; i < 6; i++)
		sd_bus_flush_close_unref(conn[i]);
	finish();
}
END_TEST

BUS_TEST_MAIN("daemon_bus_fairness",
	      slow_attestation_does_not_block_reads,
	      attest_rate_limited_per_user,
	      queue_bounded_per_user,
	      ordinary_users_cannot_fill_the_agents_share,
	      history_rate_limited,
	      connections_do_not_fill_the_table)
