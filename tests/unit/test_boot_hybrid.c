// SPDX-License-Identifier: MIT
/*
 * Hybrid signatures (ECDSA P-256 + SLH-DSA-SHA2-128s): 0, 1 and 2
 * hybrid delegates accepted, then booted on the tag path; with hybrid
 * required, the SLH-DSA part missing, wrong or made by another key is
 * refused, for the image (SPXS) and for a certificate (DLGS), on both
 * paths.
 *
 * SLH-DSA signing takes about 0.6 s, so the images are made once, in an
 * unchecked fixture (the parent process), and every test reuses them.
 */
#include <check.h>
#include <stddef.h>
#include <string.h>

#include <otattest/deleg.h>
#include <otattest/manifest.h>

#include "fw_run.h"
#include "handoff.h"
#include "hal.h"
#include "swhal.h"
#include "tu_device.h"
#include "tu_main.h"

enum {
	IMG_H0,         /* OWNER_H -> image */
	IMG_H1,         /* OWNER_H -> LEAF_H -> image */
	IMG_H2,         /* OWNER_H -> INTER_H -> LEAF_H -> image */
	IMG_NO_SPXS,    /* OWNER_H's P-256 key alone: no image SLH-DSA signature */
	IMG_NO_DLGS,    /* OWNER_H -> LEAF (ECDSA only): no DLGS, no SPXS */
	IMG_SPXS_ROGUE, /* IMG_H0 with its SPXS made by ROGUE_H */
	IMG_DLGS_ROGUE, /* IMG_H1 with its DLGS made by ROGUE_H */
	IMG_COUNT,
};

static struct tu_blob img[IMG_COUNT];
static struct tu_device dev;

static struct ota_image_view view_of(const struct tu_blob *b)
{
	struct ota_image_view v;

	ck_assert_uint_eq(ota_image_parse(b->data, (uint32_t)b->len, &v), OTA_OK);
	return v;
}

static void build_images(void)
{
	struct ota_constraints all = tu_constraints(0, OTA_SVN_LIMIT);
	uint8_t m[32], msg[OTA_DLGS_MSG_BYTES];
	struct oti_key ecdsa_only;
	struct ota_image_view v;
	struct tu_image_spec s;
	struct oti_cert c[1];
	struct ota_dlgc g;

	if (img[IMG_H0].data)
		return;
	img[IMG_H0] = tu_bl0(0, 5, true);
	img[IMG_H1] = tu_bl0(1, 5, true);
	img[IMG_H2] = tu_bl0(2, 5, true);

	/* The same P-256 key, presented as ECDSA-only: otimage adds no SPXS. */
	ecdsa_only = *tu_key(TU_OWNER_H);
	ecdsa_only.algorithm = OTA_KEY_ALG_ECDSA_P256;
	{
		struct oti_image_params p;
		struct oti_diag d;
		uint8_t payload[256];

		memset(&p, 0, sizeof(p));
		memset(payload, 0x11, sizeof(payload));
		p.identifier = OTA_ID_BL0;
		p.security_version = 5;
		p.max_key_version = 16;
		p.usage = tu_usage_all();
		p.payload = payload;
		p.payload_len = sizeof(payload);
		p.flags = OTI_UNCHECKED;
		ck_assert_uint_eq(oti_image_build(&p, &ecdsa_only, NULL, 0, &img[IMG_NO_SPXS].data,
						  &img[IMG_NO_SPXS].len, &d), OTA_OK);
	}

	c[0] = tu_cert(TU_OWNER_H, NULL, TU_LEAF, OTA_CERT_LEAF, &all, false);
	ck_assert(!c[0].has_dlgs);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 5);
	s.signer = TU_LEAF;
	s.chain = c;
	s.chain_len = 1;
	img[IMG_NO_DLGS] = tu_image(&s);

	img[IMG_SPXS_ROGUE] = tu_blob_dup(&img[IMG_H0]);
	v = view_of(&img[IMG_SPXS_ROGUE]);
	tu_measurement(&img[IMG_SPXS_ROGUE], m);
	ck_assert_uint_eq(oti_spx_sign(tu_key(TU_ROGUE_H), m, sizeof(m),
				       img[IMG_SPXS_ROGUE].data + v.spxs_offset +
					       offsetof(struct ota_spxs, signature)), OTA_OK);

	img[IMG_DLGS_ROGUE] = tu_blob_dup(&img[IMG_H1]);
	v = view_of(&img[IMG_DLGS_ROGUE]);
	ck_assert_uint_eq(ota_dlgc_read(&v, 0, &g), OTA_OK);
	ota_dlgs_message(&g, img[IMG_DLGS_ROGUE].data + v.cert_spx_offset[0] +
				     offsetof(struct ota_dlgs, delegate_spx_pubkey), msg);
	ck_assert_uint_eq(oti_spx_sign(tu_key(TU_ROGUE_H), msg, sizeof(msg),
				       img[IMG_DLGS_ROGUE].data + v.cert_spx_offset[0] +
					       offsetof(struct ota_dlgs, signature)), OTA_OK);
}

static void setup(void)
{
	tu_device_init(&dev);
	dev.owner_keys[0] = TU_OWNER_H;
	dev.owner_key_count = 1;
	dev.owner_flags = OTA_OWNER_F_DIRECT_BOOT | OTA_OWNER_F_HYBRID_REQUIRED;
}

