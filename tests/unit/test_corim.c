// SPDX-License-Identifier: MIT
/*
 * Reference values as CoRIM (docs/corim.md): otimage's writer
 * (oti_corim_build) against the verifier's reader (ota_corim_load) and
 * rule (ota_refvals_check through ota_verify_evidence), on evidence the
 * firmware's runtime signs (the evidence fixture). A CoRIM is hostile
 * input: every truncation and every flipped byte is refused, and each
 * thing outside the profile - signed by the right key - is refused with
 * CORIM_MALFORMED and a reason, never ignored.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/cbor.h"
#include "otattest/corim.h"

#include "../../libotattest/tools/otimage/corim_build.h"
#include "test_evidence_fixture.h"
#include "tu_main.h"

static struct oti_key release, stranger;
static uint8_t evidence[OTA_EVIDENCE_MAX_BYTES];
static uint32_t evidence_len;
static uint8_t nonce[32];
static struct ota_trust *trust;
static struct evfix fix;
/* The evidence's booted stages as a release lists them. */
static struct oti_corim_stage booted[2];

static void stage_of(const struct ota_stage_record *s, struct oti_corim_stage *out)
{
	memset(out, 0, sizeof(*out));
	out->stage = s->stage;
	out->svn = s->security_version;
	memcpy(out->measurement, s->measurement, OTA_SHA256_BYTES);
	out->key_id_count = s->delegation_depth + 1u;
	memcpy(out->key_ids, s->key_ids, (size_t)out->key_id_count * OTA_KEY_ID_BYTES);
}

static void setup(void)
{
	struct oti_diag d;

	ck_assert_uint_eq(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &release, &d), OTA_OK);
	ck_assert_uint_eq(oti_key_generate(OTA_KEY_ALG_ECDSA_P256, &stranger, &d), OTA_OK);
	evfix_open(&fix, EVFIX_IDCERT_OURS);
	evfix_boot_runtime(&fix);
	memset(nonce, 0x6e, sizeof(nonce));
	ck_assert_uint_eq(ota_rt_attest(&fix.bs, ota_runtime_current(&fix.bs), nonce, sizeof(nonce),
					evidence, sizeof(evidence), &evidence_len),
			  OTA_OK);
	ck_assert_uint_eq(ota_trust_load_pem(fix.ca_pem, fix.ca_pem_len, &trust), OTA_OK);
	stage_of(&fix.bs.record.stage[0], &booted[0]); /* ROM_EXT A */
	stage_of(&fix.bs.record.stage[2], &booted[1]); /* BL0 A, the fallback that booted */
	ck_assert_uint_eq(booted[0].stage, OTA_STAGE_ROM_EXT);
	ck_assert_uint_eq(booted[1].stage, OTA_STAGE_BL0);
}

static void teardown(void)
{
	ota_trust_free(trust);
	evfix_close(&fix);
	oti_key_free(&release);
	oti_key_free(&stranger);
}

/* A signed CoRIM of these stages, loaded with the release key's public half. */
static ota_status_t load(const struct oti_corim_stage *st, uint32_t n, const struct oti_key *signer,
			 struct ota_refvals *r, char *why)
{
	uint8_t *corim = NULL;
	size_t len = 0;
	ota_status_t s;

	ck_assert_uint_eq(oti_corim_build("release-1", "otattest test", st, n, OTI_CORIM_FORM_DRAFT, signer,
					  &corim, &len),
			  OTA_OK);
	s = ota_corim_load(corim, len, release.pub, r, why, 200);
	free(corim);
	return s;
}

static ota_status_t verify_with(const struct ota_refvals *r, struct ota_verdict *v)
{
	struct ota_policy pol;

	ota_policy_init(&pol);
	pol.refvals = r;
	return ota_verify_evidence(evidence, evidence_len, trust, nonce, sizeof(nonce), &pol, NULL, 0,
				   v);
}

START_TEST(release_accepted)
{
	static struct ota_refvals r;
	static struct ota_verdict v;
	char why[200];

	ota_refvals_init(&r);
	ck_assert_uint_eq(load(booted, 2, &release, &r, why), OTA_OK);
	ck_assert_uint_eq(r.count, 2);
	ck_assert_uint_eq(verify_with(&r, &v), OTA_OK);
	ck_assert_uint_eq(v.failure_count, 0);
}
END_TEST

/* Reference values that list the BL0 the evidence shows, but not quite. */
enum bl0_change { BL0_DIGEST, BL0_SVN, BL0_KEYS, BL0_ABSENT };

