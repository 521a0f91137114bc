// SPDX-License-Identifier: MIT
/*
 * Tag key rotation: a reset in which every non-empty slot is verified on
 * the slow path and re-tagged with key version v+1, committed by the boot
 * data. Afterwards every old tag fails and the next boot re-tags; a
 * rotation some valid image cannot take is refused and changes nothing.
 */
#include <check.h>
#include <string.h>

#include <otattest/flash.h>
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
	struct tu_image_spec s;

	tu_device_init(&dev);
	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 1);
	s.signer = TU_CREATOR1;
	s.payload_seed = 41;
	dev.slot[OTI_ROM_EXT_B] = tu_image(&s);
	dev.slot[OTI_BL0_B] = tu_bl0(2, 5, false);
}

static void teardown(void)
{
	tu_device_free(&dev);
	swhal_close();
}

static void boot_and_tag(void)
{
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
}

static void expect_tag_boot(uint32_t version)
{
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, version);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path, OTA_PATH_TAG);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->tag_key_version, version);
}

START_TEST(test_rotation_retags_every_slot_and_commits)
{
	struct ota_resp_rotate out;
	struct ota_tag_table t;
	uint32_t i, done, total;

	boot_and_tag();
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	ck_assert_uint_eq(out.old_key_version, 0);
	ck_assert_uint_eq(out.new_key_version, 1);
	ck_assert_uint_eq(out.stages_retagged, 4);
	swhal_last_progress(&done, &total);
	ck_assert_uint_eq(done, 4);
	ck_assert_uint_eq(total, 4);
	ck_assert_uint_eq(tu_boot_data().tag_key_version, 1);
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, 1);
	ck_assert_uint_eq(tu_record()->hdr.stage_count, 4); /* every slot was checked */
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE_RETAGGED);
	t = tu_tag_table();
	for (i = 0; i < OTA_TAG_ENTRIES; i++) {
		ck_assert_uint_eq(t.entry[i].state, OTA_TAG_STATE_VALID);
		ck_assert_uint_eq(t.entry[i].key_version, 1);
	}
	/* The runtime is back, on the same BL0 slot, and the next boot is fast. */
	ck_assert_uint_eq(ota_boot_state()->boot_status, OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
	expect_tag_boot(1);
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	ck_assert_uint_eq(out.new_key_version, 2);
	expect_tag_boot(2);
}
END_TEST

START_TEST(test_old_tags_fail_after_rotation)
{
	struct ota_resp_rotate out;
	struct ota_tag_table old;
	uint8_t page[OTA_FLASH_PAGE_SIZE];

	boot_and_tag();
	old = tu_tag_table();
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	/* Put the version-0 tags back, as the newest copy in both places. */
	old.sequence += 100;
	ota_tag_table_seal(&old);
	memset(page, 0xff, sizeof(page));
	memcpy(page, &old, sizeof(old));
	ck_assert_int_eq(swhal_poke_flash(tu_region(OTA_REGION_TAG_TABLE_0)->offset, page, sizeof(page)), 0);
	ck_assert_int_eq(swhal_poke_flash(tu_region(OTA_REGION_TAG_TABLE_1)->offset, page, sizeof(page)), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE_RETAGGED);
	/* Even rewritten with the old version number, an old tag is not a new one. */
	expect_tag_boot(1);
}
END_TEST

START_TEST(test_old_tag_relabelled_with_the_new_version_fails)
{
	struct ota_resp_rotate out;
	struct ota_tag_table old;
	uint8_t page[OTA_FLASH_PAGE_SIZE];
	uint32_t i;

	boot_and_tag();
	old = tu_tag_table();
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	for (i = 0; i < OTA_TAG_ENTRIES; i++)
		if (old.entry[i].state == OTA_TAG_STATE_VALID)
			old.entry[i].key_version = 1;
	old.sequence += 100;
	ota_tag_table_seal(&old);
	memset(page, 0xff, sizeof(page));
	memcpy(page, &old, sizeof(old));
	ck_assert_int_eq(swhal_poke_flash(tu_region(OTA_REGION_TAG_TABLE_0)->offset, page, sizeof(page)), 0);
	ck_assert_int_eq(swhal_poke_flash(tu_region(OTA_REGION_TAG_TABLE_1)->offset, page, sizeof(page)), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE_RETAGGED);
}
END_TEST

