// SPDX-License-Identifier: MIT
/*
 * The evidence verifier (verify.h) on evidence this test builds with
 * OpenSSL: a CA and identity certificate from otimage's code, an alias
 * certificate and ES256 signature from OpenSSL, claims from the core
 * encoder. Each refusal the verifier promises has its own case and must
 * name its own reason; the firmware-produced evidence is covered by
 * test_evidence.c.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <otu/hex.h>

#include "otattest/cbor.h"
#include "otattest/sha256.h"
#include "otattest/verify.h"
#include "otattest/x509.h"

#include "../../libotattest/tools/otimage/idcert.h"
#include "rom_ext.h"
#include "tu_crl.h"
#include "tu_main.h"

static const uint8_t device_id[OTA_DEVICE_ID_BYTES] = { 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5,
							0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xdb,
							0xdc, 0xdd, 0xde, 0xdf };
static const uint8_t nonce[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
				   17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32 };

struct chain {
	EVP_PKEY *ca_key, *id_key, *alias_key;
	X509 *ca, *id, *alias;
	struct ota_trust *trust;
};

static struct chain good, other;
static struct ota_record rec; /* the alias certificates certify its booted stages */

static void raw_pub(EVP_PKEY *k, uint8_t out[OTA_P256_PUBKEY_BYTES])
{
	uint8_t point[65];
	size_t n = 0;

	ck_assert_int_eq(EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY,
							 point, sizeof(point), &n), 1);
	ck_assert_uint_eq(n, 65);
	memcpy(out, point + 1, 64);
}

static void add_ext(X509 *c, X509 *issuer, int nid, const char *v)
{
	X509V3_CTX ctx;
	X509_EXTENSION *e;

	X509V3_set_ctx(&ctx, issuer, c, NULL, NULL, 0);
	e = X509V3_EXT_conf_nid(NULL, &ctx, nid, v);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(X509_add_ext(c, e, -1), 1);
	X509_EXTENSION_free(e);
}

/* What an alias certificate's MultiTcbInfo holds. */
enum tcb_profile {
	TCB_RESULTS,           /* today's: device state and stage results (the firmware's writer) */
	TCB_MEASUREMENTS_ONLY, /* before: each booted stage's SVN and measurement alone */
};

/* The booted attempts of r, in record (boot) order. */
static uint32_t booted_stages(const struct ota_record *r,
			      const struct ota_stage_record *out[OTA_STAGE_COUNT])
{
	uint32_t i, n = 0;

	for (i = 0; i < r->hdr.stage_count; i++)
		if ((r->stage[i].flags & OTA_STAGE_F_BOOTED) && n < OTA_STAGE_COUNT)
			out[n++] = &r->stage[i];
	return n;
}

/* The older MultiTcbInfo: model, svn, layer and fwids per booted stage. */
static void put_measurements_only(struct ota_der *d, const struct ota_record *r)
{
	static const uint8_t sha256_oid[] = { 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03,
					      0x04, 0x02, 0x01 };
	const struct ota_stage_record *booted[OTA_STAGE_COUNT];
	uint32_t i, n = booted_stages(r, booted);

	ota_der_begin(d, OTA_DER_SEQUENCE);
	for (i = 0; i < n; i++) {
		const char *name = ota_stage_name(booted[i]->stage);

		ota_der_begin(d, OTA_DER_SEQUENCE);
		ota_der_put(d, OTA_DER_CONTEXT_PRIM(1), name, (uint32_t)strlen(name));
		ota_der_put_uint_tagged(d, OTA_DER_CONTEXT_PRIM(3), booted[i]->security_version);
		ota_der_put_uint_tagged(d, OTA_DER_CONTEXT_PRIM(4), booted[i]->stage);
		ota_der_begin(d, OTA_DER_CONTEXT(6));
		ota_der_begin(d, OTA_DER_SEQUENCE);
		ota_der_put_raw(d, sha256_oid, sizeof(sha256_oid));
		ota_der_put(d, OTA_DER_OCTET_STRING, booted[i]->measurement, 32);
		ota_der_end(d);
		ota_der_end(d);
		ota_der_end(d);
	}
	ota_der_end(d);
}

/* TCG MultiTcbInfo for r, as the firmware writes it (or wrote it before). */
static void add_tcb_info(X509 *c, const struct ota_record *r, enum tcb_profile profile)
{
	struct ota_alias_cert_params p;
	struct ota_update_claims u;
	uint8_t buf[OTA_CERT_MAX_DER];
	struct ota_der d;
	ASN1_OCTET_STRING *os = ASN1_OCTET_STRING_new();
	ASN1_OBJECT *obj = OBJ_txt2obj("2.23.133.5.4.5", 1);
	X509_EXTENSION *e;
	uint32_t len;

	ota_der_init(&d, buf, sizeof(buf));
	if (profile == TCB_RESULTS) {
		memset(&p, 0, sizeof(p));
		p.device = &r->hdr;
		ota_update_claims_of(r, &u);
		p.update = &u;
		p.booted_count = booted_stages(r, p.booted);
		ota_alias_tcb_info_put(&d, &p);
	} else {
		put_measurements_only(&d, r);
	}
	ck_assert_uint_eq(ota_der_finish(&d, &len), OTA_OK);
	ASN1_OCTET_STRING_set(os, buf, (int)len);
	e = X509_EXTENSION_create_by_OBJ(NULL, obj, 0, os);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(X509_add_ext(c, e, -1), 1);
	X509_EXTENSION_free(e);
	ASN1_OBJECT_free(obj);
	ASN1_OCTET_STRING_free(os);
}

/*
 * A certificate for key in the alias certificate's name for device `dev`,
 * issued by issuer_key/issuer (whose subject becomes its issuer name),
 * with the TCB info of rec in the given profile.
 */
