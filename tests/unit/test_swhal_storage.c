// SPDX-License-Identifier: MIT
/*
 * The software HAL's storage and host interface: NOR flash semantics and
 * bounds, torn writes and simulated power loss, OR-only OTP with an
 * unreadable secret partition, retention RAM lifetime, crash-safe state
 * files, and a record generation that never moves backwards.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otattest/flash.h>

#include "hal.h"
#include "swhal.h"
#include "testutil.h"
#include "tu_main.h"

#define PAGE OTA_FLASH_PAGE_SIZE

static void setup(void)
{
	tu_hal_open_memory(16 * PAGE);
}

static void teardown(void)
{
	tu_hal_close();
}

START_TEST(test_flash_is_nor)
{
	uint8_t a[16], b[16];

	ck_assert_uint_eq(hal_flash_size(), 16 * PAGE);
	ck_assert_uint_eq(hal_flash_page_size(), PAGE);
	ck_assert_uint_eq(tu_flash_count_byte(PAGE, PAGE, 0xff), PAGE); /* a new part is erased */
	memset(a, 0x0f, sizeof(a));
	ck_assert_uint_eq(hal_flash_program(PAGE + 8, a, sizeof(a)), OTA_OK);
	/* Clearing more bits is allowed... */
	memset(a, 0x05, sizeof(a));
	ck_assert_uint_eq(hal_flash_program(PAGE + 8, a, sizeof(a)), OTA_OK);
	ck_assert_uint_eq(hal_flash_read(PAGE + 8, b, sizeof(b)), OTA_OK);
	ck_assert_mem_eq(a, b, sizeof(a));
	/* ...setting one is not, and the refused program changes nothing. */
	a[15] = 0x07;
	ck_assert_uint_eq(hal_flash_program(PAGE + 8, a, sizeof(a)), OTA_HAL_FLASH_NOT_ERASED);
	ck_assert_uint_eq(hal_flash_read(PAGE + 8, b, sizeof(b)), OTA_OK);
	ck_assert_uint_eq(b[0], 0x05);
	ck_assert_uint_eq(b[15], 0x05);
	/* Erase is per page and sets everything back to 0xff. */
	ck_assert_uint_eq(hal_flash_erase_page(PAGE), OTA_OK);
	ck_assert_uint_eq(tu_flash_count_byte(PAGE, PAGE, 0xff), PAGE);
}
END_TEST

START_TEST(test_flash_bounds)
{
	uint8_t b[8] = { 0 };

	ck_assert_uint_eq(hal_flash_read(16 * PAGE - 4, b, 8), OTA_HAL_FLASH_BAD_ADDRESS);
	ck_assert_uint_eq(hal_flash_read(0xfffffffcu, b, 8), OTA_HAL_FLASH_BAD_ADDRESS);
	ck_assert_uint_eq(hal_flash_program(16 * PAGE - 4, b, 8), OTA_HAL_FLASH_BAD_ADDRESS);
	ck_assert_uint_eq(hal_flash_erase_page(16 * PAGE), OTA_HAL_FLASH_BAD_ADDRESS);
	ck_assert_uint_eq(hal_flash_erase_page(PAGE + 1), OTA_HAL_FLASH_BAD_ADDRESS);
	ck_assert_uint_eq(hal_flash_read(16 * PAGE - 8, b, 8), OTA_OK);
	ck_assert_uint_eq(swhal_flash_writes(), 0); /* refused writes are not writes */
}
END_TEST

