// SPDX-License-Identifier: MIT
/*
 * The OTP image: built by libotimage and decoded back to the same fields;
 * every refusal of ota_otp_decode; thermometer counters; revocation words
 * that fail safe; the one lifecycle transition out of manufacturing; and
 * programming with OTP semantics (bits only set).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/otp.h>

#include "../../libotattest/tools/otimage/otimage.h"
#include "testutil.h"
#include "tu_check.h"
#include "tu_main.h"

static struct oti_key k_ec, k_hy;
static struct oti_otp_params params;
static struct ota_otp otp_ref;

static void build_fixtures(void)
{
	size_t i;

	FIX(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &k_ec, NULL));
	FIX(oti_key_generate(OTA_KEY_ALG_HYBRID, &k_hy, NULL));
	memset(&params, 0, sizeof(params));
	for (i = 0; i < 16; i++)
		params.device_id[i] = (uint8_t)(0xd0 + i);
	params.lifecycle = OTA_LC_PROD;
	params.features = OTA_OTP_F_TAG_BOOT;
	params.chain_max_svn = 100;
	memset(params.owner_config_digest, 0x0c, 32);
	oti_key_root_entry(&k_ec, (1u << OTA_LC_DEV) | (1u << OTA_LC_PROD), &params.creator_keys[0]);
	oti_key_root_entry(&k_hy, OTA_LC_MASK_ALL, &params.creator_keys[1]);
	params.creator_key_count = 2;
	for (i = 0; i < 32; i++)
		params.device_secret[i] = (uint8_t)(0x50 ^ i);
	params.epoch = 3;
	params.floor_rom_ext = 2;
	params.floor_bl0 = 9;
	params.owner_key_revoked[2] = true;
	FIX(oti_otp_build(&params, &otp_ref, NULL));
}

/* ---- round trip ------------------------------------------------------------ */

START_TEST(test_roundtrip)
{
	struct ota_otp_info info;
	uint8_t want[32];

	EXPECT(ota_otp_decode(&otp_ref, &info), OTA_OK);
	ck_assert_uint_eq(info.lifecycle, OTA_LC_PROD);
	ck_assert_uint_eq(otp_ref.lifecycle, OTA_OTP_LC_PROD);
	ck_assert_uint_eq(info.features, OTA_OTP_F_TAG_BOOT);
	ck_assert_uint_eq(info.chain_max_svn, 100);
	ck_assert_uint_eq(info.epoch, 3);
	ck_assert_uint_eq(info.floor_rom_ext, 2);
	ck_assert_uint_eq(info.floor_bl0, 9);
	ck_assert_mem_eq(info.device_id, params.device_id, 16);
	ck_assert_mem_eq(info.owner_config_digest, params.owner_config_digest, 32);
	ck_assert_mem_eq(info.creator_keys, params.creator_keys, sizeof(info.creator_keys));
	ck_assert_uint_eq(info.creator_keys[1].algorithm, OTA_KEY_ALG_HYBRID);
	ck_assert(!info.creator_key_revoked[0] && !info.creator_key_revoked[1]);
	ck_assert(info.owner_key_revoked[2] && !info.owner_key_revoked[0]);
	/* Both partition digests, recomputed with OpenSSL. */
	tu_sha256((const uint8_t *)&otp_ref + OTA_OTP_HW_CFG_START,
		  OTA_OTP_HW_CFG_END - OTA_OTP_HW_CFG_START, want);
	ck_assert_mem_eq(otp_ref.hw_cfg_digest, want, 32);
	tu_sha256(otp_ref.device_secret, 32, want);
	ck_assert_mem_eq(otp_ref.secret_digest, want, 32);
	EXPECT(ota_otp_secret_check(&otp_ref), OTA_OK);
	ck_assert_mem_eq(otp_ref.device_secret, params.device_secret, 32);
}
END_TEST

