// SPDX-License-Identifier: MIT
/*
 * Resets the runtime asks for. An update reset verifies its target before
 * resetting (a refused target changes nothing and the running image keeps
 * running); a warm reset boots the same image again; what they leave in
 * retention RAM.
 */
#include <check.h>
#include <string.h>

#include <otattest/shm.h>

#include "fw_run.h"
#include "handoff.h"
#include "hal.h"
#include "swhal.h"
#include "tu_device.h"
#include "tu_main.h"

static struct tu_device dev;

static void setup(void)
{
	tu_device_boot_default(&dev);
}

static void teardown(void)
{
	tu_device_close(&dev);
}

static void install_b(uint32_t svn)
{
	struct tu_blob b = tu_bl0(0, svn, false);

	tu_device_write_slot(OTI_BL0_B, &b);
	tu_blob_free(&b);
}

static struct ota_retention retention(void)
{
	struct ota_retention r;

	ck_assert_int_eq(swhal_peek_retention(0, &r, sizeof(r)), 0);
	return r;
}

static struct ota_reset_request request(void)
{
	struct ota_reset_request q;

	ck_assert_int_eq(swhal_peek_retention(OTA_RESET_REQUEST_OFFSET, &q, sizeof(q)), 0);
	return q;
}

START_TEST(test_update_reset_into_the_other_slot)
{
	struct ota_resp_reset out;
	const struct ota_record *r;
	uint32_t gen = tu_record()->hdr.generation;

	install_b(4); /* older than A: a cold boot would not pick it */
	ck_assert_uint_eq(ota_fw_update_reset(OTA_UPDATE_SLOT_OTHER, &out), OTA_OK);
	ck_assert_uint_eq(out.boot_status, OTA_OK);
	ck_assert_uint_eq(out.booted_slot, OTA_SLOT_B);
	ck_assert_uint_gt(out.generation, gen);
	r = tu_record();
	ck_assert_uint_eq(out.generation, r->hdr.generation);
	ck_assert_uint_eq(r->hdr.reset_reason, OTA_RESET_UPDATE);
	ck_assert_uint_eq(r->stage[1].slot, OTA_SLOT_B); /* tried first */
	ck_assert_uint_eq(r->stage[1].flags, OTA_STAGE_F_BOOTED);
	ck_assert_uint_eq(ota_boot_state()->bl0_svn, 4);
	/* The request was one-shot. */
	ck_assert_uint_eq(request().next_bl0_slot, OTA_NEXT_SLOT_NONE);
	ck_assert_uint_eq(retention().running_bl0_slot, OTA_SLOT_B);
	/* A warm reset stays there; a cold boot goes back to the A/B rule. */
	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_OK);
	ck_assert_uint_eq(out.booted_slot, OTA_SLOT_B);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
}
END_TEST

START_TEST(test_refused_update_changes_nothing)
{
	struct ota_retention before, after;
	struct ota_resp_reset out;
	uint32_t gen = tu_record()->hdr.generation;
	uint64_t writes;

	install_b(9);
	tu_flash_xor(tu_slot_offset(OTI_BL0_B) + 700, 0x02);
	before = retention();
	writes = swhal_flash_writes();
	ck_assert_uint_eq(ota_fw_update_reset(OTA_SLOT_B, &out), OTA_SIG_ECDSA_INVALID);
	/* No reset happened: same record, same slot, same retention, nothing written. */
	ck_assert_uint_eq(out.booted_slot, OTA_SLOT_A);
	ck_assert_uint_eq(out.generation, gen);
	ck_assert_uint_eq(tu_record()->hdr.generation, gen);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
	ck_assert_uint_eq(ota_boot_state()->boot_status, OTA_OK);
	after = retention();
	ck_assert_mem_eq(&before, &after, sizeof(before));
	ck_assert_uint_eq(swhal_flash_writes(), writes);
	ck_assert_uint_eq(hal_keymgr_state(), HAL_KEYMGR_RUNTIME);
}
END_TEST

START_TEST(test_update_to_an_empty_slot)
{
	struct ota_resp_reset out;

	ck_assert_uint_eq(ota_fw_update_reset(OTA_SLOT_B, &out), OTA_SLOT_EMPTY);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
}
END_TEST

