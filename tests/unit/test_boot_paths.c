// SPDX-License-Identifier: MIT
/*
 * The two paths of a stage check: 0, 1 and 2 delegates accepted on the
 * signature path and re-tagged, the second boot of an unchanged image on
 * the tag path, a tampered tag sent back to the slow path and rewritten,
 * the OTP bit and the image capability that turn tags off, and the boot
 * record every boot publishes. The tags themselves against their
 * definition, computed here with OpenSSL from the device secret (the
 * "definition" case, which the mutation tests run).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/flash.h>
#include <otattest/keys.h>
#include <otattest/sha256.h>
#include <otattest/shm.h>

#include "hal.h"
#include "fw_run.h"
#include "handoff.h"
#include "swhal.h"
#include "testutil.h"
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

static void boot_ok(void)
{
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
}

static void check_depth(uint32_t depth)
{
	const struct ota_stage_record *s;
	uint8_t m[32], id[32];

	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_bl0(depth, 7, false);
	tu_device_power_on(&dev);
	boot_ok();
	s = tu_booted(OTA_STAGE_BL0);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->status, OTA_OK);
	ck_assert_uint_eq(s->slot, OTA_SLOT_A);
	ck_assert_uint_eq(s->path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_uint_eq(s->sig_scheme, OTA_SCHEME_ECDSA_P256);
	ck_assert_uint_eq(s->delegation_depth, depth);
	ck_assert_uint_eq(s->security_version, 7);
	ck_assert_uint_eq(s->tag_key_version, 0);
	tu_measurement(&dev.slot[OTI_BL0_A], m);
	ck_assert_mem_eq(s->measurement, m, 32);
	/* Key ids: the root, then each delegate, the rest zero. */
	ck_assert_mem_eq(s->key_ids[0], tu_key(TU_OWNER0)->key_id, 32);
	if (depth == 2) {
		ck_assert_mem_eq(s->key_ids[1], tu_key(TU_INTER)->key_id, 32);
		ck_assert_mem_eq(s->key_ids[2], tu_key(TU_LEAF)->key_id, 32);
	} else if (depth == 1) {
		ck_assert_mem_eq(s->key_ids[1], tu_key(TU_LEAF)->key_id, 32);
	}
	memset(id, 0, sizeof(id));
	if (depth < 2)
		ck_assert_mem_eq(s->key_ids[2], id, 32);
	ck_assert_uint_eq(s->effective.svn_max, OTA_SVN_LIMIT);
	ck_assert_uint_gt(s->verify_time_ns, 0);

	/* The second boot of the same image: the tag path, nothing written. */
	ck_assert_int_eq(swhal_power_on(), 0);
	{
		uint64_t writes = swhal_flash_writes();

		boot_ok();
		ck_assert_uint_eq(swhal_flash_writes(), writes);
	}
	s = tu_booted(OTA_STAGE_BL0);
	ck_assert_uint_eq(s->path, OTA_PATH_TAG);
	ck_assert_uint_eq(s->delegation_depth, depth);
	ck_assert_mem_eq(s->measurement, m, 32);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path, OTA_PATH_TAG);
}

START_TEST(test_direct_boot_accepted_then_tagged)
{
	check_depth(0);
}
END_TEST

START_TEST(test_one_delegate_accepted_then_tagged)
{
	check_depth(1);
}
END_TEST

START_TEST(test_two_delegates_accepted_then_tagged)
{
	check_depth(2);
}
END_TEST