static X509 *issue_alias(EVP_PKEY *key, EVP_PKEY *issuer_key, X509 *issuer, bool ca,
			 const uint8_t dev[OTA_DEVICE_ID_BYTES], enum tcb_profile profile)
{
	char cn[sizeof(OTA_CERT_CN_ALIAS) + 2 * OTA_DEVICE_ID_BYTES];
	X509 *c = X509_new();

	ck_assert_ptr_nonnull(c);
	X509_set_version(c, X509_VERSION_3);
	ASN1_INTEGER_set(X509_get_serialNumber(c), 7);
	ASN1_TIME_set_string_X509(X509_getm_notBefore(c), "20250101000000Z");
	ASN1_TIME_set_string_X509(X509_getm_notAfter(c), "99991231235959Z");
	memcpy(cn, OTA_CERT_CN_ALIAS, sizeof(OTA_CERT_CN_ALIAS) - 1);
	otu_hex_encode(cn + sizeof(OTA_CERT_CN_ALIAS) - 1, dev, OTA_DEVICE_ID_BYTES);
	X509_NAME_add_entry_by_NID(X509_get_subject_name(c), NID_commonName, MBSTRING_UTF8,
				   (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(c, X509_get_subject_name(issuer));
	X509_set_pubkey(c, key);
	add_ext(c, issuer, NID_basic_constraints, ca ? "critical,CA:TRUE" : "critical,CA:FALSE");
	add_ext(c, issuer, NID_key_usage, "critical,digitalSignature");
	add_ext(c, issuer, NID_subject_key_identifier, "hash");
	add_ext(c, issuer, NID_authority_key_identifier, "keyid:always");
	add_tcb_info(c, &rec, profile);
	ck_assert_int_gt(X509_sign(c, issuer_key, EVP_sha256()), 0);
	return c;
}

/* An end-entity certificate for key, issued by issuer_key/issuer, as the device makes it. */
static X509 *issue_leaf(EVP_PKEY *key, EVP_PKEY *issuer_key, X509 *issuer, bool ca)
{
	return issue_alias(key, issuer_key, issuer, ca, device_id, TCB_RESULTS);
}

static void make_chain(struct chain *ch)
{
	uint8_t pub[64];
	unsigned char *pem;
	BIO *bio;
	long n;

	ck_assert_uint_eq(otimage_ca_create("otattest test CA", &ch->ca_key, &ch->ca), OTA_OK);
	ch->id_key = EVP_EC_gen("P-256");
	raw_pub(ch->id_key, pub);
	ck_assert_uint_eq(otimage_identity_cert_issue(ch->ca_key, ch->ca, device_id, pub, &ch->id),
			  OTA_OK);
	ch->alias_key = EVP_EC_gen("P-256");
	ch->alias = issue_leaf(ch->alias_key, ch->id_key, ch->id, false);
	bio = BIO_new(BIO_s_mem());
	PEM_write_bio_X509(bio, ch->ca);
	n = BIO_get_mem_data(bio, &pem);
	ck_assert_uint_eq(ota_trust_load_pem(pem, (size_t)n, &ch->trust), OTA_OK);
	BIO_free(bio);
}

static void free_chain(struct chain *ch)
{
	EVP_PKEY_free(ch->ca_key);
	EVP_PKEY_free(ch->id_key);
	EVP_PKEY_free(ch->alias_key);
	X509_free(ch->ca);
	X509_free(ch->id);
	X509_free(ch->alias);
	ota_trust_free(ch->trust);
}

static void make_record(struct ota_record *r)
{
	struct ota_stage_record *s;

	memset(r, 0, sizeof(*r));
	r->hdr.magic = OTA_RECORD_MAGIC;
	r->hdr.version = OTA_RECORD_VERSION;
	r->hdr.header_size = sizeof(r->hdr);
	r->hdr.stage_count = 2;
	r->hdr.length = sizeof(r->hdr) + 2 * sizeof(r->stage[0]);
	r->hdr.generation = 7;
	r->hdr.reset_reason = OTA_RESET_COLD;
	r->hdr.lifecycle = OTA_LC_PROD;
	memcpy(r->hdr.device_id, device_id, sizeof(device_id));
	r->hdr.epoch = 2;
	r->hdr.min_svn = 5;
	r->hdr.floor_rom_ext = 1;
	r->hdr.floor_bl0 = 3;
	r->hdr.flags = OTA_RECORD_F_TAG_BOOT_ENABLED;
	r->hdr.tag_key_version = 1;
	r->hdr.boot_status = OTA_OK;
	r->hdr.chain_max_svn = 128;
	memset(r->hdr.rom_identity, 0x77, 32);

	s = &r->stage[0];
	s->stage = OTA_STAGE_ROM_EXT;
	s->slot = OTA_SLOT_A;
	s->status = OTA_OK;
	s->path = OTA_PATH_SIGNATURE_RETAGGED;
	s->path_reason = OTA_REASON_TAG_MISMATCH; /* the tamper signal a runtime would hide */
	s->sig_scheme = OTA_SCHEME_ECDSA_P256;
	s->security_version = 2;
	s->tag_key_version = 1;
	s->effective.usage.flags = OTA_CAP_TAG_BOOT;
	memset(s->measurement, 0xa1, 32);
	memset(s->key_ids[0], 0x11, 32);
	s->flags = OTA_STAGE_F_BOOTED;
	s->verify_time_ns = 123456;

	s = &r->stage[1];
	s->stage = OTA_STAGE_BL0;
	s->slot = OTA_SLOT_A;
	s->status = OTA_OK;
	s->path = OTA_PATH_TAG;
	s->sig_scheme = OTA_SCHEME_HYBRID;
	s->delegation_depth = 1;
	s->security_version = 5;
	s->tag_key_version = 1;
	s->effective.usage.flags = OTA_CAP_TAG_BOOT | OTA_CAP_DEBUG;
	memset(s->measurement, 0xb0, 32);
	memset(s->key_ids[0], 0x22, 32);
	memset(s->key_ids[1], 0x33, 32);
	s->flags = OTA_STAGE_F_BOOTED;
	s->verify_time_ns = 6543;
}

static uint32_t der_of(X509 *x, uint8_t *out)
{
	unsigned char *p = out;
	int n = i2d_X509(x, &p);

	ck_assert_int_gt(n, 0);
	ck_assert_int_le(n, OTA_CERT_MAX_DER);
	return (uint32_t)n;
}

/* Evidence for r signed by `signer`, carrying `count` certificates (leaf first). */
static uint32_t make_evidence_certs(const struct ota_record *r, EVP_PKEY *signer,
				    X509 *const x509s[], uint32_t count, uint8_t *out, uint32_t cap)
{
	uint8_t claims[OTA_CLAIMS_MAX_BYTES], digest[32], prefix[OTA_COSE_SIG1_PREFIX_MAX];
	static const uint8_t prot[] = OTA_COSE_PROTECTED_ES256;
	static uint8_t der[OTA_COSE_MAX_CERTS][OTA_CERT_MAX_DER];
	uint8_t sigder[80], raw[64];
	const unsigned char *sp = sigder;
	const uint8_t *certs[OTA_COSE_MAX_CERTS];
	uint32_t lens[OTA_COSE_MAX_CERTS], claims_len, prefix_len, len, i;
	size_t siglen = sizeof(sigder);
	ECDSA_SIG *sig;
	EVP_MD_CTX *md = EVP_MD_CTX_new();

	ota_sha256(r, r->hdr.length, digest);
	ck_assert_uint_eq(ota_evidence_encode_claims(r, digest, nonce, sizeof(nonce), claims,
						     sizeof(claims), &claims_len),
			  OTA_OK);
	ck_assert_uint_eq(ota_cose_sig1_prefix(prot, sizeof(prot), claims_len, prefix,
					       sizeof(prefix), &prefix_len),
			  OTA_OK);
	ck_assert_int_eq(EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, signer), 1);
	ck_assert_int_eq(EVP_DigestSignUpdate(md, prefix, prefix_len), 1);
	ck_assert_int_eq(EVP_DigestSignUpdate(md, claims, claims_len), 1);
	ck_assert_int_eq(EVP_DigestSignFinal(md, sigder, &siglen), 1);
	EVP_MD_CTX_free(md);
	sig = d2i_ECDSA_SIG(NULL, &sp, (long)siglen);
	ck_assert_ptr_nonnull(sig);
	BN_bn2binpad(ECDSA_SIG_get0_r(sig), raw, 32);
	BN_bn2binpad(ECDSA_SIG_get0_s(sig), raw + 32, 32);
	ECDSA_SIG_free(sig);

	ck_assert_uint_le(count, OTA_COSE_MAX_CERTS);
	for (i = 0; i < count; i++) {
		certs[i] = der[i];
		lens[i] = der_of(x509s[i], der[i]);
	}
	ck_assert_uint_eq(ota_evidence_encode_sign1(claims, claims_len, certs, lens, count, raw,
						    out, cap, &len),
			  OTA_OK);
	return len;
}

/* Evidence for r signed by `signer`, carrying leaf and the identity certificate of ch. */
static uint32_t make_evidence_with(const struct ota_record *r, const struct chain *ch,
				   EVP_PKEY *signer, X509 *leaf, uint8_t *out, uint32_t cap)
{
	X509 *const certs[2] = { leaf, ch->id };

	return make_evidence_certs(r, signer, certs, 2, out, cap);
}

static uint32_t make_evidence(const struct ota_record *r, uint8_t *out, uint32_t cap)
{
	return make_evidence_with(r, &good, good.alias_key, good.alias, out, cap);
}

static void setup(void)
{
	make_record(&rec);
	make_chain(&good);
	make_chain(&other);
}

/* The device booted something else: a new alias certificate for rec. */
static void reissue_alias(struct chain *ch)
{
	X509_free(ch->alias);
	ch->alias = issue_leaf(ch->alias_key, ch->id_key, ch->id, false);
}

static void teardown(void)
{
	free_chain(&good);
	free_chain(&other);
}

static bool has_failure(const struct ota_verdict *v, ota_status_t st)
{
	for (uint32_t i = 0; i < v->failure_count; i++)
		if (v->failures[i].status == st)
			return true;
	return false;
}

/* Exactly one failure, with this reason. */
static void expect_only(const struct ota_verdict *v, ota_status_t got, ota_status_t want)
{
	ck_assert_msg(got == want, "status %s, want %s", ota_status_name(got),
		      ota_status_name(want));
	ck_assert_uint_eq(v->failure_count, 1);
	ck_assert_uint_eq(v->failures[0].status, want);
	ck_assert_str_ne(v->failures[0].detail, "");
}

static struct ota_verdict v;
static uint8_t ev[OTA_EVIDENCE_MAX_BYTES];

START_TEST(test_good_evidence_passes)
{
	struct ota_policy p;
	uint32_t len = make_evidence(&rec, ev, sizeof(ev));

	ota_policy_init(&p);
	ck_assert_uint_eq(ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p,
					      (const uint8_t *)&rec, rec.hdr.length, &v),
			  OTA_OK);
	ck_assert_uint_eq(v.failure_count, 0);
	ck_assert(v.authentic);
	ck_assert(v.claims_valid);
	ck_assert_mem_eq(v.claims.device_id, device_id, sizeof(device_id));
	ck_assert_uint_eq(v.claims.stage_count, 2);
	ck_assert_uint_eq(v.claims.stage[1].path, OTA_PATH_TAG);
	ck_assert_uint_eq(v.claims.stage[1].key_id_count, 2);
	ck_assert_uint_eq(v.claims.min_svn, 5);
	ck_assert_uint_eq(v.claims.epoch, 2);
}
END_TEST

