// SPDX-License-Identifier: MIT
/*
 * Delegation on the device: for each containment dimension (SVN min, SVN
 * max, slots, lifecycle, device binding, flags) a child wider than its
 * parent and an image outside its leaf are refused, each with its own
 * code; the owner's depth and direct-boot rules; chain shape, parent and
 * signer links; forged certificate signatures. A refused image changes
 * nothing: no tag is written for it.
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

static const uint8_t *device_id(void)
{
	return dev.device_id;
}

/* No tag for BL0 in either copy of the table. */
static void assert_no_bl0_tag(void)
{
	struct ota_tag_table t;
	uint32_t type, slot;

	for (type = OTA_REGION_TAG_TABLE_0; type <= OTA_REGION_TAG_TABLE_1; type++) {
		ck_assert_int_eq(swhal_peek_flash(tu_region(type)->offset, &t, sizeof(t)), 0);
		if (ota_tag_table_check(&t) != OTA_OK)
			continue;
		for (slot = 0; slot < OTA_SLOT_COUNT; slot++)
			ck_assert_uint_eq(t.entry[ota_tag_index(OTA_STAGE_BL0, slot)].state,
					  OTA_TAG_STATE_EMPTY);
	}
}

/* Boot dev with `img` in BL0 A and expect exactly `want` for it. */
static void expect_bl0_refused(struct tu_blob img, ota_status_t want)
{
	const struct ota_stage_record *a;

	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = img;
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	a = tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A);
	ck_assert_ptr_nonnull(a);
	ck_assert_msg(a->status == want, "got %s, want %s", ota_status_name(a->status),
		      ota_status_name(want));
	ck_assert_uint_eq(a->path, OTA_PATH_NONE);
	ck_assert_uint_eq(a->flags & OTA_STAGE_F_BOOTED, 0);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_B)->status, OTA_SLOT_EMPTY);
	ck_assert_uint_eq(tu_record()->hdr.boot_status, OTA_NO_BOOTABLE_SLOT);
	assert_no_bl0_tag();
}

/* OWNER0 -> INTER (inter_c) -> LEAF (leaf_c, issued unchecked) -> image. */
static struct tu_blob two_level(const struct ota_constraints *inter_c,
				const struct ota_constraints *leaf_c, uint32_t svn,
				const struct ota_usage *usage)
{
	struct oti_cert chain[2];
	struct tu_image_spec s;

	chain[0] = tu_cert(TU_OWNER0, NULL, TU_INTER, OTA_CERT_INTERMEDIATE, inter_c, false);
	chain[1] = tu_cert(TU_INTER, &chain[0], TU_LEAF, OTA_CERT_LEAF, leaf_c, true);
	tu_image_spec_init(&s, OTA_STAGE_BL0, svn);
	s.usage = *usage;
	s.signer = TU_LEAF;
	s.chain = chain;
	s.chain_len = 2;
	s.unchecked = true;
	return tu_image(&s);
}

/* OWNER0 -> LEAF (leaf_c) -> image with (svn, usage), unchecked. */
static struct tu_blob one_level(const struct ota_constraints *leaf_c, uint32_t svn,
				const struct ota_usage *usage)
{
	struct oti_cert chain[1];
	struct tu_image_spec s;

	chain[0] = tu_cert(TU_OWNER0, NULL, TU_LEAF, OTA_CERT_LEAF, leaf_c, false);
	tu_image_spec_init(&s, OTA_STAGE_BL0, svn);
	s.usage = *usage;
	s.signer = TU_LEAF;
	s.chain = chain;
	s.chain_len = 1;
	s.unchecked = true;
	return tu_image(&s);
}

/* ---- a child wider than its parent ---------------------------------------- */

START_TEST(test_wider_child_svn_min)
{
	struct ota_constraints p = tu_constraints(5, 200), c = tu_constraints(4, 200);
	struct ota_usage u = tu_usage_all();

	expect_bl0_refused(two_level(&p, &c, 10, &u), OTA_DELEG_WIDER_SVN_MIN);
}
END_TEST

START_TEST(test_wider_child_svn_max)
{
	struct ota_constraints p = tu_constraints(0, 100), c = tu_constraints(0, 101);
	struct ota_usage u = tu_usage_all();

	expect_bl0_refused(two_level(&p, &c, 10, &u), OTA_DELEG_WIDER_SVN_MAX);
}
END_TEST