static void expect_bl0_refused(enum bl0_change c, const char *detail_has)
{
	static struct ota_refvals r;
	static struct ota_verdict v;
	struct oti_corim_stage st[2];
	char why[200];

	memcpy(st, booted, sizeof(st));
	if (c == BL0_DIGEST)
		st[1].measurement[31] ^= 1u;
	else if (c == BL0_SVN)
		st[1].svn++;
	else if (c == BL0_KEYS)
		st[1].key_ids[1][0] ^= 1u; /* the delegate's key id */
	ota_refvals_init(&r);
	ck_assert_uint_eq(load(st, c == BL0_ABSENT ? 1u : 2u, &release, &r, why), OTA_OK);
	ck_assert_uint_eq(verify_with(&r, &v), OTA_VERIFY_REFERENCE_MISMATCH);
	ck_assert_uint_eq(v.failure_count, 1); /* ROM_EXT is still one it lists */
	ck_assert_uint_eq(v.failures[0].status, OTA_VERIFY_REFERENCE_MISMATCH);
	ck_assert_uint_eq(v.failures[0].stage, OTA_STAGE_BL0);
	ck_assert_msg(strstr(v.failures[0].detail, detail_has), "detail: %s",
		      v.failures[0].detail);
	ck_assert(v.authentic);
}

START_TEST(measurement_not_listed_refused)
{
	expect_bl0_refused(BL0_DIGEST, "bl0 measurement b5b5b5b5");
}
END_TEST

START_TEST(other_svn_refused)
{
	expect_bl0_refused(BL0_SVN, "listed with SVN 6, the evidence shows 5");
}
END_TEST

START_TEST(other_signer_keys_refused)
{
	expect_bl0_refused(BL0_KEYS, "other signer key ids");
}
END_TEST

START_TEST(stage_not_listed_refused)
{
	expect_bl0_refused(BL0_ABSENT, "list no bl0 measurement");
}
END_TEST

/* Two releases: a stage may be either; CoRIMs add up. */
START_TEST(two_corims_add_up)
{
	static struct ota_refvals r;
	static struct ota_verdict v;
	struct oti_corim_stage old[2];
	char why[200];

	memcpy(old, booted, sizeof(old));
	old[0].measurement[0] ^= 0xffu;
	old[1].measurement[0] ^= 0xffu;
	ota_refvals_init(&r);
	ck_assert_uint_eq(load(old, 2, &release, &r, why), OTA_OK);
	ck_assert_uint_eq(verify_with(&r, &v), OTA_VERIFY_REFERENCE_MISMATCH);
	ck_assert_uint_eq(v.failure_count, 2);
	ck_assert_uint_eq(load(booted, 2, &release, &r, why), OTA_OK);
	ck_assert_uint_eq(r.count, 4);
	ck_assert_uint_eq(verify_with(&r, &v), OTA_OK);
}
END_TEST

START_TEST(wrong_signer_refused)
{
	static struct ota_refvals r;
	char why[200];

	ota_refvals_init(&r);
	ck_assert_uint_eq(load(booted, 2, &stranger, &r, why), OTA_CORIM_SIG_INVALID);
	ck_assert_uint_eq(r.count, 0);
	ck_assert_ptr_nonnull(strstr(why, "does not verify"));
}
END_TEST

START_TEST(every_truncation_and_flip_refused)
{
	static struct ota_refvals r;
	uint8_t *corim = NULL;
	size_t len = 0, i;
	char why[200];
	ota_status_t st;

	ck_assert_uint_eq(oti_corim_build("release-1", "otattest", booted, 2, OTI_CORIM_FORM_DRAFT, &release,
					  &corim, &len),
			  OTA_OK);
	ota_refvals_init(&r);
	for (i = 0; i < len; i++) {
		st = ota_corim_load(corim, i, release.pub, &r, why, sizeof(why));
		ck_assert_msg(st != OTA_OK, "truncated to %zu accepted", i);
		ck_assert_uint_eq(r.count, 0);
	}
	for (i = 0; i < len; i++) {
		corim[i] ^= 0x01u;
		st = ota_corim_load(corim, len, release.pub, &r, why, sizeof(why));
		ck_assert_msg(st != OTA_OK, "bit 0 of byte %zu flipped accepted", i);
		corim[i] ^= 0x81u;
		st = ota_corim_load(corim, len, release.pub, &r, why, sizeof(why));
		ck_assert_msg(st != OTA_OK, "bit 7 of byte %zu flipped accepted", i);
		corim[i] ^= 0x80u;
		ck_assert_uint_eq(r.count, 0);
	}
	ck_assert_uint_eq(ota_corim_load(corim, len, release.pub, &r, why, sizeof(why)), OTA_OK);
	free(corim);
}
END_TEST