START_TEST(test_wrong_nonce)
{
	uint8_t bad[sizeof(nonce)];
	uint32_t len = make_evidence(&rec, ev, sizeof(ev));

	memcpy(bad, nonce, sizeof(bad));
	bad[31] ^= 1;
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, bad, sizeof(bad), NULL, NULL, 0, &v),
		    OTA_VERIFY_NONCE_MISMATCH);
	ck_assert(v.authentic); /* authentic, but not fresh */
	/* A prefix of the right nonce is not the nonce either. */
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, 16, NULL, NULL, 0, &v),
		    OTA_VERIFY_NONCE_MISMATCH);
}
END_TEST

START_TEST(test_every_flipped_byte_is_refused)
{
	uint32_t len = make_evidence(&rec, ev, sizeof(ev)), i, m;
	static const uint8_t masks[] = { 0x01, 0x80, 0xff };
	uint8_t copy[OTA_EVIDENCE_MAX_BYTES];

	for (i = 0; i < len; i++) {
		for (m = 0; m < sizeof(masks); m++) {
			ota_status_t st;

			memcpy(copy, ev, len);
			copy[i] ^= masks[m];
			st = ota_verify_evidence(copy, len, good.trust, nonce, sizeof(nonce), NULL,
						 NULL, 0, &v);
			ck_assert_msg(st != OTA_OK, "byte %u ^ 0x%02x accepted", i, masks[m]);
			ck_assert_uint_gt(v.failure_count, 0);
		}
	}
	/* Truncated anywhere, or with a byte appended: refused too. */
	for (i = 0; i < len; i++)
		ck_assert_uint_ne(ota_verify_evidence(ev, i, good.trust, nonce, sizeof(nonce), NULL,
						      NULL, 0, &v),
				  OTA_OK);
	ev[len] = 0;
	ck_assert_uint_eq(ota_verify_evidence(ev, len + 1, good.trust, nonce, sizeof(nonce), NULL,
					      NULL, 0, &v),
			  OTA_CBOR_TRAILING);
}
END_TEST

START_TEST(test_chain_to_another_ca)
{
	uint32_t len = make_evidence(&rec, ev, sizeof(ev));

	expect_only(&v,
		    ota_verify_evidence(ev, len, other.trust, nonce, sizeof(nonce), NULL, NULL, 0, &v),
		    OTA_VERIFY_CHAIN_UNTRUSTED);
	ck_assert(!v.authentic);
	/* Evidence from the other device's chain, checked against ours. */
	len = make_evidence_with(&rec, &other, other.alias_key, other.alias, ev, sizeof(ev));
	expect_only(&v,
		    ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), NULL, NULL, 0, &v),
		    OTA_VERIFY_CHAIN_UNTRUSTED);
}
END_TEST

