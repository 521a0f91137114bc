// SPDX-License-Identifier: MIT
/*
 * The verifier's fast path for a chain first seen (libotattest/src/host/
 * chain_fast.h) against OpenSSL's path validation, which it stands in
 * for: whatever the fast path accepts, OpenSSL's strict path validation
 * (ota_chain_verify) accepts too, and the facts the verifier reads come
 * out the same. Held on the firmware's own chain, on every byte of it
 * flipped, and on chains built here with each rule broken in turn - the
 * identity or the alias certificate, or the root - where OpenSSL refuses
 * and the fast path must decline. Where OpenSSL accepts a shape the fast
 * path was not written for, it declines and OpenSSL decides; the
 * genuine shapes are accepted, so the test fails if the fast path
 * declines everything. The same with CRLs: the root's CRL, each rule of
 * its use broken (OTA_TEST_SHOW=1 CK_FORK=no prints both verdicts).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "test_evidence_fixture.h"
#include "tu_crl.h"
#include "tu_main.h"
/* Internal: the fast path under test. */
#include "../../libotattest/src/host/chain_fast.h"
#include "../../libotattest/src/host/cose_key.h"

static struct evfix f;
static uint8_t ev[OTA_EVIDENCE_MAX_BYTES + 64];
static uint32_t ev_len;
static struct ota_cose_sign1 m;

static void setup(void)
{
	static const uint8_t nonce[16] = "chain-fast-nonce";

	evfix_open(&f, EVFIX_IDCERT_OURS);
	evfix_boot_runtime(&f);
	ck_assert_uint_eq(ota_rt_attest(&f.bs, ota_runtime_current(&f.bs), nonce, sizeof(nonce), ev,
					sizeof(ev), &ev_len),
			  OTA_OK);
	ck_assert_uint_eq(ota_cose_sign1_decode(ev, ev_len, &m), OTA_OK);
	ck_assert_uint_eq(m.cert_count, 2);
}

static void teardown(void)
{
	evfix_close(&f);
}

static bool openssl_accepts(const struct ota_trust *t, const uint8_t *const certs[],
			    const size_t lens[], uint32_t n)
{
	uint8_t pub[OTA_P256_PUBKEY_BYTES];
	char why[160];

	return ota_chain_verify(t, certs, lens, n, pub, why, sizeof(why)) == OTA_OK;
}

/* The fast path on a chain first seen (nothing remembered); facts->leaf freed. */
static bool fast_accepts(const struct ota_trust *t, const uint8_t *const certs[],
			 const size_t lens[], uint32_t n, struct ota_chain_facts *facts)
{
	struct ota_chain_facts scratch;
	time_t nb, na;
	bool ok;

	if (facts == NULL)
		facts = &scratch;
	memset(facts, 0, sizeof(*facts));
	ota_fast_forget(ota_trust_fast(t));
	ok = ota_fast_verify(ota_trust_fast(t), certs, lens, n, time(NULL), facts, &nb, &na);
	if (ok) {
		ck_assert_ptr_nonnull(facts->leaf);
		ck_assert_int_le(nb, time(NULL));
		ck_assert_int_gt(na, time(NULL));
	}
	EVP_PKEY_free(facts->leaf);
	facts->leaf = NULL;
	return ok;
}

START_TEST(test_firmware_chain_accepted_with_the_same_facts)
{
	struct ota_chain_facts fast, slow;
	uint8_t pub[OTA_P256_PUBKEY_BYTES];
	char why[160];

	ck_assert(fast_accepts(f.trust, m.certs, m.cert_lens, 2, &fast));
	ck_assert_uint_eq(ota_chain_verify(f.trust, m.certs, m.cert_lens, 2, pub, why, sizeof(why)),
			  OTA_OK);
	memset(&slow, 0, sizeof(slow));
	ota_chain_facts_read(m.certs, m.cert_lens, 2, &slow);
	ck_assert_mem_eq(fast.leaf_pubkey, pub, sizeof(pub));
	ck_assert_uint_eq(fast.alias_st, OTA_OK);
	ck_assert_uint_eq(fast.alias_st, slow.alias_st);
	ck_assert_mem_eq(&fast.alias, &slow.alias, sizeof(fast.alias));
	ck_assert_uint_eq(fast.identity_st, slow.identity_st);
	ck_assert_mem_eq(&fast.identity, &slow.identity, sizeof(fast.identity));
	ck_assert(fast.alias.has_device_id && fast.identity.issued_alias);
}
END_TEST