START_TEST(test_record_describes_the_boot)
{
	const struct ota_boot_state *bs;
	const struct ota_record *r;
	uint8_t m[32], rom[32];
	uint32_t state, detail, gen;

	tu_device_power_on(&dev);
	boot_ok();
	r = tu_record();
	ck_assert_uint_eq(r->hdr.boot_status, OTA_OK);
	ck_assert_uint_eq(r->hdr.reset_reason, OTA_RESET_COLD);
	ck_assert_uint_eq(r->hdr.lifecycle, OTA_LC_DEV);
	ck_assert_mem_eq(r->hdr.device_id, dev.device_id, 16);
	ck_assert_uint_eq(r->hdr.stage_count, 2);
	ck_assert_uint_eq(r->hdr.min_svn, 5);
	ck_assert_uint_eq(r->hdr.chain_max_svn, 128);
	ck_assert_uint_eq(r->hdr.flags, OTA_RECORD_F_TAG_BOOT_ENABLED | OTA_RECORD_F_UPDATE_SECTION);
	ck_assert_uint_gt(r->hdr.boot_time_ns, 0);
	hal_rom_identity(rom);
	ck_assert_mem_eq(r->hdr.rom_identity, rom, 32);
	ck_assert_uint_eq(r->stage[0].stage, OTA_STAGE_ROM_EXT);
	ck_assert_uint_eq(r->stage[0].flags, OTA_STAGE_F_BOOTED);
	ck_assert_mem_eq(r->stage[0].key_ids[0], tu_key(TU_CREATOR0)->key_id, 32);
	tu_measurement(&dev.slot[OTI_ROM_EXT_A], m);
	ck_assert_mem_eq(r->stage[0].measurement, m, 32);
	ck_assert_uint_eq(r->stage[1].stage, OTA_STAGE_BL0);

	/* The runtime's view is the published record, generation included. */
	bs = ota_boot_state();
	ck_assert_ptr_nonnull(bs);
	ck_assert_uint_eq(bs->boot_status, OTA_OK);
	ck_assert_uint_eq(bs->record_len, r->hdr.length);
	ck_assert_mem_eq(&bs->record, r, r->hdr.length);
	ck_assert_uint_eq(bs->bl0_svn, 5);
	ck_assert_uint_eq(bs->rom_ext_svn, 1);
	ck_assert_mem_eq(bs->rom_ext_measurement, m, 32);
	swhal_last_state(&state, &detail);
	ck_assert_uint_eq(state, OTA_DEV_READY);
	ck_assert_uint_eq(detail, OTA_OK);
	/* The runtime starts with the key manager at RUNTIME: its own two secrets, nothing else. */
	ck_assert_uint_eq(hal_keymgr_state(), HAL_KEYMGR_RUNTIME);
	ck_assert_uint_eq(swhal_keys_in_use(), 2);

	gen = r->hdr.generation;
	ck_assert_uint_eq(bs->record.hdr.generation, gen);
	ck_assert_int_eq(swhal_power_on(), 0);
	boot_ok();
	ck_assert_uint_eq(tu_record()->hdr.generation, gen + 1u);
}
END_TEST

START_TEST(test_tampered_tag_falls_back_and_is_rewritten)
{
	const struct ota_flash_region *t0, *t1;
	struct ota_tag_table tt[2];
	uint32_t i, off;

	tu_device_power_on(&dev);
	boot_ok();
	/* Flip one bit of the BL0 tag in whichever copy is newest, then re-seal it
	 * so only the tag itself is wrong (an attacker forging a tag). */
	t0 = tu_region(OTA_REGION_TAG_TABLE_0);
	t1 = tu_region(OTA_REGION_TAG_TABLE_1);
	ck_assert_int_eq(swhal_peek_flash(t0->offset, &tt[0], sizeof(tt[0])), 0);
	ck_assert_int_eq(swhal_peek_flash(t1->offset, &tt[1], sizeof(tt[1])), 0);
	i = (uint32_t)ota_tag_table_pick(tt, NULL);
	ck_assert_uint_lt(i, 2);
	tt[i].entry[ota_tag_index(OTA_STAGE_BL0, OTA_SLOT_A)].tag[3] ^= 0x10;
	ota_tag_table_seal(&tt[i]);
	off = i ? t1->offset : t0->offset;
	ck_assert_int_eq(swhal_poke_flash(off, &tt[i], sizeof(tt[i])), 0);

	ck_assert_int_eq(swhal_power_on(), 0);
	boot_ok(); /* not refused */
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path, OTA_PATH_TAG);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_int_eq(swhal_power_on(), 0);
	boot_ok();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
}
END_TEST

START_TEST(test_tag_boot_off_in_otp_means_no_tags)
{
	uint64_t writes;

	dev.features = 0;
	tu_device_power_on(&dev);
	writes = swhal_flash_writes();
	boot_ok();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path, OTA_PATH_SIGNATURE);
	ck_assert_uint_eq(tu_record()->hdr.flags & OTA_RECORD_F_TAG_BOOT_ENABLED, 0);
	/*
	 * No tag write; only the factory boot data made the device's own
	 * (erase, program) and the identity log's header (program).
	 */
	ck_assert_uint_eq(swhal_flash_writes(), writes + 3);
	ck_assert_int_eq(swhal_power_on(), 0);
	writes = swhal_flash_writes();
	boot_ok();
	ck_assert_uint_eq(swhal_flash_writes(), writes);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE);
}
END_TEST