START_TEST(test_wider_child_slots)
{
	struct ota_constraints p = tu_constraints(0, 200), c = tu_constraints(0, 200);
	struct ota_usage u = tu_usage_all();

	p.usage.slot_mask = 1u << OTA_SLOT_A;
	u.slot_mask = 1u << OTA_SLOT_A;
	expect_bl0_refused(two_level(&p, &c, 10, &u), OTA_DELEG_WIDER_SLOTS);
}
END_TEST

START_TEST(test_wider_child_lifecycle)
{
	struct ota_constraints p = tu_constraints(0, 200), c = tu_constraints(0, 200);
	struct ota_usage u = tu_usage_all();

	p.usage.lifecycle_mask = 1u << OTA_LC_DEV;
	c.usage.lifecycle_mask = (1u << OTA_LC_DEV) | (1u << OTA_LC_PROD);
	u.lifecycle_mask = 1u << OTA_LC_DEV;
	expect_bl0_refused(two_level(&p, &c, 10, &u), OTA_DELEG_WIDER_LIFECYCLE);
}
END_TEST

START_TEST(test_wider_child_device_binding)
{
	struct ota_constraints p = tu_constraints(0, 200), c = tu_constraints(0, 200);
	struct ota_usage u = tu_usage_all();

	/* The intermediate is bound to this device, the leaf drops the binding. */
	p.usage.device_binding = OTA_BINDING_DEVICE;
	memcpy(p.usage.device_id, device_id(), OTA_DEVICE_ID_BYTES);
	u.device_binding = OTA_BINDING_DEVICE;
	memcpy(u.device_id, device_id(), OTA_DEVICE_ID_BYTES);
	expect_bl0_refused(two_level(&p, &c, 10, &u), OTA_DELEG_WIDER_DEVICE);
}
END_TEST

START_TEST(test_wider_child_flags)
{
	struct ota_constraints p = tu_constraints(0, 200), c = tu_constraints(0, 200);
	struct ota_usage u = tu_usage_all();

	p.usage.flags = OTA_CAP_TAG_BOOT;
	u.flags = OTA_CAP_TAG_BOOT;
	expect_bl0_refused(two_level(&p, &c, 10, &u), OTA_DELEG_WIDER_FLAGS);
}
END_TEST

/* ---- an image outside its leaf -------------------------------------------- */

START_TEST(test_image_svn_below_leaf)
{
	struct ota_constraints l = tu_constraints(10, 200);
	struct ota_usage u = tu_usage_all();

	expect_bl0_refused(one_level(&l, 9, &u), OTA_IMAGE_SVN_BELOW_LEAF);
}
END_TEST

START_TEST(test_image_svn_above_leaf)
{
	struct ota_constraints l = tu_constraints(0, 8);
	struct ota_usage u = tu_usage_all();

	expect_bl0_refused(one_level(&l, 9, &u), OTA_IMAGE_SVN_ABOVE_LEAF);
}
END_TEST

START_TEST(test_image_slots_outside_leaf)
{
	struct ota_constraints l = tu_constraints(0, 200);
	struct ota_usage u = tu_usage_all();

	l.usage.slot_mask = 1u << OTA_SLOT_A;
	expect_bl0_refused(one_level(&l, 9, &u), OTA_IMAGE_SLOTS_OUTSIDE_LEAF);
}
END_TEST

START_TEST(test_image_lifecycle_outside_leaf)
{
	struct ota_constraints l = tu_constraints(0, 200);
	struct ota_usage u = tu_usage_all();

	l.usage.lifecycle_mask = 1u << OTA_LC_DEV;
	u.lifecycle_mask = (1u << OTA_LC_DEV) | (1u << OTA_LC_PROD);
	expect_bl0_refused(one_level(&l, 9, &u), OTA_IMAGE_LIFECYCLE_OUTSIDE_LEAF);
}
END_TEST

START_TEST(test_image_device_outside_leaf)
{
	struct ota_constraints l = tu_constraints(0, 200);
	struct ota_usage u = tu_usage_all();

	l.usage.device_binding = OTA_BINDING_DEVICE;
	memcpy(l.usage.device_id, device_id(), OTA_DEVICE_ID_BYTES);
	expect_bl0_refused(one_level(&l, 9, &u), OTA_IMAGE_DEVICE_OUTSIDE_LEAF);
}
END_TEST

