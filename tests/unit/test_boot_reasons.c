// SPDX-License-Identifier: MIT
/*
 * Why a stage took the slow path (the stage record's path_reason): each
 * reason the stage check can decide, made to happen on the software HAL
 * the way it happens in the field, and the tag path recording none.
 */
#include <check.h>
#include <string.h>

#include <otattest/flash.h>
#include <otattest/sha256.h>

#include "fw_run.h"
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

static void boot(void)
{
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
}

static void reboot(void)
{
	ck_assert_int_eq(swhal_power_on(), 0);
	boot();
}

static uint32_t bl0_reason(void)
{
	const struct ota_stage_record *s = tu_booted(OTA_STAGE_BL0);

	ck_assert_ptr_nonnull(s);
	return s->path_reason;
}

/* Rewrite the newest tag table copy in place, resealed: what a flash programmer can do. */
static void edit_bl0_tag(void (*edit)(struct ota_tag_entry *e))
{
	const struct ota_flash_region *r[2] = { tu_region(OTA_REGION_TAG_TABLE_0),
						tu_region(OTA_REGION_TAG_TABLE_1) };
	struct ota_tag_table tt[2];
	int i;

	ck_assert_int_eq(swhal_peek_flash(r[0]->offset, &tt[0], sizeof(tt[0])), 0);
	ck_assert_int_eq(swhal_peek_flash(r[1]->offset, &tt[1], sizeof(tt[1])), 0);
	i = ota_tag_table_pick(tt, NULL);
	ck_assert_int_ge(i, 0);
	edit(&tt[i].entry[ota_tag_index(OTA_STAGE_BL0, OTA_SLOT_A)]);
	ota_tag_table_seal(&tt[i]);
	ck_assert_int_eq(swhal_poke_flash(r[i]->offset, &tt[i], sizeof(tt[i])), 0);
}

START_TEST(test_first_boot_has_no_tag)
{
	tu_device_power_on(&dev);
	boot();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path_reason, OTA_REASON_NO_TAG);
	ck_assert_uint_eq(bl0_reason(), OTA_REASON_NO_TAG);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE_RETAGGED);
}
END_TEST

START_TEST(test_tag_path_has_no_reason)
{
	tu_device_power_on(&dev);
	boot();
	reboot();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
	ck_assert_uint_eq(bl0_reason(), OTA_REASON_NONE);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path_reason, OTA_REASON_NONE);
}
END_TEST

static void flip_tag(struct ota_tag_entry *e)
{
	e->tag[5] ^= 0x04;
}

START_TEST(test_forged_tag_is_a_mismatch)
{
	tu_device_power_on(&dev);
	boot();
	edit_bl0_tag(flip_tag);
	reboot();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_uint_eq(bl0_reason(), OTA_REASON_TAG_MISMATCH);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path_reason, OTA_REASON_NONE);
}
END_TEST

static uint8_t new_measurement[OTA_SHA256_BYTES];

/* Another validly signed image written where the tagged one was: an update, not a forgery. */
static void write_other_bl0(void)
{
	struct tu_image_spec s;
	struct tu_blob other;

	tu_image_spec_init(&s, OTA_STAGE_BL0, 5);
	s.payload_seed = 0x5a;
	other = tu_image(&s);
	tu_measurement(&other, new_measurement);
	tu_device_write_slot(OTI_BL0_A, &other);
	tu_blob_free(&other);
}

START_TEST(test_rewritten_slot_is_an_image_change)
{
	tu_device_power_on(&dev);
	boot();
	write_other_bl0();
	reboot();
	ck_assert_uint_eq(bl0_reason(), OTA_REASON_IMAGE_CHANGED);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE_RETAGGED);
	reboot();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
}
END_TEST

static void claim_the_new_image(struct ota_tag_entry *e)
{
	memcpy(e->tag + OTA_TAG_MAC_BYTES, new_measurement, OTA_TAG_HINT_BYTES);
}

