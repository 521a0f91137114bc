// SPDX-License-Identifier: MIT
/*
 * Power cuts and write failures at every write of an install (the slot's
 * flash), a commit (the boot data ROM_EXT writes, its OTP anchor) and a
 * field revocation (ROM_EXT's OTP programs: the effect, then the
 * sequence), and a hybrid revocation's staging in flash (issue 28 item
 * 4). For each write n and each way of failing, the next cold boot
 * succeeds and runs an image that passed - never the torn one - and the
 * operation asked for again completes.
 */
#include <check.h>
#include <setjmp.h>
#include <string.h>

#include "fw_run.h"
#include "handoff.h"
#include "hal.h"
#include "swhal.h"
#include "tu_device.h"
#include "tu_main.h"
#include "tu_powercut.h"
#include "tu_mbox.h"

static struct tu_device dev;
static struct tu_blob v2;
static void setup(void)
{
	tu_device_init(&dev);
	v2 = tu_bl0(1, 6, false);
}

static void teardown(void)
{
	tu_blob_free(&v2);
	tu_device_free(&dev);
	swhal_close();
}

/* A device that booted A once (and tagged it), with the power-loss hook. */
static void booted_device(void)
{
	tu_powercut_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
}

static ota_status_t install_v2(void)
{
	return tu_install(OTA_STAGE_BL0, OTA_SLOT_B, v2.data, (uint32_t)v2.len, 0);
}

/* After whatever happened: the next cold boot succeeds, on a slot that passed. */
static void must_recover(uint32_t n, const char *what, int kind)
{
	ota_status_t st;

	swhal_fault_flash(0, SWHAL_FAULT_NONE);
	swhal_fault_otp_power_cut(0);
	ck_assert_int_eq(swhal_power_on(), 0);
	st = ota_fw_boot(OTA_RESET_COLD);
	ck_assert_msg(st == OTA_OK, "%s: fault %d at write %u: next boot %s", what, kind, n,
		      ota_status_name(st));
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->status, OTA_OK);
}

static void cut_every_install_write(enum swhal_fault kind)
{
	uint64_t w, total, n;

	booted_device();
	w = swhal_flash_writes();
	ck_assert_uint_eq(install_v2(), OTA_OK);
	total = swhal_flash_writes() - w;
	/* The manifest page's erase, then an erase and a program per page, then its program. */
	ck_assert_uint_ge(total, 2);
	for (n = 1; n <= total; n++) {
		uint32_t before = tu_cuts;

		booted_device();
		swhal_fault_flash((uint32_t)n, kind);
		if (setjmp(tu_cut) == 0) {
			ota_status_t st = install_v2();

			ck_assert_uint_eq(kind, SWHAL_FAULT_WRITE_ERROR);
			ck_assert_uint_eq(st, OTA_HAL_FLASH_WRITE_FAILED);
		}
		tu_fault_fired(kind, before);
		must_recover((uint32_t)n, "install", kind);
		/* A (the primary) runs; the torn B was never booted. */
		ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
		/* Installing again completes, and B boots on trial. */
		ck_assert_uint_eq(install_v2(), OTA_OK);
		ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
		ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
	}
}

START_TEST(test_install_write_errors)
{
	cut_every_install_write(SWHAL_FAULT_WRITE_ERROR);
}
END_TEST

START_TEST(test_install_power_cuts)
{
	cut_every_install_write(SWHAL_FAULT_POWER_LOSS);
}
END_TEST

/* B installed and running on trial, ready to be committed. */
static void trial_device(void)
{
	booted_device();
	ck_assert_uint_eq(install_v2(), OTA_OK);
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
}

static void cut_every_commit_write(enum swhal_fault kind)
{
	uint64_t w, total, n;

	trial_device();
	w = swhal_flash_writes();
	ck_assert_uint_eq(tu_commit(OTA_SLOT_B), OTA_OK);
	total = swhal_flash_writes() - w;
	ck_assert_uint_eq(total, 2); /* one boot data copy: erase, program */
	for (n = 1; n <= total; n++) {
		uint32_t before = tu_cuts;

		trial_device();
		swhal_fault_flash((uint32_t)n, kind);
		if (setjmp(tu_cut) == 0) {
			ota_status_t st = tu_commit(OTA_SLOT_B);

			ck_assert_uint_eq(kind, SWHAL_FAULT_WRITE_ERROR);
			/* The boot ran; the commit did not land and the answer says so. */
			ck_assert_uint_eq(st, OTA_HAL_FLASH_WRITE_FAILED);
			ck_assert_uint_eq(ota_boot_state()->boot_status, OTA_OK);
		}
		tu_fault_fired(kind, before);
		must_recover((uint32_t)n, "commit", kind);
		/* Not committed: back on A. Asking again from B commits. */
		ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
		ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
		ck_assert_uint_eq(tu_commit(OTA_SLOT_B), OTA_OK);
		ck_assert_int_eq(swhal_power_on(), 0);
		ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
		ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
	}
}