/* ---- hand-made payloads, signed by the right key ------------------------ */

enum variant {
	V_GOOD,        /* the profile; tags as the draft's CDDL: 506(<< CoMID >>) */
	V_VERAISON,    /* tags as Veraison's corim library v1.1: << 506(CoMID) >> */
	V_BARE_TAG,    /* 506(CoMID) with no byte string: neither form, refused */
	V_UNTAGGED,    /* payload map without tag 501, as Veraison writes it */
	V_RAW_VALUE,   /* mval key 4 (raw-value): would narrow, not implemented */
	V_VENDOR,      /* class vendor "acme" */
	V_CLASS_ID,    /* ROM_EXT's class id on a BL0 model */
	V_LAYER,       /* layer 1 on a BL0 model */
	V_VALIDITY,    /* corim-map key 4 */
	V_COSWID,      /* tag 505 in the tags */
	V_NO_SVN,      /* mval without an SVN */
	V_ENDORSED,    /* triples key 1: endorsements */
	V_MIN_SVN,     /* tagged-min-svn 5: the evidence's SVN 5 passes */
	V_DUP_KEY,     /* the class map names its vendor twice */
};

static void put_text(struct ota_cbor_enc *e, const char *s)
{
	ota_cbor_put_text(e, s, (uint32_t)strlen(s));
}

static void put_variant_comid(struct ota_cbor_enc *e, enum variant v)
{
	static const uint8_t rom_ext_class[] = OTA_CORIM_CLASS_ROM_EXT;
	static const uint8_t bl0_class[] = OTA_CORIM_CLASS_BL0;
	const struct oti_corim_stage *s = &booted[1];

	ota_cbor_put_map(e, 2);
	ota_cbor_put_uint(e, OTA_COMID_K_TAG_IDENTITY);
	ota_cbor_put_map(e, 1);
	ota_cbor_put_uint(e, OTA_COMID_TAGID_K_ID);
	put_text(e, "hand-made/bl0");
	ota_cbor_put_uint(e, OTA_COMID_K_TRIPLES);
	ota_cbor_put_map(e, 1);
	ota_cbor_put_uint(e, v == V_ENDORSED ? 1u : OTA_COMID_TRIPLES_K_REFERENCE);
	ota_cbor_put_array(e, 1);
	ota_cbor_put_array(e, 2);
	ota_cbor_put_map(e, 1);
	ota_cbor_put_uint(e, OTA_COMID_ENV_K_CLASS);
	ota_cbor_put_map(e, v == V_DUP_KEY ? 5 : 4);
	ota_cbor_put_uint(e, OTA_COMID_CLASS_K_ID);
	ota_cbor_put_tag(e, OTA_CORIM_TAG_UUID);
	ota_cbor_put_bytes(e, v == V_CLASS_ID ? rom_ext_class : bl0_class, OTA_CORIM_UUID_BYTES);
	ota_cbor_put_uint(e, OTA_COMID_CLASS_K_VENDOR);
	put_text(e, v == V_VENDOR ? "acme" : OTA_CORIM_VENDOR);
	if (v == V_DUP_KEY) {
		ota_cbor_put_uint(e, OTA_COMID_CLASS_K_VENDOR);
		put_text(e, OTA_CORIM_VENDOR);
	}
	ota_cbor_put_uint(e, OTA_COMID_CLASS_K_MODEL);
	put_text(e, "bl0");
	ota_cbor_put_uint(e, OTA_COMID_CLASS_K_LAYER);
	ota_cbor_put_uint(e, v == V_LAYER ? 1u : 2u);
	ota_cbor_put_array(e, 1);
	ota_cbor_put_map(e, 1);
	ota_cbor_put_uint(e, OTA_COMID_MEAS_K_MVAL);
	ota_cbor_put_map(e, v == V_NO_SVN ? 1 : v == V_RAW_VALUE ? 3 : 2);
	if (v != V_NO_SVN) {
		ota_cbor_put_uint(e, OTA_COMID_MVAL_K_SVN);
		ota_cbor_put_tag(e, v == V_MIN_SVN ? OTA_CORIM_TAG_MIN_SVN : OTA_CORIM_TAG_SVN);
		ota_cbor_put_uint(e, s->svn);
	}
	ota_cbor_put_uint(e, OTA_COMID_MVAL_K_DIGESTS);
	ota_cbor_put_array(e, 2);
	ota_cbor_put_array(e, 2); /* another algorithm first: stepped over */
	ota_cbor_put_uint(e, 7);  /* sha-384 */
	ota_cbor_put_bytes(e, s->measurement, OTA_SHA256_BYTES);
	ota_cbor_put_array(e, 2);
	ota_cbor_put_uint(e, OTA_CORIM_ALG_SHA256);
	ota_cbor_put_bytes(e, s->measurement, OTA_SHA256_BYTES);
	if (v == V_RAW_VALUE) {
		ota_cbor_put_uint(e, 4);
		ota_cbor_put_bytes(e, "x", 1);
	}
}