START_TEST(test_image_flags_outside_leaf)
{
	struct ota_constraints l = tu_constraints(0, 200);
	struct ota_usage u = tu_usage_all();

	l.usage.flags = OTA_CAP_TAG_BOOT;
	expect_bl0_refused(one_level(&l, 9, &u), OTA_IMAGE_FLAGS_OUTSIDE_LEAF);
}
END_TEST

/* A device-bound chain on its own device is fine; on another it is not. */
START_TEST(test_device_binding_accepted_on_its_device_only)
{
	struct ota_constraints l = tu_constraints(0, 200);
	struct ota_usage u = tu_usage_all();

	l.usage.device_binding = OTA_BINDING_DEVICE;
	memcpy(l.usage.device_id, device_id(), OTA_DEVICE_ID_BYTES);
	u = l.usage;
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = one_level(&l, 9, &u);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->effective.usage.device_binding,
			  OTA_BINDING_DEVICE);
	swhal_close();
	dev.device_id[0] ^= 1;
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A)->status, OTA_DEVICE_NOT_ALLOWED);
}
END_TEST

START_TEST(test_effective_constraints_are_the_leaf_and_the_image)
{
	struct ota_constraints l = tu_constraints(3, 40);
	struct ota_usage u = tu_usage_all();
	const struct ota_stage_record *s;

	u.slot_mask = 1u << OTA_SLOT_A;
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = one_level(&l, 9, &u);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	s = tu_booted(OTA_STAGE_BL0);
	ck_assert_uint_eq(s->effective.svn_min, 3);
	ck_assert_uint_eq(s->effective.svn_max, 40);
	ck_assert_uint_eq(s->effective.usage.slot_mask, 1u << OTA_SLOT_A);
}
END_TEST

/* ---- the owner's rules --------------------------------------------------- */

START_TEST(test_depth_above_owner_maximum)
{
	dev.max_depth = 1;
	expect_bl0_refused(tu_bl0(2, 5, false), OTA_DELEG_DEPTH_EXCEEDED);
}
END_TEST

START_TEST(test_depth_zero_maximum_refuses_delegates)
{
	dev.max_depth = 0;
	expect_bl0_refused(tu_bl0(1, 5, false), OTA_DELEG_DEPTH_EXCEEDED);
}
END_TEST

START_TEST(test_direct_boot_forbidden)
{
	dev.owner_flags = 0;
	expect_bl0_refused(tu_bl0(0, 5, false), OTA_DELEG_DIRECT_BOOT_FORBIDDEN);
}
END_TEST

START_TEST(test_delegates_fine_when_direct_boot_forbidden)
{
	dev.owner_flags = 0;
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
}
END_TEST

/* ---- chain structure ------------------------------------------------------- */

START_TEST(test_intermediate_as_only_certificate)
{
	struct ota_constraints all = tu_constraints(0, 255);
	struct oti_cert chain[1];
	struct tu_image_spec s;

	chain[0] = tu_cert(TU_OWNER0, NULL, TU_LEAF, OTA_CERT_INTERMEDIATE, &all, true);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 5);
	s.signer = TU_LEAF;
	s.chain = chain;
	s.chain_len = 1;
	s.unchecked = true;
	expect_bl0_refused(tu_image(&s), OTA_DELEG_BAD_CHAIN_SHAPE);
}
END_TEST

START_TEST(test_leaf_issued_by_a_stranger)
{
	struct ota_constraints all = tu_constraints(0, 255);
	struct oti_cert chain[2];
	struct tu_image_spec s;

	chain[0] = tu_cert(TU_OWNER0, NULL, TU_INTER, OTA_CERT_INTERMEDIATE, &all, false);
	chain[1] = tu_cert(TU_ROGUE, NULL, TU_LEAF, OTA_CERT_LEAF, &all, true);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 5);
	s.signer = TU_LEAF;
	s.chain = chain;
	s.chain_len = 2;
	s.unchecked = true;
	expect_bl0_refused(tu_image(&s), OTA_DELEG_PARENT_MISMATCH);
}
END_TEST

START_TEST(test_chain_rooted_in_an_unknown_key)
{
	struct ota_constraints all = tu_constraints(0, 255);
	struct oti_cert chain[1];
	struct tu_image_spec s;

	chain[0] = tu_cert(TU_ROGUE, NULL, TU_LEAF, OTA_CERT_LEAF, &all, false);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 5);
	s.signer = TU_LEAF;
	s.chain = chain;
	s.chain_len = 1;
	expect_bl0_refused(tu_image(&s), OTA_ROOT_KEY_UNKNOWN);
}
END_TEST

