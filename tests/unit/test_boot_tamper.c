// SPDX-License-Identifier: MIT
/*
 * Tampered images are refused on every path: a byte changed in the
 * payload, the manifest, a certificate or a signature, after the image
 * was tagged, is caught (the tag binds the measurement and the signature
 * block digest, so it no longer matches, and the slow path refuses); a
 * malformed or oversized slot is refused by the parser with its own code.
 */
#include <check.h>
#include <stddef.h>
#include <string.h>

#include <otattest/flash.h>
#include <otattest/manifest.h>

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
	tu_device_power_on(&dev);
	/* A first boot tags both stages, so every test starts from valid tags. */
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
}

static void teardown(void)
{
	tu_device_free(&dev);
	swhal_close();
}

static const struct ota_manifest *bl0_manifest(void)
{
	return (const struct ota_manifest *)dev.slot[OTI_BL0_A].data;
}

/* Change one byte of BL0 A in flash, boot, expect exactly `want` for it. */
static void tamper_bl0(uint32_t offset, uint8_t mask, ota_status_t want)
{
	const struct ota_stage_record *a;
	struct ota_tag_table before = tu_tag_table(), after;

	tu_flash_xor(tu_slot_offset(OTI_BL0_A) + offset, mask);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	a = tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A);
	ck_assert_ptr_nonnull(a);
	ck_assert_msg(a->status == want, "got %s, want %s", ota_status_name(a->status),
		      ota_status_name(want));
	ck_assert_uint_eq(a->path, OTA_PATH_NONE);
	/* ROM_EXT is untouched and still boots on its tag. */
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path, OTA_PATH_TAG);
	/* Refusing wrote nothing: the old BL0 tag is still there, unused. */
	after = tu_tag_table();
	ck_assert_mem_eq(&before, &after, sizeof(before));
}

START_TEST(test_tampered_payload)
{
	tamper_bl0(bl0_manifest()->payload_offset + 100, 0x01, OTA_SIG_ECDSA_INVALID);
}
END_TEST

START_TEST(test_tampered_manifest_svn)
{
	/* 5 -> 4: still well formed and above every floor, but not what was signed. */
	tamper_bl0(offsetof(struct ota_manifest, security_version), 0x01, OTA_SIG_ECDSA_INVALID);
}
END_TEST

START_TEST(test_tampered_manifest_max_key_version)
{
	tamper_bl0(offsetof(struct ota_manifest, max_key_version), 0x02, OTA_SIG_ECDSA_INVALID);
}
END_TEST

START_TEST(test_tampered_manifest_reserved_field)
{
	tamper_bl0(offsetof(struct ota_manifest, version_string) + 3, 0x80, OTA_MANIFEST_BAD_VERSION_STRING);
}
END_TEST

START_TEST(test_tampered_certificate_constraints)
{
	uint32_t cert = bl0_manifest()->signed_end; /* the DLGC opens the unsigned region */

	/* Narrow the leaf's svn_max from 255 to 254: contained, but not what was signed. */
	tamper_bl0(cert + offsetof(struct ota_dlgc, constraints) +
			   offsetof(struct ota_constraints, svn_max), 0x01,
		   OTA_DELEG_CERT_SIG_INVALID);
}
END_TEST

START_TEST(test_tampered_certificate_signature)
{
	uint32_t cert = bl0_manifest()->signed_end;

	tamper_bl0(cert + offsetof(struct ota_dlgc, signature) + 40, 0x04,
		   OTA_DELEG_CERT_SIG_INVALID);
}
END_TEST

START_TEST(test_tampered_certificate_delegate_key)
{
	uint32_t cert = bl0_manifest()->signed_end;

	/* The delegate's key no longer has the id the manifest names as signer. */
	tamper_bl0(cert + offsetof(struct ota_dlgc, delegate_pubkey) + 5, 0x01,
		   OTA_DELEG_SIGNER_MISMATCH);
}
END_TEST

START_TEST(test_tampered_image_signature)
{
	tamper_bl0(17, 0x40, OTA_SIG_ECDSA_INVALID);
}
END_TEST

START_TEST(test_tampered_rom_ext_falls_back_to_b)
{
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 1);
	s.payload_seed = 99;
	s.signer = TU_CREATOR1;
	{
		struct tu_blob b = tu_image(&s);

		tu_device_write_slot(OTI_ROM_EXT_B, &b);
		tu_blob_free(&b);
	}
	tu_flash_xor(tu_slot_offset(OTI_ROM_EXT_A) + 400, 0x20);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_ROM_EXT, OTA_SLOT_A)->status, OTA_SIG_ECDSA_INVALID);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->slot, OTA_SLOT_B);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->flags,
			  OTA_STAGE_F_BOOTED | OTA_STAGE_F_FALLBACK);
	/*
	 * B was admitted by another creator key: the key manager's ROM_EXT state
	 * differs (hal.h), so BL0's tag key does too and BL0 is checked again.
	 */
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE_RETAGGED);
}
END_TEST