static void put_variant_payload(struct ota_cbor_enc *e, enum variant v)
{
	uint8_t comid[1024];
	struct ota_cbor_enc c;
	uint32_t n;

	if (v != V_UNTAGGED)
		ota_cbor_put_tag(e, OTA_CORIM_TAG_UNSIGNED);
	ota_cbor_put_map(e, v == V_VALIDITY ? 3 : 2);
	ota_cbor_put_uint(e, OTA_CORIM_K_ID);
	put_text(e, "hand-made");
	ota_cbor_put_uint(e, OTA_CORIM_K_TAGS);
	ota_cbor_put_array(e, 1);
	ota_cbor_enc_init(&c, comid, sizeof(comid));
	if (v == V_VERAISON)
		ota_cbor_put_tag(&c, OTA_CORIM_TAG_COMID);
	put_variant_comid(&c, v);
	ck_assert_uint_eq(ota_cbor_enc_finish(&c, &n), OTA_OK);
	if (v != V_VERAISON)
		ota_cbor_put_tag(e, v == V_COSWID ? 505u : OTA_CORIM_TAG_COMID);
	if (v == V_BARE_TAG)
		ota_cbor_put_raw(e, comid, n);
	else
		ota_cbor_put_bytes(e, comid, n);
	if (v == V_VALIDITY) {
		ota_cbor_put_uint(e, OTA_CORIM_K_VALIDITY);
		ota_cbor_put_map(e, 0);
	}
}

/* The payload signed as otimage signs, with the release key. */
static size_t sign_variant(enum variant v, uint8_t *out, size_t cap)
{
	uint8_t payload[2048], prot[256], tbs[4096], digest[32], sig[64];
	struct ota_cbor_enc e;
	uint32_t plen, hlen, tlen, len;

	ota_cbor_enc_init(&e, payload, sizeof(payload));
	put_variant_payload(&e, v);
	ck_assert_uint_eq(ota_cbor_enc_finish(&e, &plen), OTA_OK);
	ota_cbor_enc_init(&e, prot, sizeof(prot));
	ota_cbor_put_map(&e, 3);
	ota_cbor_put_uint(&e, OTA_COSE_HDR_ALG);
	ota_cbor_put_int(&e, OTA_COSE_ALG_ES256);
	ota_cbor_put_uint(&e, OTA_COSE_HDR_CONTENT_TYPE);
	put_text(&e, OTA_CORIM_CONTENT_TYPE);
	ota_cbor_put_uint(&e, OTA_CORIM_HDR_META);
	ota_cbor_put_bytes(&e, "\xa1\x00\xa1\x00\x62hi", 7);
	ck_assert_uint_eq(ota_cbor_enc_finish(&e, &hlen), OTA_OK);
	ota_cbor_enc_init(&e, tbs, sizeof(tbs));
	ota_cbor_put_array(&e, 4);
	put_text(&e, OTA_COSE_SIG1_CONTEXT);
	ota_cbor_put_bytes(&e, prot, hlen);
	ota_cbor_put_bytes(&e, "", 0);
	ota_cbor_put_bytes(&e, payload, plen);
	ck_assert_uint_eq(ota_cbor_enc_finish(&e, &tlen), OTA_OK);
	ota_sha256(tbs, tlen, digest);
	ck_assert_uint_eq(oti_ecdsa_sign(&release, digest, sig), OTA_OK);
	ota_cbor_enc_init(&e, out, (uint32_t)cap);
	ota_cbor_put_tag(&e, OTA_COSE_SIGN1_TAG);
	ota_cbor_put_array(&e, 4);
	ota_cbor_put_bytes(&e, prot, hlen);
	ota_cbor_put_map(&e, 0);
	ota_cbor_put_bytes(&e, payload, plen);
	ota_cbor_put_bytes(&e, sig, sizeof(sig));
	ck_assert_uint_eq(ota_cbor_enc_finish(&e, &len), OTA_OK);
	return len;
}