/* A CA certificate for key named cn, issued by issuer_key/issuer (itself when NULL). */
static X509 *issue_ca(EVP_PKEY *key, const char *cn, EVP_PKEY *issuer_key, X509 *issuer,
		      const char *constraints)
{
	X509 *c = X509_new();

	ck_assert_ptr_nonnull(c);
	X509_set_version(c, X509_VERSION_3);
	ASN1_INTEGER_set(X509_get_serialNumber(c), issuer ? 21 : 20);
	ASN1_TIME_set_string_X509(X509_getm_notBefore(c), "20250101000000Z");
	ASN1_TIME_set_string_X509(X509_getm_notAfter(c), "99991231235959Z");
	X509_NAME_add_entry_by_NID(X509_get_subject_name(c), NID_commonName, MBSTRING_UTF8,
				   (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(c, X509_get_subject_name(issuer ? issuer : c));
	X509_set_pubkey(c, key);
	add_ext(c, issuer ? issuer : c, NID_basic_constraints, constraints);
	add_ext(c, issuer ? issuer : c, NID_key_usage, "critical,keyCertSign,cRLSign");
	add_ext(c, issuer ? issuer : c, NID_subject_key_identifier, "hash");
	add_ext(c, issuer ? issuer : c, NID_authority_key_identifier, "keyid:always");
	ck_assert_int_gt(X509_sign(c, issuer_key ? issuer_key : key, EVP_sha256()), 0);
	return c;
}

/*
 * Revocation under an intermediate CA (root -> intermediate -> identity ->
 * alias; the x5chain carries the intermediate): the certificate checked
 * against the CRLs is the identity certificate, the alias's issuer, so the
 * intermediate's CRL revoking it refuses the evidence.
 */
START_TEST(test_identity_revoked_under_an_intermediate_ca)
{
	EVP_PKEY *root_key = EVP_EC_gen("P-256"), *int_key = EVP_EC_gen("P-256");
	EVP_PKEY *id_key = EVP_EC_gen("P-256"), *alias_key = EVP_EC_gen("P-256");
	X509 *root = issue_ca(root_key, "otattest root CA", NULL, NULL, "critical,CA:TRUE,pathlen:2");
	X509 *inter = issue_ca(int_key, "otattest intermediate CA", root_key, root,
			       "critical,CA:TRUE,pathlen:1");
	struct ota_trust *trust;
	uint8_t pub[OTA_P256_PUBKEY_BYTES];
	unsigned char *pem;
	X509 *id, *alias;
	char *crl;
	size_t crl_len;
	long n;
	BIO *bio = BIO_new(BIO_s_mem());
	uint32_t len;

	raw_pub(id_key, pub);
	ck_assert_uint_eq(otimage_identity_cert_issue(int_key, inter, device_id, pub, &id), OTA_OK);
	alias = issue_alias(alias_key, id_key, id, false, device_id, TCB_RESULTS);
	PEM_write_bio_X509(bio, root);
	n = BIO_get_mem_data(bio, &pem);
	ck_assert_uint_eq(ota_trust_load_pem(pem, (size_t)n, &trust), OTA_OK);
	BIO_free(bio);
	len = make_evidence_certs(&rec, alias_key, (X509 *const[]){ alias, id, inter }, 3, ev,
				  sizeof(ev));
	ck_assert_uint_eq(ota_verify_evidence(ev, len, trust, nonce, sizeof(nonce), NULL, NULL, 0, &v),
			  OTA_OK);
	crl = tu_crl_pem(int_key, inter, X509_get0_serialNumber(id), 30, &crl_len);
	ck_assert_uint_eq(ota_trust_add_crl_pem(trust, crl, crl_len), OTA_OK);
	free(crl);
	expect_only(&v, ota_verify_evidence(ev, len, trust, nonce, sizeof(nonce), NULL, NULL, 0, &v),
		    OTA_VERIFY_IDENTITY_REVOKED);
	ota_trust_free(trust);
	X509_free(alias);
	X509_free(id);
	X509_free(inter);
	X509_free(root);
	EVP_PKEY_free(alias_key);
	EVP_PKEY_free(id_key);
	EVP_PKEY_free(int_key);
	EVP_PKEY_free(root_key);
}
END_TEST

START_TEST(test_signature_by_another_key)
{
	/* Our chain, but signed by a key the alias certificate does not name. */
	uint32_t len = make_evidence_with(&rec, &good, other.alias_key, good.alias, ev, sizeof(ev));

	expect_only(&v,
		    ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), NULL, NULL, 0, &v),
		    OTA_VERIFY_SIGNATURE_INVALID);
	ck_assert(!v.authentic);
}
END_TEST

START_TEST(test_leaf_that_is_a_ca_is_refused)
{
	/* The identity key signing directly, its CA certificate as the leaf. */
	X509 *ca_leaf = issue_leaf(good.id_key, good.id_key, good.id, true);
	uint32_t len = make_evidence_with(&rec, &good, good.id_key, ca_leaf, ev, sizeof(ev));

	expect_only(&v,
		    ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), NULL, NULL, 0, &v),
		    OTA_VERIFY_CHAIN_UNTRUSTED);
	X509_free(ca_leaf);
}
END_TEST

START_TEST(test_svn_below_policy)
{
	struct ota_policy p;
	uint32_t len = make_evidence(&rec, ev, sizeof(ev));

	ota_policy_init(&p);
	p.min_svn[OTA_STAGE_BL0] = 6;
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p, NULL, 0, &v),
		    OTA_VERIFY_SVN_BELOW_POLICY);
	ck_assert_uint_eq(v.failures[0].stage, OTA_STAGE_BL0);
	p.min_svn[OTA_STAGE_BL0] = 5; /* equal is enough */
	ck_assert_uint_eq(ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p, NULL, 0, &v),
			  OTA_OK);
}
END_TEST

START_TEST(test_root_key_not_allowed)
{
	struct ota_policy p;
	uint32_t len = make_evidence(&rec, ev, sizeof(ev));

	ota_policy_init(&p);
	p.allowed_root_key_count = 2;
	memset(p.allowed_root_keys[0], 0x11, 32); /* the ROM_EXT's root key only */
	memset(p.allowed_root_keys[1], 0x33, 32); /* a delegate's id is not a root */
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p, NULL, 0, &v),
		    OTA_VERIFY_ROOT_KEY_NOT_ALLOWED);
	ck_assert_uint_eq(v.failures[0].stage, OTA_STAGE_BL0);
	memset(p.allowed_root_keys[1], 0x22, 32);
	ck_assert_uint_eq(ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p, NULL, 0, &v),
			  OTA_OK);
}
END_TEST

START_TEST(test_delegation_deeper_than_allowed)
{
	struct ota_policy p;
	uint32_t len = make_evidence(&rec, ev, sizeof(ev));

	ota_policy_init(&p);
	p.max_delegation_depth = 0;
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p, NULL, 0, &v),
		    OTA_VERIFY_DEPTH_EXCEEDED);
	p.max_delegation_depth = 1;
	ck_assert_uint_eq(ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p, NULL, 0, &v),
			  OTA_OK);
}
END_TEST

