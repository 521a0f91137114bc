// SPDX-License-Identifier: MIT
/*
 * How much of a torn flash write lands (swhal_fault_flash_tear) and what
 * the HAL reports about it (swhal_last_tear): every tear, on a program
 * and on an erase, lands exactly its prefix, and the report counts the
 * bytes it changed against the bytes the whole write would change. The
 * power-cut tests name their cut points by that report.
 */
#include <check.h>
#include <string.h>

#include <otattest/flash.h>

#include "hal.h"
#include "swhal.h"
#include "testutil.h"
#include "tu_main.h"

#define PAGE OTA_FLASH_PAGE_SIZE
#define LEN 64u

static void setup(void)
{
	tu_hal_open_memory(4 * PAGE);
}

static void teardown(void)
{
	tu_hal_close();
}

static void set_tear(enum swhal_tear_kind kind, uint32_t bytes)
{
	struct swhal_tear t = { .kind = kind, .bytes = bytes };

	swhal_fault_flash_tear(&t);
}

static const struct {
	enum swhal_tear_kind kind;
	uint32_t bytes;
	uint32_t landed_program; /* of LEN bytes */
	uint32_t landed_erase;   /* of a page */
} tears[] = {
	{ SWHAL_TEAR_HALF, 0, LEN / 2, PAGE / 2 },
	{ SWHAL_TEAR_BYTES, 0, 0, 0 },
	{ SWHAL_TEAR_BYTES, 1, 1, 1 },
	{ SWHAL_TEAR_BYTES, 4, 4, 4 },
	{ SWHAL_TEAR_BYTES, 37, 37, 37 },
	{ SWHAL_TEAR_BYTES, 1000, LEN, 1000 }, /* capped at the program's length */
	{ SWHAL_TEAR_ALL_BUT_WORD, 0, LEN - 4, PAGE - 4 },
	{ SWHAL_TEAR_ALL, 0, LEN, PAGE },
};

START_TEST(test_program_lands_its_prefix)
{
	uint8_t zero[LEN] = { 0 };
	struct swhal_tear_report rep;
	uint32_t addr = PAGE;

	set_tear(tears[_i].kind, tears[_i].bytes);
	swhal_fault_flash(1, SWHAL_FAULT_WRITE_ERROR);
	ck_assert_uint_eq(hal_flash_program(addr, zero, LEN), OTA_HAL_FLASH_WRITE_FAILED);
	ck_assert_uint_eq(tu_flash_count_byte(addr, tears[_i].landed_program, 0x00),
			  tears[_i].landed_program);
	ck_assert_uint_eq(tu_flash_count_byte(addr + tears[_i].landed_program,
				     LEN - tears[_i].landed_program, 0xff),
			  LEN - tears[_i].landed_program);
	ck_assert(swhal_last_tear(&rep));
	ck_assert(!rep.erase);
	ck_assert_uint_eq(rep.addr, addr);
	ck_assert_uint_eq(rep.len, LEN);
	ck_assert_uint_eq(rep.landed, tears[_i].landed_program);
	ck_assert_uint_eq(rep.changed, tears[_i].landed_program);
	ck_assert_uint_eq(rep.would_change, LEN);
	/* The tear setting stays for the next fault; the fault itself is spent. */
	ck_assert_uint_eq(hal_flash_program(2 * PAGE, zero, LEN), OTA_OK);
	ck_assert_uint_eq(tu_flash_count_byte(2 * PAGE, LEN, 0x00), LEN);
}
END_TEST

START_TEST(test_erase_lands_its_prefix)
{
	uint8_t zero[LEN] = { 0 };
	struct swhal_tear_report rep;
	uint32_t i, addr = PAGE, landed = tears[_i].landed_erase;

	/* A page holding data only in its first 2 * LEN bytes, as a record page does. */
	ck_assert_uint_eq(hal_flash_program(addr, zero, LEN), OTA_OK);
	ck_assert_uint_eq(hal_flash_program(addr + LEN, zero, LEN), OTA_OK);
	set_tear(tears[_i].kind, tears[_i].bytes);
	swhal_fault_flash(1, SWHAL_FAULT_WRITE_ERROR);
	ck_assert_uint_eq(hal_flash_erase_page(addr), OTA_HAL_FLASH_WRITE_FAILED);
	/* The erased prefix reads 0xff, the data after it is still there. */
	for (i = 0; i < 2 * LEN; i++)
		ck_assert_uint_eq(tu_flash_count_byte(addr + i, 1, 0xff), i < landed);
	ck_assert_uint_eq(tu_flash_count_byte(addr + 2 * LEN, PAGE - 2 * LEN, 0xff), PAGE - 2 * LEN);
	ck_assert(swhal_last_tear(&rep));
	ck_assert(rep.erase);
	ck_assert_uint_eq(rep.addr, addr);
	ck_assert_uint_eq(rep.len, PAGE);
	ck_assert_uint_eq(rep.landed, landed);
	/* Only the data bytes change: erasing erased bytes changes nothing. */
	ck_assert_uint_eq(rep.changed, landed < 2 * LEN ? landed : 2 * LEN);
	ck_assert_uint_eq(rep.would_change, 2 * LEN);
}
END_TEST