START_TEST(test_tag_boot_off_ignores_an_existing_tag)
{
	struct ota_otp otp;

	tu_device_power_on(&dev);
	boot_ok();
	/* Re-provision with the feature off, the tag table left in flash. */
	ck_assert_int_eq(swhal_peek_otp(0, &otp, sizeof(otp)), 0);
	otp.features = 0;
	ota_sha256(&otp.device_id, OTA_OTP_HW_CFG_END - OTA_OTP_HW_CFG_START, otp.hw_cfg_digest);
	ck_assert_int_eq(swhal_load_otp(&otp, sizeof(otp)), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	boot_ok();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE);
}
END_TEST

START_TEST(test_image_without_tag_capability_stays_on_the_slow_path)
{
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_BL0, 3);
	s.usage.flags = 0;
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_image(&s);
	tu_device_power_on(&dev);
	boot_ok();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_int_eq(swhal_power_on(), 0);
	boot_ok();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE);
}
END_TEST

START_TEST(test_salted_image_gets_its_own_tag)
{
	struct tu_image_spec s;

	tu_image_spec_init(&s, OTA_STAGE_BL0, 3);
	s.salt = true;
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_image(&s);
	tu_device_power_on(&dev);
	boot_ok();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_int_eq(swhal_power_on(), 0);
	boot_ok();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
}
END_TEST

START_TEST(test_tags_are_device_unique)
{
	struct ota_tag_table a, b;
	int ia, ib;
	struct ota_tag_table tt[2];

	tu_device_power_on(&dev);
	boot_ok();
	ck_assert_int_eq(swhal_peek_flash(tu_region(OTA_REGION_TAG_TABLE_0)->offset, &tt[0], sizeof(tt[0])), 0);
	ck_assert_int_eq(swhal_peek_flash(tu_region(OTA_REGION_TAG_TABLE_1)->offset, &tt[1], sizeof(tt[1])), 0);
	ia = ota_tag_table_pick(tt, NULL);
	ck_assert_int_ge(ia, 0);
	a = tt[ia];
	swhal_close();
	dev.secret[0] ^= 1; /* another device, same images */
	tu_device_power_on(&dev);
	boot_ok();
	ck_assert_int_eq(swhal_peek_flash(tu_region(OTA_REGION_TAG_TABLE_0)->offset, &tt[0], sizeof(tt[0])), 0);
	ck_assert_int_eq(swhal_peek_flash(tu_region(OTA_REGION_TAG_TABLE_1)->offset, &tt[1], sizeof(tt[1])), 0);
	ib = ota_tag_table_pick(tt, NULL);
	ck_assert_int_ge(ib, 0);
	b = tt[ib];
	ck_assert_mem_ne(a.entry[2].tag, b.entry[2].tag, 32);
	/* ...so a tag table copied from one device to the other is refused as a tag. */
	ck_assert_int_eq(swhal_poke_flash(tu_region(OTA_REGION_TAG_TABLE_0)->offset, &a, sizeof(a)), 0);
	ck_assert_int_eq(swhal_poke_flash(tu_region(OTA_REGION_TAG_TABLE_1)->offset, &a, sizeof(a)), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	boot_ok();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE_RETAGGED);
}
END_TEST

START_TEST(test_no_keys_left_for_the_runtime)
{
	tu_device_power_on(&dev);
	boot_ok();
	/* RUNTIME wiped every working slot: tag keys, chain links, identity; only its own secrets. */
	ck_assert_uint_eq(swhal_keys_in_use(), 2);
}
END_TEST


/* ---- the tag as docs/boot-flow.md defines it ------------------------------ */

static void le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/*
 * tag key = KDF(cdi, "otattest-tag-key", stage || salt, key_version, MAC)
 * tag     = KMAC256(tag key, measurement || signature-block digest || stage
 *                   || key_version, 256, "otattest-boot-tag")[0, 24)
 *           || measurement[0, 8)
 * with the labels as the page spells them, not the firmware's macros.
 */
static void expected_tag(const uint8_t cdi[32], uint32_t stage, const struct tu_blob *img,
			 uint32_t key_version, uint8_t out[OTA_TAG_BYTES])
{
	struct ota_image_view v;
	uint8_t ctx[4 + 32], key[32], msg[32 + 32 + 8], mac[32], *unsigned_part;
	size_t ctx_len = 4, n;

	ck_assert_uint_eq(ota_image_parse(img->data, (uint32_t)img->len, &v), OTA_OK);
	le32(ctx, stage);
	if (v.salt_offset) {
		memcpy(ctx + 4, img->data + v.salt_offset + sizeof(struct ota_ext_header), 32);
		ctx_len += 32;
	}
	tu_kdf(cdi, "otattest-tag-key", ctx, ctx_len, key_version, HAL_KEY_PURPOSE_MAC, key);
	tu_measurement(img, msg);
	/* The signature block: [0, 64) and [signed_end, image_length). */
	n = 64 + img->len - v.manifest.signed_end;
	unsigned_part = malloc(n);
	ck_assert_ptr_nonnull(unsigned_part);
	memcpy(unsigned_part, img->data, 64);
	memcpy(unsigned_part + 64, img->data + v.manifest.signed_end, n - 64);
	tu_sha256(unsigned_part, n, msg + 32);
	free(unsigned_part);
	le32(msg + 64, stage);
	le32(msg + 68, key_version);
	tu_kmac256(key, "otattest-boot-tag", msg, sizeof(msg), mac, sizeof(mac));
	memcpy(out, mac, OTA_TAG_MAC_BYTES);
	memcpy(out + OTA_TAG_MAC_BYTES, msg, OTA_TAG_HINT_BYTES);
}