START_TEST(test_secret_not_decoded_and_not_needed)
{
	/* The firmware's copy has the secret range zeroed: decode must not care. */
	struct ota_otp copy = otp_ref;
	struct ota_otp_info info;

	memset(copy.device_secret, 0, 32);
	EXPECT(ota_otp_decode(&copy, &info), OTA_OK);
	EXPECT(ota_otp_secret_check(&copy), OTA_OTP_DIGEST_MISMATCH);
	copy = otp_ref;
	copy.secret_digest[0] ^= 1;
	EXPECT(ota_otp_secret_check(&copy), OTA_OTP_DIGEST_MISMATCH);
	/* No field of the decoded info holds the secret's bytes. */
	EXPECT(ota_otp_decode(&otp_ref, &info), OTA_OK);
	ck_assert_ptr_null(memmem(&info, sizeof(info), params.device_secret, 8));
}
END_TEST

/* ---- refusals -------------------------------------------------------------- */

/* Apply a change, re-seal HW_CFG if asked (so only the change is wrong), decode. */
static ota_status_t decode_with(void (*edit)(struct ota_otp *), bool reseal)
{
	struct ota_otp o = otp_ref;
	struct ota_otp_info info;

	edit(&o);
	if (reseal)
		tu_sha256((const uint8_t *)&o + OTA_OTP_HW_CFG_START,
			  OTA_OTP_HW_CFG_END - OTA_OTP_HW_CFG_START, o.hw_cfg_digest);
	return ota_otp_decode(&o, &info);
}

#define EDIT(name, stmt) \
	static void name(struct ota_otp *o) { stmt; }
EDIT(e_magic, o->magic ^= 0x100)
EDIT(e_version, o->version = 2)
EDIT(e_size, o->size = 1023)
EDIT(e_reserved0, o->reserved0 = 1)
EDIT(e_reserved_tail, o->reserved[sizeof(o->reserved) - 1] = 0x80)
EDIT(e_lc_index, o->lifecycle = OTA_LC_PROD) /* the index, not the hardened encoding */
EDIT(e_lc_flip, o->lifecycle ^= 1)
EDIT(e_features, o->features = 2)
EDIT(e_chain_zero, o->chain_max_svn = 0)
EDIT(e_chain_big, o->chain_max_svn = OTA_SVN_LIMIT + 1)
EDIT(e_key_state, o->creator_keys[0].state = 1)
EDIT(e_key_alg, o->creator_keys[0].algorithm = OTA_FOURCC('E', 'C', '3', '8'))
EDIT(e_key_lc, o->creator_keys[0].lifecycle_mask = 0)
EDIT(e_key_reserved, o->creator_keys[0].reserved = 2)
EDIT(e_key_spx_on_ecdsa, o->creator_keys[0].spx_pubkey[5] = 1)
EDIT(e_key_empty_half, o->creator_keys[2].lifecycle_mask = 1) /* an "empty" slot with a bit set */
EDIT(e_key_dup, o->creator_keys[1] = o->creator_keys[0])
EDIT(e_epoch_gap, o->epoch[0] = 0x05)
EDIT(e_floor_gap, o->floor_bl0[3] = 0x01)
EDIT(e_floor_rom_ext_gap, o->floor_rom_ext[31] = 0x80)
EDIT(e_tag_key_version_gap, o->tag_key_version[0] = 0x02)
EDIT(e_device_id, o->device_id[0] ^= 1)
EDIT(e_owner_digest, o->owner_config_digest[31] ^= 1)
EDIT(e_hw_digest, o->hw_cfg_digest[0] ^= 1)
EDIT(e_none, (void)o)

