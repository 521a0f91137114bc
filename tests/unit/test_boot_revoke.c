// SPDX-License-Identifier: MIT
/*
 * Revocation and the other path-independent refusals, each checked after
 * the image was tagged: a valid old tag must never let a revoked or
 * rolled-back image boot, and with the tags gone the slow path refuses it
 * with the same status. Floors raised above a delegate's ceiling (OTP
 * and boot data), revoked root keys (owner and creator), lifecycle-bound
 * keys, the anti-rollback floor itself, the image's own usage claims, the
 * key chain's SVN ceiling, and what OTP and boot data problems do.
 */
#include <check.h>
#include <string.h>

#include <otattest/flash.h>

#include "fw_run.h"
#include "handoff.h"
#include "hal.h"
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

/* Provision, boot twice (tagging), check the second boot used the tag. */
static void provision_and_tag(void)
{
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
}

static void expect_attempt(uint32_t stage, uint32_t slot, ota_status_t want)
{
	const struct ota_stage_record *a = tu_attempt(stage, slot);

	ck_assert_ptr_nonnull(a);
	ck_assert_msg(a->status == want, "got %s, want %s", ota_status_name(a->status),
		      ota_status_name(want));
	ck_assert_uint_eq(a->path, OTA_PATH_NONE);
}

static void reboot_expect(ota_status_t boot, uint32_t stage, uint32_t slot, ota_status_t want)
{
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), boot);
	expect_attempt(stage, slot, want);
}

/* The tag of (stage, slot) is in the table, valid for the current key version. */
static void assert_tag_valid(uint32_t stage, uint32_t slot)
{
	struct ota_tag_table t = tu_tag_table();
	const struct ota_tag_entry *e = &t.entry[ota_tag_index(stage, slot)];

	ck_assert_uint_eq(e->state, OTA_TAG_STATE_VALID);
	ck_assert_uint_eq(e->key_version, tu_record()->hdr.tag_key_version);
}

static void erase_tag_tables(void)
{
	uint8_t page[OTA_FLASH_PAGE_SIZE];

	memset(page, 0xff, sizeof(page));
	ck_assert_int_eq(swhal_poke_flash(tu_region(OTA_REGION_TAG_TABLE_0)->offset, page, sizeof(page)), 0);
	ck_assert_int_eq(swhal_poke_flash(tu_region(OTA_REGION_TAG_TABLE_1)->offset, page, sizeof(page)), 0);
}

/*
 * The tag path: the image's valid tag is still in place and the boot
 * refuses it anyway (refusing leaves the tag alone). The slow path: with
 * no tag table at all, the same refusal.
 */
static void refused_on_both_paths(ota_status_t boot, uint32_t stage, uint32_t slot,
				  ota_status_t want)
{
	assert_tag_valid(stage, slot);
	reboot_expect(boot, stage, slot, want);
	assert_tag_valid(stage, slot);
	erase_tag_tables();
	reboot_expect(boot, stage, slot, want);
}

/* A stage's boot data floor, written as the device would (a ratchet). */
static void boot_data_floor(uint32_t stage, uint32_t floor)
{
	struct ota_boot_data bd = tu_boot_data();

	if (stage == OTA_STAGE_ROM_EXT)
		bd.floor_rom_ext = floor;
	else
		bd.floor_bl0 = floor;
	bd.counter += 1;
	tu_boot_data_write(&bd);
}

/* OWNER0 -> LEAF [0, ceiling] -> image svn. */
static struct tu_blob leaf_image(uint32_t ceiling, uint32_t svn, enum tu_key_id leaf)
{
	struct ota_constraints c = tu_constraints(0, ceiling);
	struct oti_cert chain[1];
	struct tu_image_spec s;

	chain[0] = tu_cert(TU_OWNER0, NULL, leaf, OTA_CERT_LEAF, &c, false);
	tu_image_spec_init(&s, OTA_STAGE_BL0, svn);
	s.signer = leaf;
	s.chain = chain;
	s.chain_len = 1;
	return tu_image(&s);
}

START_TEST(test_otp_floor_above_delegate_ceiling_refuses_on_both_paths)
{
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = leaf_image(10, 5, TU_LEAF);
	provision_and_tag();
	tu_otp_raise_floor(OTA_STAGE_BL0, 11);
	refused_on_both_paths(OTA_NO_BOOTABLE_SLOT, OTA_STAGE_BL0, OTA_SLOT_A,
			      OTA_DELEG_REVOKED_BY_FLOOR);
	ck_assert_uint_eq(tu_record()->hdr.floor_bl0, 11);
}
END_TEST

START_TEST(test_boot_data_floor_above_delegate_ceiling_refuses_on_both_paths)
{
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = leaf_image(10, 5, TU_LEAF);
	provision_and_tag();
	boot_data_floor(OTA_STAGE_BL0, 11);
	refused_on_both_paths(OTA_NO_BOOTABLE_SLOT, OTA_STAGE_BL0, OTA_SLOT_A,
			      OTA_DELEG_REVOKED_BY_FLOOR);
}
END_TEST

