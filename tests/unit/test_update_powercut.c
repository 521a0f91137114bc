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
 * Every write of a ratchet: its OTP floor program, then its boot data
 * copy (erase, program). A write error of the copy comes after the floor
 * is in OTP: the ratchet is done and answers OK; a power cut anywhere
 * boots; the floor in force is as it was or raised - never torn - and
 * once the OTP program has landed it holds, whatever the copy says.
 * Asked again, the ratchet completes (or finds the floor in force).
 */
static void ratchet_device(void)
{
	trial_device();
	ck_assert_uint_eq(tu_commit(OTA_SLOT_B), OTA_OK);
}

static uint32_t floor_in_force(void)
{
	ck_assert_uint_eq(tu_record()->hdr.floor_bl0, ota_boot_state()->otp.floor_bl0);
	return tu_record()->hdr.floor_bl0;
}

static void ratchet_again(void)
{
	ck_assert_uint_eq(tu_ratchet_flags(OTA_STAGE_BL0, 6, OTA_RATCHET_F_FORCE), OTA_OK);
	ck_assert_uint_eq(floor_in_force(), 6);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(floor_in_force(), 6);
}

/* Not inlined: its checks would sit next to the caller's setjmp. */
__attribute__((noinline)) static uint64_t writes_of_ratchet(void)
{
	uint64_t w, o, total;

	ratchet_device();
	w = swhal_flash_writes();
	o = swhal_otp_programs();
	ck_assert_uint_eq(tu_ratchet_flags(OTA_STAGE_BL0, 6, OTA_RATCHET_F_FORCE), OTA_OK);
	total = swhal_flash_writes() - w;
	ck_assert_uint_eq(total, 2); /* one boot data copy: erase, program */
	ck_assert_uint_eq(swhal_otp_programs() - o, 1); /* the floor, before the copy */
	return total;
}