START_TEST(test_tag_path_forbidden)
{
	struct ota_policy p;
	uint32_t len = make_evidence(&rec, ev, sizeof(ev));

	ota_policy_init(&p);
	p.tag_path_allowed = false;
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p, NULL, 0, &v),
		    OTA_VERIFY_TAG_PATH_FORBIDDEN);
	ck_assert_uint_eq(v.failures[0].stage, OTA_STAGE_BL0);
	/* signature-retagged (the ROM_EXT here) is a signature check: allowed. */
}
END_TEST

START_TEST(test_hybrid_missing)
{
	struct ota_policy p;
	uint32_t len = make_evidence(&rec, ev, sizeof(ev));

	ota_policy_init(&p);
	p.hybrid_required = true; /* BL0 is hybrid, ROM_EXT is ECDSA only */
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p, NULL, 0, &v),
		    OTA_VERIFY_HYBRID_MISSING);
	ck_assert_uint_eq(v.failures[0].stage, OTA_STAGE_ROM_EXT);
}
END_TEST

START_TEST(test_epoch_below_policy)
{
	struct ota_policy p;
	uint32_t len = make_evidence(&rec, ev, sizeof(ev));

	ota_policy_init(&p);
	p.min_epoch = 3;
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p, NULL, 0, &v),
		    OTA_VERIFY_EPOCH_BELOW_POLICY);
}
END_TEST

START_TEST(test_record_mismatch)
{
	struct ota_record other_rec = rec;
	uint32_t len = make_evidence(&rec, ev, sizeof(ev));

	other_rec.hdr.generation++;
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), NULL,
					    (const uint8_t *)&other_rec, other_rec.hdr.length, &v),
		    OTA_VERIFY_RECORD_MISMATCH);
}
END_TEST

START_TEST(test_refused_stage_without_fallback)
{
	struct ota_policy p;
	uint32_t len;

	rec.stage[1].flags = 0; /* BL0 attempt not booted: the device ran no BL0 */
	rec.stage[1].status = OTA_SIG_ECDSA_INVALID;
	rec.stage[1].path = OTA_PATH_NONE; /* a refused attempt has no path */
	reissue_alias(&good);
	len = make_evidence(&rec, ev, sizeof(ev));
	ota_policy_init(&p);
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p, NULL, 0, &v),
		    OTA_VERIFY_STAGE_REFUSED);
}
END_TEST

START_TEST(test_claims_not_certified)
{
	uint32_t len;

	/* A runtime holding the alias key signs claims about another BL0. */
	rec.stage[1].measurement[0] ^= 1;
	len = make_evidence(&rec, ev, sizeof(ev));
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), NULL, NULL, 0, &v),
		    OTA_VERIFY_TCB_MISMATCH);
	ck_assert(v.authentic); /* authentic signature, lying claims */
	ck_assert_uint_eq(v.failures[0].stage, OTA_STAGE_BL0);
	rec.stage[1].measurement[0] ^= 1;
	/* ... or about another SVN. */
	rec.stage[0].security_version = 9;
	len = make_evidence(&rec, ev, sizeof(ev));
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), NULL, NULL, 0, &v),
		    OTA_VERIFY_TCB_MISMATCH);
	ck_assert_uint_eq(v.failures[0].stage, OTA_STAGE_ROM_EXT);
}
END_TEST

START_TEST(test_claims_for_another_device)
{
	uint32_t len;

	rec.hdr.device_id[15] ^= 1;
	len = make_evidence(&rec, ev, sizeof(ev));
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), NULL, NULL, 0, &v),
		    OTA_VERIFY_DEVICE_MISMATCH);
}
END_TEST

/*
 * A runtime that holds the genuine alias key signs claims that differ
 * from the boot in one thing the alias certificate certifies. Where a
 * policy rule judges that claim, the policy is one the truth breaks and
 * the lie passes: without the certificate's word the lie would pass.
 */
enum lie_kind {
	LIE_ROOT_KEY, LIE_DELEGATE_KEY, LIE_DEPTH, LIE_PATH, LIE_SCHEME, LIE_STAGE_TAG_KEY_VERSION,
	LIE_PATH_REASON, LIE_USAGE_FLAGS, LIE_MIN_SVN, LIE_EPOCH, LIE_LIFECYCLE, LIE_FLOOR_ROM_EXT, LIE_FLOOR_BL0,
	LIE_TAG_KEY_VERSION, LIE_CHAIN_MAX_SVN, LIE_ROM_IDENTITY, LIE_COUNT
};
static const struct lie {
	ota_status_t rule; /* what the policy refuses the truth with; OTA_OK: no rule */
	ota_status_t want; /* what the verifier refuses the lie with */
	uint32_t stage;
	const char *detail;
} lies[LIE_COUNT] = {
	[LIE_ROOT_KEY] = { OTA_VERIFY_ROOT_KEY_NOT_ALLOWED, OTA_VERIFY_RESULT_MISMATCH, OTA_STAGE_BL0,
			   "bl0 root key id claimed is not the one certified" },
	[LIE_DELEGATE_KEY] = { OTA_OK, OTA_VERIFY_RESULT_MISMATCH, OTA_STAGE_BL0,
			       "bl0 delegate 1 key id claimed is not the one certified" },
	[LIE_DEPTH] = { OTA_VERIFY_DEPTH_EXCEEDED, OTA_VERIFY_RESULT_MISMATCH, OTA_STAGE_BL0,
			"bl0 delegation depth claimed 0, certified 1" },
	[LIE_PATH] = { OTA_VERIFY_TAG_PATH_FORBIDDEN, OTA_VERIFY_RESULT_MISMATCH, OTA_STAGE_BL0,
		       "bl0 path claimed 2, certified 1" },
	[LIE_SCHEME] = { OTA_VERIFY_HYBRID_MISSING, OTA_VERIFY_RESULT_MISMATCH, OTA_STAGE_ROM_EXT,
			 "rom_ext signature scheme claimed 2, certified 1" },
	[LIE_STAGE_TAG_KEY_VERSION] = { OTA_OK, OTA_VERIFY_RESULT_MISMATCH, OTA_STAGE_BL0,
					"bl0 tag key version claimed 9, certified 1" },
	[LIE_PATH_REASON] = { OTA_OK, OTA_VERIFY_RESULT_MISMATCH, OTA_STAGE_ROM_EXT,
			      "rom_ext path reason claimed 1, certified 3" },
	[LIE_USAGE_FLAGS] = { OTA_VERIFY_DEBUG_IMAGE, OTA_VERIFY_RESULT_MISMATCH, OTA_STAGE_BL0,
			      "bl0 usage flags claimed 1, certified 3" },
	[LIE_MIN_SVN] = { OTA_OK, OTA_VERIFY_STATE_MISMATCH, OTA_VERDICT_NO_STAGE,
			  "min SVN claimed 6, certified 5" },
	[LIE_EPOCH] = { OTA_VERIFY_EPOCH_BELOW_POLICY, OTA_VERIFY_STATE_MISMATCH,
			OTA_VERDICT_NO_STAGE, "epoch claimed 3, certified 2" },
	[LIE_LIFECYCLE] = { OTA_OK, OTA_VERIFY_STATE_MISMATCH, OTA_VERDICT_NO_STAGE,
			    "lifecycle claimed 3, certified 2" },
	[LIE_FLOOR_ROM_EXT] = { OTA_OK, OTA_VERIFY_STATE_MISMATCH, OTA_VERDICT_NO_STAGE,
				"ROM_EXT floor claimed 2, certified 1" },
	[LIE_FLOOR_BL0] = { OTA_OK, OTA_VERIFY_STATE_MISMATCH, OTA_VERDICT_NO_STAGE,
			    "BL0 floor claimed 5, certified 3" },
	[LIE_TAG_KEY_VERSION] = { OTA_OK, OTA_VERIFY_STATE_MISMATCH, OTA_VERDICT_NO_STAGE,
				  "tag key version claimed 2, certified 1" },
	[LIE_CHAIN_MAX_SVN] = { OTA_OK, OTA_VERIFY_STATE_MISMATCH, OTA_VERDICT_NO_STAGE,
				"chain max SVN claimed 200, certified 128" },
	[LIE_ROM_IDENTITY] = { OTA_OK, OTA_VERIFY_STATE_MISMATCH, OTA_VERDICT_NO_STAGE,
			       "ROM identity claimed is not the one certified" },
};

