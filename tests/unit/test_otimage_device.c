// SPDX-License-Identifier: MIT
/*
 * otimage's verdict is the device's. Each image is put in a slot of an
 * emulated chip and booted, and checked by otimage's device check
 * (oti_device_check, what `otimage inspect --otp --owner-config --slot`
 * runs) against the very OTP and owner config the chip holds, read back
 * from it: the status of the stage's attempt in the boot record and
 * otimage's must be one and the same, for acceptances and refusals. The
 * cases are the ones where an independent checker found the two apart
 * (issue 20) and the rules docs/formats.md now states: the ROM takes no
 * delegation; ECDSA-only parts under a hybrid root; SLH-DSA parts with no
 * trusted key are invalid; the root looked up by the first certificate's
 * parent; the critical flag and the header version of extensions; a
 * device binding to the all-zero id; the device facts (lifecycle, floor,
 * revocation, chain length, slot); a delegate key off the curve.
 */
#include <check.h>
#include <stddef.h>
#include <string.h>

#include <otattest/keys.h>

#include "fw_run.h"
#include "hal.h"
#include "swhal.h"
#include "tu_device.h"
#include "tu_main.h"

static struct tu_device dev;

/* Images with SLH-DSA signatures, made once before the tests fork. */
static struct tu_blob dlgs_no_spxs; /* OWNER_H -> LEAF_H (DLGS), image by LEAF_H's P-256 half */
static struct tu_blob hybrid_direct; /* OWNER_H directly: ECDSA + SPXS */

static struct tu_blob build(const struct oti_key *signer, const struct oti_cert *chain,
			    uint32_t n, uint32_t svn, const struct ota_usage *usage,
			    const struct oti_raw_ext *extra, uint32_t extra_count)
{
	struct oti_image_params p;
	struct tu_blob out = { NULL, 0 };
	uint8_t payload[512];
	struct oti_diag d;

	memset(&p, 0, sizeof(p));
	memset(payload, 0x5c, sizeof(payload));
	p.identifier = OTA_ID_BL0;
	p.security_version = svn;
	p.max_key_version = 16;
	p.usage = usage ? *usage : tu_usage_all();
	p.payload = payload;
	p.payload_len = sizeof(payload);
	p.extra = extra;
	p.extra_count = extra_count;
	p.flags = OTI_UNCHECKED; /* the device and otimage are to judge it, not the builder */
	ck_assert_uint_eq(oti_image_build(&p, signer, chain, n, &out.data, &out.len, &d), OTA_OK);
	return out;
}

/* A key as the hybrid key's P-256 half alone (no SPXS is made with it). */
static struct oti_key ecdsa_half(enum tu_key_id id)
{
	struct oti_key k = *tu_key(id);

	k.algorithm = OTA_KEY_ALG_ECDSA_P256;
	return k;
}

static void build_hybrid_images(void)
{
	struct ota_constraints all = tu_constraints(0, OTA_SVN_LIMIT);
	struct oti_key leaf_half = ecdsa_half(TU_LEAF_H);
	struct oti_cert c;

	if (dlgs_no_spxs.data)
		return;
	c = tu_cert(TU_OWNER_H, NULL, TU_LEAF_H, OTA_CERT_LEAF, &all, false);
	ck_assert(c.has_dlgs);
	dlgs_no_spxs = build(&leaf_half, &c, 1, 5, NULL, NULL, 0);
	hybrid_direct = build(tu_key(TU_OWNER_H), NULL, 0, 5, NULL, NULL, 0);
}

static void setup(void)
{
	tu_device_init(&dev);
}

static void teardown(void)
{
	tu_device_free(&dev);
	swhal_close();
}

static void put(enum oti_slot_index slot, struct tu_blob img)
{
	tu_blob_free(&dev.slot[slot]);
	dev.slot[slot] = img;
}

