// SPDX-License-Identifier: MIT
/*
 * A/B slot choice on cold boot: the boot data's primary slot first,
 * whatever SVN the other claims (an update runs on trial until COMMIT
 * makes it the primary), the other slot when the first is refused or
 * erased, and every attempt in the record.
 */
#include <check.h>
#include <string.h>

#include <otattest/shm.h>

#include "fw_run.h"
#include "handoff.h"
#include "swhal.h"
#include "tu_device.h"
#include "tu_main.h"

static struct tu_device dev;

static void setup(void)
{
	tu_device_init(&dev);
}

static void teardown(void)
{
	tu_device_free(&dev);
	swhal_close();
}

static struct tu_blob bl0(uint32_t svn, uint8_t seed)
{
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_BL0, svn);
	s.payload_seed = seed;
	return tu_image(&s);
}

static void set_bl0(struct tu_blob a, struct tu_blob b)
{
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	tu_blob_free(&dev.slot[OTI_BL0_B]);
	dev.slot[OTI_BL0_A] = a;
	dev.slot[OTI_BL0_B] = b;
}

static uint32_t bl0_attempts(void)
{
	const struct ota_record *r = tu_record();
	uint32_t i, n = 0;

	for (i = 0; i < r->hdr.stage_count; i++)
		n += r->stage[i].stage == OTA_STAGE_BL0;
	return n;
}

START_TEST(test_primary_boots_whatever_the_other_claims)
{
	set_bl0(bl0(5, 1), bl0(6, 2));
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->slot, OTA_SLOT_A);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->flags, OTA_STAGE_F_BOOTED);
	ck_assert_uint_eq(bl0_attempts(), 1);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
	ck_assert_uint_eq(ota_boot_state()->bl0_svn, 5);
}
END_TEST

START_TEST(test_primary_slot_decides)
{
	set_bl0(bl0(5, 1), bl0(5, 2));
	dev.primary_slot = OTA_SLOT_B;
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->slot, OTA_SLOT_B);
	swhal_close();
	dev.primary_slot = OTA_SLOT_A;
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->slot, OTA_SLOT_A);
}
END_TEST

/* An erased primary is not an attempt: the other slot boots first. */
START_TEST(test_erased_primary_is_skipped)
{
	struct tu_blob none = { 0 };

	set_bl0(none, bl0(5, 2));
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->slot, OTA_SLOT_B);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->flags, OTA_STAGE_F_BOOTED);
	ck_assert_uint_eq(bl0_attempts(), 1);
}
END_TEST

START_TEST(test_refused_slot_falls_back_and_both_are_recorded)
{
	const struct ota_record *r;

	set_bl0(bl0(5, 1), bl0(7, 2));
	dev.primary_slot = OTA_SLOT_B;
	tu_device_power_on(&dev);
	tu_flash_xor(tu_slot_offset(OTI_BL0_B) + 2000, 0x08);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	r = tu_record();
	ck_assert_uint_eq(r->hdr.stage_count, 3);
	ck_assert_uint_eq(r->stage[1].stage, OTA_STAGE_BL0);
	ck_assert_uint_eq(r->stage[1].slot, OTA_SLOT_B);
	ck_assert_uint_eq(r->stage[1].status, OTA_SIG_ECDSA_INVALID);
	ck_assert_uint_eq(r->stage[1].flags, 0);
	ck_assert_uint_eq(r->stage[2].slot, OTA_SLOT_A);
	ck_assert_uint_eq(r->stage[2].status, OTA_OK);
	ck_assert_uint_eq(r->stage[2].flags, OTA_STAGE_F_BOOTED | OTA_STAGE_F_FALLBACK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
}
END_TEST

/* A bad image may claim any SVN: on BL0 that no longer even earns it an attempt. */
START_TEST(test_inflated_svn_claim_is_not_tried)
{
	struct tu_blob b = bl0(5, 2);
	struct ota_manifest *m = (struct ota_manifest *)b.data;

	m->security_version = 100; /* unsigned change, under the chain ceiling */
	set_bl0(bl0(5, 1), b);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_ptr_null(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_B));
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->slot, OTA_SLOT_A);
}
END_TEST

START_TEST(test_both_slots_refused)
{
	uint32_t state, detail;

	set_bl0(bl0(5, 1), bl0(6, 2));
	tu_device_power_on(&dev);
	tu_flash_xor(tu_slot_offset(OTI_BL0_A) + 1000, 0x01);
	tu_flash_xor(tu_slot_offset(OTI_BL0_B) + 1000, 0x01);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(bl0_attempts(), 2);
	ck_assert_ptr_null(tu_booted(OTA_STAGE_BL0));
	swhal_last_state(&state, &detail);
	ck_assert_uint_eq(state, OTA_DEV_FAILED);
	ck_assert_uint_eq(detail, OTA_NO_BOOTABLE_SLOT);
}
END_TEST

START_TEST(test_empty_device)
{
	uint32_t i;

	for (i = 0; i < OTI_SLOTS; i++)
		tu_blob_free(&dev.slot[i]);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_ROM_EXT, OTA_SLOT_A)->status, OTA_SLOT_EMPTY);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_ROM_EXT, OTA_SLOT_B)->status, OTA_SLOT_EMPTY);
}
END_TEST

START_TEST(test_rom_ext_highest_svn)
{
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 3);
	s.signer = TU_CREATOR1;
	dev.slot[OTI_ROM_EXT_B] = tu_image(&s);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->slot, OTA_SLOT_B);
	ck_assert_uint_eq(ota_boot_state()->rom_ext_svn, 3);
	ck_assert_mem_eq(tu_booted(OTA_STAGE_ROM_EXT)->key_ids[0], tu_key(TU_CREATOR1)->key_id, 32);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("boot_ab");
	TCase *t = tcase_create("ab");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_primary_boots_whatever_the_other_claims);
	tcase_add_test(t, test_erased_primary_is_skipped);
	tcase_add_test(t, test_primary_slot_decides);
	tcase_add_test(t, test_refused_slot_falls_back_and_both_are_recorded);
	tcase_add_test(t, test_inflated_svn_claim_is_not_tried);
	tcase_add_test(t, test_both_slots_refused);
	tcase_add_test(t, test_empty_device);
	tcase_add_test(t, test_rom_ext_highest_svn);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite)