/* Tell lie k about the boot in r, and set in p the rule (if any) the lie is to pass. */
static void tell_lie(enum lie_kind k, struct ota_record *r, struct ota_policy *p)
{
	struct ota_stage_record *rom_ext = &r->stage[0], *bl0 = &r->stage[1];

	switch (k) {
	case LIE_ROOT_KEY: /* BL0 signed under a root key the fleet allows */
		memset(bl0->key_ids[0], 0x44, 32);
		p->allowed_root_key_count = 2;
		memset(p->allowed_root_keys[0], 0x11, 32);
		memset(p->allowed_root_keys[1], 0x44, 32);
		break;
	case LIE_DELEGATE_KEY: /* another delegate, one not revoked, say */
		memset(bl0->key_ids[1], 0x55, 32);
		break;
	case LIE_DEPTH: /* no delegate at all */
		bl0->delegation_depth = 0;
		memset(bl0->key_ids[1], 0, 32);
		p->max_delegation_depth = 0;
		break;
	case LIE_PATH: /* signatures checked, not just the tag: for want of one, it says */
		bl0->path = OTA_PATH_SIGNATURE;
		bl0->path_reason = OTA_REASON_NO_TAG; /* else the claims contradict themselves */
		p->tag_path_allowed = false;
		break;
	case LIE_SCHEME: /* hybrid-signed */
		rom_ext->sig_scheme = OTA_SCHEME_HYBRID;
		p->hybrid_required = true;
		break;
	case LIE_STAGE_TAG_KEY_VERSION:
		bl0->tag_key_version = 9;
		break;
	case LIE_PATH_REASON: /* a tag that did not match passed off as a missing one */
		rom_ext->path_reason = OTA_REASON_NO_TAG;
		break;
	case LIE_USAGE_FLAGS: /* an image that may keep debug features, said not to */
		bl0->effective.usage.flags = OTA_CAP_TAG_BOOT;
		p->debug_images_allowed = false;
		break;
	case LIE_MIN_SVN:
		r->hdr.min_svn = 6;
		break;
	case LIE_EPOCH: /* an identity epoch past the last re-provisioning */
		r->hdr.epoch = 3;
		p->min_epoch = 3;
		break;
	case LIE_LIFECYCLE:
		r->hdr.lifecycle = OTA_LC_PROD_END;
		break;
	case LIE_FLOOR_ROM_EXT:
		r->hdr.floor_rom_ext = 2;
		break;
	case LIE_FLOOR_BL0: /* rollback protection that is not there */
		r->hdr.floor_bl0 = 5;
		break;
	case LIE_TAG_KEY_VERSION: /* tags rotated when they were not */
		r->hdr.tag_key_version = 2;
		break;
	case LIE_CHAIN_MAX_SVN:
		r->hdr.chain_max_svn = 200;
		break;
	case LIE_ROM_IDENTITY:
		r->hdr.rom_identity[0] ^= 1;
		break;
	case LIE_COUNT:
		break;
	}
}

START_TEST(test_certified_claim_changed_is_refused)
{
	const struct lie *l = &lies[_i];
	struct ota_record liar = rec;
	struct ota_policy p;
	uint32_t len;

	ota_policy_init(&p);
	tell_lie((enum lie_kind)_i, &liar, &p);
	/* The truth, under the policy the lie was told for. */
	len = make_evidence(&rec, ev, sizeof(ev));
	if (l->rule == OTA_OK)
		ck_assert_uint_eq(ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p,
						      NULL, 0, &v),
				  OTA_OK);
	else
		expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p, NULL,
						    0, &v),
			    l->rule);
	/* The lie passes that policy; the alias certificate says otherwise. */
	len = make_evidence(&liar, ev, sizeof(ev));
	if (_i == LIE_PATH) {
		/* A consistent lie of a path changes its reason too: both refused. */
		ck_assert_uint_eq(ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p,
						      NULL, 0, &v),
				  l->want);
		ck_assert_uint_eq(v.failure_count, 2);
		ck_assert_uint_eq(v.failures[1].status, l->want);
		ck_assert_str_eq(v.failures[1].detail, "bl0 path reason claimed 1, certified 0");
	} else {
		expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), &p,
						    NULL, 0, &v),
			    l->want);
	}
	ck_assert(v.authentic); /* the genuine alias key signed it */
	ck_assert_uint_eq(v.failures[0].stage, l->stage);
	ck_assert_str_eq(v.failures[0].detail, l->detail);
}
END_TEST

START_TEST(test_alias_cert_of_older_firmware)
{
	uint32_t len;

	/* SVNs and measurements only: what the policy judges is the runtime's word. */
	X509_free(good.alias);
	good.alias = issue_alias(good.alias_key, good.id_key, good.id, false, device_id,
				 TCB_MEASUREMENTS_ONLY);
	len = make_evidence(&rec, ev, sizeof(ev));
	expect_only(&v, ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), NULL, NULL, 0, &v),
		    OTA_VERIFY_NOT_CERTIFIED);
	ck_assert(v.authentic);
	ck_assert_ptr_nonnull(strstr(v.failures[0].detail, "measurements and SVNs only"));
}
END_TEST