START_TEST(test_commit_write_errors)
{
	cut_every_commit_write(SWHAL_FAULT_WRITE_ERROR);
}
END_TEST

START_TEST(test_commit_power_cuts)
{
	cut_every_commit_write(SWHAL_FAULT_POWER_LOSS);
}
END_TEST

/*
 * Every flash write of a ratchet (its boot data copy): a write error is
 * answered, a power cut boots as before; either way the floor is as it
 * was or raised - never torn - and asked again, the ratchet lands.
 */
static void cut_every_ratchet_write(enum swhal_fault kind)
{
	uint64_t w, total, n;

	trial_device();
	ck_assert_uint_eq(tu_commit(OTA_SLOT_B), OTA_OK);
	w = swhal_flash_writes();
	ck_assert_uint_eq(tu_ratchet_flags(OTA_STAGE_BL0, 6, OTA_RATCHET_F_FORCE), OTA_OK);
	total = swhal_flash_writes() - w;
	ck_assert_uint_eq(total, 2); /* one boot data copy: erase, program */
	for (n = 1; n <= total; n++) {
		uint32_t before = tu_cuts;

		trial_device();
		ck_assert_uint_eq(tu_commit(OTA_SLOT_B), OTA_OK);
		swhal_fault_flash((uint32_t)n, kind);
		if (setjmp(tu_cut) == 0) {
			ota_status_t st = tu_ratchet_flags(OTA_STAGE_BL0, 6, OTA_RATCHET_F_FORCE);

			ck_assert_uint_eq(kind, SWHAL_FAULT_WRITE_ERROR);
			ck_assert_uint_eq(st, OTA_HAL_FLASH_WRITE_FAILED);
		}
		tu_fault_fired(kind, before);
		must_recover((uint32_t)n, "ratchet", kind);
		ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
		ck_assert_uint_eq(ota_boot_state()->boot_data.floor_bl0, 0);
		ck_assert_uint_eq(tu_ratchet_flags(OTA_STAGE_BL0, 6, OTA_RATCHET_F_FORCE), OTA_OK);
		ck_assert_uint_eq(ota_boot_state()->boot_data.floor_bl0, 6);
	}
}

START_TEST(test_ratchet_write_errors)
{
	cut_every_ratchet_write(SWHAL_FAULT_WRITE_ERROR);
}
END_TEST

START_TEST(test_ratchet_power_cuts)
{
	cut_every_ratchet_write(SWHAL_FAULT_POWER_LOSS);
}
END_TEST

/*
 * A commit changes the primary slot only: no OTP program at all (issue 27,
 * issue 28 item 3; the old code programmed one anchor bit per commit).
 */
START_TEST(test_commit_programs_no_otp)
{
	uint64_t o;

	trial_device();
	o = swhal_otp_programs();
	ck_assert_uint_eq(tu_commit(OTA_SLOT_B), OTA_OK);
	ck_assert_uint_eq(swhal_otp_programs() - o, 0);
	ck_assert_uint_eq(ota_boot_state()->boot_data.primary_slot, OTA_SLOT_B);
}
END_TEST

/*
 * A ratchet is a security change: its boot data copy, then its OTP anchor.
 * Power lost right after the anchor: the new copy is already in flash and
 * the raised floor holds.
 */
START_TEST(test_ratchet_power_cut_after_the_anchor)
{
	uint32_t before;

	trial_device();
	ck_assert_uint_eq(tu_commit(OTA_SLOT_B), OTA_OK);
	before = tu_cuts;
	swhal_fault_otp_power_cut(1);
	if (setjmp(tu_cut) == 0) {
		(void)tu_ratchet_flags(OTA_STAGE_BL0, 6, OTA_RATCHET_F_FORCE);
		ck_abort_msg("the cut did not fire");
	}
	ck_assert_uint_eq(tu_cuts, before + 1);
	must_recover(1, "ratchet anchor", SWHAL_FAULT_POWER_LOSS);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
	ck_assert_uint_eq(ota_boot_state()->boot_data.floor_bl0, 6); /* the copy landed */
}
END_TEST

/*
 * Every OTP program of a revocation: the floor, then the sequence - in
 * each of the four series: the owner's (_i 0, 1) and the creator's (_i 2,
 * 3), fleet-wide (even _i) and device-bound (odd _i).
 */