START_TEST(test_floor_revokes_an_intermediate_and_all_below_it)
{
	struct ota_constraints inter = tu_constraints(0, 10), leaf = tu_constraints(0, 10);
	struct oti_cert chain[2];
	struct tu_image_spec s;

	chain[0] = tu_cert(TU_OWNER0, NULL, TU_INTER, OTA_CERT_INTERMEDIATE, &inter, false);
	chain[1] = tu_cert(TU_INTER, &chain[0], TU_LEAF, OTA_CERT_LEAF, &leaf, false);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 7);
	s.signer = TU_LEAF;
	s.chain = chain;
	s.chain_len = 2;
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_image(&s);
	provision_and_tag();
	tu_otp_raise_floor(OTA_STAGE_BL0, 11);
	refused_on_both_paths(OTA_NO_BOOTABLE_SLOT, OTA_STAGE_BL0, OTA_SLOT_A,
			      OTA_DELEG_REVOKED_BY_FLOOR);
}
END_TEST

/* The floor revokes the delegate, not the owner: another leaf's newer image boots. */
START_TEST(test_floor_spares_delegates_with_a_higher_ceiling)
{
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = leaf_image(10, 5, TU_LEAF);
	dev.slot[OTI_BL0_B] = leaf_image(50, 20, TU_INTER);
	dev.primary_slot = OTA_SLOT_A;
	provision_and_tag();
	tu_otp_raise_floor(OTA_STAGE_BL0, 11);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	/* The primary's delegate is revoked; the other leaf's image is the fallback. */
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A)->status, OTA_DELEG_REVOKED_BY_FLOOR);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->slot, OTA_SLOT_B);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->flags, OTA_STAGE_F_BOOTED | OTA_STAGE_F_FALLBACK);
}
END_TEST

START_TEST(test_svn_below_floor_refuses_on_both_paths)
{
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_bl0(0, 5, false);
	provision_and_tag();
	tu_otp_raise_floor(OTA_STAGE_BL0, 6);
	refused_on_both_paths(OTA_NO_BOOTABLE_SLOT, OTA_STAGE_BL0, OTA_SLOT_A, OTA_SVN_BELOW_FLOOR);
}
END_TEST

START_TEST(test_rom_ext_floor)
{
	provision_and_tag();
	tu_otp_raise_floor(OTA_STAGE_ROM_EXT, 2);
	refused_on_both_paths(OTA_NO_BOOTABLE_SLOT, OTA_STAGE_ROM_EXT, OTA_SLOT_A,
			      OTA_SVN_BELOW_FLOOR);
}
END_TEST

/* The ratchet's floor (boot data) holds ROM_EXT too, not only OTP's. */
START_TEST(test_rom_ext_boot_data_floor)
{
	provision_and_tag();
	boot_data_floor(OTA_STAGE_ROM_EXT, 2);
	refused_on_both_paths(OTA_NO_BOOTABLE_SLOT, OTA_STAGE_ROM_EXT, OTA_SLOT_A,
			      OTA_SVN_BELOW_FLOOR);
}
END_TEST

START_TEST(test_revoked_owner_key_refuses_on_both_paths)
{
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_BL0, 4);
	s.signer = TU_OWNER1;
	dev.slot[OTI_BL0_B] = tu_image(&s);
	provision_and_tag();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->slot, OTA_SLOT_A);
	tu_otp_revoke(true, 0);
	refused_on_both_paths(OTA_OK, OTA_STAGE_BL0, OTA_SLOT_A, OTA_ROOT_KEY_REVOKED);
	/* The other owner key still signs: its image boots as the fallback. */
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->slot, OTA_SLOT_B);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->flags, OTA_STAGE_F_BOOTED | OTA_STAGE_F_FALLBACK);
}
END_TEST

START_TEST(test_revoked_creator_key_refuses_on_both_paths)
{
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 1);
	s.signer = TU_CREATOR1;
	s.payload_seed = 77;
	dev.slot[OTI_ROM_EXT_B] = tu_image(&s);
	provision_and_tag();
	tu_otp_revoke(false, 0);
	refused_on_both_paths(OTA_OK, OTA_STAGE_ROM_EXT, OTA_SLOT_A, OTA_ROOT_KEY_REVOKED);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->slot, OTA_SLOT_B);
	tu_otp_revoke(false, 1);
	reboot_expect(OTA_NO_BOOTABLE_SLOT, OTA_STAGE_ROM_EXT, OTA_SLOT_B, OTA_ROOT_KEY_REVOKED);
}
END_TEST

START_TEST(test_root_key_not_valid_in_this_lifecycle)
{
	dev.owner_key_lifecycle[0] = 1u << OTA_LC_PROD;
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	expect_attempt(OTA_STAGE_BL0, OTA_SLOT_A, OTA_ROOT_KEY_LIFECYCLE);
}
END_TEST