/*
 * Through ota_verify_evidence: a fresh store takes the fast path, and its
 * verdict is the one a store without it (OpenSSL's path validation)
 * gives, byte for byte - for the evidence and for a wrong nonce.
 */
START_TEST(test_verdict_same_as_openssl_path)
{
	static const uint8_t nonce[16] = "chain-fast-nonce", other[16] = "another-nonce-16";
	static struct ota_verdict vf, vs;
	struct ota_trust *fast, *slow;
	struct ota_fast_stats st;
	X509_STORE *empty = X509_STORE_new();

	ck_assert_uint_eq(ota_trust_load_pem(f.ca_pem, f.ca_pem_len, &fast), OTA_OK);
	ck_assert_uint_eq(ota_trust_load_pem(f.ca_pem, f.ca_pem_len, &slow), OTA_OK);
	ota_fast_set_anchors(ota_trust_fast(slow), empty); /* no root: every chain declined */
	for (int k = 0; k < 2; k++) {
		const uint8_t *n = k ? other : nonce;

		memset(&vf, 0, sizeof(vf));
		memset(&vs, 0, sizeof(vs));
		ota_verify_evidence(ev, ev_len, fast, n, 16, NULL, NULL, 0, &vf);
		ota_verify_evidence(ev, ev_len, slow, n, 16, NULL, NULL, 0, &vs);
		ck_assert_mem_eq(&vf, &vs, sizeof(vf));
		ck_assert(vf.authentic);
	}
	ota_trust_fast_stats(fast, &st);
	ck_assert_uint_eq(st.accepted, 1); /* then the chain is remembered whole */
	ck_assert_uint_eq(st.identities, 1);
	ota_trust_fast_stats(slow, &st);
	ck_assert_uint_eq(st.accepted, 0);
	ota_trust_free(fast);
	ota_trust_free(slow);
	X509_STORE_free(empty);
}
END_TEST

/*
 * An identity once accepted is remembered: the next chain with it checks
 * the alias only, and it is forgotten when CRLs are added. With a CRL of
 * the root that does not list it, a new identity is accepted; listed, it
 * is declined (and OpenSSL refuses it as revoked).
 */
START_TEST(test_identity_remembered_and_crls)
{
	struct ota_chain_facts facts = { 0 };
	struct ota_fast_stats s;
	struct ota_trust *t;
	time_t nb, na, now = time(NULL);
	char *pem;
	size_t len;

	ck_assert_uint_eq(ota_trust_load_pem(f.ca_pem, f.ca_pem_len, &t), OTA_OK);
	for (int k = 0; k < 2; k++) {
		ck_assert(ota_fast_verify(ota_trust_fast(t), m.certs, m.cert_lens, 2, now, &facts,
					  &nb, &na));
		EVP_PKEY_free(facts.leaf);
	}
	ota_fast_get_stats(ota_trust_fast(t), &s);
	ck_assert_uint_eq(s.accepted, 2);
	ck_assert_uint_eq(s.identities, 1);
	/* Past the identity's period (or the root's), nothing is accepted. */
	ck_assert(!ota_fast_verify(ota_trust_fast(t), m.certs, m.cert_lens, 2,
				   (time_t)253402300800LL, &facts, &nb, &na));

	/* A CRL of the root that lists another serial: checked, and accepted. */
	pem = tu_crl_pem(f.ca_key, f.ca, X509_get0_serialNumber(f.ca), 7, &len);
	ck_assert_uint_eq(ota_trust_add_crl_pem(t, pem, len), OTA_OK);
	free(pem);
	ck_assert(ota_fast_verify(ota_trust_fast(t), m.certs, m.cert_lens, 2, now, &facts, &nb, &na));
	EVP_PKEY_free(facts.leaf);
	ck_assert_int_le(na, now + 7 * 86400); /* remembered until the CRL's next update */
	ota_fast_get_stats(ota_trust_fast(t), &s);
	ck_assert_uint_eq(s.identities, 2); /* forgotten with the CRL, checked again */
	ota_trust_free(t);

	/* The identity listed: declined, and OpenSSL says revoked. */
	ck_assert_uint_eq(ota_trust_load_pem(f.ca_pem, f.ca_pem_len, &t), OTA_OK);
	pem = tu_crl_pem(f.ca_key, f.ca, X509_get0_serialNumber(f.identity), 7, &len);
	ck_assert_uint_eq(ota_trust_add_crl_pem(t, pem, len), OTA_OK);
	free(pem);
	ck_assert(!ota_fast_verify(ota_trust_fast(t), m.certs, m.cert_lens, 2, now, &facts, &nb,
				   &na));
	{
		uint8_t pub[OTA_P256_PUBKEY_BYTES];
		char why[160];

		ck_assert_uint_eq(ota_chain_verify(t, m.certs, m.cert_lens, 2, pub, why, sizeof(why)),
				  OTA_VERIFY_IDENTITY_REVOKED);
	}
	ota_trust_free(t);
}
END_TEST

