// SPDX-License-Identifier: MIT
/* otattestd's per-client bounds and argument checks, without a bus. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../daemon/otattestd/args.h"
#include "../../daemon/otattestd/clients.h"
#include "../../daemon/otattestd/log.h"
#include "../../daemon/otattestd/ratelimit.h"
#include "../../daemon/otattestd/genl-internal.h"
#include "tu_main.h"

#define SEC 1000000ull

START_TEST(bucket_allows_burst_then_refuses)
{
	struct token_bucket b;
	int i;

	token_bucket_init(&b, 5, 2, 1000);
	for (i = 0; i < 5; i++)
		ck_assert(token_bucket_take(&b, 1000));
	ck_assert(!token_bucket_take(&b, 1000));
	/* 2 per second: one token after 500 ms, not before. */
	ck_assert_uint_eq(token_bucket_wait_usec(&b, 1000), 500000);
	ck_assert(!token_bucket_take(&b, 1000 + 499999));
	ck_assert(token_bucket_take(&b, 1000 + 500000));
	ck_assert(!token_bucket_take(&b, 1000 + 500000));
}
END_TEST

START_TEST(bucket_refill_caps_at_burst)
{
	struct token_bucket b;
	int i;

	token_bucket_init(&b, 3, 1, 0);
	for (i = 0; i < 3; i++)
		ck_assert(token_bucket_take(&b, 0));
	/* An hour idle refills to the burst, not to 3600. */
	ck_assert(token_bucket_full(&b, 3600 * SEC));
	for (i = 0; i < 3; i++)
		ck_assert(token_bucket_take(&b, 3600 * SEC));
	ck_assert(!token_bucket_take(&b, 3600 * SEC));
}
END_TEST

START_TEST(bucket_survives_clock_extremes)
{
	struct token_bucket b;

	token_bucket_init(&b, 1, 1, 10 * SEC);
	ck_assert(token_bucket_take(&b, 10 * SEC));
	/* Backwards: no refill, no underflow. */
	ck_assert(!token_bucket_take(&b, 5 * SEC));
	/* Far future: no overflow. */
	ck_assert(token_bucket_take(&b, UINT64_MAX - 1));
	ck_assert(!token_bucket_take(&b, UINT64_MAX - 1));
}
END_TEST

/*
 * A client is a user: its requests from any number of connections share
 * one queue (the old per-connection table let one user fill it with 256
 * connections and lock everyone else out).
 */
START_TEST(clients_queue_bound_per_user)
{
	struct client_limits lim = { .max_queued = 2, .attest_burst = 100, .attest_per_sec = 100, .max_clients = 8 };
	struct client_table t;
	struct client *a, *b, *c;
	struct ota_err e;

	client_table_init(&t, &lim);
	ck_assert(client_admit(&t, 4001, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, 0, &a, &e));
	ck_assert(client_admit(&t, 4001, CLIENT_CLASS_USER, CLIENT_REQ_ATTEST, 0, &b, &e));
	ck_assert_ptr_eq(a, b);
	ck_assert(!client_admit(&t, 4001, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, 0, &c, &e));
	ck_assert_uint_eq(e.status, OTA_HOST_QUEUE_FULL);
	ck_assert_uint_eq(e.cls, OTA_CLASS_BUSY);
	ck_assert_uint_eq(a->refused, 1);
	/* Another user is not affected. */
	ck_assert(client_admit(&t, 4002, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, 0, &c, &e));
	client_release(a, CLIENT_REQ_PLAIN);
	ck_assert(client_admit(&t, 4001, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, 0, &a, &e));
	client_table_free(&t);
}
END_TEST

/* A user's full read queue never holds back its privileged lane. */
START_TEST(clients_privileged_lane_apart)
{
	struct client_limits lim = { .max_queued = 1, .attest_burst = 100, .attest_per_sec = 100, .max_clients = 8 };
	struct client_table t;
	struct client *a, *p, *x;
	struct ota_err e;

	client_table_init(&t, &lim);
	ck_assert(client_admit(&t, 4002, CLIENT_CLASS_USER, CLIENT_REQ_ATTEST, 0, &a, &e));
	ck_assert(!client_admit(&t, 4002, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, 0, &x, &e));
	ck_assert(client_admit(&t, 4002, CLIENT_CLASS_USER, CLIENT_REQ_PRIVILEGED, 0, &p, &e));
	ck_assert_ptr_eq(a, p);
	ck_assert(!client_admit(&t, 4002, CLIENT_CLASS_USER, CLIENT_REQ_PRIVILEGED, 0, &x, &e));
	ck_assert_uint_eq(e.status, OTA_HOST_QUEUE_FULL);
	client_release(p, CLIENT_REQ_PRIVILEGED);
	ck_assert(client_admit(&t, 4002, CLIENT_CLASS_USER, CLIENT_REQ_PRIVILEGED, 0, &p, &e));
	client_table_free(&t);
}
END_TEST