START_TEST(test_refusals)
{
	EXPECT(decode_with(e_none, false), OTA_OK);
	EXPECT(decode_with(e_magic, true), OTA_OTP_BAD_MAGIC);
	EXPECT(decode_with(e_version, true), OTA_OTP_BAD_VERSION);
	EXPECT(decode_with(e_size, true), OTA_OTP_BAD_SIZE);
	EXPECT(decode_with(e_reserved0, true), OTA_OTP_RESERVED_NONZERO);
	EXPECT(decode_with(e_reserved_tail, false), OTA_OTP_RESERVED_NONZERO);
	EXPECT(decode_with(e_lc_index, true), OTA_OTP_BAD_LIFECYCLE);
	EXPECT(decode_with(e_lc_flip, true), OTA_OTP_BAD_LIFECYCLE);
	EXPECT(decode_with(e_features, true), OTA_OTP_BAD_FEATURES);
	EXPECT(decode_with(e_chain_zero, true), OTA_OTP_BAD_FIELD);
	EXPECT(decode_with(e_chain_big, true), OTA_OTP_BAD_FIELD);
	EXPECT(decode_with(e_key_state, true), OTA_OTP_BAD_KEY_SLOT);
	EXPECT(decode_with(e_key_alg, true), OTA_OTP_BAD_KEY_SLOT);
	EXPECT(decode_with(e_key_lc, true), OTA_OTP_BAD_KEY_SLOT);
	EXPECT(decode_with(e_key_reserved, true), OTA_OTP_BAD_KEY_SLOT);
	EXPECT(decode_with(e_key_spx_on_ecdsa, true), OTA_OTP_BAD_KEY_SLOT);
	EXPECT(decode_with(e_key_empty_half, true), OTA_OTP_BAD_KEY_SLOT);
	EXPECT(decode_with(e_key_dup, true), OTA_OTP_BAD_KEY_SLOT);
	EXPECT(decode_with(e_epoch_gap, false), OTA_OTP_BAD_COUNTER);
	EXPECT(decode_with(e_floor_gap, false), OTA_OTP_BAD_COUNTER);
	EXPECT(decode_with(e_floor_rom_ext_gap, false), OTA_OTP_BAD_COUNTER);
	EXPECT(decode_with(e_tag_key_version_gap, false), OTA_OTP_BAD_COUNTER);
}
END_TEST

START_TEST(test_hw_cfg_digest_covers_partition)
{
	/* Any HW_CFG change without a new digest is caught, field by field. */
	EXPECT(decode_with(e_device_id, false), OTA_OTP_DIGEST_MISMATCH);
	EXPECT(decode_with(e_owner_digest, false), OTA_OTP_DIGEST_MISMATCH);
	EXPECT(decode_with(e_key_alg, false), OTA_OTP_DIGEST_MISMATCH);
	EXPECT(decode_with(e_hw_digest, false), OTA_OTP_DIGEST_MISMATCH);
	/* And every single byte of it. */
	{
		size_t off;

		for (off = OTA_OTP_HW_CFG_START; off < OTA_OTP_HW_CFG_END; off++) {
			struct ota_otp o = otp_ref;
			struct ota_otp_info info;

			((uint8_t *)&o)[off] ^= 0x10;
			ck_assert_msg(ota_otp_decode(&o, &info) == OTA_OTP_DIGEST_MISMATCH,
				      "byte %zu", off);
		}
	}
}
END_TEST

START_TEST(test_revocation_words_fail_safe)
{
	struct ota_otp o = otp_ref;
	struct ota_otp_info info;

	o.creator_key_revoked[0] = OTA_OTP_REVOKED;
	o.creator_key_revoked[1] = 1;           /* partly programmed */
	o.creator_key_revoked[2] = 0xffffffffu; /* glitched */
	o.owner_key_revoked[0] = OTA_OTP_REVOKED & 0xff00u;
	EXPECT(ota_otp_decode(&o, &info), OTA_OK);
	ck_assert(info.creator_key_revoked[0]);
	ck_assert(info.creator_key_revoked[1]);
	ck_assert(info.creator_key_revoked[2]);
	ck_assert(!info.creator_key_revoked[3]);
	ck_assert(info.owner_key_revoked[0]);
	ck_assert(!info.owner_key_revoked[1]);
}
END_TEST