START_TEST(test_root_key_valid_in_its_lifecycle)
{
	dev.owner_key_lifecycle[0] = 1u << OTA_LC_PROD;
	dev.lifecycle = OTA_LC_PROD;
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.lifecycle, OTA_LC_PROD);
}
END_TEST

static void image_with_usage(const struct ota_usage *u)
{
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_BL0, 5);
	s.usage = *u;
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_image(&s);
}

START_TEST(test_image_lifecycle_not_allowed)
{
	struct ota_usage u = tu_usage_all();

	u.lifecycle_mask = 1u << OTA_LC_PROD;
	image_with_usage(&u);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	expect_attempt(OTA_STAGE_BL0, OTA_SLOT_A, OTA_LIFECYCLE_NOT_ALLOWED);
}
END_TEST

START_TEST(test_image_slot_not_allowed)
{
	struct ota_usage u = tu_usage_all();

	u.slot_mask = 1u << OTA_SLOT_B;
	image_with_usage(&u);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	expect_attempt(OTA_STAGE_BL0, OTA_SLOT_A, OTA_SLOT_NOT_ALLOWED);
}
END_TEST

START_TEST(test_image_bound_to_another_device)
{
	struct ota_usage u = tu_usage_all();

	u.device_binding = OTA_BINDING_DEVICE;
	memset(u.device_id, 0x77, sizeof(u.device_id));
	image_with_usage(&u);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	expect_attempt(OTA_STAGE_BL0, OTA_SLOT_A, OTA_DEVICE_NOT_ALLOWED);
}
END_TEST

START_TEST(test_bl0_svn_above_the_key_chain)
{
	dev.chain_max_svn = 4; /* the default BL0 is SVN 5 */
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	expect_attempt(OTA_STAGE_BL0, OTA_SLOT_A, OTA_SVN_ABOVE_MAX);
}
END_TEST

static void erase_boot_data(void)
{
	uint8_t page[OTA_FLASH_PAGE_SIZE];

	memset(page, 0xff, sizeof(page));
	ck_assert_int_eq(swhal_poke_flash(tu_region(OTA_REGION_BOOT_DATA_0)->offset, page, sizeof(page)), 0);
	ck_assert_int_eq(swhal_poke_flash(tu_region(OTA_REGION_BOOT_DATA_1)->offset, page, sizeof(page)), 0);
}

START_TEST(test_no_boot_data_in_dev_uses_defaults)
{
	tu_device_power_on(&dev);
	erase_boot_data();
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, 0);
}
END_TEST

START_TEST(test_no_boot_data_in_prod_refuses)
{
	uint32_t state, detail;

	dev.lifecycle = OTA_LC_PROD;
	tu_device_power_on(&dev);
	erase_boot_data();
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_BOOT_DATA_CORRUPT);
	swhal_last_state(&state, &detail);
	ck_assert_uint_eq(state, OTA_DEV_FAILED);
	ck_assert_uint_eq(detail, OTA_BOOT_DATA_CORRUPT);
	ck_assert_uint_eq(tu_record()->hdr.stage_count, 0);
}
END_TEST

START_TEST(test_corrupt_otp_refuses)
{
	struct ota_otp otp;

	tu_device_power_on(&dev);
	ck_assert_int_eq(swhal_peek_otp(0, &otp, sizeof(otp)), 0);
	otp.device_id[3] ^= 1; /* HW_CFG no longer matches its digest */
	ck_assert_int_eq(swhal_load_otp(&otp, sizeof(otp)), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OTP_DIGEST_MISMATCH);
	ck_assert_uint_eq(tu_record()->hdr.boot_status, OTA_OTP_DIGEST_MISMATCH);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("boot_revoke");
	TCase *t = tcase_create("revoke");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_otp_floor_above_delegate_ceiling_refuses_on_both_paths);
	tcase_add_test(t, test_boot_data_floor_above_delegate_ceiling_refuses_on_both_paths);
	tcase_add_test(t, test_floor_revokes_an_intermediate_and_all_below_it);
	tcase_add_test(t, test_floor_spares_delegates_with_a_higher_ceiling);
	tcase_add_test(t, test_svn_below_floor_refuses_on_both_paths);
	tcase_add_test(t, test_rom_ext_floor);
	tcase_add_test(t, test_rom_ext_boot_data_floor);
	tcase_add_test(t, test_revoked_owner_key_refuses_on_both_paths);
	tcase_add_test(t, test_revoked_creator_key_refuses_on_both_paths);
	tcase_add_test(t, test_root_key_not_valid_in_this_lifecycle);
	tcase_add_test(t, test_root_key_valid_in_its_lifecycle);
	tcase_add_test(t, test_image_lifecycle_not_allowed);
	tcase_add_test(t, test_image_slot_not_allowed);
	tcase_add_test(t, test_image_bound_to_another_device);
	tcase_add_test(t, test_bl0_svn_above_the_key_chain);
	tcase_add_test(t, test_no_boot_data_in_dev_uses_defaults);
	tcase_add_test(t, test_no_boot_data_in_prod_refuses);
	tcase_add_test(t, test_corrupt_otp_refuses);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite)
