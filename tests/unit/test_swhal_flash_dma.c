// SPDX-License-Identifier: MIT
/*
 * hal_flash_read_sha256, the flash-to-RAM transfer with inline SHA-256:
 * the bytes land in RAM exactly as flash holds them, the digest is the
 * SHA-256 of what landed (for every length around the model's burst size,
 * mixed with plain engine updates, split over several transfers), and
 * every refusal reads, writes and hashes nothing.
 */
#include <check.h>
#include <string.h>

#include <otattest/flash.h>

#include "hal.h"
#include "swhal.h"
#include "testutil.h"
#include "tu_check.h"
#include "tu_main.h"

#define FLASH_BYTES (16u * OTA_FLASH_PAGE_SIZE)
#define GUARD 64u
#define FILL 0xa5u

static uint8_t flash[FLASH_BYTES];
/* Where the transfer lands, with guard bytes either side that must not change. */
static uint8_t ram[GUARD + FLASH_BYTES + GUARD];

static void setup(void)
{
	uint32_t i, x = 0x12345678u;

	tu_hal_open_memory(FLASH_BYTES);
	for (i = 0; i < FLASH_BYTES; i++) {
		x = x * 1103515245u + 12345u; /* any non-repeating content */
		flash[i] = (uint8_t)(x >> 16);
	}
	ck_assert_int_eq(swhal_load_flash(flash, FLASH_BYTES), 0);
	memset(ram, FILL, sizeof(ram));
}

static void teardown(void)
{
	tu_hal_close();
}

static bool untouched(const uint8_t *p, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		if (p[i] != FILL)
			return false;
	return true;
}

/* One transfer of len bytes at addr after a plain update of `prefix`. */
static void check_transfer(uint32_t addr, uint32_t len, uint32_t prefix)
{
	uint8_t want[OTA_SHA256_BYTES], got[OTA_SHA256_BYTES];
	static uint8_t msg[FLASH_BYTES * 2];
	const uint8_t head[] = "bytes hashed before the transfer";

	ck_assert_uint_le(prefix, sizeof(head));
	memset(ram, FILL, sizeof(ram));
	memcpy(msg, head, prefix);
	memcpy(msg + prefix, flash + addr, len);
	tu_sha256(msg, prefix + len, want);

	EXPECT(hal_sha256_start(), OTA_OK);
	EXPECT(hal_sha256_update(head, prefix), OTA_OK);
	EXPECT(hal_flash_read_sha256(addr, ram + GUARD, len), OTA_OK);
	EXPECT(hal_sha256_finish(got), OTA_OK);
	ck_assert_msg(memcmp(got, want, sizeof(want)) == 0, "digest of %u bytes at %u", len, addr);
	ck_assert_msg(memcmp(ram + GUARD, flash + addr, len) == 0, "copy of %u bytes at %u", len,
		      addr);
	ck_assert(untouched(ram, GUARD));
	ck_assert(untouched(ram + GUARD + len, sizeof(ram) - GUARD - len));
}

START_TEST(test_lands_and_hashes_every_length)
{
	/* Around the model's 1 KiB burst and its prefetch distance, and the whole device. */
	static const uint32_t lens[] = {
		0, 1, 63, 64, 1023, 1024, 1025, 2047, 2048, 3071, 3072, 3073,
		4096 + 17, 5 * 1024, 7 * 1024 + 1, FLASH_BYTES - 300, FLASH_BYTES,
	};
	uint32_t i;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		/* From an address that is not burst aligned, where the length allows. */
		uint32_t addr = lens[i] <= FLASH_BYTES - 300 ? 300 : 0;

		check_transfer(addr, lens[i], 0);
		check_transfer(addr, lens[i], 13); /* after a plain update, mid-block */
	}
	check_transfer(FLASH_BYTES - 1, 1, 0); /* the last byte of the device */
}
END_TEST