START_TEST(test_image_signed_by_the_intermediate)
{
	struct ota_constraints all = tu_constraints(0, 255);
	struct oti_cert chain[2];
	struct tu_image_spec s;

	chain[0] = tu_cert(TU_OWNER0, NULL, TU_INTER, OTA_CERT_INTERMEDIATE, &all, false);
	chain[1] = tu_cert(TU_INTER, &chain[0], TU_LEAF, OTA_CERT_LEAF, &all, false);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 5);
	s.signer = TU_INTER;
	s.chain = chain;
	s.chain_len = 2;
	s.unchecked = true;
	expect_bl0_refused(tu_image(&s), OTA_DELEG_SIGNER_MISMATCH);
}
END_TEST

/* A certificate whose signature was not made by its parent (same key ids). */
START_TEST(test_forged_certificate_signature)
{
	struct ota_constraints all = tu_constraints(0, 255);
	struct oti_cert chain[1], forged;
	struct tu_image_spec s;

	chain[0] = tu_cert(TU_OWNER0, NULL, TU_LEAF, OTA_CERT_LEAF, &all, false);
	/* The rogue signs a certificate naming OWNER0 as its parent. */
	forged = tu_cert(TU_ROGUE, NULL, TU_LEAF, OTA_CERT_LEAF, &all, true);
	memcpy(chain[0].dlgc.signature, forged.dlgc.signature, sizeof(forged.dlgc.signature));
	tu_image_spec_init(&s, OTA_STAGE_BL0, 5);
	s.signer = TU_LEAF;
	s.chain = chain;
	s.chain_len = 1;
	expect_bl0_refused(tu_image(&s), OTA_DELEG_CERT_SIG_INVALID);
}
END_TEST

START_TEST(test_rom_ext_takes_no_delegation)
{
	struct ota_constraints all = tu_constraints(0, 255);
	struct oti_cert chain[1];
	struct tu_image_spec s;

	chain[0] = tu_cert(TU_CREATOR0, NULL, TU_LEAF, OTA_CERT_LEAF, &all, false);
	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 1);
	s.signer = TU_LEAF;
	s.chain = chain;
	s.chain_len = 1;
	tu_blob_free(&dev.slot[OTI_ROM_EXT_A]);
	dev.slot[OTI_ROM_EXT_A] = tu_image(&s);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_ROM_EXT, OTA_SLOT_A)->status,
			  OTA_DELEG_DEPTH_EXCEEDED);
	/* Without a ROM_EXT nothing of BL0 is even looked at. */
	ck_assert_ptr_null(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("boot_deleg");
	TCase *t = tcase_create("deleg");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_wider_child_svn_min);
	tcase_add_test(t, test_wider_child_svn_max);
	tcase_add_test(t, test_wider_child_slots);
	tcase_add_test(t, test_wider_child_lifecycle);
	tcase_add_test(t, test_wider_child_device_binding);
	tcase_add_test(t, test_wider_child_flags);
	tcase_add_test(t, test_image_svn_below_leaf);
	tcase_add_test(t, test_image_svn_above_leaf);
	tcase_add_test(t, test_image_slots_outside_leaf);
	tcase_add_test(t, test_image_lifecycle_outside_leaf);
	tcase_add_test(t, test_image_device_outside_leaf);
	tcase_add_test(t, test_image_flags_outside_leaf);
	tcase_add_test(t, test_device_binding_accepted_on_its_device_only);
	tcase_add_test(t, test_effective_constraints_are_the_leaf_and_the_image);
	tcase_add_test(t, test_depth_above_owner_maximum);
	tcase_add_test(t, test_depth_zero_maximum_refuses_delegates);
	tcase_add_test(t, test_direct_boot_forbidden);
	tcase_add_test(t, test_delegates_fine_when_direct_boot_forbidden);
	tcase_add_test(t, test_intermediate_as_only_certificate);
	tcase_add_test(t, test_leaf_issued_by_a_stranger);
	tcase_add_test(t, test_chain_rooted_in_an_unknown_key);
	tcase_add_test(t, test_image_signed_by_the_intermediate);
	tcase_add_test(t, test_forged_certificate_signature);
	tcase_add_test(t, test_rom_ext_takes_no_delegation);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite)
