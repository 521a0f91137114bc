// SPDX-License-Identifier: MIT
/*
 * The fleet policy rules of the verifier (issue 15) on evidence the
 * firmware's runtime makes on the software HAL: the lifecycle rule (a
 * production policy refuses a dev or RMA device), the delegate key
 * deny-list, and revocation of the identity certificate by its CA's CRL
 * (OpenSSL's CRL check through the trust store). Each refusal names its
 * own reason and nothing else; beside each, the case it must let pass.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/pem.h>
#include <openssl/x509.h>
#include <otu/hex.h>

#include <otattest/ear.h>

#include "test_evidence_fixture.h"
#include "tu_crl.h"
#include "tu_main.h"

static struct evfix f;
static uint8_t ev[OTA_EVIDENCE_MAX_BYTES + 64];
static struct ota_verdict v;
static const uint8_t nonce[24] = "otattest-policy-nonce!!";

static void setup(void)
{
	evfix_open(&f, EVFIX_IDCERT_OURS);
}

static void teardown(void)
{
	evfix_close(&f);
}

/* Boot the runtime with the device in lifecycle state lc (ROM_EXT certifies it). */
static uint32_t attest_in(uint32_t lc)
{
	uint32_t len = 0;

	f.bs.record.hdr.lifecycle = lc;
	f.bs.otp.lifecycle = lc;
	evfix_boot_runtime(&f);
	ck_assert_uint_eq(ota_rt_attest(&f.bs, ota_runtime_current(&f.bs), nonce, sizeof(nonce), ev,
					sizeof(ev), &len),
			  OTA_OK);
	return len;
}

static ota_status_t verify(uint32_t len, const struct ota_policy *p)
{
	return ota_verify_evidence(ev, len, f.trust, nonce, sizeof(nonce), p, NULL, 0, &v);
}

static void parse(struct ota_policy *p, const char *text)
{
	char why[200];

	ck_assert_msg(ota_policy_parse(text, strlen(text), p, why, sizeof(why)) == OTA_OK, "%s",
		      why);
}

/* Exactly one failure, with this reason and stage. */
static void expect_only(ota_status_t got, ota_status_t want, uint32_t stage)
{
	ck_assert_msg(got == want, "status %s, want %s (%s)", ota_status_name(got),
		      ota_status_name(want), v.failure_count ? v.failures[0].detail : "");
	ck_assert_uint_eq(v.failure_count, 1);
	ck_assert_uint_eq(v.failures[0].status, want);
	ck_assert_uint_eq(v.failures[0].stage, stage);
	ck_assert_str_ne(v.failures[0].detail, "");
}

static const char production[] = "allowed_lifecycle = prod\nallowed_lifecycle = prod_end\n";

START_TEST(test_production_policy_refuses_dev_evidence)
{
	struct ota_policy p;
	uint32_t len = attest_in(OTA_LC_DEV);

	parse(&p, production);
	expect_only(verify(len, &p), OTA_VERIFY_LIFECYCLE_NOT_ALLOWED, OTA_VERDICT_NO_STAGE);
	ck_assert(v.authentic);
	ck_assert_ptr_nonnull(strstr(v.failures[0].detail, "dev"));
	/* The same evidence under a policy for development devices. */
	parse(&p, "allowed_lifecycle = dev\n");
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
	/* And with no lifecycle rule at all. */
	ota_policy_init(&p);
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
}
END_TEST

START_TEST(test_production_policy_refuses_rma_evidence)
{
	struct ota_policy p;
	uint32_t len = attest_in(OTA_LC_RMA);

	parse(&p, production);
	expect_only(verify(len, &p), OTA_VERIFY_LIFECYCLE_NOT_ALLOWED, OTA_VERDICT_NO_STAGE);
}
END_TEST

START_TEST(test_production_policy_passes_prod_evidence)
{
	struct ota_policy p;
	uint32_t len = attest_in(OTA_LC_PROD);

	parse(&p, production);
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
	parse(&p, "allowed_lifecycle = dev\n");
	expect_only(verify(len, &p), OTA_VERIFY_LIFECYCLE_NOT_ALLOWED, OTA_VERDICT_NO_STAGE);
}
END_TEST