START_TEST(test_update_to_an_image_policy_refuses)
{
	struct ota_resp_reset out;

	install_b(9);
	tu_otp_raise_floor(OTA_STAGE_BL0, 10);
	ck_assert_uint_eq(ota_fw_update_reset(OTA_SLOT_B, &out), OTA_SVN_BELOW_FLOOR);
}
END_TEST

START_TEST(test_update_with_a_bad_slot_number)
{
	struct ota_resp_reset out;

	ck_assert_uint_eq(ota_fw_update_reset(2, &out), OTA_MBOX_BAD_FIELD);
	ck_assert_uint_eq(ota_fw_update_reset(0x7fffffffu, &out), OTA_MBOX_BAD_FIELD);
}
END_TEST

START_TEST(test_update_into_the_running_slot_reverifies_it)
{
	struct ota_resp_reset out;

	ck_assert_uint_eq(ota_fw_update_reset(OTA_SLOT_A, &out), OTA_OK);
	ck_assert_uint_eq(out.booted_slot, OTA_SLOT_A);
	ck_assert_uint_eq(tu_record()->hdr.reset_reason, OTA_RESET_UPDATE);
}
END_TEST

START_TEST(test_warm_reset_boots_the_running_slot)
{
	struct ota_resp_reset out;

	install_b(9); /* newer: a cold boot would take it, a warm reset does not */
	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_OK);
	ck_assert_uint_eq(out.booted_slot, OTA_SLOT_A);
	ck_assert_uint_eq(tu_record()->hdr.reset_reason, OTA_RESET_WARM);
	/* Resets keep the tags: warm resets are fast. */
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
}
END_TEST

START_TEST(test_warm_reset_falls_back_when_the_running_image_is_gone)
{
	struct ota_resp_reset out;

	install_b(3);
	tu_flash_xor(tu_slot_offset(OTI_BL0_A) + 900, 0x01);
	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_OK);
	ck_assert_uint_eq(out.booted_slot, OTA_SLOT_B);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->flags, OTA_STAGE_F_BOOTED | OTA_STAGE_F_FALLBACK);
	/* An older image since cold boot: the chain followed it down. */
	ck_assert_uint_eq(ota_boot_state()->min_svn, 3);
}
END_TEST

START_TEST(test_resets_need_a_running_runtime)
{
	struct ota_resp_reset out;

	tu_flash_xor(tu_slot_offset(OTI_BL0_A) + 900, 0x01);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_MBOX_NOT_READY);
	ck_assert_uint_eq(ota_fw_update_reset(OTA_SLOT_B, &out), OTA_MBOX_NOT_READY);
}
END_TEST

START_TEST(test_retention_after_boot)
{
	struct ota_retention r = retention();

	ck_assert_uint_eq(r.magic, OTA_RETENTION_MAGIC);
	ck_assert_uint_eq(r.version, OTA_RETENTION_VERSION);
	ck_assert_uint_eq(r.min_svn, 5);
	ck_assert_uint_eq(r.chain_valid, OTA_HARDENED_TRUE);
	ck_assert_uint_eq(r.running_bl0_slot, OTA_SLOT_A);
	ck_assert_uint_eq(request().magic, 0); /* no request since the cold boot */
	/* A cold boot clears it; ota_fw_boot writes it again. */
	ck_assert_int_eq(swhal_power_on(), 0);
	r = retention();
	ck_assert_uint_eq(r.magic, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("boot_reset");
	TCase *t = tcase_create("reset");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_update_reset_into_the_other_slot);
	tcase_add_test(t, test_refused_update_changes_nothing);
	tcase_add_test(t, test_update_to_an_empty_slot);
	tcase_add_test(t, test_update_to_an_image_policy_refuses);
	tcase_add_test(t, test_update_with_a_bad_slot_number);
	tcase_add_test(t, test_update_into_the_running_slot_reverifies_it);
	tcase_add_test(t, test_warm_reset_boots_the_running_slot);
	tcase_add_test(t, test_warm_reset_falls_back_when_the_running_image_is_gone);
	tcase_add_test(t, test_resets_need_a_running_runtime);
	tcase_add_test(t, test_retention_after_boot);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite)
