// SPDX-License-Identifier: MIT
/*
 * The alias certificate's TCB info as ROM_EXT writes it (firmware/rom_ext/
 * alias_cert.c, prepare.c) and the host reads it (alias_info.c): the
 * layout docs/evidence.md gives byte for byte, every field certified from
 * the record ROM and ROM_EXT wrote, the flags of every lifecycle state,
 * the largest certificate within OTA_CERT_MAX_DER, no certificate at all
 * when the record disagrees with what the alias key is bound to, and
 * another profile's version told apart from a malformed certificate.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <otu/hex.h>

#include "test_evidence_fixture.h"
#include "rom_ext.h"
#include "tu_main.h"

static struct evfix f;

static void setup(void)
{
	evfix_open(&f, EVFIX_IDCERT_OURS);
}

static void teardown(void)
{
	evfix_close(&f);
}

/*
 * The record of docs/evidence.md's example: the fixture's (ROM_EXT on the
 * tag path, BL0 signature-retagged at depth 1 after a refused attempt)
 * with a ROM identity that reads well.
 */
static void example_record(struct ota_record *r)
{
	struct ota_boot_state bs;

	evfix_record(&bs, f.device_id);
	*r = bs.record;
	memset(r->hdr.rom_identity, 0x77, 32);
	r->stage[0].effective.usage.flags = OTA_CAP_TAG_BOOT;
	r->stage[2].path_reason = OTA_REASON_TAG_MISMATCH;
	r->stage[2].effective.usage.flags = OTA_CAP_TAG_BOOT | OTA_CAP_DEBUG;
}

/* n bytes of b, as hex. */
static const char *rep(char *out, uint8_t b, unsigned n)
{
	char two[3];

	otu_hex_encode(two, &b, 1);
	for (unsigned i = 0; i < n; i++)
		memcpy(out + 2 * i, two, 2);
	out[2 * n] = 0;
	return out;
}

START_TEST(test_layout_is_the_documented_one)
{
	static const char rom[] = "80086f746174746573748103726f6d840100"; /* vendor, model, layer */
	static const char fwid_oid[] = "a62f302d060960864801650304020104" "20";
	static const char flags_prod[] = "87050000000001";
	char want[2048], r77[65], re1[65], rc1[65], rb5[65], r01[65], r02[65], got_hex[2048];
	struct ota_alias_cert_params p;
	struct ota_update_claims u;
	struct ota_record r;
	uint8_t buf[1024];
	struct ota_der d;
	uint32_t len;

	example_record(&r);
	memset(&p, 0, sizeof(p));
	p.device = &r.hdr;
	ota_update_claims_of(&r, &u);
	p.update = &u;
	p.booted[0] = &r.stage[0];
	p.booted[1] = &r.stage[2];
	p.booted_count = 2;
	ota_der_init(&d, buf, sizeof(buf));
	ota_alias_tcb_info_put(&d, &p);
	ck_assert_uint_eq(ota_der_finish(&d, &len), OTA_OK);
	otu_hex_encode(got_hex, buf, len);
	got_hex[2 * len] = 0;

	/* docs/evidence.md, "Alias certificate profile", byte for byte. */
	snprintf(want, sizeof(want),
		 "308201c7"                                   /* MultiTcbInfo */
		 "308188%s%s%s%s"                             /* the ROM */
		 "883c303a" "020102" "020102" "020101" "020105" "020101" "020104" "02020080"
		 "020103"
		 /* the update state: cold reset, committed on A (primary A), revocation
		  * sequences 0 and 0, no trial, no revert, 1 refused attempt: BL0 B (bit 3) */
		 "020101" "020100" "020100" "020100" "020100" "020100" "020100" "020100" "020100"
		 "020101" "020108"
		 "30818c" "80086f74617474657374" "8107726f6d5f657874" "830102" "840101"
		 "%s%s%s"                                     /* ROM_EXT */
		 "8839" "3037" "020102" "020101" "020101" "020100" "020103" "020100" "020101"
		 "0420%s"
		 "3081aa" "80086f74617474657374" "8103626c30" "830105" "840102"
		 "%s%s%s"                                     /* BL0 */
		 "885b" "3059" "020102" "020103" "020102" "020101" "020103" "020103" "020103"
		 "0420%s" "0420%s",
		 rom, fwid_oid, rep(r77, 0x77, 32), flags_prod, fwid_oid, rep(re1, 0xe1, 32),
		 flags_prod, rep(rc1, 0xc1, 32), fwid_oid, rep(rb5, 0xb5, 32), flags_prod,
		 rep(r01, 0x01, 32), rep(r02, 0x02, 32));
	ck_assert_str_eq(got_hex, want);
}
END_TEST