START_TEST(test_lifecycle_encodings)
{
	uint32_t i, idx;

	for (i = 0; i < OTA_LC_COUNT; i++) {
		uint32_t enc = ota_otp_lifecycle_encoding(i);

		ck_assert_uint_ne(enc, 0);
		ck_assert(ota_otp_lifecycle_index(enc, &idx));
		ck_assert_uint_eq(idx, i);
	}
	ck_assert_uint_eq(ota_otp_lifecycle_encoding(OTA_LC_COUNT), 0);
	ck_assert(!ota_otp_lifecycle_index(0, &idx));
	ck_assert(!ota_otp_lifecycle_index(OTA_LC_DEV, &idx));
	ck_assert(!ota_otp_lifecycle_index(OTA_OTP_LC_DEV ^ 0x01000000u, &idx));
}
END_TEST

/* An OTP image provisioned in TEST_UNLOCKED, its transition word set to `word`. */
static ota_status_t decode_moved(uint32_t provisioned, uint32_t word, uint32_t *lifecycle)
{
	struct oti_otp_params p = params;
	struct ota_otp_info info;
	struct ota_otp o;
	ota_status_t st;

	p.lifecycle = provisioned;
	FIX(oti_otp_build(&p, &o, NULL));
	o.lifecycle_transition = word; /* COUNTERS: no digest to re-seal */
	st = ota_otp_decode(&o, &info);
	*lifecycle = info.lifecycle;
	return st;
}

START_TEST(test_lifecycle_transition_decode)
{
	static const uint32_t exits[] = { OTA_LC_DEV, OTA_LC_PROD, OTA_LC_PROD_END };
	uint32_t lc, i;

	EXPECT(decode_moved(OTA_LC_TEST_UNLOCKED, 0, &lc), OTA_OK);
	ck_assert_uint_eq(lc, OTA_LC_TEST_UNLOCKED);
	for (i = 0; i < 3; i++) {
		EXPECT(decode_moved(OTA_LC_TEST_UNLOCKED, ota_otp_lifecycle_encoding(exits[i]), &lc),
		       OTA_OK);
		ck_assert_uint_eq(lc, exits[i]);
		/* Only manufacturing is left this way: any other state with the word set is no state. */
		EXPECT(decode_moved(OTA_LC_DEV, ota_otp_lifecycle_encoding(exits[i]), &lc),
		       OTA_OTP_BAD_LIFECYCLE);
		EXPECT(decode_moved(OTA_LC_PROD, ota_otp_lifecycle_encoding(exits[i]), &lc),
		       OTA_OTP_BAD_LIFECYCLE);
	}
	/* Not exits from manufacturing, and words a glitch or half a write leaves. */
	EXPECT(decode_moved(OTA_LC_TEST_UNLOCKED, OTA_OTP_LC_RMA, &lc), OTA_OTP_BAD_LIFECYCLE);
	EXPECT(decode_moved(OTA_LC_TEST_UNLOCKED, OTA_OTP_LC_TEST_UNLOCKED, &lc),
	       OTA_OTP_BAD_LIFECYCLE);
	EXPECT(decode_moved(OTA_LC_TEST_UNLOCKED, 1, &lc), OTA_OTP_BAD_LIFECYCLE);
	EXPECT(decode_moved(OTA_LC_TEST_UNLOCKED, OTA_OTP_LC_PROD & 0xffffu, &lc),
	       OTA_OTP_BAD_LIFECYCLE);
	EXPECT(decode_moved(OTA_LC_TEST_UNLOCKED, OTA_OTP_LC_DEV | OTA_OTP_LC_PROD, &lc),
	       OTA_OTP_BAD_LIFECYCLE);
}
END_TEST