static const uint8_t device_e[OTA_DEVICE_ID_BYTES] = { 0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5,
						       0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xeb,
						       0xec, 0xed, 0xee, 0xef };

START_TEST(test_alias_for_another_device)
{
	struct ota_record claims_e = rec;
	uint32_t len;

	/*
	 * Device D's identity key (its identity certificate is genuine, the
	 * chain to the CA holds) certifies an alias key in device E's name,
	 * and the claims name E too.
	 */
	memcpy(claims_e.hdr.device_id, device_e, sizeof(device_e));
	X509_free(good.alias);
	good.alias = issue_alias(good.alias_key, good.id_key, good.id, false, device_e, TCB_RESULTS);
	len = make_evidence(&claims_e, ev, sizeof(ev));
	expect_only(&v,
		    ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), NULL, NULL, 0, &v),
		    OTA_VERIFY_IDENTITY_MISMATCH);
	ck_assert(v.authentic);
	ck_assert_str_eq(v.failures[0].detail,
			 "the alias certificate's subject and issuer name different devices");
}
END_TEST

START_TEST(test_identity_cert_that_did_not_issue_the_alias)
{
	EVP_PKEY *key_e = EVP_EC_gen("P-256");
	uint8_t pub[64];
	X509 *id_e, *certs[3];
	uint32_t len;

	/*
	 * Device E's genuine identity certificate first in the chain, device
	 * D's (the real issuer) after it: the path to the CA holds through D,
	 * but the identity the evidence shows did not issue its alias.
	 */
	raw_pub(key_e, pub);
	ck_assert_uint_eq(otimage_identity_cert_issue(good.ca_key, good.ca, device_e, pub, &id_e),
			  OTA_OK);
	certs[0] = good.alias;
	certs[1] = id_e;
	certs[2] = good.id;
	len = make_evidence_certs(&rec, good.alias_key, certs, 3, ev, sizeof(ev));
	expect_only(&v,
		    ota_verify_evidence(ev, len, good.trust, nonce, sizeof(nonce), NULL, NULL, 0, &v),
		    OTA_VERIFY_IDENTITY_MISMATCH);
	ck_assert(v.authentic);
	ck_assert_str_eq(v.failures[0].detail,
			 "the identity certificate in the evidence did not issue the alias certificate");
	X509_free(id_e);
	EVP_PKEY_free(key_e);
}
END_TEST

START_TEST(test_every_failure_is_reported)
{
	struct ota_policy p;
	uint8_t bad[sizeof(nonce)] = { 0 };
	uint32_t len = make_evidence(&rec, ev, sizeof(ev));

	ota_policy_init(&p);
	p.min_svn[OTA_STAGE_ROM_EXT] = 3;
	p.min_epoch = 9;
	p.tag_path_allowed = false;
	ck_assert_uint_ne(ota_verify_evidence(ev, len, other.trust, bad, sizeof(bad), &p, NULL, 0, &v),
			  OTA_OK);
	ck_assert(has_failure(&v, OTA_VERIFY_CHAIN_UNTRUSTED));
	ck_assert(has_failure(&v, OTA_VERIFY_NONCE_MISMATCH));
	ck_assert(has_failure(&v, OTA_VERIFY_SVN_BELOW_POLICY));
	ck_assert(has_failure(&v, OTA_VERIFY_EPOCH_BELOW_POLICY));
	ck_assert(has_failure(&v, OTA_VERIFY_TAG_PATH_FORBIDDEN));
	ck_assert_uint_eq(v.failure_count, 5);
}
END_TEST

/* Replace the first occurrence of `from` in buf (n bytes each). */
static void patch(uint8_t *buf, uint32_t len, const void *from, const void *to, uint32_t n)
{
	for (uint32_t i = 0; i + n <= len; i++)
		if (!memcmp(buf + i, from, n)) {
			memcpy(buf + i, to, n);
			return;
		}
	ck_abort_msg("pattern not found");
}