/* The device otimage is told about: the chip's own OTP and owner config. */
static void device_of_chip(uint32_t slot, struct oti_device *out)
{
	memset(out, 0, sizeof(*out));
	ck_assert_int_eq(swhal_peek_otp(0, &out->otp, sizeof(out->otp)), 0);
	out->has_otp = true;
	ck_assert_int_eq(swhal_peek_flash(tu_region(OTA_REGION_OWNER_CONFIG)->offset, &out->owner,
					  sizeof(out->owner)), 0);
	out->has_owner = true;
	out->slot = slot;
	out->has_slot = true;
}

/*
 * Provision, cold-boot, and compare the attempt at stage/slot with
 * otimage's verdict on the same image; both must be want. d gets
 * otimage's diagnostic.
 */
static void same_verdict(uint32_t stage, enum oti_slot_index slot, ota_status_t want,
			 struct oti_diag *d)
{
	const struct ota_stage_record *a;
	const struct tu_blob *img = &dev.slot[slot];
	struct oti_device od;
	struct oti_verdict v;
	uint32_t s = slot == OTI_ROM_EXT_A || slot == OTI_BL0_A ? OTA_SLOT_A : OTA_SLOT_B;

	swhal_close(); /* a fresh chip for every comparison */
	tu_device_power_on(&dev);
	(void)ota_fw_boot(OTA_RESET_COLD);
	a = tu_attempt(stage, s);
	ck_assert_ptr_nonnull(a);
	device_of_chip(s, &od);
	oti_diag_clear(d);
	(void)oti_device_check(&od, img->data, img->len, 0, &v, d);
	ck_assert_msg(a->status == want && v.status == want, "device %s, otimage %s, want %s",
		      ota_status_name(a->status), ota_status_name(v.status), ota_status_name(want));
	if (want == OTA_OK)
		ck_assert_msg(a->path == OTA_PATH_SIGNATURE || a->path == OTA_PATH_SIGNATURE_RETAGGED,
			      "the device decided on its slow path, as otimage does");
}

static void same_bl0(ota_status_t want)
{
	struct oti_diag d;

	same_verdict(OTA_STAGE_BL0, OTI_BL0_A, want, &d);
}

START_TEST(test_accepted)
{
	same_bl0(OTA_OK);
	put(OTI_BL0_A, tu_bl0(2, 7, false));
	same_bl0(OTA_OK);
}
END_TEST

/* The ROM takes no delegation; otimage used to sign such a ROM_EXT. */
START_TEST(test_rom_ext_through_a_delegate)
{
	struct ota_constraints all = tu_constraints(0, 255);
	struct oti_cert c = tu_cert(TU_CREATOR0, NULL, TU_LEAF, OTA_CERT_LEAF, &all, false);
	struct tu_image_spec s;
	struct oti_diag d;

	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 1);
	s.signer = TU_LEAF;
	s.chain = &c;
	s.chain_len = 1;
	put(OTI_ROM_EXT_A, tu_image(&s));
	same_verdict(OTA_STAGE_ROM_EXT, OTI_ROM_EXT_A, OTA_DELEG_DEPTH_EXCEEDED, &d);
}
END_TEST

/* Under a hybrid owner key every certificate needs a DLGS. */
START_TEST(test_ecdsa_leaf_under_a_hybrid_owner)
{
	struct ota_constraints all = tu_constraints(0, 255);
	struct oti_cert c = tu_cert(TU_OWNER_H, NULL, TU_LEAF, OTA_CERT_LEAF, &all, false);

	ck_assert(!c.has_dlgs);
	dev.owner_keys[0] = TU_OWNER_H;
	put(OTI_BL0_A, build(tu_key(TU_LEAF), &c, 1, 5, NULL, NULL, 0));
	same_bl0(OTA_DELEG_CERT_SPX_MISSING);
}
END_TEST

/*
 * SLH-DSA parts with no trusted key to check them under are invalid: the
 * owner key is provisioned ECDSA-only, so neither a DLGS (even when no
 * image signature depends on it) nor an SPXS can be verified.
 */
START_TEST(test_untrusted_slhdsa)
{
	dev.owner_keys[0] = TU_OWNER_H;
	dev.owner_key_ecdsa_only[0] = true;
	put(OTI_BL0_A, tu_blob_dup(&dlgs_no_spxs));
	same_bl0(OTA_DELEG_CERT_SPX_INVALID);
	put(OTI_BL0_A, tu_blob_dup(&hybrid_direct));
	same_bl0(OTA_SIG_SPX_INVALID);
}
END_TEST