static void entry_is(const struct ota_tag_table *t, uint32_t stage, const uint8_t cdi[32],
		     const struct tu_blob *img, uint32_t key_version)
{
	const struct ota_tag_entry *e = &t->entry[ota_tag_index(stage, OTA_SLOT_A)];
	uint8_t want[OTA_TAG_BYTES];

	ck_assert_uint_eq(e->state, OTA_TAG_STATE_VALID);
	ck_assert_uint_eq(e->key_version, key_version);
	expected_tag(cdi, stage, img, key_version, want);
	ck_assert_msg(memcmp(e->tag, want, OTA_TAG_BYTES) == 0,
		      "stage %u: the tag is not the one its definition gives", stage);
}

/*
 * Both stages salted, after one rotation (key version 1): every input the
 * definition names - salt, stage (in the key and in the MAC), key version
 * (in both), measurement, signature block - changes the expected tag, so a
 * firmware that drops one writes a tag this does not match, however well
 * it agrees with itself on the next boot.
 */
START_TEST(test_tags_match_their_definition)
{
	uint8_t root[32], cdi[32], rom[32], adv[4 + 32] = { HAL_KEYMGR_ROM_EXT, 0, 0, 0 };
	struct ota_resp_rotate out;
	struct tu_image_spec s;
	struct ota_tag_table t;

	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 1);
	s.salt = true;
	tu_blob_free(&dev.slot[OTI_ROM_EXT_A]);
	dev.slot[OTI_ROM_EXT_A] = tu_image(&s);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 5);
	s.salt = true;
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_image(&s);
	tu_device_power_on(&dev);
	boot_ok();
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	ck_assert_uint_eq(tu_boot_data().tag_key_version, 1);
	t = tu_tag_table();

	/* ROM tags ROM_EXT with its state's secret, the device root... */
	hal_rom_identity(rom);
	tu_kmac256(dev.secret, "otattest-device-root", rom, sizeof(rom), root, sizeof(root));
	entry_is(&t, OTA_STAGE_ROM_EXT, root, &dev.slot[OTI_ROM_EXT_A], 1);
	/* ...ROM_EXT tags BL0 with its own, the root advanced by what admitted ROM_EXT. */
	tu_rom_ext_attest(adv + 4);
	tu_kdf(root, "otattest-keymgr-attest", adv, sizeof(adv), 0, HAL_KEY_PURPOSE_KDF, cdi);
	entry_is(&t, OTA_STAGE_BL0, cdi, &dev.slot[OTI_BL0_A], 1);
	/* And the device agrees: both take the tag path on the next boot. */
	ck_assert_int_eq(swhal_power_on(), 0);
	boot_ok();
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path, OTA_PATH_TAG);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("boot_paths");
	TCase *t = tcase_create("paths"), *def;

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_direct_boot_accepted_then_tagged);
	tcase_add_test(t, test_one_delegate_accepted_then_tagged);
	tcase_add_test(t, test_two_delegates_accepted_then_tagged);
	tcase_add_test(t, test_record_describes_the_boot);
	tcase_add_test(t, test_tampered_tag_falls_back_and_is_rewritten);
	tcase_add_test(t, test_tag_boot_off_in_otp_means_no_tags);
	tcase_add_test(t, test_tag_boot_off_ignores_an_existing_tag);
	tcase_add_test(t, test_image_without_tag_capability_stays_on_the_slow_path);
	tcase_add_test(t, test_salted_image_gets_its_own_tag);
	tcase_add_test(t, test_tags_are_device_unique);
	tcase_add_test(t, test_no_keys_left_for_the_runtime);
	suite_add_tcase(s, t);

	def = tcase_create("definition");
	tcase_add_checked_fixture(def, setup, teardown);
	tcase_set_timeout(def, 30);
	tcase_add_test(def, test_tags_match_their_definition);
	suite_add_tcase(s, def);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite)