START_TEST(test_split_transfers_make_one_digest)
{
	uint8_t want[OTA_SHA256_BYTES], got[OTA_SHA256_BYTES];

	tu_sha256(flash + 100, 9000, want);
	EXPECT(hal_sha256_start(), OTA_OK);
	EXPECT(hal_flash_read_sha256(100, ram, 1000), OTA_OK);
	EXPECT(hal_flash_read_sha256(1100, ram + 1000, 1), OTA_OK);
	EXPECT(hal_sha256_update(flash + 1101, 3000), OTA_OK); /* a plain update between */
	EXPECT(hal_flash_read_sha256(4101, ram + 4001, 4999), OTA_OK);
	EXPECT(hal_sha256_finish(got), OTA_OK);
	ck_assert_mem_eq(got, want, sizeof(want));
	ck_assert_mem_eq(ram, flash + 100, 1001);
	ck_assert_mem_eq(ram + 4001, flash + 4101, 4999);
	ck_assert(untouched(ram + 1001, 3000)); /* the plain update wrote nothing */
}
END_TEST

START_TEST(test_refusals_read_and_hash_nothing)
{
	uint8_t want[OTA_SHA256_BYTES], got[OTA_SHA256_BYTES];

	/* No operation started: nothing lands. */
	EXPECT(hal_flash_read_sha256(0, ram, 4096), OTA_HAL_ENGINE_IDLE);
	ck_assert(untouched(ram, sizeof(ram)));

	/* Out of bounds or no buffer: nothing lands and the operation goes on unchanged. */
	tu_sha256(flash, 10, want);
	EXPECT(hal_sha256_start(), OTA_OK);
	EXPECT(hal_flash_read_sha256(0, ram, 10), OTA_OK);
	EXPECT(hal_flash_read_sha256(FLASH_BYTES - 4, ram + 10, 8), OTA_HAL_FLASH_BAD_ADDRESS);
	EXPECT(hal_flash_read_sha256(FLASH_BYTES, ram + 10, 1), OTA_HAL_FLASH_BAD_ADDRESS);
	EXPECT(hal_flash_read_sha256(0xfffffc00u, ram + 10, 0x800), OTA_HAL_FLASH_BAD_ADDRESS);
	EXPECT(hal_flash_read_sha256(0, NULL, 16), OTA_HAL_BAD_ARGUMENT);
	ck_assert(untouched(ram + 10, sizeof(ram) - 10));
	EXPECT(hal_sha256_finish(got), OTA_OK);
	ck_assert_mem_eq(got, want, sizeof(want));

	/* After finish the engine is idle again. */
	EXPECT(hal_flash_read_sha256(0, ram + 10, 16), OTA_HAL_ENGINE_IDLE);
	ck_assert(untouched(ram + 10, sizeof(ram) - 10));

	/* A powered-off device does nothing. */
	EXPECT(hal_sha256_start(), OTA_OK);
	swhal_power_off();
	EXPECT(hal_flash_read_sha256(0, ram + 10, 16), OTA_HAL_POWER_LOST);
	ck_assert(untouched(ram + 10, sizeof(ram) - 10));
}
END_TEST

START_TEST(test_ram_copy_is_what_was_hashed)
{
	uint8_t digest[OTA_SHA256_BYTES], again[OTA_SHA256_BYTES], zero[32] = { 0 };

	EXPECT(hal_sha256_start(), OTA_OK);
	EXPECT(hal_flash_read_sha256(2048, ram, 4096), OTA_OK);
	EXPECT(hal_sha256_finish(digest), OTA_OK);
	/* Flash changes afterwards: the RAM copy and its digest still agree. */
	EXPECT(hal_flash_program(2048 + 100, zero, sizeof(zero)), OTA_OK);
	tu_sha256(ram, 4096, again);
	ck_assert_mem_eq(digest, again, sizeof(digest));
	ck_assert_mem_eq(ram, flash + 2048, 4096);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("swhal_flash_dma");
	TCase *t = tcase_create("flash_dma");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_lands_and_hashes_every_length);
	tcase_add_test(t, test_split_transfers_make_one_digest);
	tcase_add_test(t, test_refusals_read_and_hash_nothing);
	tcase_add_test(t, test_ram_copy_is_what_was_hashed);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(suite)
