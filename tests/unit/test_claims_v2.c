// SPDX-License-Identifier: MIT
/*
 * Evidence profile v2 (docs/evidence.md, "Claims set"): the encoder's bytes
 * against the table - registered claims first with the types RFC 9711
 * gives, the measured components and measres groups in their documented
 * shape, the private keys as 3a 6f 74 61 nn - and the decoder putting every
 * attempt back together, a refused one from its own component.
 */
#include <check.h>
#include <string.h>

#include "otattest/cbor.h"
#include "otattest/verify.h"
#include "tu_main.h"

static const uint8_t nonce[16] = { 0x4e, 0x4e, 0x4e, 0x4e, 0x4e, 0x4e, 0x4e, 0x4e,
				   0x4e, 0x4e, 0x4e, 0x4e, 0x4e, 0x4e, 0x4e, 0x4e };

static void add_stage(struct ota_record *r, uint32_t stage, uint32_t slot, uint32_t status,
		      uint32_t path, uint32_t depth, uint32_t svn, uint8_t fill, uint32_t flags)
{
	struct ota_stage_record *s = &r->stage[r->hdr.stage_count++];

	s->stage = stage;
	s->slot = slot;
	s->status = status;
	s->path = path;
	s->sig_scheme = OTA_SCHEME_ECDSA_P256;
	s->delegation_depth = depth;
	s->security_version = svn;
	s->tag_key_version = 4;
	memset(s->measurement, fill, sizeof(s->measurement));
	for (uint32_t k = 0; k <= depth; k++)
		memset(s->key_ids[k], fill + 1 + k, OTA_KEY_ID_BYTES);
	s->flags = flags;
	s->verify_time_ns = 1000u + fill;
	r->hdr.length += sizeof(*s);
}

/* ROM_EXT booted; BL0 slot A refused by its signature check; BL0 slot B booted. */
static void make_record(struct ota_record *r, uint32_t lifecycle)
{
	memset(r, 0, sizeof(*r));
	r->hdr.magic = OTA_RECORD_MAGIC;
	r->hdr.version = OTA_RECORD_VERSION;
	r->hdr.header_size = sizeof(r->hdr);
	r->hdr.length = sizeof(r->hdr);
	r->hdr.generation = 9;
	r->hdr.reset_reason = OTA_RESET_COLD;
	r->hdr.lifecycle = lifecycle;
	memset(r->hdr.device_id, 0xd0, sizeof(r->hdr.device_id));
	r->hdr.epoch = 1;
	r->hdr.min_svn = 3;
	r->hdr.floor_bl0 = 2;
	r->hdr.tag_key_version = 4;
	r->hdr.chain_max_svn = 16;
	r->hdr.flags = OTA_RECORD_F_TAG_BOOT_ENABLED; /* the tag path was open */
	memset(r->hdr.rom_identity, 0x77, 32);
	add_stage(r, OTA_STAGE_ROM_EXT, OTA_SLOT_A, OTA_OK, OTA_PATH_TAG, 0, 2, 0x10,
		  OTA_STAGE_F_BOOTED);
	add_stage(r, OTA_STAGE_BL0, OTA_SLOT_A, OTA_SIG_ECDSA_INVALID, OTA_PATH_NONE, 2, 12,
		  0x20, 0);
	add_stage(r, OTA_STAGE_BL0, OTA_SLOT_B, OTA_OK, OTA_PATH_SIGNATURE_RETAGGED, 1, 11, 0x30,
		  OTA_STAGE_F_BOOTED | OTA_STAGE_F_FALLBACK);
	/* Why not the tag path and the usage flags: A's tag did not match, B had none, B is DEBUG. */
	r->stage[0].effective.usage.flags = OTA_CAP_TAG_BOOT;
	r->stage[1].path_reason = OTA_REASON_TAG_MISMATCH;
	r->stage[1].effective.usage.flags = OTA_CAP_TAG_BOOT;
	r->stage[2].path_reason = OTA_REASON_NO_TAG;
	r->stage[2].effective.usage.flags = OTA_CAP_ALL;
}