/* The root is the anchor whose key id the first certificate names as its parent. */
START_TEST(test_first_parent_is_the_root)
{
	struct ota_constraints all = tu_constraints(0, 255);
	struct oti_cert c = tu_cert(TU_ROGUE, NULL, TU_LEAF, OTA_CERT_LEAF, &all, false);
	struct oti_diag d;

	put(OTI_BL0_A, build(tu_key(TU_LEAF), &c, 1, 5, NULL, NULL, 0));
	same_verdict(OTA_STAGE_BL0, OTI_BL0_A, OTA_ROOT_KEY_UNKNOWN, &d);
	ck_assert_str_eq(d.field, "manifest.ext[0] (DLGC).parent_key_id");
}
END_TEST

/* CRITICAL matters only for unknown types: a known one is read whatever its flag. */
START_TEST(test_known_extension_not_critical)
{
	struct tu_blob img = tu_bl0(1, 5, false);
	struct ota_manifest *m = (struct ota_manifest *)(void *)img.data;

	ck_assert_uint_eq(m->ext[0].type, OTA_EXT_DLGC);
	m->ext[0].flags = 0;
	ck_assert_uint_eq(oti_image_resign(img.data, img.len, tu_key(TU_LEAF)), OTA_OK);
	put(OTI_BL0_A, img);
	same_bl0(OTA_OK);
}
END_TEST