START_TEST(test_lifecycle_move)
{
	uint32_t tu = OTA_OTP_LC_TEST_UNLOCKED, word, i;

	for (i = 0; i < OTA_LC_COUNT; i++) {
		bool leaves = i == OTA_LC_DEV || i == OTA_LC_PROD || i == OTA_LC_PROD_END;

		word = 0x5a5a5a5au;
		EXPECT(ota_otp_lifecycle_move(tu, 0, i, &word),
		       leaves ? OTA_OK : i == OTA_LC_TEST_UNLOCKED ? OTA_OK : OTA_OTP_LIFECYCLE_TRANSITION);
		if (leaves)
			ck_assert_uint_eq(word, ota_otp_lifecycle_encoding(i));
		else if (i == OTA_LC_TEST_UNLOCKED)
			ck_assert_uint_eq(word, 0); /* already there: nothing to program */
	}
	/* Once moved, the state it is in is a no-op and every other is refused. */
	EXPECT(ota_otp_lifecycle_move(tu, OTA_OTP_LC_PROD, OTA_LC_PROD, &word), OTA_OK);
	ck_assert_uint_eq(word, OTA_OTP_LC_PROD);
	EXPECT(ota_otp_lifecycle_move(tu, OTA_OTP_LC_PROD, OTA_LC_DEV, &word),
	       OTA_OTP_LIFECYCLE_TRANSITION);
	EXPECT(ota_otp_lifecycle_move(tu, OTA_OTP_LC_PROD, OTA_LC_TEST_UNLOCKED, &word),
	       OTA_OTP_LIFECYCLE_TRANSITION);
	/* Provisioned outside manufacturing: no move at all. */
	EXPECT(ota_otp_lifecycle_move(OTA_OTP_LC_DEV, 0, OTA_LC_PROD, &word),
	       OTA_OTP_LIFECYCLE_TRANSITION);
	EXPECT(ota_otp_lifecycle_move(OTA_OTP_LC_DEV, 0, OTA_LC_DEV, &word), OTA_OK);
	EXPECT(ota_otp_lifecycle_move(OTA_OTP_LC_DEV ^ 1u, 0, OTA_LC_DEV, &word),
	       OTA_OTP_BAD_LIFECYCLE);
	EXPECT(ota_otp_lifecycle_move(tu, 7, OTA_LC_DEV, &word), OTA_OTP_BAD_LIFECYCLE);
}
END_TEST

START_TEST(test_set_lifecycle_programs_bits_only)
{
	struct oti_otp_params p = params;
	struct ota_otp o, before;
	struct ota_otp_info info;

	p.lifecycle = OTA_LC_TEST_UNLOCKED;
	FIX(oti_otp_build(&p, &o, NULL));
	before = o;
	EXPECT(oti_otp_set_lifecycle(&o, OTA_LC_PROD_END), OTA_OK);
	EXPECT(oti_otp_program_check(&before, &o), OTA_OK);
	EXPECT(ota_otp_decode(&o, &info), OTA_OK);
	ck_assert_uint_eq(info.lifecycle, OTA_LC_PROD_END);
	ck_assert_uint_eq(o.lifecycle, OTA_OTP_LC_TEST_UNLOCKED); /* HW_CFG untouched */
	ck_assert_mem_eq(o.hw_cfg_digest, before.hw_cfg_digest, 32);
	before = o;
	EXPECT(oti_otp_set_lifecycle(&o, OTA_LC_DEV), OTA_OTP_LIFECYCLE_TRANSITION);
	ck_assert_mem_eq(&o, &before, sizeof(o));
	EXPECT(oti_otp_set_lifecycle(&o, OTA_LC_PROD_END), OTA_OK);
	ck_assert_mem_eq(&o, &before, sizeof(o));
}
END_TEST

/* ---- thermometer codes ----------------------------------------------------- */

START_TEST(test_thermometer_roundtrip)
{
	uint8_t bits[32];
	uint32_t n, v, nbytes;

	for (nbytes = 1; nbytes <= 32; nbytes *= 2) {
		for (n = 0; n <= nbytes * 8; n++) {
			ota_thermometer_encode(bits, nbytes, n);
			EXPECT(ota_thermometer_decode(bits, nbytes, &v), OTA_OK);
			ck_assert_uint_eq(v, n);
		}
		/* Values above the width saturate rather than overflow. */
		ota_thermometer_encode(bits, nbytes, nbytes * 8 + 5);
		EXPECT(ota_thermometer_decode(bits, nbytes, &v), OTA_OK);
		ck_assert_uint_eq(v, nbytes * 8);
	}
	ota_thermometer_encode(bits, 2, 9);
	ck_assert_uint_eq(bits[0], 0xff);
	ck_assert_uint_eq(bits[1], 0x01);
}
END_TEST