/* "denied_delegate_key = " and byte b 32 times in hex. */
static void deny(struct ota_policy *p, uint8_t b)
{
	uint8_t id[OTA_KEY_ID_BYTES];
	char text[128], hex[2 * OTA_KEY_ID_BYTES + 1];

	memset(id, b, sizeof(id));
	otu_hex_encode(hex, id, sizeof(id));
	snprintf(text, sizeof(text), "denied_delegate_key = %s\n", hex);
	parse(p, text);
}

/*
 * The fixture's booted BL0 A is signed through delegate 0x02.. under root
 * 0x01..; the refused BL0 B went through 0x02.. and 0x03...
 */
START_TEST(test_denied_delegate_is_refused)
{
	struct ota_policy p;
	uint32_t len = attest_in(OTA_LC_PROD);

	deny(&p, 0x02);
	expect_only(verify(len, &p), OTA_VERIFY_DELEGATE_DENIED, OTA_STAGE_BL0);
	ck_assert(v.authentic);
	ck_assert_ptr_nonnull(strstr(v.failures[0].detail, "0202"));
	/* Only on the refused attempt: history, not judged. */
	deny(&p, 0x03);
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
	/* A root key is no delegate (allowed_root_key decides roots). */
	deny(&p, 0x01);
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
}
END_TEST

static void add_crl(EVP_PKEY *ca_key, X509 *ca, const ASN1_INTEGER *serial, long valid_days)
{
	size_t n;
	char *pem = tu_crl_pem(ca_key, ca, serial, valid_days, &n);

	ck_assert_uint_eq(ota_trust_add_crl_pem(f.trust, pem, n), OTA_OK);
	free(pem);
}

START_TEST(test_revoked_identity_certificate_is_refused)
{
	struct ota_policy p;
	uint32_t len = attest_in(OTA_LC_PROD);

	ota_policy_init(&p);
	/* Verified once before the CRL: the chain is remembered, then forgotten. */
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
	add_crl(f.ca_key, f.ca, X509_get0_serialNumber(f.identity), 30);
	ck_assert_uint_eq(ota_trust_crl_count(f.trust), 1);
	expect_only(verify(len, &p), OTA_VERIFY_IDENTITY_REVOKED, OTA_VERDICT_NO_STAGE);
	ck_assert(!v.authentic);
	ck_assert(v.claims_valid);
	/* Again: a refused chain is never remembered. */
	expect_only(verify(len, &p), OTA_VERIFY_IDENTITY_REVOKED, OTA_VERDICT_NO_STAGE);
}
END_TEST

START_TEST(test_crl_revoking_another_certificate_passes)
{
	ASN1_INTEGER *other = ASN1_INTEGER_new();
	struct ota_policy p;
	uint32_t len = attest_in(OTA_LC_PROD);

	ASN1_INTEGER_set(other, 0x7e57);
	add_crl(f.ca_key, f.ca, other, 30);
	ota_policy_init(&p);
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
	ck_assert_uint_eq(verify(len, &p), OTA_OK); /* remembered, same answer */
	ASN1_INTEGER_free(other);
}
END_TEST

/*
 * A delta CRL beside the full one is never ignored (issue 31): OpenSSL
 * without X509_V_FLAG_USE_DELTAS skips it, so the identity it revokes
 * passed. It is refused when loaded, as is every CRL of another scope
 * (issuing distribution point, freshestCRL, indirect), alone or in a file
 * with a plain CRL, and the refused file adds nothing.
 */