START_TEST(clients_attest_rate)
{
	struct client_limits lim = { .max_queued = 100, .attest_burst = 2, .attest_per_sec = 1, .max_clients = 8 };
	struct client_table t;
	struct client *a;
	struct ota_err e;

	client_table_init(&t, &lim);
	ck_assert(client_admit(&t, 4001, CLIENT_CLASS_USER, CLIENT_REQ_ATTEST, 0, &a, &e));
	ck_assert(client_admit(&t, 4001, CLIENT_CLASS_USER, CLIENT_REQ_ATTEST, 0, &a, &e));
	ck_assert(!client_admit(&t, 4001, CLIENT_CLASS_USER, CLIENT_REQ_ATTEST, 0, &a, &e));
	ck_assert_uint_eq(e.status, OTA_HOST_RATE_LIMITED);
	ck_assert_ptr_nonnull(strstr(e.message, "retry in 1000 ms"));
	/* Plain and privileged requests do not spend attestation tokens. */
	ck_assert(client_admit(&t, 4001, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, 0, &a, &e));
	ck_assert(client_admit(&t, 4001, CLIENT_CLASS_USER, CLIENT_REQ_PRIVILEGED, 0, &a, &e));
	ck_assert(client_admit(&t, 4001, CLIENT_CLASS_USER, CLIENT_REQ_ATTEST, SEC, &a, &e));
	ck_assert_uint_eq(a->refused, 1);
	client_table_free(&t);
}
END_TEST

START_TEST(clients_table_bounded_and_collected)
{
	struct client_limits lim = { .max_queued = 4, .attest_burst = 1, .attest_per_sec = 1, .max_clients = 3 };
	struct client_table t;
	struct client *c[3], *x;
	struct ota_err e;
	uid_t uid;

	client_table_init(&t, &lim);
	for (uid = 0; uid < 3; uid++)
		ck_assert(client_admit(&t, 5000 + uid, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, 0, &c[uid], &e));
	ck_assert(!client_admit(&t, 5009, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, 0, &x, &e));
	ck_assert_uint_eq(e.cls, OTA_CLASS_LIMIT);
	/* A user already known is still served: its entry exists. */
	ck_assert(client_admit(&t, 5001, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, 0, &x, &e));
	client_release(x, CLIENT_REQ_PLAIN);
	/* Idle users are forgotten, making room. */
	client_release(c[0], CLIENT_REQ_PLAIN);
	ck_assert(client_admit(&t, 5009, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, 0, &x, &e));
	ck_assert_uint_eq(t.count[CLIENT_CLASS_USER], 3);
	/* A user with a spent bucket is kept until it refills. */
	client_release(x, CLIENT_REQ_PLAIN);
	ck_assert(client_admit(&t, 5009, CLIENT_CLASS_USER, CLIENT_REQ_ATTEST, 0, &x, &e));
	client_release(x, CLIENT_REQ_ATTEST);
	ck_assert_uint_eq(client_table_gc(&t, 0), 0);
	ck_assert_uint_eq(client_table_gc(&t, SEC), 1);
	client_table_free(&t);
}
END_TEST

/* Each privilege class has its own share: ordinary users never fill the agent's. */
START_TEST(clients_keyed_by_privilege_class)
{
	struct client_limits lim = { .max_queued = 4, .attest_burst = 1, .attest_per_sec = 1,
				     .max_clients = 3, .max_privileged_clients = 2 };
	struct client_table t;
	struct client *x;
	struct ota_err e;
	uid_t uid;

	client_table_init(&t, &lim);
	for (uid = 0; uid < 3; uid++)
		ck_assert(client_admit(&t, 5000 + uid, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, 0, &x, &e));
	ck_assert(!client_admit(&t, 5009, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, 0, &x, &e));
	ck_assert(client_admit(&t, 0, CLIENT_CLASS_PRIVILEGED, CLIENT_REQ_PRIVILEGED, 0, &x, &e));
	ck_assert(client_admit(&t, 990, CLIENT_CLASS_PRIVILEGED, CLIENT_REQ_PRIVILEGED, 0, &x, &e));
	/* The privileged share is bounded too. */
	ck_assert(!client_admit(&t, 991, CLIENT_CLASS_PRIVILEGED, CLIENT_REQ_PRIVILEGED, 0, &x, &e));
	ck_assert_uint_eq(e.cls, OTA_CLASS_LIMIT);
	ck_assert_uint_eq(t.count[CLIENT_CLASS_USER], 3);
	ck_assert_uint_eq(t.count[CLIENT_CLASS_PRIVILEGED], 2);
	client_table_free(&t);
}
END_TEST