static const struct ota_stage_record *booted(const struct ota_record *r, uint32_t stage)
{
	for (uint32_t i = 0; i < r->hdr.stage_count; i++)
		if (r->stage[i].stage == stage && (r->stage[i].flags & OTA_STAGE_F_BOOTED))
			return &r->stage[i];
	return NULL;
}

/* What the host reads from ROM_EXT's certificate is the record ROM_EXT had. */
static void expect_certifies(const struct ota_alias_info *info, const struct ota_record *r)
{
	const struct ota_record_header *h = &r->hdr;
	struct ota_update_claims u;
	uint32_t t, k;

	ck_assert(info->certifies_results);
	ck_assert(info->has_device_id && info->has_issuer_device_id);
	ck_assert_mem_eq(info->device_id, h->device_id, OTA_DEVICE_ID_BYTES);
	ck_assert_mem_eq(info->issuer_device_id, h->device_id, OTA_DEVICE_ID_BYTES);
	ck_assert_mem_eq(info->device.rom_identity, h->rom_identity, 32);
	ck_assert_uint_eq(info->device.lifecycle, h->lifecycle);
	ck_assert_uint_eq(info->device.epoch, h->epoch);
	ck_assert_uint_eq(info->device.min_svn, h->min_svn);
	ck_assert_uint_eq(info->device.floor_rom_ext, h->floor_rom_ext);
	ck_assert_uint_eq(info->device.floor_bl0, h->floor_bl0);
	ck_assert_uint_eq(info->device.chain_max_svn, h->chain_max_svn);
	ck_assert_uint_eq(info->device.tag_key_version, h->tag_key_version);
	ck_assert_uint_eq(info->device.flags, ota_dice_flags(h->lifecycle));
	/* DeviceState version 2: the update state of the record (never the pending install). */
	ota_update_claims_of(r, &u);
	u.pending_stage = 0;
	u.pending_slot = 0;
	ck_assert_mem_eq(&info->device.update, &u, sizeof(u));
	ck_assert_uint_eq(info->tcb_count, 2);
	for (t = 0; t < info->tcb_count; t++) {
		const struct ota_cert_tcb *c = &info->tcb[t];
		const struct ota_stage_record *s = booted(r, OTA_STAGE_ROM_EXT + t);

		ck_assert_ptr_nonnull(s);
		ck_assert_uint_eq(c->stage, s->stage);
		ck_assert_uint_eq(c->svn, s->security_version);
		ck_assert_mem_eq(c->measurement, s->measurement, 32);
		ck_assert_uint_eq(c->path, s->path);
		ck_assert_uint_eq(c->sig_scheme, s->sig_scheme);
		ck_assert_uint_eq(c->depth, s->delegation_depth);
		ck_assert_uint_eq(c->tag_key_version, s->tag_key_version);
		ck_assert_uint_eq(c->path_reason, s->path_reason);
		ck_assert_uint_eq(c->usage_flags, s->effective.usage.flags);
		ck_assert_uint_eq(c->key_id_count, s->delegation_depth + 1);
		for (k = 0; k < c->key_id_count; k++)
			ck_assert_mem_eq(c->key_ids[k], s->key_ids[k], 32);
	}
}

START_TEST(test_prepare_certifies_the_record)
{
	struct ota_alias_info info;

	evfix_boot_runtime(&f);
	ck_assert_uint_eq(ota_alias_cert_info(ota_rt.alias_cert, ota_rt.alias_cert_len, &info),
			  OTA_OK);
	expect_certifies(&info, &f.bs.record);
}
END_TEST

/* The flags of each lifecycle state (docs/evidence.md), in every entry. */
START_TEST(test_flags_follow_the_lifecycle)
{
	static const uint32_t want[OTA_LC_COUNT] = {
		[OTA_LC_TEST_UNLOCKED] = 0x50000001u, /* notSecure, debug, fixedWidth */
		[OTA_LC_DEV] = 0x10000001u,           /* debug, fixedWidth */
		[OTA_LC_PROD] = 0x00000001u,
		[OTA_LC_PROD_END] = 0x00000001u,
		[OTA_LC_RMA] = 0x50000001u,
	};
	struct ota_alias_info info;

	f.bs.record.hdr.lifecycle = (uint32_t)_i;
	f.bs.otp.lifecycle = (uint32_t)_i;
	evfix_boot_runtime(&f);
	ck_assert_uint_eq(ota_alias_cert_info(ota_rt.alias_cert, ota_rt.alias_cert_len, &info),
			  OTA_OK);
	ck_assert_uint_eq(ota_dice_flags((uint32_t)_i), want[_i]);
	ck_assert_uint_eq(info.device.flags, want[_i]);
	expect_certifies(&info, &f.bs.record); /* each stage entry carries the same flags */
}
END_TEST