START_TEST(test_rotation_past_an_image_max_key_version_changes_nothing)
{
	struct ota_tag_table t0, t1;
	struct ota_boot_data b0, b1;
	struct ota_resp_rotate out;
	struct tu_image_spec s;
	uint64_t writes;
	uint32_t gen;

	tu_blob_free(&dev.slot[OTI_BL0_B]);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 3);
	s.max_key_version = 0; /* valid, but takes no key version past 0 */
	dev.slot[OTI_BL0_B] = tu_image(&s);
	boot_and_tag();
	t0 = tu_tag_table();
	b0 = tu_boot_data();
	writes = swhal_flash_writes();
	gen = tu_record()->hdr.generation;
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_TAG_KEY_VERSION_EXHAUSTED);
	ck_assert_uint_eq(out.old_key_version, 0);
	ck_assert_uint_eq(out.new_key_version, 0);
	ck_assert_uint_eq(swhal_flash_writes(), writes);
	t1 = tu_tag_table();
	b1 = tu_boot_data();
	ck_assert_mem_eq(&t0, &t1, sizeof(t0));
	ck_assert_mem_eq(&b0, &b1, sizeof(b0));
	ck_assert_uint_eq(tu_record()->hdr.generation, gen); /* no reset happened */
	ck_assert_uint_eq(ota_boot_state()->boot_status, OTA_OK);
	expect_tag_boot(0);
}
END_TEST

START_TEST(test_invalid_image_does_not_block_rotation)
{
	struct ota_resp_rotate out;
	struct tu_image_spec s;

	tu_blob_free(&dev.slot[OTI_BL0_B]);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 3);
	s.max_key_version = 0;
	dev.slot[OTI_BL0_B] = tu_image(&s);
	boot_and_tag();
	tu_flash_xor(tu_slot_offset(OTI_BL0_B) + 500, 0x01); /* now it would never boot */
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	ck_assert_uint_eq(out.stages_retagged, 3);
	ck_assert_uint_eq(out.new_key_version, 1);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_B)->status, OTA_SIG_ECDSA_INVALID);
	expect_tag_boot(1);
}
END_TEST

START_TEST(test_rotation_needs_tag_boot)
{
	struct ota_resp_rotate out;

	dev.features = 0;
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_TAG_BOOT_DISABLED);
}
END_TEST

START_TEST(test_rotation_needs_a_running_runtime)
{
	struct ota_resp_rotate out;

	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_MBOX_NOT_READY);
}
END_TEST

START_TEST(test_rotation_publishes_progress)
{
	struct ota_resp_rotate out;
	uint32_t state, detail;

	tu_blob_free(&dev.slot[OTI_ROM_EXT_B]); /* three slots to re-tag */
	boot_and_tag();
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	ck_assert_uint_eq(out.stages_retagged, 3);
	swhal_last_progress(&state, &detail);
	ck_assert_uint_eq(state, 3);
	ck_assert_uint_eq(detail, 3);
	swhal_last_state(&state, &detail);
	ck_assert_uint_eq(state, OTA_DEV_READY);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("boot_rotate");
	TCase *t = tcase_create("rotate");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_rotation_retags_every_slot_and_commits);
	tcase_add_test(t, test_old_tags_fail_after_rotation);
	tcase_add_test(t, test_old_tag_relabelled_with_the_new_version_fails);
	tcase_add_test(t, test_rotation_past_an_image_max_key_version_changes_nothing);
	tcase_add_test(t, test_invalid_image_does_not_block_rotation);
	tcase_add_test(t, test_rotation_needs_tag_boot);
	tcase_add_test(t, test_rotation_needs_a_running_runtime);
	tcase_add_test(t, test_rotation_publishes_progress);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite)