/*
 * The keys the fast path makes (a copy of the P-256 parameters with the
 * point set) are the alias's key, and a point off the curve makes none.
 */
START_TEST(test_public_key_on_the_curve_only)
{
	struct ota_chain_facts facts = { 0 };
	uint8_t pub[OTA_P256_PUBKEY_BYTES];
	EVP_PKEY *k;

	ck_assert(fast_accepts(f.trust, m.certs, m.cert_lens, 2, &facts));
	k = ota_p256_public_key(facts.leaf_pubkey);
	ck_assert_ptr_nonnull(k);
	ck_assert_uint_eq(ota_cose_sign1_verify_pkey(&m, k), OTA_OK);
	EVP_PKEY_free(k);
	memcpy(pub, facts.leaf_pubkey, sizeof(pub));
	pub[40] ^= 1; /* y changed: not on the curve */
	ck_assert_ptr_null(ota_p256_public_key(pub));
	memset(pub, 0, sizeof(pub));
	ck_assert_ptr_null(ota_p256_public_key(pub));
}
END_TEST

/* Every byte of both certificates flipped, two ways: never accepted where OpenSSL refuses. */
START_TEST(test_every_byte_flipped)
{
	static uint8_t buf[2][2048];
	const uint8_t *certs[2];
	size_t lens[2], i;
	uint32_t c, accepted = 0, cases = 0;
	static const uint8_t masks[] = { 0x01, 0x80 };

	for (c = 0; c < 2; c++) {
		ck_assert_uint_le(m.cert_lens[c], sizeof(buf[c]));
		memcpy(buf[c], m.certs[c], m.cert_lens[c]);
		certs[c] = buf[c];
		lens[c] = m.cert_lens[c];
	}
	for (c = 0; c < 2; c++)
		for (i = 0; i < lens[c]; i++)
			for (size_t k = 0; k < sizeof(masks); k++) {
				bool fast;

				buf[c][i] ^= masks[k];
				fast = fast_accepts(f.trust, certs, lens, 2, NULL);
				if (fast) {
					accepted++;
					ck_assert_msg(openssl_accepts(f.trust, certs, lens, 2),
						      "certificate %u byte %zu ^ %02x: fast path accepts "
						      "what OpenSSL refuses", c, i, masks[k]);
				}
				buf[c][i] ^= masks[k];
				cases++;
			}
	ck_assert_uint_gt(cases, 2000);
	ck_assert_uint_eq(accepted, 0); /* every byte is signed */
}
END_TEST

/* ---- chains built here, each with one rule broken ------------------------------ */

enum who { CA, ID, ALIAS, WHO };
#define NEXT 5

/* A variant: in certificate `who`, extension slot `slot` becomes `ext` (NULL: left out). */
struct variant {
	const char *what;
	enum who who;
	int slot;
	const char *ext;
	long not_before, not_after; /* seconds from now for who's validity; 0: the default */
	unsigned int flags;
	bool openssl_refuses;       /* what the variant is for: a rule OpenSSL enforces */
	bool fast_accepts;          /* a chain the fast path is for: it accepts, as OpenSSL does */
};

#define V_WRONG_SIGNER 1u    /* signed by another key */
#define V_ISSUER_CASE 2u     /* the issuer name in other letter case (OpenSSL folds it) */
#define V_SELF_ISSUED 4u     /* subject = issuer */
#define V_TWIN_ROOT 8u       /* a second root of the same name in the store */
#define V_VERSION1 16u
#define V_STRANGER_ROOT 32u  /* another root in the store, with an extension the view does not read */