/* A tear that lands all of the write is still a power cut before the acknowledgement. */
START_TEST(test_all_lands_then_power_is_cut)
{
	uint8_t data[LEN];
	struct swhal_tear_report rep;

	memset(data, 0x5a, sizeof(data));
	set_tear(SWHAL_TEAR_ALL, 0);
	swhal_fault_flash(1, SWHAL_FAULT_POWER_LOSS);
	ck_assert_uint_eq(hal_flash_program(0, data, LEN), OTA_HAL_POWER_LOST);
	ck_assert(!swhal_powered());
	ck_assert_uint_eq(tu_flash_count_byte(0, LEN, 0x5a), LEN);
	ck_assert(swhal_last_tear(&rep));
	ck_assert_uint_eq(rep.landed, LEN);
	ck_assert_uint_eq(rep.changed, rep.would_change);
}
END_TEST

/* Bytes already as the write leaves them are not counted as changed. */
START_TEST(test_report_counts_changed_bytes)
{
	uint8_t data[LEN], ones[4];
	struct swhal_tear_report rep;

	memset(data, 0xff, sizeof(data));
	data[0] = 0x00;
	data[10] = 0x7f;
	data[50] = 0x01;
	set_tear(SWHAL_TEAR_BYTES, 20);
	swhal_fault_flash(1, SWHAL_FAULT_WRITE_ERROR);
	ck_assert_uint_eq(hal_flash_program(0, data, LEN), OTA_HAL_FLASH_WRITE_FAILED);
	ck_assert(swhal_last_tear(&rep));
	ck_assert_uint_eq(rep.landed, 20);
	ck_assert_uint_eq(rep.changed, 2);
	ck_assert_uint_eq(rep.would_change, 3);
	/* all-but-word of a write shorter than a word lands nothing. */
	memset(ones, 0, sizeof(ones));
	set_tear(SWHAL_TEAR_ALL_BUT_WORD, 0);
	swhal_fault_flash(1, SWHAL_FAULT_WRITE_ERROR);
	ck_assert_uint_eq(hal_flash_program(PAGE, ones, 3), OTA_HAL_FLASH_WRITE_FAILED);
	ck_assert_uint_eq(tu_flash_count_byte(PAGE, 4, 0xff), 4);
}
END_TEST

START_TEST(test_open_starts_at_half_with_no_report)
{
	uint8_t zero[LEN] = { 0 };
	struct swhal_tear_report rep;

	ck_assert(!swhal_last_tear(&rep));
	set_tear(SWHAL_TEAR_ALL, 0);
	tu_hal_close();
	tu_hal_open_memory(4 * PAGE);
	ck_assert(!swhal_last_tear(NULL));
	swhal_fault_flash(1, SWHAL_FAULT_WRITE_ERROR);
	ck_assert_uint_eq(hal_flash_program(0, zero, LEN), OTA_HAL_FLASH_WRITE_FAILED);
	ck_assert_uint_eq(tu_flash_count_byte(0, LEN, 0x00), LEN / 2);
	/* NULL puts the default back. */
	set_tear(SWHAL_TEAR_ALL, 0);
	swhal_fault_flash_tear(NULL);
	swhal_fault_flash(1, SWHAL_FAULT_WRITE_ERROR);
	ck_assert_uint_eq(hal_flash_program(PAGE, zero, LEN), OTA_HAL_FLASH_WRITE_FAILED);
	ck_assert_uint_eq(tu_flash_count_byte(PAGE, LEN, 0x00), LEN / 2);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("swhal_tear");
	TCase *t = tcase_create("tear");
	int n = (int)(sizeof(tears) / sizeof(tears[0]));

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_loop_test(t, test_program_lands_its_prefix, 0, n);
	tcase_add_loop_test(t, test_erase_lands_its_prefix, 0, n);
	tcase_add_test(t, test_all_lands_then_power_is_cut);
	tcase_add_test(t, test_report_counts_changed_bytes);
	tcase_add_test(t, test_open_starts_at_half_with_no_report);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(suite)