static void expect_variant(enum variant v, ota_status_t want, const char *why_has)
{
	static struct ota_refvals r;
	uint8_t corim[4096];
	size_t len = sign_variant(v, corim, sizeof(corim));
	char why[200] = "";

	ota_refvals_init(&r);
	ck_assert_uint_eq(ota_corim_load(corim, len, release.pub, &r, why, sizeof(why)), want);
	ck_assert_uint_eq(r.count, want == OTA_OK ? 1u : 0u);
	if (why_has)
		ck_assert_msg(strstr(why, why_has), "variant %d: why: %s", (int)v, why);
}

START_TEST(draft_and_veraison_forms_accepted)
{
	static struct ota_refvals r;
	static struct ota_verdict v;
	uint8_t corim[4096];
	size_t len;
	char why[200];

	expect_variant(V_GOOD, OTA_OK, NULL);
	expect_variant(V_VERAISON, OTA_OK, NULL);
	expect_variant(V_UNTAGGED, OTA_OK, NULL);
	/* Tag 506 straight around the map: the draft's CDDL has a byte string. */
	expect_variant(V_BARE_TAG, OTA_CORIM_MALFORMED, "byte string");
	/* A min SVN of 5 lets BL0's SVN 5 through; then ROM_EXT is unlisted. */
	ota_refvals_init(&r);
	len = sign_variant(V_MIN_SVN, corim, sizeof(corim));
	ck_assert_uint_eq(ota_corim_load(corim, len, release.pub, &r, why, sizeof(why)), OTA_OK);
	ck_assert(r.rv[0].svn_is_min);
	ck_assert_uint_eq(verify_with(&r, &v), OTA_VERIFY_REFERENCE_MISMATCH);
	ck_assert_uint_eq(v.failure_count, 1);
	ck_assert_uint_eq(v.failures[0].stage, OTA_STAGE_ROM_EXT);
}
END_TEST

START_TEST(outside_the_profile_refused)
{
	expect_variant(V_RAW_VALUE, OTA_CORIM_MALFORMED, "mval: key 4");
	expect_variant(V_VENDOR, OTA_CORIM_MALFORMED, "class.vendor");
	expect_variant(V_CLASS_ID, OTA_CORIM_MALFORMED, "class-id");
	expect_variant(V_LAYER, OTA_CORIM_MALFORMED, "class.layer");
	expect_variant(V_VALIDITY, OTA_CORIM_MALFORMED, "corim-map: key 4");
	expect_variant(V_COSWID, OTA_CBOR_UNSUPPORTED, NULL);
	expect_variant(V_NO_SVN, OTA_CORIM_MALFORMED, "svn");
	expect_variant(V_ENDORSED, OTA_CORIM_MALFORMED, "triples: key 1");
	expect_variant(V_DUP_KEY, OTA_CBOR_DUPLICATE_KEY, NULL);
}
END_TEST

/* All of a CoRIM or nothing; and the table does not overflow. */
START_TEST(too_many_refused_whole)
{
	static struct ota_refvals r;
	struct oti_corim_stage many[OTI_CORIM_MAX_IMAGES];
	char why[200];
	uint32_t i, loads = 0;
	ota_status_t st;

	for (i = 0; i < OTI_CORIM_MAX_IMAGES; i++) {
		many[i] = booted[i & 1u];
		many[i].measurement[0] = (uint8_t)i;
	}
	ota_refvals_init(&r);
	while ((st = load(many, OTI_CORIM_MAX_IMAGES, &release, &r, why)) == OTA_OK)
		loads++;
	ck_assert_uint_eq(st, OTA_CORIM_TOO_MANY);
	ck_assert_uint_eq(loads, OTA_REFVALS_MAX / OTI_CORIM_MAX_IMAGES);
	ck_assert_uint_eq(r.count, loads * OTI_CORIM_MAX_IMAGES);
}
END_TEST

static Suite *corim_suite(void)
{
	Suite *s = suite_create("corim");
	TCase *tc = tcase_create("refvals");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, release_accepted);
	tcase_add_test(tc, measurement_not_listed_refused);
	tcase_add_test(tc, other_svn_refused);
	tcase_add_test(tc, other_signer_keys_refused);
	tcase_add_test(tc, stage_not_listed_refused);
	tcase_add_test(tc, two_corims_add_up);
	tcase_add_test(tc, wrong_signer_refused);
	tcase_add_test(tc, every_truncation_and_flip_refused);
	tcase_add_test(tc, draft_and_veraison_forms_accepted);
	tcase_add_test(tc, outside_the_profile_refused);
	tcase_add_test(tc, too_many_refused_whole);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(corim_suite)