static const char *const default_ext[WHO][NEXT] = {
	[CA] = { "basicConstraints=critical,CA:TRUE,pathlen:1", "keyUsage=critical,keyCertSign,cRLSign",
		 "subjectKeyIdentifier=hash", "authorityKeyIdentifier=keyid:always", NULL },
	[ID] = { "basicConstraints=critical,CA:TRUE,pathlen:0", "keyUsage=critical,keyCertSign",
		 "subjectKeyIdentifier=hash", "authorityKeyIdentifier=keyid:always", NULL },
	[ALIAS] = { "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature",
		    "subjectKeyIdentifier=hash", "authorityKeyIdentifier=keyid:always",
		    "2.23.133.5.4.5=DER:3000" },
};

static X509_NAME *name_of(const char *cn)
{
	X509_NAME *n = X509_NAME_new();

	ck_assert_int_eq(X509_NAME_add_entry_by_txt(n, "O", MBSTRING_UTF8, (const unsigned char *)"otattest", -1, -1, 0), 1);
	ck_assert_int_eq(X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_UTF8, (const unsigned char *)cn, -1, -1, 0), 1);
	return n;
}

static X509 *issue(const char *cn, const char *issuer_cn, X509 *issuer, EVP_PKEY *key,
		   EVP_PKEY *signer, const char *const ext[NEXT], long nb, long na,
		   unsigned int flags)
{
	X509 *x = X509_new();
	X509_NAME *subject = name_of(cn), *iname = name_of(issuer_cn);
	ASN1_INTEGER *serial = ASN1_INTEGER_new();
	X509V3_CTX ctx;
	char eq[160];
	int i;

	ASN1_INTEGER_set(serial, 0x4242);
	ck_assert_int_eq(X509_set_version(x, (flags & V_VERSION1) ? X509_VERSION_1 : X509_VERSION_3), 1);
	X509_set_serialNumber(x, serial);
	X509_set_subject_name(x, subject);
	X509_set_issuer_name(x, iname);
	X509_gmtime_adj(X509_getm_notBefore(x), nb);
	X509_gmtime_adj(X509_getm_notAfter(x), na);
	X509_set_pubkey(x, key);
	X509V3_set_ctx(&ctx, issuer ? issuer : x, x, NULL, NULL, 0);
	for (i = 0; i < NEXT && !(flags & V_VERSION1); i++) {
		X509_EXTENSION *e;
		char *v;

		if (ext[i] == NULL)
			continue;
		snprintf(eq, sizeof(eq), "%s", ext[i]);
		v = strchr(eq, '=');
		*v++ = '\0';
		e = X509V3_EXT_nconf(NULL, &ctx, eq, v);
		if (e == NULL && !strcmp(eq, "authorityKeyIdentifier"))
			continue; /* the issuer has no key id to name */
		ck_assert_msg(e != NULL, "extension %s", ext[i]);
		X509_add_ext(x, e, -1);
		X509_EXTENSION_free(e);
	}
	ck_assert_int_gt(X509_sign(x, signer, EVP_sha256()), 0);
	ASN1_INTEGER_free(serial);
	X509_NAME_free(subject);
	X509_NAME_free(iname);
	return x;
}

static size_t der_of(X509 *x, uint8_t *out, size_t cap)
{
	int n = i2d_X509(x, NULL);
	unsigned char *p = out;

	ck_assert_int_gt(n, 0);
	ck_assert_uint_le((size_t)n, cap);
	return (size_t)i2d_X509(x, &p);
}

static struct ota_trust *trust_of(X509 *ca, X509 *extra)
{
	struct ota_trust *t;
	BIO *bio = BIO_new(BIO_s_mem());
	char *pem;
	long n;

	PEM_write_bio_X509(bio, ca);
	if (extra)
		PEM_write_bio_X509(bio, extra);
	n = BIO_get_mem_data(bio, &pem);
	ck_assert_uint_eq(ota_trust_load_pem(pem, (size_t)n, &t), OTA_OK);
	BIO_free(bio);
	return t;
}

#define DAY 86400L
#define ID_CN "otattest identity d0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
#define ALIAS_CN "otattest alias d0d1d2d3d4d5d6d7d8d9dadbdcdddedf"