START_TEST(test_garbage_slot)
{
	uint8_t junk[512];
	struct tu_blob b = { junk, sizeof(junk) };

	memset(junk, 0x3c, sizeof(junk));
	tu_device_write_slot(OTI_BL0_A, &b);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A)->status, OTA_MANIFEST_BAD_MAGIC);
}
END_TEST

START_TEST(test_image_length_past_the_slot)
{
	struct ota_manifest m;

	memcpy(&m, bl0_manifest(), sizeof(m));
	m.image_length = dev.bl0_slot_size + 1;
	ck_assert_int_eq(swhal_poke_flash(tu_slot_offset(OTI_BL0_A), &m, sizeof(m)), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A)->status, OTA_MANIFEST_BAD_LENGTH);
}
END_TEST

START_TEST(test_signed_end_past_the_image)
{
	struct ota_manifest m;

	memcpy(&m, bl0_manifest(), sizeof(m));
	m.signed_end = m.image_length + 4;
	ck_assert_int_eq(swhal_poke_flash(tu_slot_offset(OTI_BL0_A), &m, sizeof(m)), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A)->status,
			  OTA_MANIFEST_BAD_SIGNED_REGION);
}
END_TEST

START_TEST(test_image_larger_than_the_ram_buffer)
{
	struct tu_image_spec s;
	struct tu_blob b;

	tu_image_spec_init(&s, OTA_STAGE_BL0, 5);
	s.payload_len = 1100u << 10; /* fits the 1152 KiB slot, not the 1088 KiB buffer */
	b = tu_image(&s);
	tu_device_write_slot(OTI_BL0_A, &b);
	tu_blob_free(&b);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A)->status, OTA_IMAGE_TOO_LARGE);
}
END_TEST

START_TEST(test_stage_image_in_the_wrong_stage)
{
	struct tu_blob b = tu_blob_dup(&dev.slot[OTI_BL0_A]);

	tu_device_write_slot(OTI_ROM_EXT_A, &b);
	tu_blob_free(&b);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_ROM_EXT, OTA_SLOT_A)->status,
			  OTA_MANIFEST_WRONG_IDENTIFIER);
}
END_TEST

START_TEST(test_tampered_owner_config)
{
	tu_flash_xor(tu_region(OTA_REGION_OWNER_CONFIG)->offset + 12, 0x02);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OWNER_DIGEST_MISMATCH);
	ck_assert_uint_eq(tu_record()->hdr.boot_status, OTA_OWNER_DIGEST_MISMATCH);
	ck_assert_ptr_null(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A));
}
END_TEST

START_TEST(test_failed_boot_is_published_as_failed)
{
	uint32_t state, detail;

	tu_flash_xor(tu_slot_offset(OTI_BL0_A) + 1000, 0x01);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	swhal_last_state(&state, &detail);
	ck_assert_uint_eq(state, OTA_DEV_FAILED);
	ck_assert_uint_eq(detail, OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(ota_boot_state()->boot_status, OTA_NO_BOOTABLE_SLOT);
	/* A boot that failed ends with the key manager disabled: nothing derivable. */
	ck_assert_uint_eq(hal_keymgr_state(), HAL_KEYMGR_DISABLED);
	ck_assert_uint_eq(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), HAL_KEY_INVALID);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("boot_tamper");
	TCase *t = tcase_create("tamper");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_tampered_payload);
	tcase_add_test(t, test_tampered_manifest_svn);
	tcase_add_test(t, test_tampered_manifest_max_key_version);
	tcase_add_test(t, test_tampered_manifest_reserved_field);
	tcase_add_test(t, test_tampered_certificate_constraints);
	tcase_add_test(t, test_tampered_certificate_signature);
	tcase_add_test(t, test_tampered_certificate_delegate_key);
	tcase_add_test(t, test_tampered_image_signature);
	tcase_add_test(t, test_tampered_rom_ext_falls_back_to_b);
	tcase_add_test(t, test_garbage_slot);
	tcase_add_test(t, test_image_length_past_the_slot);
	tcase_add_test(t, test_signed_end_past_the_image);
	tcase_add_test(t, test_image_larger_than_the_ram_buffer);
	tcase_add_test(t, test_stage_image_in_the_wrong_stage);
	tcase_add_test(t, test_tampered_owner_config);
	tcase_add_test(t, test_failed_boot_is_published_as_failed);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite)