static uint32_t encode(const struct ota_record *r, uint8_t *out, uint32_t cap)
{
	uint8_t digest[32];
	uint32_t len;

	memset(digest, 0xdd, sizeof(digest));
	ck_assert_uint_eq(ota_evidence_encode_claims(r, digest, nonce, sizeof(nonce), out, cap,
						     &len),
			  OTA_OK);
	return len;
}

/* Where `want` occurs in buf, or abort. */
static uint32_t find(const uint8_t *buf, uint32_t len, const void *want, uint32_t n)
{
	for (uint32_t i = 0; i + n <= len; i++)
		if (!memcmp(buf + i, want, n))
			return i;
	ck_abort_msg("bytes not found");
	return 0;
}

START_TEST(test_registered_claims_come_first_in_their_types)
{
	static const uint8_t head[] = {
		0xb8, 0x1a,                   /* map of 26 */
		0x0a, 0x50,                   /* nonce: bstr 16 */
	};
	static const uint8_t after_nonce[] = {
		0x19, 0x01, 0x00, 0x51, 0x01, /* ueid: bstr 17, RAND type */
	};
	static const uint8_t oemid[] = {
		0x19, 0x01, 0x02, 0x50, 0x00, 0x66, 0x57, 0x68, 0x00, 0xdb, 0xde, 0xdb,
		0x39, 0xfe, 0x77, 0x80, 0xec, 0x8f, 0x5b, 0xc0,
		0x19, 0x01, 0x06, 0xf5,       /* oemboot: true */
		0x19, 0x01, 0x07, 0x03,       /* dbgstat: disabled-permanently (prod) */
		0x19, 0x01, 0x09, 0x78, 0x21, /* eat_profile: tstr 33 */
	};
	uint8_t buf[OTA_CLAIMS_MAX_BYTES];
	struct ota_record r;
	uint32_t len, at;

	make_record(&r, OTA_LC_PROD);
	len = encode(&r, buf, sizeof(buf));
	ck_assert_mem_eq(buf, head, sizeof(head));
	ck_assert_mem_eq(buf + 4, nonce, sizeof(nonce));
	ck_assert_mem_eq(buf + 20, after_nonce, sizeof(after_nonce));
	ck_assert_mem_eq(buf + 25 + 16, oemid, sizeof(oemid));
	at = 25 + 16 + sizeof(oemid);
	ck_assert_mem_eq(buf + at, OTA_EAT_PROFILE, 33);
	/* measurements (273 = 19 01 11): ROM, ROM_EXT, BL0 slot B: three entries */
	at += 33;
	ck_assert_mem_eq(buf + at, "\x19\x01\x11\x83\x82\x19\x01\x27", 8);
	(void)len;
}
END_TEST

START_TEST(test_components_in_the_documented_shape)
{
	/* The ROM: {1: ["rom"], 2: [1, h'77..']} wrapped in a bstr of 44 bytes */
	static const uint8_t rom[] = { 0x58, 0x2c, 0xa2, 0x01, 0x81, 0x63, 'r', 'o', 'm',
				       0x02, 0x82, 0x01, 0x58, 0x20, 0x77 };
	/* BL0 slot B: {1: ["bl0", ["11", 1]], 2: [1, h'30..'], 3: [h'31..', h'32..']} */
	static const uint8_t bl0[] = { 0xa3, 0x01, 0x82, 0x63, 'b', 'l', '0', 0x82, 0x62,
				       '1', '1', 0x01, 0x02, 0x82, 0x01, 0x58, 0x20, 0x30 };
	static const uint8_t bl0_keys[] = { 0x03, 0x82, 0x58, 0x20, 0x31 };
	/* The refused BL0 attempt's own component: SVN "12", three authorities */
	static const uint8_t refused[] = { 0x08, 0x58 };
	static const uint8_t refused_id[] = { 0xa3, 0x01, 0x82, 0x63, 'b', 'l', '0', 0x82,
					      0x62, '1', '2', 0x01 };
	uint8_t buf[OTA_CLAIMS_MAX_BYTES];
	struct ota_record r;
	uint32_t len, at;

	make_record(&r, OTA_LC_PROD);
	len = encode(&r, buf, sizeof(buf));
	find(buf, len, rom, sizeof(rom));
	at = find(buf, len, bl0, sizeof(bl0));
	ck_assert_uint_eq(find(buf + at, len - at, bl0_keys, sizeof(bl0_keys)), 18 + 31);
	at = find(buf, len, refused_id, sizeof(refused_id));
	ck_assert_mem_eq(buf + at - 3, refused, sizeof(refused));
	/* measres: one group per attempt, path in the system name, 1 success / 3 not run */
	find(buf, len, "\x19\x01\x12\x83", 4);
	find(buf, len, "\x82\x71otattest-boot/tag\x81\x82\x67rom_ext\x01", 29);
	find(buf, len, "\x82\x72otattest-boot/none\x81\x82\x63" "bl0\x03", 26);
	find(buf, len, "\x82\x78\x20otattest-boot/signature-retagged\x81\x82\x63" "bl0\x01", 41);
	/* the private keys: record-digest first, attempts last */
	find(buf, len, "\x3a\x6f\x74\x61\x01\x58\x20\xdd", 8);
	find(buf, len, "\x3a\x6f\x74\x61\x0b\x83", 6);
}
END_TEST