START_TEST(test_scoped_crls_are_refused)
{
	static const enum tu_crl_scope scopes[] = { TU_CRL_DELTA, TU_CRL_IDP, TU_CRL_FRESHEST,
						    TU_CRL_INDIRECT };
	const ASN1_INTEGER *id = X509_get0_serialNumber(f.identity);
	ASN1_INTEGER *other = ASN1_INTEGER_new();
	struct ota_policy p;
	uint32_t len = attest_in(OTA_LC_PROD);
	char *full, *scoped, *both;
	size_t n_full, n_scoped;

	ASN1_INTEGER_set(other, 0x7e57);
	ota_policy_init(&p);
	full = tu_crl_scoped_pem(f.ca_key, f.ca, other, TU_CRL_PLAIN, &n_full);
	ck_assert_uint_eq(ota_trust_add_crl_pem(f.trust, full, n_full), OTA_OK);
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
	for (size_t i = 0; i < sizeof(scopes) / sizeof(scopes[0]); i++) {
		scoped = tu_crl_scoped_pem(f.ca_key, f.ca, id, scopes[i], &n_scoped);
		ck_assert_msg(ota_trust_add_crl_pem(f.trust, scoped, n_scoped) ==
				      OTA_X509_CRL_UNSUPPORTED, "scope %zu was loaded", i);
		/* A file of the full CRL and the scoped one: refused whole. */
		both = malloc(n_full + n_scoped);
		ck_assert_ptr_nonnull(both);
		memcpy(both, full, n_full);
		memcpy(both + n_full, scoped, n_scoped);
		ck_assert_uint_eq(ota_trust_add_crl_pem(f.trust, both, n_full + n_scoped),
				  OTA_X509_CRL_UNSUPPORTED);
		ck_assert_uint_eq(ota_trust_crl_count(f.trust), 1);
		free(both);
		free(scoped);
	}
	free(full);
	ASN1_INTEGER_free(other);
}
END_TEST

/* Revocation that cannot be checked does not pass: no CRL of this CA, or an expired one. */
START_TEST(test_unusable_crl_fails_the_chain)
{
	EVP_PKEY *other_key = NULL;
	X509 *other_ca = NULL;
	struct ota_policy p;
	uint32_t len = attest_in(OTA_LC_PROD);

	ck_assert_uint_eq(otimage_ca_create("another CA", &other_key, &other_ca), OTA_OK);
	add_crl(other_key, other_ca, NULL, 30);
	ota_policy_init(&p);
	expect_only(verify(len, &p), OTA_VERIFY_CHAIN_UNTRUSTED, OTA_VERDICT_NO_STAGE);
	ck_assert_ptr_nonnull(strstr(v.failures[0].detail, "CRL"));
	add_crl(f.ca_key, f.ca, NULL, -1); /* nextUpdate two days ago */
	expect_only(verify(len, &p), OTA_VERIFY_CHAIN_UNTRUSTED, OTA_VERDICT_NO_STAGE);
	ck_assert_ptr_nonnull(strstr(v.failures[0].detail, "expired"));
	EVP_PKEY_free(other_key);
	X509_free(other_ca);
}
END_TEST

/* A policy naming CRLs the caller did not load refuses rather than skip the check. */
START_TEST(test_policy_crls_not_loaded_fail_the_chain)
{
	struct ota_policy p;
	uint32_t len = attest_in(OTA_LC_PROD);

	parse(&p, "crl = /nonexistent/ca.crl\n");
	expect_only(verify(len, &p), OTA_VERIFY_CHAIN_UNTRUSTED, OTA_VERDICT_NO_STAGE);
}
END_TEST

/* The policy file's crl lines, relative to its folder, loaded by ota_trust_add_policy_crls. */
START_TEST(test_policy_file_crl_beside_it)
{
	char dir[] = "/tmp/ota-rules-XXXXXX", path[600], why[700];
	struct ota_policy p;
	size_t n;
	char *pem;
	FILE *out;
	uint32_t len = attest_in(OTA_LC_PROD);

	ck_assert_ptr_nonnull(mkdtemp(dir));
	pem = tu_crl_pem(f.ca_key, f.ca, X509_get0_serialNumber(f.identity), 30, &n);
	snprintf(path, sizeof(path), "%s/ca.crl", dir);
	out = fopen(path, "w");
	ck_assert_uint_eq(fwrite(pem, 1, n, out), n);
	fclose(out);
	free(pem);
	snprintf(path, sizeof(path), "%s/fleet.policy", dir);
	out = fopen(path, "w");
	fputs("crl = ca.crl\n", out);
	fclose(out);
	ck_assert_uint_eq(ota_policy_load_file(path, &p, why, sizeof(why)), OTA_OK);
	snprintf(path, sizeof(path), "%s/ca.crl", dir);
	ck_assert_str_eq(p.crl_files[0], path);
	ck_assert_uint_eq(ota_trust_add_policy_crls(f.trust, &p, why, sizeof(why)), OTA_OK);
	expect_only(verify(len, &p), OTA_VERIFY_IDENTITY_REVOKED, OTA_VERDICT_NO_STAGE);
	unlink(path);
	snprintf(path, sizeof(path), "%s/fleet.policy", dir);
	unlink(path);
	rmdir(dir);
}
END_TEST