START_TEST(test_thermometer_gaps)
{
	uint8_t bits[8];
	uint32_t v = 12345, i;

	memset(bits, 0, sizeof(bits));
	bits[0] = 0x02; /* bit 1 without bit 0 */
	EXPECT(ota_thermometer_decode(bits, 8, &v), OTA_OTP_BAD_COUNTER);
	ck_assert_uint_eq(v, 12345); /* untouched on failure */
	bits[0] = 0x7f;
	bits[1] = 0x01;
	EXPECT(ota_thermometer_decode(bits, 8, &v), OTA_OTP_BAD_COUNTER);
	/* Every single cleared bit below the top of a full code is a gap. */
	for (i = 0; i < 63; i++) {
		memset(bits, 0xff, sizeof(bits));
		bits[i / 8] &= (uint8_t)~(1u << (i % 8));
		EXPECT(ota_thermometer_decode(bits, 8, &v), OTA_OTP_BAD_COUNTER);
	}
}
END_TEST

/* ---- building and programming ------------------------------------------------ */

START_TEST(test_build_refusals)
{
	struct oti_otp_params p = params;
	struct ota_otp o;

	p.lifecycle = OTA_LC_COUNT;
	EXPECT(oti_otp_build(&p, &o, NULL), OTA_OTP_BAD_LIFECYCLE);
	p = params;
	p.creator_key_count = 5;
	EXPECT(oti_otp_build(&p, &o, NULL), OTA_TOOL_TOO_MANY_KEYS);
	p = params;
	p.epoch = 65;
	EXPECT(oti_otp_build(&p, &o, NULL), OTA_TOOL_BAD_VALUE);
	p = params;
	p.floor_bl0 = 256;
	EXPECT(oti_otp_build(&p, &o, NULL), OTA_TOOL_BAD_VALUE);
	p = params;
	p.features = 0x10;
	EXPECT(oti_otp_build(&p, &o, NULL), OTA_OTP_BAD_FEATURES);
	p = params;
	p.creator_keys[0].lifecycle_mask = 0;
	EXPECT(oti_otp_build(&p, &o, NULL), OTA_OTP_BAD_KEY_SLOT);
	p = params;
	p.chain_max_svn = 0; /* the default */
	EXPECT(oti_otp_build(&p, &o, NULL), OTA_OK);
	ck_assert_uint_eq(o.chain_max_svn, OTA_CHAIN_DEFAULT_MAX_SVN);
}
END_TEST

START_TEST(test_raise_floor)
{
	struct ota_otp o = otp_ref, before;
	struct ota_otp_info info;

	EXPECT(oti_otp_raise_floor(&o, OTA_STAGE_BL0, 20), OTA_OK);
	EXPECT(ota_otp_decode(&o, &info), OTA_OK);
	ck_assert_uint_eq(info.floor_bl0, 20);
	ck_assert_uint_eq(info.floor_rom_ext, 2);
	EXPECT(oti_otp_program_check(&otp_ref, &o), OTA_OK);
	/* Same value: nothing changes. */
	before = o;
	EXPECT(oti_otp_raise_floor(&o, OTA_STAGE_BL0, 20), OTA_OK);
	ck_assert_mem_eq(&o, &before, sizeof(o));
	/* Lower: refused, and the image is left as it was. */
	EXPECT(oti_otp_raise_floor(&o, OTA_STAGE_BL0, 19), OTA_OTP_CLEARS_BITS);
	ck_assert_mem_eq(&o, &before, sizeof(o));
	EXPECT(oti_otp_raise_floor(&o, OTA_STAGE_ROM_EXT, OTA_SVN_LIMIT), OTA_OK);
	EXPECT(oti_otp_raise_floor(&o, OTA_STAGE_ROM_EXT, OTA_SVN_LIMIT + 1), OTA_SVN_ABOVE_MAX);
	EXPECT(oti_otp_raise_floor(&o, 7, 3), OTA_TOOL_BAD_VALUE);
}
END_TEST