START_TEST(test_write_error_tears_the_page)
{
	uint8_t zero[64] = { 0 };
	uint32_t i;

	swhal_fault_flash(2, SWHAL_FAULT_WRITE_ERROR);
	ck_assert_uint_eq(hal_flash_program(0, zero, 64), OTA_OK);  /* write 1 */
	ck_assert_uint_eq(hal_flash_program(PAGE, zero, 64), OTA_HAL_FLASH_WRITE_FAILED);
	ck_assert_uint_eq(tu_flash_count_byte(PAGE, 64, 0x00), 32);            /* first half landed */
	ck_assert_uint_eq(tu_flash_count_byte(PAGE + 32, 32, 0xff), 32);
	ck_assert_uint_eq(swhal_flash_writes(), 2);
	/* One fault at a time: the next write works. */
	ck_assert_uint_eq(hal_flash_program(PAGE + 32, zero, 32), OTA_OK);

	/* A torn erase: only the first half of the page is back to 0xff. */
	ck_assert_uint_eq(hal_flash_erase_page(0), OTA_OK);
	for (i = 0; i < PAGE; i += sizeof(zero))
		ck_assert_uint_eq(hal_flash_program(i, zero, sizeof(zero)), OTA_OK);
	swhal_fault_flash(1, SWHAL_FAULT_WRITE_ERROR);
	ck_assert_uint_eq(hal_flash_erase_page(0), OTA_HAL_FLASH_WRITE_FAILED);
	ck_assert_uint_eq(tu_flash_count_byte(0, PAGE / 2, 0xff), PAGE / 2);
	ck_assert_uint_eq(tu_flash_count_byte(PAGE / 2, PAGE / 2, 0x00), PAGE / 2);
	ck_assert_uint_eq(hal_flash_erase_page(0), OTA_OK);
	ck_assert_uint_eq(tu_flash_count_byte(0, PAGE, 0xff), PAGE);
}
END_TEST

static jmp_buf power_cut;
static int power_losses;

static void on_power_loss(void *ctx)
{
	(void)ctx;
	power_losses++;
	longjmp(power_cut, 1);
}

START_TEST(test_power_loss_stops_the_device)
{
	struct swhal_host_ops ops = { .power_loss = on_power_loss };
	uint8_t zero[64] = { 0 }, b[4];
	volatile int writes_done = 0;

	swhal_set_host_ops(&ops, NULL);
	swhal_fault_flash(3, SWHAL_FAULT_POWER_LOSS);
	if (setjmp(power_cut) == 0) {
		for (;;) {
			ck_assert_uint_eq(hal_flash_program((uint32_t)writes_done * PAGE, zero, 64), OTA_OK);
			writes_done++;
		}
	}
	ck_assert_int_eq(power_losses, 1);
	ck_assert_int_eq(writes_done, 2);
	ck_assert_uint_eq(tu_flash_count_byte(2 * PAGE, 64, 0x00), 32); /* torn */
	ck_assert(!swhal_powered());
	ck_assert_uint_eq(hal_flash_read(0, b, 4), OTA_HAL_POWER_LOST);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(hal_flash_read(2 * PAGE, b, 4), OTA_OK);
	ck_assert_uint_eq(b[0], 0);
}
END_TEST

START_TEST(test_otp_or_only_and_locked_partitions)
{
	uint8_t v[4] = { 0x01, 0, 0, 0 }, r[4];
	struct ota_otp otp;

	memset(&otp, 0, sizeof(otp));
	otp.magic = OTA_OTP_MAGIC;
	ck_assert_int_eq(swhal_load_otp(&otp, sizeof(otp)), 0);
	ck_assert_uint_eq(hal_otp_program(OTA_OTP_COUNTERS_START, v, 4), OTA_OK);
	v[0] = 0x03;
	ck_assert_uint_eq(hal_otp_program(OTA_OTP_COUNTERS_START, v, 4), OTA_OK);
	v[0] = 0x02; /* would clear bit 0 */
	ck_assert_uint_eq(hal_otp_program(OTA_OTP_COUNTERS_START, v, 4), OTA_OTP_CLEARS_BITS);
	ck_assert_uint_eq(hal_otp_read(OTA_OTP_COUNTERS_START, r, 4), OTA_OK);
	ck_assert_uint_eq(r[0], 0x03);
	/* Below the counters everything is fixed at provisioning. */
	ck_assert_uint_eq(hal_otp_program(24, v, 4), OTA_HAL_OTP_LOCKED);
	ck_assert_uint_eq(hal_otp_program(OTA_OTP_SECRET_START, v, 4), OTA_HAL_OTP_LOCKED);
	ck_assert_uint_eq(hal_otp_program(1022, v, 4), OTA_HAL_BAD_ARGUMENT);
}
END_TEST

