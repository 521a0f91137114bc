// SPDX-License-Identifier: MIT
/* otattestd's per-client bounds and argument checks, without a bus. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "../../daemon/otattestd/args.h"
#include "../../daemon/otattestd/clients.h"
#include "../../daemon/otattestd/ratelimit.h"
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

START_TEST(clients_queue_bound)
{
	struct client_limits lim = { .max_queued = 2, .attest_burst = 100, .attest_per_sec = 100, .max_clients = 8 };
	struct client_table t;
	struct client *a, *b, *c;
	struct ota_err e;

	client_table_init(&t, &lim);
	ck_assert(client_admit(&t, ":1.1", CLIENT_REQ_PLAIN, 0, &a, &e));
	ck_assert(client_admit(&t, ":1.1", CLIENT_REQ_ATTEST, 0, &b, &e));
	ck_assert_ptr_eq(a, b);
	ck_assert(!client_admit(&t, ":1.1", CLIENT_REQ_PLAIN, 0, &c, &e));
	ck_assert_uint_eq(e.status, OTA_HOST_QUEUE_FULL);
	ck_assert_uint_eq(e.cls, OTA_CLASS_BUSY);
	/* Another client is not affected. */
	ck_assert(client_admit(&t, ":1.2", CLIENT_REQ_PLAIN, 0, &c, &e));
	client_release(&t, a);
	ck_assert(client_admit(&t, ":1.1", CLIENT_REQ_PLAIN, 0, &a, &e));
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
	ck_assert(client_admit(&t, ":1.1", CLIENT_REQ_ATTEST, 0, &a, &e));
	ck_assert(client_admit(&t, ":1.1", CLIENT_REQ_ATTEST, 0, &a, &e));
	ck_assert(!client_admit(&t, ":1.1", CLIENT_REQ_ATTEST, 0, &a, &e));
	ck_assert_uint_eq(e.status, OTA_HOST_RATE_LIMITED);
	ck_assert_ptr_nonnull(strstr(e.message, "retry in 1000 ms"));
	/* Plain requests do not spend attestation tokens. */
	ck_assert(client_admit(&t, ":1.1", CLIENT_REQ_PLAIN, 0, &a, &e));
	ck_assert(client_admit(&t, ":1.1", CLIENT_REQ_ATTEST, SEC, &a, &e));
	ck_assert_uint_eq(a->attests_refused, 1);
	client_table_free(&t);
}
END_TEST

START_TEST(clients_table_bounded_and_collected)
{
	struct client_limits lim = { .max_queued = 4, .attest_burst = 1, .attest_per_sec = 1, .max_clients = 3 };
	struct client_table t;
	struct client *c[3], *x;
	struct ota_err e;
	char name[16];
	int i;

	client_table_init(&t, &lim);
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), ":1.%d", i);
		ck_assert(client_admit(&t, name, CLIENT_REQ_PLAIN, 0, &c[i], &e));
	}
	ck_assert(!client_admit(&t, ":1.9", CLIENT_REQ_PLAIN, 0, &x, &e));
	ck_assert_uint_eq(e.cls, OTA_CLASS_LIMIT);
	/* Idle clients are forgotten, making room. */
	client_release(&t, c[0]);
	ck_assert(client_admit(&t, ":1.9", CLIENT_REQ_PLAIN, 0, &x, &e));
	ck_assert_uint_eq(t.count, 3);
	/* A client with a spent bucket is kept until it refills. */
	client_release(&t, x);
	ck_assert(client_admit(&t, ":1.9", CLIENT_REQ_ATTEST, 0, &x, &e));
	client_release(&t, x);
	ck_assert_uint_eq(client_table_gc(&t, 0), 0);
	ck_assert_uint_eq(client_table_gc(&t, SEC), 1);
	/* Over-long sender names are refused, not truncated. */
	{
		char longname[300];

		memset(longname, 'x', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = 0;
		ck_assert(!client_admit(&t, longname, CLIENT_REQ_PLAIN, 0, &x, &e));
		ck_assert_uint_eq(e.status, OTA_HOST_BAD_ARGUMENT);
	}
	client_table_free(&t);
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

static Suite *suite(void)
{
	Suite *s = suite_create("daemon_limits");
	TCase *tc = tcase_create("limits");

	tcase_add_test(tc, bucket_allows_burst_then_refuses);
	tcase_add_test(tc, bucket_refill_caps_at_burst);
	tcase_add_test(tc, bucket_survives_clock_extremes);
	tcase_add_test(tc, clients_queue_bound);
	tcase_add_test(tc, clients_attest_rate);
	tcase_add_test(tc, clients_table_bounded_and_collected);
	tcase_add_test(tc, nonce_length_bounds);
	tcase_add_test(tc, svn_and_slot_bounds);
	tcase_add_test(tc, device_names);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(suite)
