// SPDX-License-Identifier: MIT
/*
 * Verdicts as EAR (ear.h): the refusal table covers every verifier
 * status and docs/verifier.md shows each row; the appraisal of each stage
 * follows the failures that speak for it; the JWT is ES256 over the
 * header and claims as JOSE defines it (checked here with OpenSSL, and in
 * tests/interop/ear.sh by jose and PyJWT); the key is a P-256 private key.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "otattest/ear.h"
#include "test_evidence_fixture.h"
#include "tu_main.h"

/* ---- the refusal table -------------------------------------------------- */

START_TEST(test_every_verify_status_has_a_refusal_row)
{
	uint32_t claim;
	int value;

#define X(name, cls, mod, idx, msg)                                                     \
	if (OTA_MOD_##mod == OTA_MOD_VERIFY && OTA_##name != OTA_VERIFY_POLICY_MALFORMED) \
		ck_assert_msg(ota_refusal_ar4si(OTA_##name, &claim, &value),              \
			      "%s has no row in refusal.h", #name);
	OTA_STATUS_LIST(X)
#undef X
	ck_assert(!ota_refusal_ar4si(OTA_VERIFY_POLICY_MALFORMED, &claim, &value));
}
END_TEST

START_TEST(test_no_refusal_affirms)
{
#define X(name, cl, val)                                                                  \
	ck_assert_msg(ota_ar4si_tier(OTA_AR4SI_##val) != OTA_EAR_AFFIRMING, "%s affirms", \
		      #name);                                                             \
	ck_assert_ptr_nonnull(ota_ar4si_claim_name(OTA_AR4SI_##cl));                      \
	ck_assert_ptr_nonnull(ota_status_name(OTA_##name));
	OTA_REFUSAL_LIST(X)
#undef X
}
END_TEST

/* docs/verifier.md's table: a line naming the reason with its claim and value. */
START_TEST(test_docs_show_every_row)
{
	FILE *f = fopen("docs/verifier.md", "r");
	static char doc[256 * 1024];
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(doc, 1, sizeof(doc) - 1, f);
	fclose(f);
	doc[n] = 0;
#define X(name, cl, val)                                                                       \
	{                                                                                      \
		char want[64], cell[64];                                                       \
		const char *line = doc, *end;                                                  \
		bool found = false;                                                            \
		snprintf(want, sizeof(want), "`%s`", #name);                                   \
		snprintf(cell, sizeof(cell), "| `%s` | %d |",                                  \
			 ota_ar4si_claim_name(OTA_AR4SI_##cl), OTA_AR4SI_##val);               \
		while (!found && (line = strstr(line, want)) != NULL) {                        \
			const char *start = line;                                              \
			while (start > doc && start[-1] != '\n')                               \
				start--;                                                       \
			end = strchr(line, '\n');                                              \
			found = *start == '|' && strstr(start, cell) && strstr(start, cell) < end; \
			line += strlen(want);                                                  \
		}                                                                              \
		ck_assert_msg(found, "docs/verifier.md has no row '%s ... %s'", want, cell);   \
	}
	OTA_REFUSAL_LIST(X)
#undef X
}
END_TEST

/*
 * Every reason the verifier gives for real evidence has a row: the
 * firmware's evidence with each byte flipped, each verdict's failures
 * looked up (a reason without a row would reach a relying party as a
 * verifier malfunction).
 */
START_TEST(test_every_reason_the_verifier_gives_has_a_row)
{
	static uint8_t ev[OTA_EVIDENCE_MAX_BYTES];
	static const uint8_t nonce[16] = "ear-flip-nonce!";
	static struct ota_verdict fv;
	struct evfix f;
	uint32_t len = 0, claim, seen = 0;
	int value;

	evfix_open(&f, EVFIX_IDCERT_OURS);
	evfix_boot_runtime(&f);
	ck_assert_uint_eq(ota_rt_attest(&f.bs, ota_runtime_current(&f.bs), nonce, sizeof(nonce), ev,
					sizeof(ev), &len),
			  OTA_OK);
	for (uint32_t at = 0; at < len; at++) {
		ev[at] ^= 0xff;
		ck_assert_uint_ne(ota_verify_evidence(ev, len, f.trust, nonce, sizeof(nonce), NULL,
						      NULL, 0, &fv),
				  OTA_OK);
		for (uint32_t i = 0; i < fv.failure_count; i++) {
			ck_assert_msg(ota_refusal_ar4si(fv.failures[i].status, &claim, &value),
				      "byte %u: %s has no refusal row", at,
				      ota_status_name(fv.failures[i].status));
			seen |= 1u << claim;
		}
		ev[at] ^= 0xff;
	}
	/* The flips reach more than one kind of refusal. */
	ck_assert(seen & (1u << OTA_AR4SI_INSTANCE_IDENTITY));
	ck_assert(seen & (1u << OTA_AR4SI_EXECUTABLES));
	evfix_close(&f);
}
END_TEST

/* ---- appraisal ------------------------------------------------------------ */

static struct ota_verdict v;

static void verdict(bool authentic)
{
	memset(&v, 0, sizeof(v));
	v.authentic = authentic;
	v.claims_valid = true;
}

static void add_failure(ota_status_t st, uint32_t stage)
{
	struct ota_verdict_failure *f = &v.failures[v.failure_count++];

	f->status = st;
	f->stage = stage;
}

/*
 * The appraisal of stage: its status and whole vector, in refusal.h's
 * claim order: instance-identity, configuration, executables,
 * file-system, hardware, runtime-opaque, storage-opaque, sourced-data.
 */
static void expect(uint32_t stage, enum ota_ear_tier status, const int want[OTA_AR4SI_CLAIM_COUNT])
{
	struct ota_ear_appraisal a;

	ota_ear_appraise(&v, stage, &a);
	ck_assert_msg(a.status == status, "%s: %s, want %s", ota_stage_name(stage),
		      ota_ear_tier_name(a.status), ota_ear_tier_name(status));
	for (uint32_t c = 0; c < OTA_AR4SI_CLAIM_COUNT; c++)
		ck_assert_msg(a.vector[c] == want[c], "%s %s: %d, want %d", ota_stage_name(stage),
			      ota_ar4si_claim_name(c), a.vector[c], want[c]);
}

static const int affirmed[OTA_AR4SI_CLAIM_COUNT] = { 2, 2, 3, 0, 2, 0, 0, 0 };

START_TEST(test_passing_verdict_affirms_each_stage)
{
	verdict(true);
	expect(OTA_STAGE_ROM_EXT, OTA_EAR_AFFIRMING, affirmed);
	expect(OTA_STAGE_BL0, OTA_EAR_AFFIRMING, affirmed);
}
END_TEST

START_TEST(test_stage_failure_speaks_for_its_stage)
{
	verdict(true);
	add_failure(OTA_VERIFY_SVN_BELOW_POLICY, OTA_STAGE_BL0);
	expect(OTA_STAGE_BL0, OTA_EAR_WARNING, (const int[]){ 2, 2, 32, 0, 2, 0, 0, 0 });
	expect(OTA_STAGE_ROM_EXT, OTA_EAR_AFFIRMING, affirmed);
}
END_TEST

START_TEST(test_evidence_failure_speaks_for_every_stage_and_worst_wins)
{
	verdict(true);
	add_failure(OTA_VERIFY_DEPTH_EXCEEDED, OTA_STAGE_BL0);
	add_failure(OTA_VERIFY_LIFECYCLE_NOT_ALLOWED, OTA_VERDICT_NO_STAGE);
	add_failure(OTA_VERIFY_ROOT_KEY_NOT_ALLOWED, OTA_STAGE_BL0);
	add_failure(OTA_VERIFY_SVN_BELOW_POLICY, OTA_STAGE_BL0);
	/* executables: the worse of 33 and 32 */
	expect(OTA_STAGE_BL0, OTA_EAR_CONTRAINDICATED, (const int[]){ 2, 32, 33, 0, 96, 0, 0, 0 });
	expect(OTA_STAGE_ROM_EXT, OTA_EAR_CONTRAINDICATED, (const int[]){ 2, 2, 3, 0, 96, 0, 0, 0 });
}
END_TEST

START_TEST(test_evidence_that_is_not_authentic_affirms_nothing)
{
	verdict(false);
	add_failure(OTA_VERIFY_CHAIN_UNTRUSTED, OTA_VERDICT_NO_STAGE);
	expect(OTA_STAGE_ROM_EXT, OTA_EAR_CONTRAINDICATED, (const int[]){ 97, 0, 0, 0, 0, 0, 0, 0 });
	/* Evidence that does not decode: AR4SI's "unexpected evidence", tier none. */
	verdict(false);
	v.claims_valid = false;
	add_failure(OTA_CBOR_TRUNCATED, OTA_VERDICT_NO_STAGE);
	expect(OTA_STAGE_BL0, OTA_EAR_NONE, (const int[]){ 1, 0, 0, 0, 0, 0, 0, 0 });
}
END_TEST

START_TEST(test_unknown_reason_is_a_verifier_malfunction)
{
	verdict(true);
	add_failure(OTA_HOST_INTERNAL, OTA_VERDICT_NO_STAGE);
	expect(OTA_STAGE_BL0, OTA_EAR_NONE, (const int[]){ -1, 2, 3, 0, 2, 0, 0, 0 });
	/* A truncated verdict may hide worse than it shows. */
	verdict(true);
	add_failure(OTA_VERIFY_SVN_BELOW_POLICY, OTA_STAGE_BL0);
	v.failures_truncated = true;
	expect(OTA_STAGE_BL0, OTA_EAR_CONTRAINDICATED, (const int[]){ 2, 2, 32, 0, 2, 0, 0, 0 });
}
END_TEST

/* ---- the JWT -------------------------------------------------------------- */

static EVP_PKEY *pkey;
static struct ota_ear_key *key;

static char *pem_of(EVP_PKEY *k, const EVP_CIPHER *enc, size_t *len)
{
	BIO *bio = BIO_new(BIO_s_mem());
	char *data, *out;
	long n;

	ck_assert_int_eq(PEM_write_bio_PrivateKey(bio, k, enc, (unsigned char *)"pw", enc ? 2 : 0,
						  NULL, NULL),
			 1);
	n = BIO_get_mem_data(bio, &data);
	out = malloc((size_t)n);
	memcpy(out, data, (size_t)n);
	*len = (size_t)n;
	BIO_free(bio);
	return out;
}

static void key_setup(void)
{
	size_t n;
	char *pem;

	pkey = EVP_EC_gen("P-256");
	ck_assert_ptr_nonnull(pkey);
	pem = pem_of(pkey, NULL, &n);
	ck_assert_uint_eq(ota_ear_key_load_pem(pem, n, &key), OTA_OK);
	free(pem);
}

static void key_teardown(void)
{
	ota_ear_key_free(key);
	EVP_PKEY_free(pkey);
}

/* base64url without padding, decoded with OpenSSL; its length in *n. */
static unsigned char *unb64url(const char *s, size_t len, size_t *n)
{
	char *std = calloc(1, len + 4);
	unsigned char *out = calloc(1, len + 4);
	size_t i, pad = (4 - len % 4) % 4;
	int got;

	for (i = 0; i < len; i++)
		std[i] = s[i] == '-' ? '+' : s[i] == '_' ? '/' : s[i];
	ck_assert(strspn(std, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") == len);
	memset(std + len, '=', pad);
	got = EVP_DecodeBlock(out, (unsigned char *)std, (int)(len + pad));
	ck_assert_int_ge(got, 0);
	*n = (size_t)got - pad;
	free(std);
	return out;
}

/* The JWT's three parts; the signature checked with OpenSSL against pkey. */
static struct json_object *check_jwt(const char *jwt)
{
	const char *dot1 = strchr(jwt, '.'), *dot2 = dot1 ? strchr(dot1 + 1, '.') : NULL;
	unsigned char *head, *body, *rs, der[80], *p = der;
	struct json_object *h, *claims;
	size_t hn, bn, sn;
	ECDSA_SIG *sig = ECDSA_SIG_new();
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	int der_len;

	ck_assert_ptr_nonnull(dot2);
	ck_assert_ptr_null(strchr(dot2 + 1, '.'));
	head = unb64url(jwt, (size_t)(dot1 - jwt), &hn);
	body = unb64url(dot1 + 1, (size_t)(dot2 - dot1 - 1), &bn);
	rs = unb64url(dot2 + 1, strlen(dot2 + 1), &sn);
	ck_assert_uint_eq(sn, 64);
	h = json_tokener_parse((const char *)head);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(json_object_get_string(json_object_object_get(h, "alg")), "ES256");
	ck_assert_str_eq(json_object_get_string(json_object_object_get(h, "typ")), "JWT");
	json_object_put(h);
	/* JWS's r || s as the DER ECDSA-Sig-Value OpenSSL verifies. */
	ck_assert_int_eq(ECDSA_SIG_set0(sig, BN_bin2bn(rs, 32, NULL), BN_bin2bn(rs + 32, 32, NULL)), 1);
	der_len = i2d_ECDSA_SIG(sig, &p);
	ck_assert_int_gt(der_len, 0);
	ck_assert_int_eq(EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, pkey), 1);
	ck_assert_int_eq(EVP_DigestVerify(md, der, (size_t)der_len, (const unsigned char *)jwt,
					  (size_t)(dot2 - jwt)),
			 1);
	claims = json_tokener_parse((const char *)body);
	ck_assert_ptr_nonnull(claims);
	EVP_MD_CTX_free(md);
	ECDSA_SIG_free(sig);
	free(head);
	free(body);
	free(rs);
	return claims;
}

static const char *str_at(struct json_object *o, const char *a, const char *b, const char *c)
{
	struct json_object *x = json_object_object_get(o, a);

	if (b)
		x = json_object_object_get(x, b);
	if (c)
		x = json_object_object_get(x, c);
	ck_assert_ptr_nonnull(x);
	return json_object_get_string(x);
}

START_TEST(test_jwt_is_es256_with_the_ear_claims)
{
	static const uint8_t nonce[32] = { 0xfb, 0xff, 0xfe, 1, 2, 3 };
	static const uint8_t raw[5] = { 0xd2, 0x84, 0x43, 0xa1, 0x01 };
	struct ota_ear_options o = {
		.iat = 1700000000,
		.nonce = nonce,
		.nonce_len = sizeof(nonce),
		.raw_evidence = raw,
		.raw_evidence_len = sizeof(raw),
		.policy_id = "fleet-7",
	};
	struct json_object *claims, *tv;
	char *jwt;

	verdict(true);
	add_failure(OTA_VERIFY_TAG_PATH_FORBIDDEN, OTA_STAGE_ROM_EXT);
	ck_assert_uint_eq(ota_ear_sign(&v, &o, key, &jwt), OTA_OK);
	claims = check_jwt(jwt);
	ck_assert_str_eq(str_at(claims, "eat_profile", NULL, NULL), "tag:github.com,2023:veraison/ear");
	ck_assert_int_eq(json_object_get_int64(json_object_object_get(claims, "iat")), 1700000000);
	ck_assert_str_eq(str_at(claims, "ear.verifier-id", "developer", NULL), "otattest");
	ck_assert_str_eq(str_at(claims, "ear.verifier-id", "build", NULL), "libotattest");
	/* fb ff fe: base64 "+//+", base64url "-__-". */
	ck_assert_str_eq(str_at(claims, "eat_nonce", NULL, NULL),
			 "-__-AQIDAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
	ck_assert_str_eq(str_at(claims, "submods", "rom_ext", "ear.status"), "warning");
	ck_assert_str_eq(str_at(claims, "submods", "bl0", "ear.status"), "affirming");
	/* The raw evidence in the EAR itself (the draft's CDDL), never in an
	 * appraisal, where Veraison's arc would not read it. */
	ck_assert_str_eq(str_at(claims, "ear.raw-evidence", NULL, NULL), "0oRDoQE");
	ck_assert(!json_object_object_get_ex(
		json_object_object_get(json_object_object_get(claims, "submods"), "bl0"),
		"ear.raw-evidence", NULL));
	ck_assert_str_eq(str_at(claims, "submods", "bl0", "ear.appraisal-policy-id"), "fleet-7");
	tv = json_object_object_get(json_object_object_get(json_object_object_get(claims, "submods"),
							   "rom_ext"),
				    "ear.trustworthiness-vector");
	ck_assert_int_eq(json_object_object_length(tv), 8);
	ck_assert_int_eq(json_object_get_int(json_object_object_get(tv, "configuration")), 32);
	ck_assert_int_eq(json_object_get_int(json_object_object_get(tv, "storage-opaque")), 0);
	json_object_put(claims);
	free(jwt);
}
END_TEST

START_TEST(test_jwt_without_nonce_or_evidence)
{
	struct ota_ear_options o = { 0 };
	struct json_object *claims, *bl0;
	char *jwt;

	verdict(true);
	ck_assert_uint_eq(ota_ear_sign(&v, &o, key, &jwt), OTA_OK);
	claims = check_jwt(jwt);
	ck_assert(!json_object_object_get_ex(claims, "eat_nonce", NULL));
	ck_assert_int_gt(json_object_get_int64(json_object_object_get(claims, "iat")), 1700000000);
	bl0 = json_object_object_get(json_object_object_get(claims, "submods"), "bl0");
	ck_assert(!json_object_object_get_ex(bl0, "ear.raw-evidence", NULL));
	ck_assert(!json_object_object_get_ex(claims, "ear.raw-evidence", NULL));
	json_object_put(claims);
	free(jwt);
}
END_TEST

START_TEST(test_key_must_be_p256_private_unencrypted)
{
	EVP_PKEY *p384 = EVP_EC_gen("P-384");
	struct ota_ear_key *k = NULL;
	size_t n;
	char *pem;

	pem = pem_of(p384, NULL, &n);
	ck_assert_uint_eq(ota_ear_key_load_pem(pem, n, &k), OTA_TOOL_KEY_NOT_P256);
	ck_assert_ptr_null(k);
	free(pem);
	pem = pem_of(pkey, EVP_aes_256_cbc(), &n);
	ck_assert_uint_eq(ota_ear_key_load_pem(pem, n, &k), OTA_TOOL_KEY_ENCRYPTED);
	free(pem);
	ck_assert_uint_eq(ota_ear_key_load_pem("not a key", 9, &k), OTA_TOOL_KEY_MALFORMED);
	ck_assert_uint_eq(ota_ear_key_load_file("/nonexistent/ear.pem", &k), OTA_HOST_IO);
	EVP_PKEY_free(p384);
}
END_TEST

static Suite *ear_suite(void)
{
	Suite *s = suite_create("ear");
	TCase *table = tcase_create("refusal_table"), *ap = tcase_create("appraisal");
	TCase *jwt = tcase_create("jwt");

	tcase_add_test(table, test_every_verify_status_has_a_refusal_row);
	tcase_add_test(table, test_no_refusal_affirms);
	tcase_add_test(table, test_docs_show_every_row);
	tcase_add_test(table, test_every_reason_the_verifier_gives_has_a_row);
	tcase_set_timeout(table, 60);
	tcase_add_test(ap, test_passing_verdict_affirms_each_stage);
	tcase_add_test(ap, test_stage_failure_speaks_for_its_stage);
	tcase_add_test(ap, test_evidence_failure_speaks_for_every_stage_and_worst_wins);
	tcase_add_test(ap, test_evidence_that_is_not_authentic_affirms_nothing);
	tcase_add_test(ap, test_unknown_reason_is_a_verifier_malfunction);
	tcase_add_checked_fixture(jwt, key_setup, key_teardown);
	tcase_add_test(jwt, test_jwt_is_es256_with_the_ear_claims);
	tcase_add_test(jwt, test_jwt_without_nonce_or_evidence);
	tcase_add_test(jwt, test_key_must_be_p256_private_unencrypted);
	suite_add_tcase(s, table);
	suite_add_tcase(s, ap);
	suite_add_tcase(s, jwt);
	return s;
}

OTA_TEST_MAIN(ear_suite)
