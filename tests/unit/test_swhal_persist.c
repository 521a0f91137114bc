// SPDX-License-Identifier: MIT
/*
 * The chip's state files (qemu-model/chip/persist.c): an emulated write
 * changes its file in place, with no rename and no new file, and a
 * process killed right after it (SIGKILL, no cleanup, as a power cut
 * kills the model) leaves every write it made in the files the next
 * process opens; a torn write's page is there as it tore; factory
 * programming replaces a file whole.
 */
#include <check.h>
#include <dirent.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <otattest/flash.h>
#include <otattest/otp.h>

#include "hal.h"
#include "swhal.h"
#include "testutil.h"
#include "tu_main.h"

#define PAGE OTA_FLASH_PAGE_SIZE
#define FLASH (16 * PAGE)

static const char *const state_files[] = { "flash.bin", "otp.bin", "retention.bin" };

static ino_t inode_of(const char *dir, const char *name)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_msg(stat(path, &st) == 0, "%s is missing", path);
	return st.st_ino;
}

static unsigned temporaries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL)
		n += strstr(e->d_name, ".tmp") != NULL;
	closedir(d);
	return n;
}

/* A device in dir with an OTP image that allows counter programming. */
static void open_dir_device(const char *dir)
{
	struct swhal_options o = { .flash_size = FLASH };
	struct ota_otp otp;

	ck_assert_int_eq(swhal_open(dir, &o), 0);
	memset(&otp, 0, sizeof(otp));
	otp.magic = OTA_OTP_MAGIC;
	ck_assert_int_eq(swhal_load_otp(&otp, sizeof(otp)), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
}

/* One write of each kind, with values check_writes() recognises. */
static void make_writes(void)
{
	uint8_t v[64], counter[4] = { 0x0f, 0, 0, 0 };

	memset(v, 0x3c, sizeof(v));
	ck_assert_uint_eq(hal_flash_program(3 * PAGE + 64, v, sizeof(v)), OTA_OK);
	ck_assert_uint_eq(hal_flash_program(5 * PAGE, v, sizeof(v)), OTA_OK);
	ck_assert_uint_eq(hal_flash_erase_page(5 * PAGE), OTA_OK);
	ck_assert_uint_eq(hal_otp_program(OTA_OTP_COUNTERS_START, counter, sizeof(counter)), OTA_OK);
	ck_assert_uint_eq(hal_retention_write(8, v, 16), OTA_OK);
}

/* What make_writes left, as a newly opened device sees it (before its power-on). */
static void check_writes(void)
{
	uint8_t b[64], want[64];

	memset(want, 0x3c, sizeof(want));
	ck_assert_int_eq(swhal_peek_flash(3 * PAGE + 64, b, sizeof(b)), 0);
	ck_assert_mem_eq(b, want, sizeof(b));
	ck_assert_int_eq(swhal_peek_flash(3 * PAGE + 128, b, 1), 0);
	ck_assert_uint_eq(b[0], 0xff);
	ck_assert_int_eq(swhal_peek_flash(5 * PAGE, b, sizeof(b)), 0);
	memset(want, 0xff, sizeof(want));
	ck_assert_mem_eq(b, want, sizeof(b)); /* programmed, then erased */
	ck_assert_int_eq(swhal_peek_otp(OTA_OTP_COUNTERS_START, b, 4), 0);
	ck_assert_uint_eq(b[0], 0x0f);
	ck_assert_int_eq(swhal_peek_retention(8, b, 16), 0);
	memset(want, 0x3c, 16);
	ck_assert_mem_eq(b, want, 16);
}

/*
 * The old way replaced a whole file per write (temporary, fsync, rename):
 * every write made a new inode. Now the same files take every write.
 */
START_TEST(test_writes_change_the_files_in_place)
{
	char *dir = tu_mkdtemp();
	ino_t before[3];
	unsigned i;

	open_dir_device(dir);
	for (i = 0; i < 3; i++)
		before[i] = inode_of(dir, state_files[i]);
	make_writes();
	for (i = 0; i < 3; i++)
		ck_assert_msg(inode_of(dir, state_files[i]) == before[i], "%s was replaced",
			      state_files[i]);
	ck_assert_uint_eq(temporaries(dir), 0);
	swhal_close();

	ck_assert_int_eq(swhal_open(dir, NULL), 0);
	check_writes();
	swhal_close();
	tu_rmdir_state(dir);
}
END_TEST

/* A child that makes the writes and dies by SIGKILL without closing anything. */
static void killed_after_writes(const char *dir, void (*writes)(void))
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		open_dir_device(dir);
		writes();
		raise(SIGKILL);
		_exit(1);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

START_TEST(test_sigkill_keeps_every_write)
{
	struct swhal_options o = { .flash_size = 0 };
	char *dir = tu_mkdtemp();

	killed_after_writes(dir, make_writes);
	ck_assert_int_eq(swhal_open(dir, &o), 0);
	ck_assert_uint_eq(hal_flash_size(), FLASH);
	check_writes();
	swhal_close();
	tu_rmdir_state(dir);
}
END_TEST

/* The model's power_loss handler: die on the spot, as the model does. */
static void die_now(void *ctx)
{
	(void)ctx;
	raise(SIGKILL);
}

static void torn_write(void)
{
	struct swhal_host_ops ops = { .power_loss = die_now };
	uint8_t zero[256] = { 0 };

	swhal_set_host_ops(&ops, NULL);
	ck_assert_uint_eq(hal_flash_program(2 * PAGE, zero, sizeof(zero)), OTA_OK);
	swhal_fault_flash(1, SWHAL_FAULT_POWER_LOSS); /* the default tear: half lands */
	(void)hal_flash_program(7 * PAGE, zero, sizeof(zero));
}

START_TEST(test_torn_write_is_in_the_file)
{
	struct swhal_options o = { .flash_size = 0 };
	char *dir = tu_mkdtemp();

	killed_after_writes(dir, torn_write);
	ck_assert_int_eq(swhal_open(dir, &o), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(tu_flash_count_byte(2 * PAGE, 256, 0x00), 256);
	ck_assert_uint_eq(tu_flash_count_byte(7 * PAGE, 128, 0x00), 128);
	ck_assert_uint_eq(tu_flash_count_byte(7 * PAGE + 128, 128, 0xff), 128);
	swhal_close();
	tu_rmdir_state(dir);
}
END_TEST

/* Factory programming replaces flash and OTP whole, and the next process reads them. */
START_TEST(test_factory_images_replace_the_files)
{
	struct swhal_options o = { .flash_size = FLASH };
	static uint8_t image[FLASH / 2], b[FLASH];
	char *dir = tu_mkdtemp();
	struct ota_otp otp, got;
	uint32_t i;

	for (i = 0; i < sizeof(image); i++)
		image[i] = (uint8_t)(i * 7 + 1);
	memset(&otp, 0x11, sizeof(otp));
	ck_assert_int_eq(swhal_open(dir, &o), 0);
	ck_assert_int_eq(swhal_load_flash(image, sizeof(image)), 0);
	ck_assert_int_eq(swhal_load_otp(&otp, sizeof(otp)), 0);
	swhal_close();
	ck_assert_uint_eq(temporaries(dir), 0);

	ck_assert_int_eq(swhal_open(dir, &o), 0);
	ck_assert_int_eq(swhal_peek_flash(0, b, FLASH), 0);
	ck_assert_mem_eq(b, image, sizeof(image));
	for (i = sizeof(image); i < FLASH; i++)
		ck_assert_uint_eq(b[i], 0xff);
	ck_assert_int_eq(swhal_peek_otp(0, &got, sizeof(got)), 0);
	ck_assert_mem_eq(&got, &otp, sizeof(otp));
	swhal_close();
	tu_rmdir_state(dir);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("swhal_persist");
	TCase *t = tcase_create("persist");

	tcase_add_test(t, test_writes_change_the_files_in_place);
	tcase_add_test(t, test_sigkill_keeps_every_write);
	tcase_add_test(t, test_torn_write_is_in_the_file);
	tcase_add_test(t, test_factory_images_replace_the_files);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(suite)