static const struct variant variants[] = {
	{ "genuine", CA, -1, NULL, 0, 0, 0, false, true },
	{ "another root in the store, outside the profile", CA, -1, NULL, 0, 0, V_STRANGER_ROOT, false, true },
	{ "root: pathlen 0 (no CA may sit under it)", CA, 0, "basicConstraints=critical,CA:TRUE,pathlen:0", 0, 0, 0, true, false },
	{ "root: basicConstraints not critical", CA, 0, "basicConstraints=CA:TRUE", 0, 0, 0, true, false },
	{ "root: not a CA", CA, 0, "basicConstraints=critical,CA:FALSE", 0, 0, 0, true, false },
	{ "root: no keyCertSign", CA, 1, "keyUsage=critical,cRLSign", 0, 0, 0, true, false },
	{ "root: expired", CA, -1, NULL, -2 * DAY, -DAY, 0, true, false },
	{ "root: not yet valid", CA, -1, NULL, DAY, 2 * DAY, 0, true, false },
	{ "root: a twin of the same name in the store", CA, -1, NULL, 0, 0, V_TWIN_ROOT, false, false },
	{ "identity: not a CA", ID, 0, "basicConstraints=critical,CA:FALSE", 0, 0, 0, true, false },
	{ "identity: no basicConstraints", ID, 0, NULL, 0, 0, 0, true, false },
	{ "identity: basicConstraints not critical", ID, 0, "basicConstraints=CA:TRUE,pathlen:0", 0, 0, 0, true, false },
	{ "identity: no keyCertSign", ID, 1, "keyUsage=critical,digitalSignature", 0, 0, 0, true, false },
	{ "identity: no keyUsage", ID, 1, NULL, 0, 0, 0, true, false },
	{ "identity: no subject key id", ID, 2, NULL, 0, 0, 0, true, false },
	{ "identity: no authority key id", ID, 3, NULL, 0, 0, 0, true, false },
	{ "identity: an unknown critical extension", ID, 4, "1.3.6.1.4.1.99999.1=critical,DER:0500", 0, 0, 0, true, false },
	{ "identity: an unknown extension", ID, 4, "1.3.6.1.4.1.99999.1=DER:0500", 0, 0, 0, false, false },
	{ "identity: name constraints", ID, 4, "nameConstraints=critical,permitted;DNS:example.com", 0, 0, 0, false, false },
	{ "identity: expired", ID, -1, NULL, -2 * DAY, -DAY, 0, true, false },
	{ "identity: not yet valid", ID, -1, NULL, DAY, 2 * DAY, 0, true, false },
	{ "identity: signed by another key", ID, -1, NULL, 0, 0, V_WRONG_SIGNER, true, false },
	{ "identity: the root's name in other case", ID, -1, NULL, 0, 0, V_ISSUER_CASE, false, false },
	{ "identity: version 1", ID, -1, NULL, 0, 0, V_VERSION1, true, false },
	{ "alias: a CA", ALIAS, 0, "basicConstraints=critical,CA:TRUE", 0, 0, 0, true, false },
	{ "alias: keyCertSign", ALIAS, 1, "keyUsage=critical,digitalSignature,keyCertSign", 0, 0, 0, true, false },
	{ "alias: no digitalSignature", ALIAS, 1, "keyUsage=critical,keyAgreement", 0, 0, 0, true, false },
	{ "alias: no authority key id", ALIAS, 3, NULL, 0, 0, 0, true, false },
	{ "alias: MultiTcbInfo critical", ALIAS, 4, "2.23.133.5.4.5=critical,DER:3000", 0, 0, 0, true, false },
	{ "alias: expired", ALIAS, -1, NULL, -2 * DAY, -DAY, 0, true, false },
	{ "alias: not yet valid", ALIAS, -1, NULL, DAY, 2 * DAY, 0, true, false },
	{ "alias: signed by another key", ALIAS, -1, NULL, 0, 0, V_WRONG_SIGNER, true, false },
	{ "alias: self-issued", ALIAS, -1, NULL, 0, 0, V_SELF_ISSUED, false, false },
	{ "alias: the identity's name in other case", ALIAS, -1, NULL, 0, 0, V_ISSUER_CASE, false, false },
};

/* A chain built for a variant: the three keys, another, the certificates, the chain's DER. */
struct built {
	EVP_PKEY *key[WHO], *other;
	X509 *ca, *id, *alias, *twin;
	uint8_t der[2][2048];
	const uint8_t *certs[2];
	size_t lens[2];
};