static void cut_every_ratchet_write(enum swhal_fault kind)
{
	uint64_t total, n;

	total = writes_of_ratchet();
	for (n = 1; n <= total; n++) {
		uint32_t before = tu_cuts;

		ratchet_device();
		swhal_fault_flash((uint32_t)n, kind);
		if (setjmp(tu_cut) == 0) {
			ota_status_t st = tu_ratchet_flags(OTA_STAGE_BL0, 6, OTA_RATCHET_F_FORCE);

			/* The copy failed after the floor's OTP program: the ratchet is done. */
			ck_assert_uint_eq(kind, SWHAL_FAULT_WRITE_ERROR);
			ck_assert_uint_eq(st, OTA_OK);
			ck_assert_uint_eq(floor_in_force(), 6);
		}
		tu_fault_fired(kind, before);
		must_recover((uint32_t)n, "ratchet", kind);
		ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
		/* The floor went into OTP before the copy: it holds, the copy or not. */
		ck_assert_uint_eq(floor_in_force(), 6);
		ck_assert_uint_eq(ota_boot_state()->boot_data.floor_bl0, 0);
		ratchet_again();
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
 * A ratchet's OTP program comes first (issue 28 item 3): power lost right
 * after it, before the copy, and the raised floor holds - the copy never
 * landed. On the old code the copy came first and the anchor after it.
 */
static void ratchet_to_6(void)
{
	(void)tu_ratchet_flags(OTA_STAGE_BL0, 6, OTA_RATCHET_F_FORCE);
}

START_TEST(test_ratchet_power_cut_after_the_floor)
{
	uint64_t w;

	ratchet_device();
	w = swhal_flash_writes();
	tu_cut_after_otp_program(1, ratchet_to_6);
	ck_assert_uint_eq(swhal_flash_writes(), w); /* nothing of the copy written */
	must_recover(1, "ratchet floor", SWHAL_FAULT_POWER_LOSS);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
	ck_assert_uint_eq(floor_in_force(), 6);
	ck_assert_uint_eq(ota_boot_state()->boot_data.floor_bl0, 0);
	ratchet_again();
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

/*
 * The adversarial cut (issue 28 item 3): power is cut right after one
 * write of a security change has landed - each flash write (the whole
 * write lands, then the power goes) and each OTP program in turn - and
 * then, before the next boot, a flash programmer outside the chip writes
 * the boot data pages back as they were before the change (`_i` 0) or
 * erases the page the change wrote (`_i` 1). Whatever the device would
 * have honoured at that boot without the programmer - the tag key
 * version, BL0's floor - it must honour with it: nothing rolls back. On
 * the old code (the boot data copy first, then the OTP anchor) the cut
 * after the copy's program, then either tampering, booted the copy from
 * before the change.
 */
struct held {
	uint32_t version;
	uint32_t floor;
};

enum security_change { CHANGE_ROTATION, CHANGE_RATCHET };

static ota_status_t change_run(enum security_change c)
{
	struct ota_resp_rotate out;

	if (c == CHANGE_ROTATION)
		return ota_fw_rotate_tags(&out);
	return tu_ratchet_flags(OTA_STAGE_BL0, 6, OTA_RATCHET_F_FORCE);
}

static void boot_data_pages(uint8_t pages[2][OTA_FLASH_PAGE_SIZE])
{
	uint32_t i;

	for (i = 0; i < 2; i++)
		ck_assert_int_eq(swhal_peek_flash(tu_region(OTA_REGION_BOOT_DATA_0 + i)->offset,
						  pages[i], OTA_FLASH_PAGE_SIZE), 0);
}

/* The flash programmer: the pages from before the change back (0), or the changed one erased (1). */
static void programmer_undoes(int how, uint8_t before[2][OTA_FLASH_PAGE_SIZE])
{
	static uint8_t now[2][OTA_FLASH_PAGE_SIZE], erased[OTA_FLASH_PAGE_SIZE];
	uint32_t i;

	boot_data_pages(now);
	memset(erased, 0xff, sizeof(erased));
	for (i = 0; i < 2; i++) {
		if (!memcmp(now[i], before[i], OTA_FLASH_PAGE_SIZE))
			continue;
		ck_assert_int_eq(swhal_poke_flash(tu_region(OTA_REGION_BOOT_DATA_0 + i)->offset,
						  how == 0 ? before[i] : erased, OTA_FLASH_PAGE_SIZE), 0);
	}
}

/*
 * The change with power cut after its nth flash write (otp false) or nth
 * OTP program (otp true), the programmer's undoing when `how` >= 0, then
 * a cold boot: what the device holds.
 */
static struct held cut_and_boot(enum security_change c, bool otp, uint32_t n, int how)
{
	static uint8_t before[2][OTA_FLASH_PAGE_SIZE];
	const struct swhal_tear all = { .kind = SWHAL_TEAR_ALL };
	uint32_t cuts;
	ota_status_t st;

	ratchet_device();
	boot_data_pages(before);
	cuts = tu_cuts;
	swhal_fault_flash_tear(&all);
	if (otp)
		swhal_fault_otp_power_cut(n);
	else
		swhal_fault_flash(n, SWHAL_FAULT_POWER_LOSS);
	if (setjmp(tu_cut) == 0) {
		(void)change_run(c);
		ck_abort_msg("change %d: the cut at %s write %u did not fire", c, otp ? "OTP" : "flash", n);
	}
	ck_assert_uint_eq(tu_cuts, cuts + 1);
	if (how >= 0)
		programmer_undoes(how, before);
	swhal_fault_flash(0, SWHAL_FAULT_NONE);
	swhal_fault_otp_power_cut(0);
	ck_assert_int_eq(swhal_power_on(), 0);
	st = ota_fw_boot(OTA_RESET_COLD);
	ck_assert_msg(st == OTA_OK, "change %d, cut at %s write %u, undoing %d: boot %s", c,
		      otp ? "OTP" : "flash", n, how, ota_status_name(st));
	return (struct held){ tu_record()->hdr.tag_key_version, tu_record()->hdr.floor_bl0 };
}

static void adversarial_cuts(enum security_change c, int how)
{
	uint64_t w, o, writes[2];
	struct held done, honest, undone;
	uint32_t kind, n, changed = 0;

	ratchet_device();
	w = swhal_flash_writes();
	o = swhal_otp_programs();
	ck_assert_uint_eq(change_run(c), OTA_OK);
	writes[0] = swhal_flash_writes() - w;
	writes[1] = swhal_otp_programs() - o;
	done = (struct held){ tu_record()->hdr.tag_key_version, tu_record()->hdr.floor_bl0 };
	ck_assert_uint_eq(done.version, c == CHANGE_ROTATION ? 1 : 0);
	ck_assert_uint_eq(done.floor, c == CHANGE_RATCHET ? 6 : 0);
	ck_assert_uint_ge(writes[1], 1);
	for (kind = 0; kind < 2; kind++) {
		for (n = 1; n <= writes[kind]; n++) {
			honest = cut_and_boot(c, kind == 1, n, -1);
			undone = cut_and_boot(c, kind == 1, n, how);
			ck_assert_msg(undone.version == honest.version && undone.floor == honest.floor,
				      "change %d, cut after %s write %u of %u: the device held version %u "
				      "floor %u, the programmer's undoing (%d) brought it to version %u floor %u",
				      c, kind ? "OTP" : "flash", n, (uint32_t)writes[kind], honest.version,
				      honest.floor, how, undone.version, undone.floor);
			changed += honest.version != 0 || honest.floor != 0;
		}
	}
	/* Some cut came after the change's commit point: the test saw it held. */
	ck_assert_uint_ge(changed, 1);
}

START_TEST(test_adversarial_cut_rotation)
{
	adversarial_cuts(CHANGE_ROTATION, _i);
}
END_TEST

START_TEST(test_adversarial_cut_ratchet)
{
	adversarial_cuts(CHANGE_RATCHET, _i);
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
	tcase_add_test(t, test_ratchet_power_cut_after_the_floor);
	tcase_add_test(t, test_ratchet_write_errors);
	tcase_add_test(t, test_ratchet_power_cuts);
	tcase_add_loop_test(t, test_revocation_power_cuts, 0, 4);
	/* _i 0: the pages from before written back; 1: the changed page erased. */
	tcase_add_loop_test(t, test_adversarial_cut_rotation, 0, 2);
	tcase_add_loop_test(t, test_adversarial_cut_ratchet, 0, 2);
	tcase_add_test(t, test_hybrid_revocation_staging_write_errors);
	tcase_add_test(t, test_hybrid_revocation_staging_power_cuts);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(update_powercut_suite)