/* The old image's tag relabelled for the new one: a forgery the hint cannot hide. */
START_TEST(test_tag_relabelled_for_a_new_image_is_a_mismatch)
{
	tu_device_power_on(&dev);
	boot();
	write_other_bl0();
	edit_bl0_tag(claim_the_new_image);
	reboot();
	ck_assert_uint_eq(bl0_reason(), OTA_REASON_TAG_MISMATCH);
}
END_TEST

static void old_key_version(struct ota_tag_entry *e)
{
	e->key_version += 3;
}

START_TEST(test_tag_of_another_key_version_is_stale)
{
	tu_device_power_on(&dev);
	boot();
	edit_bl0_tag(old_key_version);
	reboot();
	ck_assert_uint_eq(bl0_reason(), OTA_REASON_STALE_KEY_VERSION);
}
END_TEST

START_TEST(test_key_version_moved_on_leaves_tags_stale)
{
	struct ota_boot_data bd;

	tu_device_power_on(&dev);
	boot();
	/* The key version committed while the tags stayed at the old one. */
	bd = tu_boot_data();
	bd.tag_key_version++;
	bd.counter++;
	tu_boot_data_write(&bd);
	boot();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path_reason, OTA_REASON_STALE_KEY_VERSION);
	ck_assert_uint_eq(bl0_reason(), OTA_REASON_STALE_KEY_VERSION);
}
END_TEST

START_TEST(test_tag_boot_off_in_otp)
{
	dev.features = 0;
	tu_device_power_on(&dev);
	boot();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path_reason, OTA_REASON_TAG_BOOT_OFF);
	ck_assert_uint_eq(bl0_reason(), OTA_REASON_TAG_BOOT_OFF);
}
END_TEST

START_TEST(test_image_not_tag_capable)
{
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_BL0, 3);
	s.usage.flags = OTA_CAP_DEBUG;
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_image(&s);
	tu_device_power_on(&dev);
	boot();
	reboot();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE);
	ck_assert_uint_eq(bl0_reason(), OTA_REASON_NOT_TAG_CAPABLE);
	/* The DEBUG usage flag is in the record's effective constraints. */
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->effective.usage.flags, OTA_CAP_DEBUG);
}
END_TEST

START_TEST(test_key_version_above_the_image_max)
{
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_BL0, 3);
	s.max_key_version = 1;
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_image(&s);
	dev.tag_key_version = 2;
	tu_device_power_on(&dev);
	boot();
	reboot();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE);
	ck_assert_uint_eq(bl0_reason(), OTA_REASON_KEY_VERSION_ABOVE_MAX);
}
END_TEST

START_TEST(test_rotation_reverifies)
{
	struct ota_resp_rotate out;
	const struct ota_stage_record *s;

	tu_device_power_on(&dev);
	boot();
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	s = tu_booted(OTA_STAGE_BL0);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_uint_eq(s->path_reason, OTA_REASON_ROTATION);
	reboot();
	ck_assert_uint_eq(bl0_reason(), OTA_REASON_NONE);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("boot_reasons");
	TCase *t = tcase_create("reasons");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_first_boot_has_no_tag);
	tcase_add_test(t, test_tag_path_has_no_reason);
	tcase_add_test(t, test_forged_tag_is_a_mismatch);
	tcase_add_test(t, test_rewritten_slot_is_an_image_change);
	tcase_add_test(t, test_tag_relabelled_for_a_new_image_is_a_mismatch);
	tcase_add_test(t, test_tag_of_another_key_version_is_stale);
	tcase_add_test(t, test_key_version_moved_on_leaves_tags_stale);
	tcase_add_test(t, test_tag_boot_off_in_otp);
	tcase_add_test(t, test_image_not_tag_capable);
	tcase_add_test(t, test_key_version_above_the_image_max);
	tcase_add_test(t, test_rotation_reverifies);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite)