static void build(const struct variant *v, struct built *b)
{
	const char *ext[WHO][NEXT];
	long nb[WHO] = { -DAY, -DAY, -DAY }, na[WHO] = { 3650 * DAY, 3650 * DAY, 3650 * DAY };
	int w;

	memset(b, 0, sizeof(*b));
	memcpy(ext, default_ext, sizeof(ext));
	b->other = EVP_EC_gen("P-256");
	for (w = 0; w < WHO; w++)
		b->key[w] = EVP_EC_gen("P-256");
	if (v->slot >= 0)
		ext[v->who][v->slot] = v->ext;
	if (v->not_before || v->not_after) {
		nb[v->who] = v->not_before;
		na[v->who] = v->not_after;
	}
#define FL(w) (v->who == (w) ? v->flags : 0u)
	b->ca = issue("otattest test root", "otattest test root", NULL, b->key[CA], b->key[CA],
		      ext[CA], nb[CA], na[CA], 0);
	b->id = issue(FL(ID) & V_SELF_ISSUED ? "otattest test root" : ID_CN,
		      FL(ID) & V_ISSUER_CASE ? "OTATTEST Test Root" : "otattest test root", b->ca,
		      b->key[ID], FL(ID) & V_WRONG_SIGNER ? b->other : b->key[CA], ext[ID], nb[ID],
		      na[ID], FL(ID));
	b->alias = issue(FL(ALIAS) & V_SELF_ISSUED ? ID_CN : ALIAS_CN,
			 FL(ALIAS) & V_ISSUER_CASE ? "OTATTEST IDENTITY d0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
						   : ID_CN,
			 b->id, b->key[ALIAS], FL(ALIAS) & V_WRONG_SIGNER ? b->other : b->key[ID],
			 ext[ALIAS], nb[ALIAS], na[ALIAS], FL(ALIAS));
#undef FL
	if (v->flags & V_TWIN_ROOT)
		b->twin = issue("otattest test root", "otattest test root", NULL, b->other, b->other,
				ext[CA], -DAY, 3650 * DAY, 0);
	if (v->flags & V_STRANGER_ROOT) {
		static const char *const policies[NEXT] = {
			"basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign",
			"subjectKeyIdentifier=hash", "certificatePolicies=DER:300d300b06092b06010401868d1f07", NULL
		};

		b->twin = issue("Example Other Root", "Example Other Root", NULL, b->other, b->other,
				policies, -DAY, 3650 * DAY, 0);
	}
	b->lens[0] = der_of(b->alias, b->der[0], sizeof(b->der[0]));
	b->lens[1] = der_of(b->id, b->der[1], sizeof(b->der[1]));
	b->certs[0] = b->der[0];
	b->certs[1] = b->der[1];
}

static void built_free(struct built *b)
{
	X509_free(b->ca);
	X509_free(b->id);
	X509_free(b->alias);
	X509_free(b->twin);
	for (int w = 0; w < WHO; w++)
		EVP_PKEY_free(b->key[w]);
	EVP_PKEY_free(b->other);
}

/* OpenSSL's verdict and the fast path's on a chain, held to each other. */
static void judge(const struct ota_trust *t, const struct built *b, const char *what,
		  bool openssl_refuses, bool genuine)
{
	bool slow = openssl_accepts(t, b->certs, b->lens, 2);
	bool fast = fast_accepts(t, b->certs, b->lens, 2, NULL);
	if (getenv("OTA_TEST_SHOW")) /* OTA_TEST_SHOW=1 CK_FORK=no: each chain's two verdicts */
		fprintf(stderr, "%-55s fast %d OpenSSL %d\n", what, fast, slow);

	ck_assert_msg(!fast || slow, "%s: the fast path accepts what OpenSSL refuses", what);
	if (openssl_refuses)
		ck_assert_msg(!slow, "%s: OpenSSL was meant to refuse this", what);
	if (genuine)
		ck_assert_msg(fast && slow, "%s: fast %d, OpenSSL %d", what, fast, slow);
}

START_TEST(test_each_rule_broken)
{
	const struct variant *v = &variants[_i];
	struct ota_trust *t;
	struct built b;

	build(v, &b);
	t = trust_of(b.ca, b.twin);
	judge(t, &b, v->what, v->openssl_refuses, v->fast_accepts);
	ota_trust_free(t);
	built_free(&b);
}
END_TEST

/* ---- with CRLs: the root's CRL, each rule of its use broken ------------------- */