/* An unknown type has no version of its own: the header's is not read. */
START_TEST(test_unknown_extension_version)
{
	static const uint8_t body[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct oti_raw_ext x = { OTA_FOURCC('X', 'T', 'R', 'A'), 0, false, body, sizeof(body) };
	struct tu_blob img = build(tu_key(TU_OWNER0), NULL, 0, 5, NULL, &x, 1);
	struct ota_image_view v;
	uint16_t version = 7;

	ck_assert_uint_eq(ota_image_parse(img.data, (uint32_t)img.len, &v), OTA_OK);
	/* The unsigned region: no signature changes. */
	memcpy(img.data + v.manifest.ext[0].offset + offsetof(struct ota_ext_header, version),
	       &version, sizeof(version));
	put(OTI_BL0_A, img);
	same_bl0(OTA_OK);
	x.flags = OTA_EXT_F_CRITICAL;
	put(OTI_BL0_A, build(tu_key(TU_OWNER0), NULL, 0, 5, NULL, &x, 1));
	same_bl0(OTA_EXT_UNKNOWN_CRITICAL);
}
END_TEST

/* A binding to the all-zero id is a binding like any other. */
START_TEST(test_zero_device_binding)
{
	struct ota_usage u = tu_usage_all();

	u.device_binding = OTA_BINDING_DEVICE;
	memset(u.device_id, 0, sizeof(u.device_id));
	put(OTI_BL0_A, build(tu_key(TU_OWNER0), NULL, 0, 5, &u, NULL, 0));
	same_bl0(OTA_DEVICE_NOT_ALLOWED);
	memset(dev.device_id, 0, sizeof(dev.device_id));
	same_bl0(OTA_OK);
}
END_TEST

/* The device facts otimage reads from OTP: lifecycle, floor, revocation, chain length. */
START_TEST(test_device_facts)
{
	struct ota_constraints ten = tu_constraints(0, 10);
	struct oti_cert c = tu_cert(TU_OWNER0, NULL, TU_LEAF, OTA_CERT_LEAF, &ten, false);
	struct ota_usage u = tu_usage_all();

	u.lifecycle_mask = 1u << OTA_LC_PROD;
	put(OTI_BL0_A, build(tu_key(TU_OWNER0), NULL, 0, 5, &u, NULL, 0));
	same_bl0(OTA_LIFECYCLE_NOT_ALLOWED);

	put(OTI_BL0_A, build(tu_key(TU_LEAF), &c, 1, 5, NULL, NULL, 0));
	dev.otp_floor_bl0 = 6;
	same_bl0(OTA_SVN_BELOW_FLOOR);
	dev.otp_floor_bl0 = 11;
	same_bl0(OTA_DELEG_REVOKED_BY_FLOOR);
	dev.otp_floor_bl0 = 0;
	dev.owner_revoked[0] = true;
	same_bl0(OTA_ROOT_KEY_REVOKED);
	dev.owner_revoked[0] = false;
	dev.chain_max_svn = 4;
	same_bl0(OTA_SVN_ABOVE_MAX);
	dev.chain_max_svn = OTA_CHAIN_DEFAULT_MAX_SVN;
	dev.owner_flags = 0;
	put(OTI_BL0_A, build(tu_key(TU_OWNER0), NULL, 0, 5, NULL, NULL, 0));
	same_bl0(OTA_DELEG_DIRECT_BOOT_FORBIDDEN);
}
END_TEST

START_TEST(test_slot)
{
	struct ota_usage u = tu_usage_all();
	struct oti_diag d;

	u.slot_mask = 1u << OTA_SLOT_B;
	put(OTI_BL0_A, build(tu_key(TU_OWNER0), NULL, 0, 5, &u, NULL, 0));
	same_bl0(OTA_SLOT_NOT_ALLOWED);
	put(OTI_BL0_B, build(tu_key(TU_OWNER0), NULL, 0, 5, &u, NULL, 0));
	same_verdict(OTA_STAGE_BL0, OTI_BL0_B, OTA_OK, &d);
}
END_TEST

START_TEST(test_tampered_signature)
{
	struct tu_blob img = tu_bl0(1, 5, false);

	img.data[5] ^= 1;
	put(OTI_BL0_A, img);
	same_bl0(OTA_SIG_ECDSA_INVALID);
}
END_TEST

/*
 * A leaf delegate key off the curve, certified by a valid signature: the
 * image signature cannot be checked under it (SIG_BAD_PUBKEY, malformed),
 * and otimage names that key, not the image signature.
 */
START_TEST(test_delegate_key_off_the_curve)
{
	struct ota_constraints all = tu_constraints(0, 255);
	struct oti_key bad = *tu_key(TU_LEAF), signer = *tu_key(TU_LEAF);
	struct oti_cert c;
	struct oti_diag d;

	bad.pub[63] ^= 1;
	ota_key_id(bad.pub, bad.key_id);
	ck_assert_uint_eq(oti_ecdsa_verify(bad.pub, bad.key_id, bad.pub), OTA_SIG_BAD_PUBKEY);
	ck_assert_uint_eq(oti_cert_issue(tu_key(TU_OWNER0), NULL, &bad, OTA_CERT_LEAF, &all,
					 OTI_UNCHECKED, &c, &d), OTA_OK);
	memcpy(signer.key_id, bad.key_id, sizeof(signer.key_id));
	put(OTI_BL0_A, build(&signer, &c, 1, 5, NULL, NULL, 0));
	same_verdict(OTA_STAGE_BL0, OTI_BL0_A, OTA_SIG_BAD_PUBKEY, &d);
	ck_assert_str_eq(d.field, "manifest.ext[0] (DLGC).delegate_pubkey");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("otimage_device");
	TCase *t = tcase_create("verdict");

	tcase_add_unchecked_fixture(t, build_hybrid_images, NULL);
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_accepted);
	tcase_add_test(t, test_rom_ext_through_a_delegate);
	tcase_add_test(t, test_ecdsa_leaf_under_a_hybrid_owner);
	tcase_add_test(t, test_untrusted_slhdsa);
	tcase_add_test(t, test_first_parent_is_the_root);
	tcase_add_test(t, test_known_extension_not_critical);
	tcase_add_test(t, test_unknown_extension_version);
	tcase_add_test(t, test_zero_device_binding);
	tcase_add_test(t, test_device_facts);
	tcase_add_test(t, test_slot);
	tcase_add_test(t, test_tampered_signature);
	tcase_add_test(t, test_delegate_key_off_the_curve);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(true), suite)
