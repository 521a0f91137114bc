// SPDX-License-Identifier: MIT
/* libotattest-util strict integers: the whole string is the number. */
#include <check.h>
#include <errno.h>
#include <stdint.h>

#include <otu/num.h>

#include "tu_main.h"

START_TEST(decimal_values_and_bounds)
{
	uint64_t v = 0;
	uint32_t w = 0;

	ck_assert_int_eq(otu_parse_u64("0", OTU_DEC, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(otu_parse_u64("42", OTU_DEC, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 42);
	ck_assert_int_eq(otu_parse_u64("18446744073709551615", OTU_DEC, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	/* Decimal only: a leading zero is just a zero. */
	ck_assert_int_eq(otu_parse_u64("010", OTU_DEC, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 10);
	ck_assert_int_eq(otu_parse_u32("4294967295", OTU_DEC, 0, UINT32_MAX, &w), 0);
	ck_assert_uint_eq(w, UINT32_MAX);
	/* min and max are both inclusive. */
	ck_assert_int_eq(otu_parse_u32("1", OTU_DEC, 1, 5, &w), 0);
	ck_assert_int_eq(otu_parse_u32("5", OTU_DEC, 1, 5, &w), 0);
	ck_assert_uint_eq(w, 5);
}
END_TEST

START_TEST(out_of_range_and_overflow)
{
	uint64_t v = 7;
	uint32_t w = 7;

	ck_assert_int_eq(otu_parse_u32("0", OTU_DEC, 1, 5, &w), -ERANGE);
	ck_assert_int_eq(otu_parse_u32("6", OTU_DEC, 1, 5, &w), -ERANGE);
	ck_assert_int_eq(otu_parse_u32("4294967296", OTU_DEC, 0, UINT32_MAX, &w), -ERANGE);
	ck_assert_int_eq(otu_parse_u64("18446744073709551616", OTU_DEC, 0, UINT64_MAX, &v), -ERANGE);
	ck_assert_int_eq(otu_parse_u64("99999999999999999999999", OTU_DEC, 0, UINT64_MAX, &v), -ERANGE);
	ck_assert_int_eq(otu_parse_u64("0x10000000000000000", OTU_DEC_OR_HEX, 0, UINT64_MAX, &v),
			 -ERANGE);
	ck_assert_uint_eq(v, 7); /* untouched on error */
	ck_assert_uint_eq(w, 7);
}
END_TEST

START_TEST(junk_sign_and_blanks_refused)
{
	static const char *const bad[] = {
		"", "-1", "+1", "-0", " 1", "1 ", "\t1", "1\n", "1x", "x1", "1.0", "1e3", "1,000",
		"0x", "0x-1", "0x 1", "0x0x10", "0b1", "\xd9\xa1", /* ARABIC-INDIC DIGIT ONE */
	};
	uint64_t v = 7;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(otu_parse_u64(bad[i], OTU_DEC, 0, UINT64_MAX, &v) == -EINVAL,
			      "decimal accepted '%s'", bad[i]);
		ck_assert_msg(otu_parse_u64(bad[i], OTU_DEC_OR_HEX, 0, UINT64_MAX, &v) == -EINVAL,
			      "decimal-or-hex accepted '%s'", bad[i]);
	}
	ck_assert_int_eq(otu_parse_u64(NULL, OTU_DEC, 0, UINT64_MAX, &v), -EINVAL);
	ck_assert_uint_eq(v, 7);
}
END_TEST

START_TEST(hex_only_after_0x_and_no_octal)
{
	uint64_t v = 0;

	ck_assert_int_eq(otu_parse_u64("0x10", OTU_DEC_OR_HEX, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 16);
	ck_assert_int_eq(otu_parse_u64("0XfF", OTU_DEC_OR_HEX, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 255);
	ck_assert_int_eq(otu_parse_u64("0xffffffffffffffff", OTU_DEC_OR_HEX, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(otu_parse_u64("0", OTU_DEC_OR_HEX, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(otu_parse_u64("17", OTU_DEC_OR_HEX, 0, UINT64_MAX, &v), 0);
	ck_assert_uint_eq(v, 17);
	/* "010" is 8 to strtoul's base 0 and 10 to a person: neither is guessed. */
	ck_assert_int_eq(otu_parse_u64("010", OTU_DEC_OR_HEX, 0, UINT64_MAX, &v), -EINVAL);
	ck_assert_int_eq(otu_parse_u64("08", OTU_DEC_OR_HEX, 0, UINT64_MAX, &v), -EINVAL);
	/* Decimal-only callers take no hex at all. */
	ck_assert_int_eq(otu_parse_u64("0x10", OTU_DEC, 0, UINT64_MAX, &v), -EINVAL);
	ck_assert_int_eq(otu_parse_u64("ff", OTU_DEC_OR_HEX, 0, UINT64_MAX, &v), -EINVAL);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("util_num");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, decimal_values_and_bounds);
	tcase_add_test(tc, out_of_range_and_overflow);
	tcase_add_test(tc, junk_sign_and_blanks_refused);
	tcase_add_test(tc, hex_only_after_0x_and_no_octal);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(suite)