struct crl_variant {
	const char *what;
	long last, next;          /* days from now; next 0: no nextUpdate */
	bool list_identity;       /* else another serial is listed */
	int reason;               /* the entry's CRLReason, -1: none */
	const char *ext;          /* an extension of the CRL ("OID=value"), or NULL */
	unsigned int flags;
	bool openssl_refuses;
	bool fast_accepts;        /* a CRL the fast path reads: it accepts, as OpenSSL does */
};

#define C_OTHER_SIGNER 1u  /* signed by another key */
#define C_TWO 2u           /* a second CRL of the root */
#define C_OTHER_ISSUER 4u  /* the only CRL is another CA's */
#define C_ROOT_NO_CRLSIGN 8u

static const struct crl_variant crl_variants[] = {
	{ "a CRL of the root listing another serial", -1, 7, false, -1, NULL, 0, false, true },
	{ "the identity listed", -1, 7, true, -1, NULL, 0, true, false },
	{ "the CRL expired", -9, -1, false, -1, NULL, 0, true, false },
	{ "the CRL not yet issued", 1, 7, false, -1, NULL, 0, true, false },
	{ "the CRL signed by another key", -1, 7, false, -1, NULL, C_OTHER_SIGNER, true, false },
	{ "an unknown critical CRL extension", -1, 7, false, -1, "1.3.6.1.4.1.99999.2=critical,DER:0500", 0, true, false },
	{ "an unknown CRL extension", -1, 7, false, -1, "1.3.6.1.4.1.99999.2=DER:0500", 0, false, false },
	{ "a CRL number", -1, 7, false, -1, "crlNumber=DER:020107", 0, false, true },
	{ "two CRLs of the root", -1, 7, false, -1, NULL, C_TWO, false, false },
	{ "only another CA's CRL", -1, 7, false, -1, NULL, C_OTHER_ISSUER, true, false },
	{ "a root that may not sign CRLs", -1, 7, false, -1, NULL, C_ROOT_NO_CRLSIGN, true, false },
	{ "the identity listed as removeFromCRL", -1, 7, true, 8, NULL, 0, false, false },
	{ "the identity listed for key compromise", -1, 7, true, 1, NULL, 0, true, false },
	{ "no nextUpdate", -1, 0, false, -1, NULL, 0, false, false },
};

static char *crl_pem(X509 *issuer, EVP_PKEY *signer, const struct crl_variant *c,
		     const ASN1_INTEGER *serial, size_t *len)
{
	X509_CRL *crl = X509_CRL_new();
	ASN1_TIME *last = ASN1_TIME_adj(NULL, time(NULL), (int)c->last, 0);
	ASN1_TIME *next = ASN1_TIME_adj(NULL, time(NULL), (int)c->next, 0);
	X509_REVOKED *r = X509_REVOKED_new();
	char eq[160], *v;

	X509_CRL_set_version(crl, X509_CRL_VERSION_2);
	X509_CRL_set_issuer_name(crl, X509_get_subject_name(issuer));
	X509_CRL_set1_lastUpdate(crl, last);
	if (c->next)
		X509_CRL_set1_nextUpdate(crl, next);
	X509_REVOKED_set_serialNumber(r, (ASN1_INTEGER *)serial);
	X509_REVOKED_set_revocationDate(r, last);
	if (c->reason >= 0) {
		ASN1_ENUMERATED *e = ASN1_ENUMERATED_new();

		ASN1_ENUMERATED_set(e, c->reason);
		X509_REVOKED_add1_ext_i2d(r, NID_crl_reason, e, 0, 0);
		ASN1_ENUMERATED_free(e);
	}
	X509_CRL_add0_revoked(crl, r);
	if (c->ext) {
		X509V3_CTX ctx;
		X509_EXTENSION *e;

		X509V3_set_ctx(&ctx, issuer, NULL, NULL, crl, 0);
		snprintf(eq, sizeof(eq), "%s", c->ext);
		v = strchr(eq, '=');
		*v++ = '\0';
		e = X509V3_EXT_nconf(NULL, &ctx, eq, v);
		ck_assert_ptr_nonnull(e);
		X509_CRL_add_ext(crl, e, -1);
		X509_EXTENSION_free(e);
	}
	ck_assert_int_gt(X509_CRL_sign(crl, signer, EVP_sha256()), 0);
	ASN1_TIME_free(last);
	ASN1_TIME_free(next);
	return tu_crl_to_pem(crl, len);
}