/* The length of the ECDSA-Sig-Value that ends a certificate (its SEQUENCE, short form). */
static uint32_t sig_value_len(const uint8_t *der, uint32_t len)
{
	uint32_t at;

	/* The BIT STRING's contents: 00, then SEQUENCE { r, s } running to the end. */
	for (at = len - 2u; at > len - 80u; at--)
		if (der[at] == 0x30 && der[at + 1] == len - at - 2u && der[at - 1] == 0x00)
			return len - at;
	ck_abort_msg("no ECDSA-Sig-Value at the end of the certificate");
	return 0;
}

/* Every stage at delegation depth 2 and every number at its widest. */
START_TEST(test_largest_certificate_fits_its_bound)
{
	struct ota_record *r = &f.bs.record;
	struct ota_alias_info info;
	uint32_t i, sig_len;

	r->hdr.lifecycle = OTA_LC_RMA;
	r->hdr.epoch = UINT32_MAX;
	r->hdr.min_svn = OTA_SVN_LIMIT;
	r->hdr.floor_rom_ext = UINT32_MAX;
	r->hdr.floor_bl0 = UINT32_MAX;
	r->hdr.chain_max_svn = OTA_SVN_LIMIT;
	r->hdr.tag_key_version = UINT32_MAX;
	for (i = 0; i < r->hdr.stage_count; i++) {
		struct ota_stage_record *s = &r->stage[i];

		s->path = OTA_PATH_SIGNATURE_RETAGGED;
		s->sig_scheme = OTA_SCHEME_HYBRID;
		s->delegation_depth = OTA_MAX_DELEGATION_DEPTH;
		s->security_version = OTA_SVN_LIMIT;
		s->tag_key_version = UINT32_MAX;
		s->path_reason = OTA_REASON_MAX;
		s->effective.usage.flags = OTA_CAP_ALL;
		memset(s->key_ids, 0xff, sizeof(s->key_ids));
	}
	/* The update state at its widest: a trial of B that reverted, both sequences at 256. */
	{
		struct ota_record_update *u;

		r->hdr.flags |= OTA_RECORD_F_UPDATE_SECTION;
		r->hdr.length = ota_record_length(r->hdr.stage_count, r->hdr.flags);
		r->hdr.reset_reason = OTA_RESET_UPDATE;
		u = (struct ota_record_update *)ota_record_update_of(r);
		memset(u, 0, sizeof(*u));
		u->primary_slot = OTA_SLOT_B;
		u->revocation_sequence = OTA_REVOCATION_SEQ_MAX;
		u->revocation_sequence_device = OTA_REVOCATION_SEQ_MAX;
		u->trial_boots = OTA_TRIAL_MAX_BOOTS;
		u->revert_reason = OTA_REVERT_REASON_MAX;
		u->reverted_slot = OTA_SLOT_B;
		u->running_rom_ext_slot = OTA_RECORD_NO_SLOT;
		u->running_bl0_slot = OTA_RECORD_NO_SLOT;
	}
	f.bs.rom_ext_svn = OTA_SVN_LIMIT;
	f.bs.bl0_svn = OTA_SVN_LIMIT;
	evfix_boot_runtime(&f);
	/*
	 * The ECDSA signature's DER is 70 to 72 bytes (r and s each lose or
	 * gain a byte): the bound must hold for the longest, 1090 bytes here.
	 */
	sig_len = sig_value_len(ota_rt.alias_cert, ota_rt.alias_cert_len);
	printf("largest alias certificate: %u bytes with a %u-byte signature, at most %u; bound %u\n",
	       ota_rt.alias_cert_len, sig_len, ota_rt.alias_cert_len - sig_len + 72u,
	       OTA_CERT_MAX_DER);
	ck_assert_uint_le(ota_rt.alias_cert_len - sig_len + 72u, OTA_CERT_MAX_DER);
	ck_assert_uint_eq(ota_alias_cert_info(ota_rt.alias_cert, ota_rt.alias_cert_len, &info),
			  OTA_OK);
	expect_certifies(&info, r);
}
END_TEST