START_TEST(test_otp_secret_partition_is_unreadable)
{
	uint8_t secret[32], buf[1024];
	struct ota_otp otp;

	memset(secret, 0xa5, sizeof(secret));
	tu_otp_secret_only(&otp, secret);
	otp.magic = OTA_OTP_MAGIC;
	ck_assert_int_eq(swhal_load_otp(&otp, sizeof(otp)), 0);
	ck_assert_uint_eq(hal_otp_read(0, buf, sizeof(buf)), OTA_HAL_OTP_SECRET);
	ck_assert_uint_eq(hal_otp_read(OTA_OTP_SECRET_START, buf, 1), OTA_HAL_OTP_SECRET);
	ck_assert_uint_eq(hal_otp_read(OTA_OTP_SECRET_START - 1, buf, 2), OTA_HAL_OTP_SECRET);
	ck_assert_uint_eq(hal_otp_read(OTA_OTP_SECRET_DIGEST_END - 1, buf, 1), OTA_HAL_OTP_SECRET);
	ck_assert_uint_eq(hal_otp_read(0, buf, OTA_OTP_SECRET_START), OTA_OK);
	ck_assert_uint_eq(hal_otp_read(OTA_OTP_SECRET_DIGEST_END, buf,
				       1024 - OTA_OTP_SECRET_DIGEST_END), OTA_OK);
	ck_assert_uint_eq(hal_otp_read(1020, buf, 8), OTA_HAL_BAD_ARGUMENT);
}
END_TEST