/* History pages: a bucket per user, nothing queued. */
START_TEST(history_pages_rate_limited)
{
	struct client_limits lim = { .max_queued = 1, .attest_burst = 1, .attest_per_sec = 1,
				     .max_clients = 3, .history_burst = 3, .history_per_sec = 1 };
	struct client_table t;
	struct client *x;
	struct ota_err e;
	int i;

	client_table_init(&t, &lim);
	for (i = 0; i < 3; i++)
		ck_assert(client_admit(&t, 5000, CLIENT_CLASS_USER, CLIENT_REQ_HISTORY, 0, &x, &e));
	ck_assert(!client_admit(&t, 5000, CLIENT_CLASS_USER, CLIENT_REQ_HISTORY, 0, &x, &e));
	ck_assert_uint_eq(e.status, OTA_HOST_RATE_LIMITED);
	ck_assert_ptr_nonnull(strstr(e.message, "retry in"));
	/* Another user has its own bucket; a second later there is one more page. */
	ck_assert(client_admit(&t, 5001, CLIENT_CLASS_USER, CLIENT_REQ_HISTORY, 0, &x, &e));
	ck_assert(client_admit(&t, 5000, CLIENT_CLASS_USER, CLIENT_REQ_HISTORY, SEC, &x, &e));
	/* Nothing was queued: the plain lane is free (max_queued 1). */
	ck_assert(client_admit(&t, 5000, CLIENT_CLASS_USER, CLIENT_REQ_PLAIN, SEC, &x, &e));
	client_table_free(&t);
}
END_TEST

/*
 * otattestd's sender lanes come from the command table's lane column
 * (genl.c, genl_lane_of): the snapshot reads, the device reads, and every
 * command that changes the device (ROTATE_TAGS and UPDATE_RESET lacked
 * the table's privileged flag, which nothing read).
 */
START_TEST(genl_lanes_from_the_command_table)
{
	uint8_t cmd;

	for (cmd = 1; cmd <= OTATTEST_CMD_MAX; cmd++) {
		enum genl_lane want;

		if (cmd == OTATTEST_CMD_EVENT)
			continue;
		if (cmd == OTATTEST_CMD_GET_DEVICE || cmd == OTATTEST_CMD_GET_RECORD)
			want = GENL_LANE_SNAPSHOT;
		else if (cmd == OTATTEST_CMD_ATTEST || cmd == OTATTEST_CMD_STABLE_SIGN ||
			 cmd == OTATTEST_CMD_GET_CERTS)
			want = GENL_LANE_READ;
		else
			want = GENL_LANE_PRIVILEGED;
		ck_assert_msg(genl_lane_of(cmd) == want, "command %u: lane %d", cmd, genl_lane_of(cmd));
	}
	ck_assert_int_eq(genl_lane_of(OTATTEST_CMD_MAX + 1), GENL_LANE_PRIVILEGED);
}
END_TEST

START_TEST(nonce_length_bounds)
{
	struct ota_err e;

	ck_assert(!args_check_nonce(0, &e));
	ck_assert(!args_check_nonce(15, &e));
	ck_assert_uint_eq(e.status, OTA_MBOX_NONCE_LENGTH);
	ck_assert_uint_eq(e.cls, OTA_CLASS_INVALID_ARGUMENT);
	ck_assert_ptr_nonnull(strstr(e.message, "got 15"));
	ck_assert(args_check_nonce(16, &e));
	ck_assert(args_check_nonce(64, &e));
	ck_assert(!args_check_nonce(65, &e));
	ck_assert(!args_check_nonce((size_t)-1, &e));
}
END_TEST