START_TEST(test_attempts_decode_back_to_the_record)
{
	uint8_t buf[OTA_CLAIMS_MAX_BYTES];
	struct ota_evidence_claims c;
	struct ota_record r;
	char why[160];
	uint32_t len, i;

	make_record(&r, OTA_LC_PROD_END);
	len = encode(&r, buf, sizeof(buf));
	ck_assert_uint_eq(ota_evidence_decode_claims(buf, len, &c, why, sizeof(why)), OTA_OK);
	ck_assert_uint_eq(c.dbgstat, OTA_DBGSTAT_DISABLED_FULLY_AND_PERMANENTLY);
	ck_assert(c.oemboot);
	ck_assert_mem_eq(c.rom_identity, r.hdr.rom_identity, 32);
	ck_assert_uint_eq(c.stage_count, r.hdr.stage_count);
	for (i = 0; i < r.hdr.stage_count; i++) {
		const struct ota_stage_record *s = &r.stage[i];
		const struct ota_evidence_stage *e = &c.stage[i];

		ck_assert_uint_eq(e->stage, s->stage);
		ck_assert_uint_eq(e->slot, s->slot);
		ck_assert_uint_eq(e->status, s->status);
		ck_assert_uint_eq(e->path, s->path);
		ck_assert_uint_eq(e->sig_scheme, s->sig_scheme);
		ck_assert_uint_eq(e->depth, s->delegation_depth);
		ck_assert_uint_eq(e->svn, s->security_version);
		ck_assert_uint_eq(e->tag_key_version, s->tag_key_version);
		ck_assert_uint_eq(e->flags, s->flags);
		ck_assert_uint_eq(e->verify_time_ns, s->verify_time_ns);
		ck_assert_mem_eq(e->measurement, s->measurement, 32);
		ck_assert_uint_eq(e->key_id_count, s->delegation_depth + 1u);
		ck_assert_mem_eq(e->key_ids, s->key_ids, e->key_id_count * OTA_KEY_ID_BYTES);
		ck_assert_uint_eq(e->path_reason, s->path_reason);
		ck_assert_uint_eq(e->usage_flags, s->effective.usage.flags);
	}
	ck_assert_uint_eq(c.stage[1].path_reason, OTA_REASON_TAG_MISMATCH);
	ck_assert_uint_eq(c.stage[2].usage_flags & OTA_CAP_DEBUG, OTA_CAP_DEBUG);
}
END_TEST