START_TEST(test_retention_lifetime)
{
	uint8_t w[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, r[8], z[8] = { 0 };

	ck_assert_uint_eq(hal_retention_write(HAL_RETENTION_BYTES - 8, w, 8), OTA_OK);
	ck_assert_uint_eq(hal_retention_write(HAL_RETENTION_BYTES - 4, w, 8), OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(hal_retention_read(HAL_RETENTION_BYTES - 8, r, 8), OTA_OK);
	ck_assert_mem_eq(r, w, 8);
	ck_assert_uint_eq(swhal_reset(OTA_RESET_UPDATE), OTA_OK);
	ck_assert_uint_eq(hal_retention_read(HAL_RETENTION_BYTES - 8, r, 8), OTA_OK);
	ck_assert_mem_eq(r, w, 8);
	ck_assert_int_eq(swhal_power_on(), 0); /* cold boot */
	ck_assert_uint_eq(hal_retention_read(HAL_RETENTION_BYTES - 8, r, 8), OTA_OK);
	ck_assert_mem_eq(r, z, 8);
	ck_assert_uint_eq(hal_retention_write(0, w, 8), OTA_OK);
	ck_assert_uint_eq(swhal_reset(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(hal_retention_read(0, r, 8), OTA_OK);
	ck_assert_mem_eq(r, z, 8);
}
END_TEST

static uint32_t records_seen, last_gen;

static void on_record(void *ctx, const struct ota_record_header *rec, uint32_t len)
{
	(void)ctx;
	ck_assert_uint_eq(len, sizeof(*rec));
	ck_assert_uint_gt(rec->generation, last_gen);
	last_gen = rec->generation;
	records_seen++;
}

START_TEST(test_record_generation_moves_forward)
{
	struct swhal_host_ops ops = { .record = on_record };
	struct ota_record_header rec;
	uint32_t g1, g2, g3;

	memset(&rec, 0, sizeof(rec));
	swhal_set_host_ops(&ops, NULL);
	g1 = hal_host_publish_record(&rec, sizeof(rec));
	ck_assert_uint_ne(g1, 0);
	ck_assert_uint_eq(rec.generation, g1);
	ck_assert_int_eq(swhal_power_on(), 0);
	g2 = hal_host_publish_record(&rec, sizeof(rec));
	ck_assert_uint_gt(g2, g1);
	ck_assert_uint_eq(hal_host_publish_record(&rec, 4), 0); /* not a record */
	g3 = hal_host_publish_record(&rec, sizeof(rec));
	ck_assert_uint_eq(g3, g2 + 1);
	ck_assert_uint_eq(records_seen, 3);
	ck_assert_uint_eq(swhal_last_record(NULL, 0), sizeof(rec));
}
END_TEST

START_TEST(test_state_and_progress_reach_the_host)
{
	uint32_t s, d;

	hal_host_set_state(2, OTA_OK);
	hal_host_progress(1, 4);
	swhal_last_state(&s, &d);
	ck_assert_uint_eq(s, 2);
	ck_assert_uint_eq(d, OTA_OK);
	swhal_last_progress(&s, &d);
	ck_assert_uint_eq(s, 1);
	ck_assert_uint_eq(d, 4);
}
END_TEST

static bool dir_has_temporaries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool found = false;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL)
		found |= e->d_name[0] == '.' && strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return found;
}

START_TEST(test_state_directory_persists)
{
	struct swhal_options o = { .flash_size = 8 * PAGE };
	uint8_t v[4] = { 0x0f, 0, 0, 0 }, r[4], z[4] = { 0 };
	struct ota_record_header rec;
	char *dir = tu_mkdtemp(), path[4200];
	struct stat st;
	uint32_t gen;

	tu_hal_close(); /* the fixture's in-memory device */
	memset(&rec, 0, sizeof(rec));
	ck_assert_int_eq(swhal_open(dir, &o), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(hal_flash_program(3 * PAGE, v, 4), OTA_OK);
	ck_assert_uint_eq(hal_otp_program(OTA_OTP_COUNTERS_START, v, 4), OTA_OK);
	ck_assert_uint_eq(hal_retention_write(0, v, 4), OTA_OK);
	gen = hal_host_publish_record(&rec, sizeof(rec));
	ck_assert_uint_ne(gen, 0);
	swhal_close();

	snprintf(path, sizeof(path), "%s/flash.bin", dir);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_size, 8 * PAGE);
	ck_assert(!dir_has_temporaries(dir));

	/* A new process: the flash size comes from flash.bin, not the options. */
	o.flash_size = 0;
	ck_assert_int_eq(swhal_open(dir, &o), 0);
	ck_assert_int_eq(swhal_open(dir, &o), -EBUSY);
	ck_assert_int_eq(swhal_peek_retention(0, r, 4), 0);
	ck_assert_mem_eq(r, v, 4); /* retention as the last process left it... */
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(hal_flash_size(), 8 * PAGE);
	ck_assert_uint_eq(hal_flash_read(3 * PAGE, r, 4), OTA_OK);
	ck_assert_mem_eq(r, v, 4);
	ck_assert_uint_eq(hal_otp_read(OTA_OTP_COUNTERS_START, r, 4), OTA_OK);
	ck_assert_mem_eq(r, v, 4);
	ck_assert_uint_eq(hal_retention_read(0, r, 4), OTA_OK);
	ck_assert_mem_eq(r, z, 4); /* ...and zero after the power-on */
	ck_assert_uint_gt(hal_host_publish_record(&rec, sizeof(rec)), gen);
	swhal_close();
	tu_rmdir_state(dir);
	tu_hal_open_memory(16 * PAGE); /* for the fixture's teardown */
}
END_TEST

START_TEST(test_state_directory_rejects_bad_files)
{
	char *dir = tu_mkdtemp(), path[4200];
	FILE *f;

	tu_hal_close();
	snprintf(path, sizeof(path), "%s/flash.bin", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("not a page multiple", f);
	fclose(f);
	ck_assert_int_eq(swhal_open(dir, NULL), -EINVAL);
	unlink(path);
	snprintf(path, sizeof(path), "%s/otp.bin", dir);
	f = fopen(path, "w");
	fputs("short", f);
	fclose(f);
	ck_assert_int_eq(swhal_open(dir, NULL), -EINVAL);
	tu_rmdir_state(dir);
	tu_hal_open_memory(16 * PAGE);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("swhal_storage");
	TCase *t = tcase_create("storage");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_flash_is_nor);
	tcase_add_test(t, test_flash_bounds);
	tcase_add_test(t, test_write_error_tears_the_page);
	tcase_add_test(t, test_power_loss_stops_the_device);
	tcase_add_test(t, test_otp_or_only_and_locked_partitions);
	tcase_add_test(t, test_otp_secret_partition_is_unreadable);
	tcase_add_test(t, test_retention_lifetime);
	tcase_add_test(t, test_record_generation_moves_forward);
	tcase_add_test(t, test_state_and_progress_reach_the_host);
	tcase_add_test(t, test_state_directory_persists);
	tcase_add_test(t, test_state_directory_rejects_bad_files);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(suite)