/* ROM_EXT certifies no results that are not the ones its alias key is bound to. */
START_TEST(test_prepare_refuses_a_record_it_cannot_certify)
{
	struct ota_record good = f.bs.record;
	hal_key_t k;

	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &tu_binding), OTA_OK);
	/* The booted BL0 attempt's measurement is not the one the key is derived from. */
	f.bs.record.stage[2].measurement[0] ^= 1;
	ck_assert_uint_eq(ota_runtime_prepare(&f.bs), OTA_RECORD_BAD_FIELD);
	ck_assert_uint_eq(hal_key_retained(OTA_RETAINED_KEY_ALIAS, &k), OTA_HAL_BAD_HANDLE);
	ck_assert_uint_eq(ota_rt.alias_cert_len, 0);
	/* Nor its SVN. */
	f.bs.record = good;
	f.bs.record.stage[0].security_version++;
	ck_assert_uint_eq(ota_runtime_prepare(&f.bs), OTA_RECORD_BAD_FIELD);
	/* Two attempts booted for one stage: which one ran? */
	f.bs.record = good;
	f.bs.record.stage[1].flags |= OTA_STAGE_F_BOOTED;
	ck_assert_uint_eq(ota_runtime_prepare(&f.bs), OTA_RECORD_BAD_FIELD);
	/* None booted. */
	f.bs.record = good;
	f.bs.record.stage[0].flags = 0;
	ck_assert_uint_eq(ota_runtime_prepare(&f.bs), OTA_RECORD_BAD_FIELD);
	/* The record as it was: certified. */
	f.bs.record = good;
	ck_assert_uint_eq(ota_runtime_prepare(&f.bs), OTA_OK);
}
END_TEST

/*
 * The BL0 entry's StageResults: its vendorInfo "88 LL 30 LL-2 02 01 02",
 * the last in the certificate; the offset of its version's value byte.
 */
static uint32_t bl0_results_version_at(const uint8_t *der, uint32_t len)
{
	uint32_t at, found = 0;

	for (at = 0; at + 7 <= len; at++)
		if (der[at] == 0x88 && der[at + 2] == 0x30 && der[at + 1] == der[at + 3] + 2u &&
		    der[at + 4] == 0x02 && der[at + 5] == 0x01 && der[at + 6] == 0x02)
			found = at + 6;
	ck_assert_uint_ne(found, 0);
	return found;
}

/*
 * A certificate of another profile is told apart from a malformed one
 * (otimage inspect says which): StageResults version 1, from firmware
 * before pathReason and usageFlags, or a later one, is other_version; a
 * bad value in version 2 is none.
 */
START_TEST(test_other_version_is_told)
{
	static const struct {
		uint32_t offset; /* from the version's value byte */
		uint8_t value;
		uint32_t other_version;
	} cases[] = { { 0, 1, 1 }, { 0, 3, 3 }, { 18, 0x04, 0 } /* usage flags: an unknown bit */ };
	struct ota_alias_info info;
	uint8_t der[OTA_CERT_MAX_DER];
	uint32_t at, i;

	evfix_boot_runtime(&f);
	at = bl0_results_version_at(ota_rt.alias_cert, ota_rt.alias_cert_len);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(der, ota_rt.alias_cert, ota_rt.alias_cert_len);
		der[at + cases[i].offset] = cases[i].value;
		ck_assert_uint_eq(ota_alias_cert_info(der, ota_rt.alias_cert_len, &info),
				  OTA_X509_MALFORMED);
		ck_assert_uint_eq(info.other_version, cases[i].other_version);
		ck_assert(!info.other_is_device_state);
		ck_assert_uint_eq(info.tcb_count, 0); /* nothing else is kept */
	}
	/* DeviceState version 1, before the update state: "88 3c 30 3a 02 01 02". */
	for (at = 0; at + 7 <= ota_rt.alias_cert_len; at++)
		if (!memcmp(ota_rt.alias_cert + at, "\x88\x3c\x30\x3a\x02\x01\x02", 7))
			break;
	ck_assert_uint_lt(at + 7, ota_rt.alias_cert_len);
	memcpy(der, ota_rt.alias_cert, ota_rt.alias_cert_len);
	der[at + 6] = 1;
	ck_assert_uint_eq(ota_alias_cert_info(der, ota_rt.alias_cert_len, &info), OTA_X509_MALFORMED);
	ck_assert_uint_eq(info.other_version, 1);
	ck_assert(info.other_is_device_state);
}
END_TEST

static Suite *alias_cert_suite(void)
{
	Suite *s = suite_create("alias_cert");
	TCase *tc = tcase_create("tcb info");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_layout_is_the_documented_one);
	tcase_add_test(tc, test_prepare_certifies_the_record);
	tcase_add_loop_test(tc, test_flags_follow_the_lifecycle, 0, OTA_LC_COUNT);
	tcase_add_test(tc, test_largest_certificate_fits_its_bound);
	tcase_add_test(tc, test_prepare_refuses_a_record_it_cannot_certify);
	tcase_add_test(tc, test_other_version_is_told);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(alias_cert_suite)