START_TEST(test_revocation_power_cuts)
{
	struct ota_revocation r;
	uint64_t o, total, n;

	trial_device();
	r = tu_revocation(_i < 2 ? TU_OWNER0 : TU_CREATOR0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0,
			  6, 1, _i % 2 ? dev.device_id : NULL);
	o = swhal_otp_programs();
	ck_assert_uint_eq(tu_revoke(&r), OTA_OK);
	total = swhal_otp_programs() - o;
	ck_assert_uint_eq(total, 2);
	for (n = 1; n <= total; n++) {
		uint32_t before;

		trial_device();
		before = tu_cuts;
		swhal_fault_otp_power_cut((uint32_t)n);
		if (setjmp(tu_cut) == 0)
			(void)tu_revoke(&r);
		ck_assert_uint_eq(tu_cuts, before + 1);
		must_recover((uint32_t)n, "revocation", SWHAL_FAULT_POWER_LOSS);
		/* The floor is in force (it was burned first); A, below it, is refused. */
		ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 6);
		ck_assert_uint_eq(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A)->status, OTA_SVN_BELOW_FLOOR);
		ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
		/* Sent again: in force already, or replayed - never applied twice. */
		ck_assert_uint_eq(tu_revoke(&r), n == 1 ? OTA_REVOKE_NOT_RAISED : OTA_REVOKE_REPLAYED);
	}
}
END_TEST

/*
 * Every flash write of a hybrid revocation's staging (the runtime writes
 * its 8000 bytes before the reset): a write error is answered and nothing
 * reset, a power cut boots as before; either way nothing is applied, and
 * the command sent again applies once.
 */
static void cut_every_hybrid_staging_write(enum swhal_fault kind)
{
	static struct ota_revocation_hybrid h;
	uint64_t w, total, n;

	swhal_close();
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_bl0(0, 7, true);
	dev.owner_keys[0] = TU_OWNER_H;
	dev.owner_key_count = 1;
	dev.owner_flags = OTA_OWNER_F_DIRECT_BOOT | OTA_OWNER_F_HYBRID_REQUIRED;
	tu_revocation_hybrid(TU_OWNER_H, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 3, 1, NULL, &h);
	booted_device();
	w = swhal_flash_writes();
	ck_assert_uint_eq(tu_revoke_hybrid(&h), OTA_OK);
	total = swhal_flash_writes() - w;
	ck_assert_uint_eq(total, 8); /* 4 pages: an erase and a program each */
	for (n = 1; n <= total; n++) {
		uint32_t before = tu_cuts;

		booted_device();
		swhal_fault_flash((uint32_t)n, kind);
		if (setjmp(tu_cut) == 0) {
			ota_status_t st = tu_revoke_hybrid(&h);

			ck_assert_uint_eq(kind, SWHAL_FAULT_WRITE_ERROR);
			ck_assert_uint_eq(st, OTA_HAL_FLASH_WRITE_FAILED);
		}
		tu_fault_fired(kind, before);
		must_recover((uint32_t)n, "hybrid revocation staging", kind);
		ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 0);
		ck_assert_uint_eq(ota_boot_state()->otp.revocation_seq, 0);
		ck_assert_uint_eq(tu_revoke_hybrid(&h), OTA_OK);
		ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 3);
		ck_assert_uint_eq(tu_revoke_hybrid(&h), OTA_REVOKE_REPLAYED);
	}
}

START_TEST(test_hybrid_revocation_staging_write_errors)
{
	cut_every_hybrid_staging_write(SWHAL_FAULT_WRITE_ERROR);
}
END_TEST

START_TEST(test_hybrid_revocation_staging_power_cuts)
{
	cut_every_hybrid_staging_write(SWHAL_FAULT_POWER_LOSS);
}
END_TEST

static Suite *update_powercut_suite(void)
{
	Suite *s = suite_create("update_powercut");
	TCase *t = tcase_create("cuts");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 300);
	tcase_add_test(t, test_install_write_errors);
	tcase_add_test(t, test_install_power_cuts);
	tcase_add_test(t, test_commit_write_errors);
	tcase_add_test(t, test_commit_power_cuts);
	tcase_add_test(t, test_commit_programs_no_otp);
	tcase_add_test(t, test_ratchet_power_cut_after_the_anchor);
	tcase_add_test(t, test_ratchet_write_errors);
	tcase_add_test(t, test_ratchet_power_cuts);
	tcase_add_loop_test(t, test_revocation_power_cuts, 0, 4);
	tcase_add_test(t, test_hybrid_revocation_staging_write_errors);
	tcase_add_test(t, test_hybrid_revocation_staging_power_cuts);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(update_powercut_suite)