/*
 * The DEBUG usage flag (issue 19): a booted image signed with it is refused
 * when debug_images_allowed is false; a refused attempt's flag is history.
 */
START_TEST(test_debug_image_refused_when_the_policy_says)
{
	struct ota_policy p;
	uint32_t len;

	f.bs.record.stage[2].effective.usage.flags = OTA_CAP_TAG_BOOT | OTA_CAP_DEBUG; /* BL0 A, booted */
	len = attest_in(OTA_LC_PROD);
	ota_policy_init(&p);
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
	ck_assert_uint_eq(v.claims.stage[2].usage_flags, OTA_CAP_TAG_BOOT | OTA_CAP_DEBUG);
	parse(&p, "debug_images_allowed = false\n");
	expect_only(verify(len, &p), OTA_VERIFY_DEBUG_IMAGE, OTA_STAGE_BL0);
	ck_assert_ptr_nonnull(strstr(v.failures[0].detail, "bl0 image carries the DEBUG usage flag"));
}
END_TEST

START_TEST(test_debug_flag_on_a_refused_attempt_passes)
{
	struct ota_policy p;
	uint32_t len;

	f.bs.record.stage[1].effective.usage.flags |= OTA_CAP_DEBUG; /* BL0 B, refused */
	len = attest_in(OTA_LC_PROD);
	parse(&p, "debug_images_allowed = no\n");
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
}
END_TEST

/*
 * Issue 28's rules on the certified update state: require_committed
 * refuses BL0 on trial and, unless allow_reverted says otherwise, a
 * reverted trial; allow_reverted = false refuses a revert on its own;
 * min_revocation_sequence refuses a device behind the fleet's
 * revocations. Each with the evidence it must let pass.
 */
START_TEST(test_require_committed_refuses_a_trial)
{
	struct ota_policy p;
	uint32_t len;

	evfix_update(&f.bs, OTA_SLOT_B, 2, OTA_REVERT_NONE, 0, 0); /* A on trial, boot 2 */
	len = attest_in(OTA_LC_PROD);
	ota_policy_init(&p);
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
	ck_assert_uint_eq(v.claims.update.state, OTA_UPDATE_CLAIM_TRIAL);
	parse(&p, "require_committed = true\n");
	expect_only(verify(len, &p), OTA_VERIFY_NOT_COMMITTED, OTA_STAGE_BL0);
	ck_assert_str_eq(v.failures[0].detail, "bl0 runs slot A on trial (boot 2 of 3), the primary "
			 "is B; require_committed is true");
	parse(&p, "require_committed = false\nallow_reverted = false\n");
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
}
END_TEST

START_TEST(test_require_committed_passes_committed)
{
	struct ota_policy p;
	uint32_t len;

	evfix_update(&f.bs, OTA_SLOT_A, 0, OTA_REVERT_NONE, 0, 0);
	len = attest_in(OTA_LC_PROD);
	parse(&p, "require_committed = true\nallow_reverted = false\nmin_revocation_sequence = 0\n");
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
	ck_assert_uint_eq(v.claims.update.state, OTA_UPDATE_CLAIM_COMMITTED);
}
END_TEST

START_TEST(test_reverted_trial_refused_under_require_committed)
{
	struct ota_policy p;
	uint32_t len;

	/* B's trial ran out (watchdog); A, the primary, runs again. */
	evfix_update(&f.bs, OTA_SLOT_A, 0, OTA_REVERT_WATCHDOG, OTA_SLOT_B, 0);
	len = attest_in(OTA_LC_PROD);
	ota_policy_init(&p);
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
	ck_assert_uint_eq(v.claims.update.revert_reason, OTA_REVERT_WATCHDOG);
	parse(&p, "require_committed = true\n");
	expect_only(verify(len, &p), OTA_VERIFY_TRIAL_REVERTED, OTA_STAGE_BL0);
	ck_assert_str_eq(v.failures[0].detail,
			 "bl0 trial of slot B was reverted (watchdog); allow_reverted is false");
	parse(&p, "require_committed = true\nallow_reverted = true\n");
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
	parse(&p, "allow_reverted = false\n");
	expect_only(verify(len, &p), OTA_VERIFY_TRIAL_REVERTED, OTA_STAGE_BL0);
	parse(&p, "allow_reverted = true\n");
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
}
END_TEST