static void teardown(void)
{
	tu_device_free(&dev);
	swhal_close();
}

static void with_bl0(int which)
{
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_blob_dup(&img[which]);
	tu_device_power_on(&dev);
}

static void expect_refused(ota_status_t want)
{
	const struct ota_stage_record *a;

	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	a = tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A);
	ck_assert_msg(a->status == want, "got %s, want %s", ota_status_name(a->status),
		      ota_status_name(want));
	ck_assert_uint_eq(a->path, OTA_PATH_NONE);
}

static void accepted_then_tagged(int which, uint32_t depth)
{
	const struct ota_stage_record *s;

	with_bl0(which);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	s = tu_booted(OTA_STAGE_BL0);
	ck_assert_uint_eq(s->sig_scheme, OTA_SCHEME_HYBRID);
	ck_assert_uint_eq(s->delegation_depth, depth);
	ck_assert_uint_eq(s->path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_mem_eq(s->key_ids[0], tu_key(TU_OWNER_H)->key_id, 32);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	s = tu_booted(OTA_STAGE_BL0);
	ck_assert_uint_eq(s->path, OTA_PATH_TAG);
	ck_assert_uint_eq(s->sig_scheme, OTA_SCHEME_HYBRID);
}

START_TEST(test_hybrid_direct_accepted)
{
	accepted_then_tagged(IMG_H0, 0);
}
END_TEST

START_TEST(test_hybrid_one_delegate_accepted)
{
	accepted_then_tagged(IMG_H1, 1);
}
END_TEST

START_TEST(test_hybrid_two_delegates_accepted)
{
	accepted_then_tagged(IMG_H2, 2);
}
END_TEST

START_TEST(test_image_slhdsa_missing)
{
	with_bl0(IMG_NO_SPXS);
	expect_refused(OTA_SIG_SPX_MISSING);
}
END_TEST

/* Without the owner's flag a hybrid root still requires hybrid below it. */
START_TEST(test_image_slhdsa_missing_under_a_hybrid_root)
{
	dev.owner_flags = OTA_OWNER_F_DIRECT_BOOT;
	with_bl0(IMG_NO_SPXS);
	expect_refused(OTA_SIG_SPX_MISSING);
}
END_TEST

START_TEST(test_certificate_slhdsa_missing)
{
	with_bl0(IMG_NO_DLGS);
	expect_refused(OTA_DELEG_CERT_SPX_MISSING);
}
END_TEST

/* Wrong: a flipped bit in the image's SLH-DSA signature, after it was tagged. */
START_TEST(test_image_slhdsa_wrong_on_both_paths)
{
	struct ota_image_view v = view_of(&img[IMG_H0]);

	with_bl0(IMG_H0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	tu_flash_xor(tu_slot_offset(OTI_BL0_A) + v.spxs_offset +
			     offsetof(struct ota_spxs, signature) + 3000, 0x01);
	expect_refused(OTA_SIG_SPX_INVALID);
}
END_TEST

START_TEST(test_image_slhdsa_by_another_key)
{
	with_bl0(IMG_SPXS_ROGUE);
	expect_refused(OTA_SIG_SPX_INVALID);
}
END_TEST

START_TEST(test_certificate_slhdsa_wrong_on_both_paths)
{
	struct ota_image_view v = view_of(&img[IMG_H1]);

	with_bl0(IMG_H1);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	tu_flash_xor(tu_slot_offset(OTI_BL0_A) + v.cert_spx_offset[0] +
			     offsetof(struct ota_dlgs, signature) + 100, 0x80);
	expect_refused(OTA_DELEG_CERT_SPX_INVALID);
}
END_TEST

START_TEST(test_certificate_slhdsa_by_another_key)
{
	with_bl0(IMG_DLGS_ROGUE);
	expect_refused(OTA_DELEG_CERT_SPX_INVALID);
}
END_TEST

/* The delegate's SLH-DSA key is part of what the parent signed. */
START_TEST(test_certificate_slhdsa_key_swapped)
{
	struct ota_image_view v = view_of(&img[IMG_H1]);

	with_bl0(IMG_H1);
	tu_flash_xor(tu_slot_offset(OTI_BL0_A) + v.cert_spx_offset[0] +
			     offsetof(struct ota_dlgs, delegate_spx_pubkey) + 20, 0x01);
	expect_refused(OTA_DELEG_CERT_SPX_INVALID);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("boot_hybrid");
	TCase *t = tcase_create("hybrid");

	tcase_add_unchecked_fixture(t, build_images, NULL);
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_hybrid_direct_accepted);
	tcase_add_test(t, test_hybrid_one_delegate_accepted);
	tcase_add_test(t, test_hybrid_two_delegates_accepted);
	tcase_add_test(t, test_image_slhdsa_missing);
	tcase_add_test(t, test_image_slhdsa_missing_under_a_hybrid_root);
	tcase_add_test(t, test_certificate_slhdsa_missing);
	tcase_add_test(t, test_image_slhdsa_wrong_on_both_paths);
	tcase_add_test(t, test_image_slhdsa_by_another_key);
	tcase_add_test(t, test_certificate_slhdsa_wrong_on_both_paths);
	tcase_add_test(t, test_certificate_slhdsa_by_another_key);
	tcase_add_test(t, test_certificate_slhdsa_key_swapped);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(true), suite)