START_TEST(test_bump_epoch_until_full)
{
	struct ota_otp o = otp_ref;
	uint32_t e = 0, i;

	for (i = 4; i <= OTA_OTP_EPOCH_BITS; i++) {
		EXPECT(oti_otp_bump_epoch(&o, &e), OTA_OK);
		ck_assert_uint_eq(e, i);
	}
	EXPECT(oti_otp_bump_epoch(&o, &e), OTA_TOOL_TOO_LARGE);
	ck_assert_uint_eq(e, OTA_OTP_EPOCH_BITS);
	EXPECT(oti_otp_program_check(&otp_ref, &o), OTA_OK);
}
END_TEST

START_TEST(test_revoke)
{
	struct ota_otp o = otp_ref;
	struct ota_otp_info info;

	EXPECT(oti_otp_revoke(&o, false, 1), OTA_OK);
	EXPECT(oti_otp_revoke(&o, true, 3), OTA_OK);
	EXPECT(oti_otp_revoke(&o, true, 3), OTA_OK); /* idempotent, like a fuse */
	EXPECT(ota_otp_decode(&o, &info), OTA_OK);
	ck_assert(info.creator_key_revoked[1]);
	ck_assert(info.owner_key_revoked[3]);
	ck_assert_uint_eq(o.creator_key_revoked[1], OTA_OTP_REVOKED);
	EXPECT(oti_otp_revoke(&o, false, 4), OTA_TOOL_BAD_VALUE);
	EXPECT(oti_otp_revoke(&o, true, 4), OTA_TOOL_BAD_VALUE);
	/* A partly programmed word only gains bits. */
	o.creator_key_revoked[2] = 0x1;
	EXPECT(oti_otp_revoke(&o, false, 2), OTA_OK);
	ck_assert_uint_eq(o.creator_key_revoked[2], OTA_OTP_REVOKED | 1u);
}
END_TEST

START_TEST(test_program_check)
{
	struct ota_otp a = otp_ref, b = otp_ref;

	EXPECT(oti_otp_program_check(&a, &b), OTA_OK);
	b.floor_bl0[0] &= 0xfe;
	EXPECT(oti_otp_program_check(&a, &b), OTA_OTP_CLEARS_BITS);
	b = otp_ref;
	b.reserved[6] = 1; /* setting bits is fine for OTP, even if decode refuses it */
	EXPECT(oti_otp_program_check(&a, &b), OTA_OK);
}
END_TEST

static Suite *otp_suite(void)
{
	Suite *s = suite_create("formats_otp");
	TCase *rt = tcase_create("decode");
	TCase *th = tcase_create("thermometer");
	TCase *pr = tcase_create("program");

	tcase_add_test(rt, test_roundtrip);
	tcase_add_test(rt, test_secret_not_decoded_and_not_needed);
	tcase_add_test(rt, test_refusals);
	tcase_add_test(rt, test_hw_cfg_digest_covers_partition);
	tcase_add_test(rt, test_revocation_words_fail_safe);
	tcase_add_test(rt, test_lifecycle_encodings);
	tcase_add_test(rt, test_lifecycle_transition_decode);
	tcase_add_test(rt, test_lifecycle_move);
	tcase_add_test(rt, test_set_lifecycle_programs_bits_only);
	suite_add_tcase(s, rt);
	tcase_add_test(th, test_thermometer_roundtrip);
	tcase_add_test(th, test_thermometer_gaps);
	suite_add_tcase(s, th);
	tcase_add_test(pr, test_build_refusals);
	tcase_add_test(pr, test_raise_floor);
	tcase_add_test(pr, test_bump_epoch_until_full);
	tcase_add_test(pr, test_revoke);
	tcase_add_test(pr, test_program_check);
	suite_add_tcase(s, pr);
	return s;
}

OTA_TEST_MAIN_PREPARED(build_fixtures(), otp_suite)