START_TEST(test_min_revocation_sequence)
{
	struct ota_policy p;
	uint32_t len;

	evfix_update(&f.bs, OTA_SLOT_A, 0, OTA_REVERT_NONE, 0, 5);
	len = attest_in(OTA_LC_PROD);
	parse(&p, "min_revocation_sequence = 5\n");
	ck_assert_uint_eq(verify(len, &p), OTA_OK);
	parse(&p, "min_revocation_sequence = 6\n");
	expect_only(verify(len, &p), OTA_VERIFY_REVOCATION_BELOW_POLICY, OTA_VERDICT_NO_STAGE);
	ck_assert_str_eq(v.failures[0].detail, "revocation sequence 5 is below the policy minimum 6");
	/* "committed, revocation >= N" on a trial: both named. */
	teardown(); /* another device boot */
	setup();
	evfix_update(&f.bs, OTA_SLOT_B, 1, OTA_REVERT_NONE, 0, 5);
	len = attest_in(OTA_LC_PROD);
	parse(&p, "require_committed = true\nmin_revocation_sequence = 6\n");
	ck_assert_uint_eq(verify(len, &p), OTA_VERIFY_NOT_COMMITTED);
	ck_assert_uint_eq(v.failure_count, 2);
	ck_assert_uint_eq(v.failures[1].status, OTA_VERIFY_REVOCATION_BELOW_POLICY);
}
END_TEST

/*
 * The EAR tiers (refusal.h): a trial under require_committed and a
 * reverted trial are warnings on BL0's configuration (ROM_EXT's
 * appraisal stays affirming); a device behind the revocations is a
 * warning on both stages' executables.
 */
static void expect_tier(uint32_t stage, uint32_t claim, int value, enum ota_ear_tier tier)
{
	struct ota_ear_appraisal a;

	ota_ear_appraise(&v, stage, &a);
	ck_assert_int_eq(a.vector[claim], value);
	ck_assert_int_eq(a.status, tier);
}

START_TEST(test_update_rules_ear_tiers)
{
	struct ota_policy p;
	uint32_t len;

	evfix_update(&f.bs, OTA_SLOT_B, 1, OTA_REVERT_NONE, 0, 2);
	len = attest_in(OTA_LC_PROD);
	parse(&p, "require_committed = true\n");
	ck_assert_uint_eq(verify(len, &p), OTA_VERIFY_NOT_COMMITTED);
	expect_tier(OTA_STAGE_BL0, OTA_AR4SI_CONFIGURATION, OTA_AR4SI_UNSAFE, OTA_EAR_WARNING);
	expect_tier(OTA_STAGE_ROM_EXT, OTA_AR4SI_CONFIGURATION, OTA_AR4SI_AFFIRMED,
		    OTA_EAR_AFFIRMING);
	parse(&p, "min_revocation_sequence = 3\n");
	ck_assert_uint_eq(verify(len, &p), OTA_VERIFY_REVOCATION_BELOW_POLICY);
	expect_tier(OTA_STAGE_BL0, OTA_AR4SI_EXECUTABLES, OTA_AR4SI_UNSAFE, OTA_EAR_WARNING);
	expect_tier(OTA_STAGE_ROM_EXT, OTA_AR4SI_EXECUTABLES, OTA_AR4SI_UNSAFE, OTA_EAR_WARNING);
	teardown(); /* another device boot */
	setup();
	evfix_update(&f.bs, OTA_SLOT_A, 0, OTA_REVERT_WARM_RESET, OTA_SLOT_B, 2);
	len = attest_in(OTA_LC_PROD);
	parse(&p, "allow_reverted = false\n");
	ck_assert_uint_eq(verify(len, &p), OTA_VERIFY_TRIAL_REVERTED);
	expect_tier(OTA_STAGE_BL0, OTA_AR4SI_CONFIGURATION, OTA_AR4SI_UNSAFE, OTA_EAR_WARNING);
	expect_tier(OTA_STAGE_ROM_EXT, OTA_AR4SI_CONFIGURATION, OTA_AR4SI_AFFIRMED,
		    OTA_EAR_AFFIRMING);
}
END_TEST