START_TEST(test_each_crl_rule_broken)
{
	static const struct variant no_crl_sign = { "", CA, 1, "keyUsage=critical,keyCertSign", 0, 0, 0, false, false };
	const struct crl_variant *c = &crl_variants[_i];
	ASN1_INTEGER *another = ASN1_INTEGER_new();
	struct ota_trust *t;
	struct built b;
	X509 *stranger;
	char *pem;
	size_t len;

	build(c->flags & C_ROOT_NO_CRLSIGN ? &no_crl_sign : &variants[0], &b);
	stranger = issue("otattest another root", "otattest another root", NULL, b.other, b.other,
			 default_ext[CA], -DAY, 3650 * DAY, 0);
	ASN1_INTEGER_set(another, 0x777);
	t = trust_of(b.ca, stranger);
	pem = crl_pem(c->flags & C_OTHER_ISSUER ? stranger : b.ca,
		      c->flags & (C_OTHER_SIGNER | C_OTHER_ISSUER) ? b.other : b.key[CA], c,
		      c->list_identity ? X509_get0_serialNumber(b.id) : another, &len);
	ck_assert_uint_eq(ota_trust_add_crl_pem(t, pem, len), OTA_OK);
	free(pem);
	if (c->flags & C_TWO) {
		pem = crl_pem(b.ca, b.key[CA], &crl_variants[0], another, &len);
		ck_assert_uint_eq(ota_trust_add_crl_pem(t, pem, len), OTA_OK);
		free(pem);
	}
	judge(t, &b, c->what, c->openssl_refuses, c->fast_accepts);
	ota_trust_free(t);
	X509_free(stranger);
	ASN1_INTEGER_free(another);
	built_free(&b);
}
END_TEST

/*
 * A CRL of another scope that revokes the identity, beside the root's full
 * CRL (issue 31: OpenSSL's path skipped a delta and accepted): refused
 * when loaded, so neither path ever holds it, and both still judge by the
 * full CRL alone - the same verdict, the identity accepted.
 */
START_TEST(test_scoped_crl_refused_on_both_paths)
{
	const enum tu_crl_scope scope = (enum tu_crl_scope)(TU_CRL_DELTA + _i);
	ASN1_INTEGER *another = ASN1_INTEGER_new();
	struct ota_trust *t;
	struct built b;
	char *pem;
	size_t len;

	build(&variants[0], &b);
	ASN1_INTEGER_set(another, 0x777);
	t = trust_of(b.ca, NULL);
	pem = tu_crl_scoped_pem(b.key[CA], b.ca, another, TU_CRL_PLAIN, &len);
	ck_assert_uint_eq(ota_trust_add_crl_pem(t, pem, len), OTA_OK);
	free(pem);
	judge(t, &b, "the full CRL", false, true);
	pem = tu_crl_scoped_pem(b.key[CA], b.ca, X509_get0_serialNumber(b.id), scope, &len);
	ck_assert_uint_eq(ota_trust_add_crl_pem(t, pem, len), OTA_X509_CRL_UNSUPPORTED);
	free(pem);
	ck_assert_uint_eq(ota_trust_crl_count(t), 1);
	judge(t, &b, "the full CRL, a scoped one refused", false, true);
	ota_trust_free(t);
	ASN1_INTEGER_free(another);
	built_free(&b);
}
END_TEST

static Suite *chain_fast_suite(void)
{
	Suite *s = suite_create("chain_fast");
	TCase *tc = tcase_create("fast");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_firmware_chain_accepted_with_the_same_facts);
	tcase_add_test(tc, test_identity_remembered_and_crls);
	tcase_add_test(tc, test_verdict_same_as_openssl_path);
	tcase_add_test(tc, test_public_key_on_the_curve_only);
	tcase_add_test(tc, test_every_byte_flipped);
	tcase_add_loop_test(tc, test_each_rule_broken, 0, (int)(sizeof(variants) / sizeof(variants[0])));
	tcase_add_loop_test(tc, test_each_crl_rule_broken, 0,
			    (int)(sizeof(crl_variants) / sizeof(crl_variants[0])));
	tcase_add_loop_test(tc, test_scoped_crl_refused_on_both_paths, 0,
			    TU_CRL_INDIRECT - TU_CRL_DELTA + 1);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(chain_fast_suite)