START_TEST(svn_and_slot_bounds)
{
	struct ota_err e;

	ck_assert(args_check_svn(0, &e));
	ck_assert(args_check_svn(255, &e));
	ck_assert(!args_check_svn(256, &e));
	ck_assert_uint_eq(e.cls, OTA_CLASS_INVALID_ARGUMENT);
	ck_assert(args_check_slot(0, &e));
	ck_assert(args_check_slot(1, &e));
	ck_assert(args_check_slot(0xffffffffu, &e));
	ck_assert(!args_check_slot(2, &e));
	ck_assert(!args_check_slot(0xfffffffeu, &e));
	ck_assert_uint_eq(e.status, OTA_HOST_BAD_ARGUMENT);
}
END_TEST

START_TEST(device_names)
{
	static const char *const bad[] = { "", "otattest", "otattest01", "otattest-1", "otattest1a",
					   "xotattest1", "otattest1234567890", "OTATTEST1", "otattest 1" };
	struct ota_err e;
	uint32_t idx = 77;
	size_t i;

	ck_assert(args_parse_device_name("otattest0", &idx, &e));
	ck_assert_uint_eq(idx, 0);
	ck_assert(args_parse_device_name("otattest123456789", &idx, &e));
	ck_assert_uint_eq(idx, 123456789);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(!args_parse_device_name(bad[i], &idx, &e), "accepted \"%s\"", bad[i]);
		ck_assert_uint_eq(e.cls, OTA_CLASS_NOT_FOUND);
	}
	ck_assert(!args_parse_device_name(NULL, &idx, &e));
}
END_TEST

static int on_quit(sd_event_source *s, uint64_t usec, void *userdata)
{
	(void)usec;
	(void)userdata;
	return sd_event_exit(sd_event_source_get_event(s), 0);
}

/* Lines of path holding needle. */
static int count_lines(const char *path, const char *needle)
{
	char line[2048];
	FILE *f = fopen(path, "r");
	int n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

/*
 * A caller flooding refused calls gets LOG_REFUSAL_BURST lines and a
 * summary that counts the rest by user; the audit lines in between are
 * all there (each used to be one line among thousands, all limited alike
 * by journald).
 */
START_TEST(refusals_limited_audit_lines_kept)
{
	struct log_caller flood = { .uid = 4001, .sender = ":1.7", .member = "Attest" };
	struct log_caller agent = { .uid = 4002, .sender = ":1.9", .member = "RotateTags" };
	char path[] = "/tmp/otattestd-log.XXXXXX";
	int fd = mkstemp(path), saved = dup(2), i;
	sd_event *event = NULL;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(sd_event_new(&event), 0);
	ck_assert_int_ge(log_refusals_attach(event, 100000), 0);
	log_setup(LOG_TARGET_STDERR, LOG_INFO);
	fflush(stderr);
	dup2(fd, 2);
	for (i = 0; i < 2000; i++) {
		log_refusal(LOG_INFO, NULL, "otattest0", &flood, OTA_HOST_RATE_LIMITED, "refused call %d", i);
		if (i % 200 == 100)
			log_audit(MID_ROTATION_FINISHED, "otattest0", &agent, 0, "audit line %d", i);
	}
	/* The summary, from the loop's timer. */
	ck_assert_int_ge(sd_event_add_time_relative(event, NULL, CLOCK_MONOTONIC, 300000, 0, on_quit, NULL), 0);
	ck_assert_int_ge(sd_event_loop(event), 0);
	log_refusals_detach();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	ck_assert_int_le(count_lines(path, "refused call"), (int)LOG_REFUSAL_BURST + 1);
	ck_assert_int_eq(count_lines(path, "audit line"), 10);
	ck_assert_int_eq(count_lines(path, "not logged"), 1);
	ck_assert_int_eq(count_lines(path, "uid 4001: "), 1);
	unlink(path);
	sd_event_unref(event);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("daemon_limits");
	TCase *tc = tcase_create("limits");

	tcase_add_test(tc, bucket_allows_burst_then_refuses);
	tcase_add_test(tc, bucket_refill_caps_at_burst);
	tcase_add_test(tc, bucket_survives_clock_extremes);
	tcase_add_test(tc, clients_queue_bound_per_user);
	tcase_add_test(tc, clients_privileged_lane_apart);
	tcase_add_test(tc, clients_attest_rate);
	tcase_add_test(tc, clients_table_bounded_and_collected);
	tcase_add_test(tc, clients_keyed_by_privilege_class);
	tcase_add_test(tc, genl_lanes_from_the_command_table);
	tcase_add_test(tc, history_pages_rate_limited);
	tcase_add_test(tc, refusals_limited_audit_lines_kept);
	tcase_add_test(tc, nonce_length_bounds);
	tcase_add_test(tc, svn_and_slot_bounds);
	tcase_add_test(tc, device_names);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(suite)
