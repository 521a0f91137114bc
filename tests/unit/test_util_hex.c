// SPDX-License-Identifier: MIT
/* libotattest-util hex: lowercase out, strict in. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <otu/hex.h>

#include "tu_main.h"

START_TEST(encode_is_lowercase_and_terminated)
{
	static const unsigned char in[] = { 0x00, 0x01, 0xab, 0xff, 0x5a };
	char out[2 * sizeof(in) + 2];

	memset(out, 'X', sizeof(out));
	otu_hex_encode(out, in, sizeof(in));
	ck_assert_str_eq(out, "0001abff5a");
	ck_assert_int_eq(out[sizeof(out) - 1], 'X'); /* nothing past the NUL */
	otu_hex_encode(out, in, 0);
	ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(fprint_matches_encode)
{
	static const unsigned char in[] = { 0xde, 0xad, 0xbe, 0xef };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	otu_hex_fprint(f, in, sizeof(in));
	fclose(f);
	ck_assert_str_eq(buf, "deadbeef");
	free(buf);
}
END_TEST

START_TEST(decode_round_trip_either_case)
{
	unsigned char b[4];
	char s[9];

	ck_assert_int_eq(otu_hex_decode("00fFa5", b, sizeof(b)), 3);
	otu_hex_encode(s, b, 3);
	ck_assert_str_eq(s, "00ffa5");
	ck_assert_int_eq(otu_hex_decode("DEADBEEF", b, sizeof(b)), 4); /* exactly max */
	ck_assert_int_eq(b[0], 0xde);
	ck_assert_int_eq(b[3], 0xef);
	ck_assert_int_eq(otu_hex_decode("", b, sizeof(b)), 0);
}
END_TEST

START_TEST(decode_refuses_anything_but_digit_pairs)
{
	static const char *const bad[] = {
		"abc", "zz", "0x11", " 00", "00 ", "0-", "+0", "00:11", "1g", "\xc3\xa9",
	};
	unsigned char b[8] = { 0x77 };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(otu_hex_decode(bad[i], b, sizeof(b)) == -EINVAL, "accepted '%s'", bad[i]);
	ck_assert_int_eq(b[0], 0x77); /* untouched on error */
}
END_TEST

START_TEST(decode_refuses_more_than_max)
{
	unsigned char b[4] = { 0x77, 0x77, 0x77, 0x77 };

	ck_assert_int_eq(otu_hex_decode("0011223344", b, sizeof(b)), -EMSGSIZE);
	ck_assert_int_eq(b[0], 0x77);
	/* Junk is junk at any length: the character is named before the size. */
	ck_assert_int_eq(otu_hex_decode("zz11223344", b, sizeof(b)), -EINVAL);
	ck_assert_int_eq(otu_hex_decode("00", b, 0), -EMSGSIZE);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("util_hex");
	TCase *tc = tcase_create("hex");

	tcase_add_test(tc, encode_is_lowercase_and_terminated);
	tcase_add_test(tc, fprint_matches_encode);
	tcase_add_test(tc, decode_round_trip_either_case);
	tcase_add_test(tc, decode_refuses_anything_but_digit_pairs);
	tcase_add_test(tc, decode_refuses_more_than_max);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(suite)