/* Attempt keys 9 and 10 (issue 19): after the component, always present, in range. */
START_TEST(test_path_reason_and_usage_flags)
{
	/* BL0 B (booted, no component): ... 7: verify time 1048, 9: no-tag, 10: tag-boot|debug */
	static const uint8_t booted_tail[] = { 0x07, 0x19, 0x04, 0x18, 0x09, 0x01, 0x0a, 0x03 };
	uint8_t buf[OTA_CLAIMS_MAX_BYTES];
	struct ota_evidence_claims c;
	struct ota_record r;
	char why[160];
	uint32_t len, at;

	make_record(&r, OTA_LC_PROD);
	len = encode(&r, buf, sizeof(buf));
	at = find(buf, len, booted_tail, sizeof(booted_tail));
	ck_assert_uint_eq(ota_evidence_decode_claims(buf, len, &c, why, sizeof(why)), OTA_OK);
	/* A reason past the last one, or a usage flag nobody defined, is refused. */
	buf[at + 5] = OTA_REASON_MAX + 1;
	ck_assert_uint_ne(ota_evidence_decode_claims(buf, len, &c, why, sizeof(why)), OTA_OK);
	ck_assert_ptr_nonnull(strstr(why, "attempt 2 claim 9"));
	buf[at + 5] = OTA_REASON_NO_TAG;
	buf[at + 7] = 0x04;
	ck_assert_uint_ne(ota_evidence_decode_claims(buf, len, &c, why, sizeof(why)), OTA_OK);
	ck_assert_ptr_nonnull(strstr(why, "attempt 2 claim 10"));
}
END_TEST

/* An update section: BL0 B on trial (primary A), and every other field non-zero (a codec test). */
static struct ota_record_update *add_update(struct ota_record *r)
{
	struct ota_record_update *u;

	r->hdr.flags |= OTA_RECORD_F_UPDATE_SECTION;
	r->hdr.length = ota_record_length(r->hdr.stage_count, r->hdr.flags);
	u = (struct ota_record_update *)ota_record_update_of(r);
	memset(u, 0, sizeof(*u));
	u->update_state = OTA_UPDATE_TRIAL;
	u->primary_slot = OTA_SLOT_A;
	u->running_rom_ext_slot = OTA_SLOT_A;
	u->running_bl0_slot = OTA_SLOT_B;
	u->pending_stage = OTA_STAGE_ROM_EXT;
	u->pending_slot = OTA_SLOT_B;
	u->revocation_sequence = 256;
	u->revocation_sequence_device = 7;
	u->trial_boots = 2;
	u->revert_reason = OTA_REVERT_WATCHDOG;
	u->reverted_slot = OTA_SLOT_B;
	return u;
}