START_TEST(test_rule_keys_parse)
{
	struct ota_policy p;
	char text[400];

	snprintf(text, sizeof(text),
		 "allowed_lifecycle = prod\nallowed_lifecycle = rma\n"
		 "denied_delegate_key = %064d\ndenied_delegate_key = %064d\n"
		 "crl = a.crl\ncrl = /etc/b.crl\n", 0, 1);
	parse(&p, text);
	ck_assert_uint_eq(p.allowed_lifecycles, (1u << OTA_LC_PROD) | (1u << OTA_LC_RMA));
	ck_assert_uint_eq(p.denied_delegate_key_count, 2);
	ck_assert_uint_eq(p.denied_delegate_keys[1][31], 0x01);
	ck_assert_uint_eq(p.crl_count, 2);
	ck_assert_str_eq(p.crl_files[0], "a.crl"); /* ota_policy_parse knows no folder */
	ck_assert_str_eq(p.crl_files[1], "/etc/b.crl");
	ck_assert(!p.require_committed && !p.allow_reverted_given);
	ck_assert_uint_eq(p.min_revocation_sequence, 0);
	parse(&p, "require_committed = yes\nallow_reverted = no\nmin_revocation_sequence = 256\n");
	ck_assert(p.require_committed && p.allow_reverted_given && !p.allow_reverted);
	ck_assert_uint_eq(p.min_revocation_sequence, 256);
}
END_TEST

START_TEST(test_rule_key_errors)
{
	static const char *const bad[] = {
		"allowed_lifecycle = production\n",
		"allowed_lifecycle = prod\nallowed_lifecycle = prod\n",
		"allowed_lifecycle =\n",
		"denied_delegate_key = 1234\n",
		"crl =\n",
		"debug_images_allowed = maybe\n",
		"debug_images_allowed = false\ndebug_images_allowed = false\n",
		"require_committed = 1\n",
		"allow_reverted = perhaps\n",
		"min_revocation_sequence = 257\n",
		"min_revocation_sequence = -1\n",
		"min_revocation_sequence = 1\nmin_revocation_sequence = 2\n",
	};
	struct ota_policy p;
	char why[200];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(ota_policy_parse(bad[i], strlen(bad[i]), &p, why, sizeof(why)) ==
				      OTA_VERIFY_POLICY_MALFORMED,
			      "accepted: %s", bad[i]);
		ck_assert_ptr_nonnull(strstr(why, "line "));
	}
}
END_TEST

static Suite *rules_suite(void)
{
	Suite *s = suite_create("verify_rules");
	TCase *tc = tcase_create("rules"), *pol = tcase_create("policy_file");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_production_policy_refuses_dev_evidence);
	tcase_add_test(tc, test_production_policy_refuses_rma_evidence);
	tcase_add_test(tc, test_production_policy_passes_prod_evidence);
	tcase_add_test(tc, test_denied_delegate_is_refused);
	tcase_add_test(tc, test_revoked_identity_certificate_is_refused);
	tcase_add_test(tc, test_crl_revoking_another_certificate_passes);
	tcase_add_test(tc, test_scoped_crls_are_refused);
	tcase_add_test(tc, test_unusable_crl_fails_the_chain);
	tcase_add_test(tc, test_policy_crls_not_loaded_fail_the_chain);
	tcase_add_test(tc, test_policy_file_crl_beside_it);
	tcase_add_test(tc, test_debug_image_refused_when_the_policy_says);
	tcase_add_test(tc, test_debug_flag_on_a_refused_attempt_passes);
	tcase_add_test(tc, test_require_committed_refuses_a_trial);
	tcase_add_test(tc, test_require_committed_passes_committed);
	tcase_add_test(tc, test_reverted_trial_refused_under_require_committed);
	tcase_add_test(tc, test_min_revocation_sequence);
	tcase_add_test(tc, test_update_rules_ear_tiers);
	tcase_add_test(pol, test_rule_keys_parse);
	tcase_add_test(pol, test_rule_key_errors);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, pol);
	return s;
}

OTA_TEST_MAIN(rules_suite)