/* Claims with one thing wrong, decoded directly: the reason names the claim. */
START_TEST(test_claims_refusals)
{
	uint8_t claims[OTA_CLAIMS_MAX_BYTES], copy[OTA_CLAIMS_MAX_BYTES], digest[32];
	struct ota_evidence_claims c;
	uint32_t len;
	char why[160];

	ota_sha256(&rec, rec.hdr.length, digest);
	ck_assert_uint_eq(ota_evidence_encode_claims(&rec, digest, nonce, 16, claims,
						     sizeof(claims), &len),
			  OTA_OK);
	ck_assert_uint_eq(ota_evidence_decode_claims(claims, len, &c, why, sizeof(why)), OTA_OK);

	/* lifecycle (private key 4: 3a 6f 74 61 04) 2 (prod) -> 9 */
	memcpy(copy, claims, len);
	patch(copy, len, "\x3a\x6f\x74\x61\x04\x02", "\x3a\x6f\x74\x61\x04\x09", 6);
	ck_assert_uint_eq(ota_evidence_decode_claims(copy, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "claim -1869897989 is malformed or out of range");

	/* epoch (private key 3) renamed to an unknown private claim (key 0x20) */
	memcpy(copy, claims, len);
	patch(copy, len, "\x3a\x6f\x74\x61\x03", "\x3a\x6f\x74\x61\x20", 5);
	ck_assert_uint_eq(ota_evidence_decode_claims(copy, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "unknown claim -1869898017");

	/* a 15-byte nonce: {0a: h'<16>'} shortened by hand (the encoder refuses 15) */
	memcpy(copy, claims, len);
	ck_assert_uint_eq(copy[3], 0x50); /* after the map's head b8 1a */
	copy[3] = 0x4f;
	memmove(copy + 4 + 15, copy + 4 + 16, len - (4 + 16));
	ck_assert_uint_eq(ota_evidence_decode_claims(copy, len - 1, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "claim 10 is malformed or out of range");

	/* dbgstat (263 = 19 01 07) of a prod device (3) claimed enabled (0) */
	memcpy(copy, claims, len);
	patch(copy, len, "\x19\x01\x07\x03", "\x19\x01\x07\x00", 4);
	ck_assert_uint_eq(ota_evidence_decode_claims(copy, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "dbgstat 0 is not the one lifecycle prod has");

	/* oemboot (262 = 19 01 06) true -> false while both stages booted */
	memcpy(copy, claims, len);
	patch(copy, len, "\x19\x01\x06\xf5", "\x19\x01\x06\xf4", 4);
	ck_assert_uint_eq(ota_evidence_decode_claims(copy, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "oemboot is false, the attempts say otherwise");

	/* ROM_EXT's measres result success (1) -> fail (2) for a status OK */
	memcpy(copy, claims, len);
	patch(copy, len, "grom_ext\x01", "grom_ext\x02", 9);
	ck_assert_uint_eq(ota_evidence_decode_claims(copy, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "measres group 0 does not match attempt 0");

	/* ROM_EXT's path in measres: signature-retagged -> a path that is no path */
	memcpy(copy, claims, len);
	patch(copy, len, "signature-retagged", "signature-retaggex", 18);
	ck_assert_uint_eq(ota_evidence_decode_claims(copy, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "claim 274 is malformed or out of range");

	/* a measured component with profile flags (key 4) instead of authorities (3) */
	memcpy(copy, claims, len);
	patch(copy, len, "\x03\x81\x58\x20\x11", "\x04\x81\x58\x20\x11", 5);
	ck_assert_uint_eq(ota_evidence_decode_claims(copy, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "claim 273 is malformed or out of range");

	/* BL0's SVN as its version text: "5" -> "x", not a number */
	memcpy(copy, claims, len);
	patch(copy, len, "\x82\x61\x35\x01", "\x82\x61\x78\x01", 4);
	ck_assert_uint_eq(ota_evidence_decode_claims(copy, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "claim 273 is malformed or out of range");

	/* the retired profile v1 is named as such */
	memcpy(copy, claims, len);
	patch(copy, len, "evidence-v2", "evidence-v1", 11);
	ck_assert_uint_eq(ota_evidence_decode_claims(copy, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "profile evidence-v1 is retired; this verifier reads "
			      "tag:otattest.org,2025:evidence-v2 (docs/evidence.md)");

	/* another profile */
	memcpy(copy, claims, len);
	patch(copy, len, "evidence-v2", "evidence-v3", 11);
	ck_assert_uint_eq(ota_evidence_decode_claims(copy, len, &c, why, sizeof(why)),
			  OTA_VERIFY_CLAIMS_INVALID);
	ck_assert_str_eq(why, "eat_profile is missing or not tag:otattest.org,2025:evidence-v2");
}
END_TEST

START_TEST(test_policy_file_parses)
{
	static const char text[] =
		"# fleet policy\n"
		"min_svn_rom_ext = 2\n"
		"min_svn_bl0=5   # trailing comment\n"
		"allowed_root_key = 2222222222222222222222222222222222222222222222222222222222222222\n"
		"allowed_root_key = 1111111111111111111111111111111111111111111111111111111111111111\n"
		"\n"
		"max_delegation_depth = 1\n"
		"hybrid_required = no\n"
		"tag_path_allowed = false\n"
		"min_epoch = 2\n";
	struct ota_policy p;
	char why[128];

	ck_assert_uint_eq(ota_policy_parse(text, strlen(text), &p, why, sizeof(why)), OTA_OK);
	ck_assert_uint_eq(p.min_svn[OTA_STAGE_ROM_EXT], 2);
	ck_assert_uint_eq(p.min_svn[OTA_STAGE_BL0], 5);
	ck_assert_uint_eq(p.allowed_root_key_count, 2);
	ck_assert_uint_eq(p.allowed_root_keys[1][31], 0x11);
	ck_assert_uint_eq(p.max_delegation_depth, 1);
	ck_assert(!p.hybrid_required);
	ck_assert(!p.tag_path_allowed);
	ck_assert_uint_eq(p.min_epoch, 2);
}
END_TEST

static void expect_policy_error(const char *text, const char *why_has)
{
	struct ota_policy p;
	char why[128];

	ck_assert_uint_eq(ota_policy_parse(text, strlen(text), &p, why, sizeof(why)),
			  OTA_VERIFY_POLICY_MALFORMED);
	ck_assert_msg(strstr(why, why_has) != NULL, "'%s' lacks '%s'", why, why_has);
}

START_TEST(test_policy_file_errors)
{
	expect_policy_error("min_svn_bl0 = 1\nmin_svn_bl = 2\n", "line 2: unknown key");
	expect_policy_error("min_epoch = 1\nmin_epoch = 2\n", "line 2: 'min_epoch' given twice");
	expect_policy_error("max_delegation_depth = 3\n", "bad value");
	expect_policy_error("min_svn_bl0 = 256\n", "bad value");
	expect_policy_error("min_svn_bl0 = -1\n", "bad value");
	expect_policy_error("min_svn_bl0 =\n", "bad value");
	expect_policy_error("hybrid_required = maybe\n", "bad value");
	expect_policy_error("allowed_root_key = 1234\n", "64 hex digits");
	expect_policy_error("tag_path_allowed\n", "expected 'key = value'");
}
END_TEST

START_TEST(test_trust_load_errors)
{
	struct ota_trust *t = (struct ota_trust *)1;

	ck_assert_uint_eq(ota_trust_load_pem("not a certificate", 17, &t), OTA_X509_MALFORMED);
	ck_assert_ptr_null(t);
	ck_assert_uint_eq(ota_trust_load_file("/nonexistent/ca.pem", &t), OTA_HOST_IO);
}
END_TEST

static Suite *verify_suite(void)
{
	Suite *s = suite_create("verify");
	TCase *tc = tcase_create("evidence");
	TCase *pol = tcase_create("policy file");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_good_evidence_passes);
	tcase_add_test(tc, test_wrong_nonce);
	tcase_add_test(tc, test_every_flipped_byte_is_refused);
	tcase_add_test(tc, test_chain_to_another_ca);
	tcase_add_test(tc, test_identity_revoked_under_an_intermediate_ca);
	tcase_add_test(tc, test_signature_by_another_key);
	tcase_add_test(tc, test_leaf_that_is_a_ca_is_refused);
	tcase_add_test(tc, test_svn_below_policy);
	tcase_add_test(tc, test_root_key_not_allowed);
	tcase_add_test(tc, test_delegation_deeper_than_allowed);
	tcase_add_test(tc, test_tag_path_forbidden);
	tcase_add_test(tc, test_hybrid_missing);
	tcase_add_test(tc, test_epoch_below_policy);
	tcase_add_test(tc, test_record_mismatch);
	tcase_add_test(tc, test_refused_stage_without_fallback);
	tcase_add_test(tc, test_claims_not_certified);
	tcase_add_test(tc, test_claims_for_another_device);
	tcase_add_loop_test(tc, test_certified_claim_changed_is_refused, 0, LIE_COUNT);
	tcase_add_test(tc, test_alias_cert_of_older_firmware);
	tcase_add_test(tc, test_alias_for_another_device);
	tcase_add_test(tc, test_identity_cert_that_did_not_issue_the_alias);
	tcase_add_test(tc, test_every_failure_is_reported);
	tcase_add_test(tc, test_claims_refusals);
	tcase_add_test(pol, test_policy_file_parses);
	tcase_add_test(pol, test_policy_file_errors);
	tcase_add_test(pol, test_trust_load_errors);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, pol);
	return s;
}

OTA_TEST_MAIN(verify_suite)