/* Claims 12..18 (issue 28): the update state, in key order, and back. */
START_TEST(test_update_claims)
{
	/* 12 trial, 13 primary A, 14 booted B, 15 pending [1, 1], 16 [256, 7], 17 2, 18 [2, 1] */
	static const uint8_t want[] = {
		0x3a, 0x6f, 0x74, 0x61, 0x0c, 0x01, 0x3a, 0x6f, 0x74, 0x61, 0x0d, 0x00,
		0x3a, 0x6f, 0x74, 0x61, 0x0e, 0x01, 0x3a, 0x6f, 0x74, 0x61, 0x0f, 0x82, 0x01, 0x01,
		0x3a, 0x6f, 0x74, 0x61, 0x10, 0x82, 0x19, 0x01, 0x00, 0x07,
		0x3a, 0x6f, 0x74, 0x61, 0x11, 0x02, 0x3a, 0x6f, 0x74, 0x61, 0x12, 0x82, 0x02, 0x01,
	};
	uint8_t buf[OTA_CLAIMS_MAX_BYTES];
	struct ota_evidence_claims c;
	struct ota_record r;
	char why[160];
	uint32_t len, at;

	make_record(&r, OTA_LC_PROD);
	add_update(&r);
	len = encode(&r, buf, sizeof(buf));
	at = find(buf, len, want, sizeof(want));
	ck_assert_uint_eq(at + sizeof(want), len); /* the last claims */
	ck_assert_uint_eq(ota_evidence_decode_claims(buf, len, &c, why, sizeof(why)), OTA_OK);
	ck_assert_uint_eq(c.update.reset_reason, OTA_RESET_COLD);
	ck_assert_uint_eq(c.update.state, OTA_UPDATE_CLAIM_TRIAL);
	ck_assert_uint_eq(c.update.primary_slot, OTA_SLOT_A);
	ck_assert_uint_eq(c.update.booted_slot, OTA_SLOT_B);
	ck_assert_uint_eq(c.update.pending_stage, OTA_STAGE_ROM_EXT);
	ck_assert_uint_eq(c.update.pending_slot, OTA_SLOT_B);
	ck_assert_uint_eq(c.update.revocation_seq, 256);
	ck_assert_uint_eq(c.update.revocation_seq_device, 7);
	ck_assert_uint_eq(c.update.trial_boots, 2);
	ck_assert_uint_eq(c.update.revert_reason, OTA_REVERT_WATCHDOG);
	ck_assert_uint_eq(c.update.reverted_slot, OTA_SLOT_B);
	/* the refused attempt, BL0 A: bit (2 - 1) * 2 + 0 */
	ck_assert_uint_eq(c.update.refused_count, 1);
	ck_assert_uint_eq(c.update.refused_slots, 0x4);

	/* committed claimed while B runs and A is primary */
	buf[at + 5] = 0x00;
	ck_assert_uint_eq(ota_evidence_decode_claims(buf, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "update-state committed disagrees with the booted and primary slots");
	buf[at + 5] = 0x01;
	/* booted slot A while the attempt that booted BL0 is B (and primary A: committed) */
	buf[at + 17] = 0x00;
	ck_assert_uint_eq(ota_evidence_decode_claims(buf, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "booted-slot 0 is not the slot of the BL0 attempt that booted (1)");
	buf[at + 17] = 0x01;
	/* out of range: trial boots 4, a revert reason 4, a reverted slot without a reason */
	buf[at + 41] = 0x04;
	ck_assert_uint_eq(ota_evidence_decode_claims(buf, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "claim -1869898002 is malformed or out of range");
	buf[at + 41] = 0x02;
	buf[at + 48] = 0x04;
	ck_assert_uint_ne(ota_evidence_decode_claims(buf, len, &c, why, sizeof(why)), OTA_OK);
	buf[at + 48] = 0x00;
	ck_assert_uint_ne(ota_evidence_decode_claims(buf, len, &c, why, sizeof(why)), OTA_OK);
	buf[at + 48] = 0x02;
	ck_assert_uint_eq(ota_evidence_decode_claims(buf, len, &c, why, sizeof(why)), OTA_OK);
}
END_TEST

START_TEST(test_dbgstat_and_oemboot_follow_the_record)
{
	static const struct { uint32_t lc, dbgstat; } map[] = {
		{ OTA_LC_TEST_UNLOCKED, 0 }, { OTA_LC_DEV, 0 }, { OTA_LC_PROD, 3 },
		{ OTA_LC_PROD_END, 4 }, { OTA_LC_RMA, 0 },
	};
	uint8_t buf[OTA_CLAIMS_MAX_BYTES];
	struct ota_evidence_claims c;
	struct ota_record r;
	uint32_t len, i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		make_record(&r, map[i].lc);
		len = encode(&r, buf, sizeof(buf));
		ck_assert_uint_eq(ota_evidence_decode_claims(buf, len, &c, NULL, 0), OTA_OK);
		ck_assert_uint_eq(c.dbgstat, map[i].dbgstat);
	}
	/* No BL0 booted: oemboot false, and the decoder accepts that truth. */
	make_record(&r, OTA_LC_PROD);
	r.stage[2].flags = OTA_STAGE_F_FALLBACK;
	r.stage[2].status = OTA_SIG_ECDSA_INVALID;
	r.stage[2].path = OTA_PATH_NONE;
	len = encode(&r, buf, sizeof(buf));
	find(buf, len, "\x19\x01\x06\xf4", 4);
	ck_assert_uint_eq(ota_evidence_decode_claims(buf, len, &c, NULL, 0), OTA_OK);
	ck_assert(!c.oemboot);
	ck_assert_uint_eq(c.stage[2].svn, 11); /* from its own component now */
}
END_TEST

static Suite *claims_v2_suite(void)
{
	Suite *s = suite_create("claims_v2");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_registered_claims_come_first_in_their_types);
	tcase_add_test(tc, test_components_in_the_documented_shape);
	tcase_add_test(tc, test_attempts_decode_back_to_the_record);
	tcase_add_test(tc, test_path_reason_and_usage_flags);
	tcase_add_test(tc, test_update_claims);
	tcase_add_test(tc, test_dbgstat_and_oemboot_follow_the_record);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(claims_v2_suite)
