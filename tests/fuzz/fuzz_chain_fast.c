// SPDX-License-Identifier: MIT
/*
 * The verifier's fast path (libotattest/src/host/chain_fast.c) against
 * OpenSSL's strict path validation, on chains the input describes: the
 * harness builds and signs them with OpenSSL, so the mutations reach past
 * the signatures to every rule. The input picks, for the root, the
 * identity and the alias certificate: version, basicConstraints (as DER,
 * so non-DER booleans and explicit defaults too), their criticality, key
 * usage bits and unused-bit count, key ids (right, wrong, absent, with
 * issuer and serial), an extra extension, subject and issuer names (other
 * case, the issuer's, empty, an extra RDN), validity, signer and serial;
 * beside the root, a twin of its name or another root; a CRL of the root
 * (listing another serial, the identity, expired, with a critical
 * extension); then up to two byte flips in the DER. Property: whatever
 * the fast path accepts, OpenSSL accepts, with the same leaf key.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "otattest/verify.h"

#include "../../libotattest/src/host/chain_fast.h"
#include "fuzz_require.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { CA, ID, ALIAS, OTHER, KEYS };
static EVP_PKEY *key[KEYS];

struct in {
	const uint8_t *p;
	size_t n;
};

static unsigned int next(struct in *in)
{
	if (in->n == 0)
		return 0;
	in->n--;
	return *in->p++;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	for (int k = 0; k < KEYS; k++)
		if ((key[k] = EVP_EC_gen("P-256")) == NULL)
			abort();
	return 0;
}

static const char *const names[] = {
	"otattest test root",
	"otattest identity d0d1d2d3d4d5d6d7d8d9dadbdcdddedf",
	"otattest alias d0d1d2d3d4d5d6d7d8d9dadbdcdddedf",
};

static X509_NAME *name_of(const char *cn, unsigned int how)
{
	X509_NAME *n = X509_NAME_new();
	char up[96];
	size_t i;

	if (how == 3)
		return n; /* empty */
	for (i = 0; cn[i] && i + 1 < sizeof(up); i++)
		up[i] = (char)(how == 1 && cn[i] >= 'a' && cn[i] <= 'z' ? cn[i] - 32 : cn[i]);
	up[i] = '\0';
	X509_NAME_add_entry_by_txt(n, "O", how == 2 ? V_ASN1_PRINTABLESTRING : MBSTRING_UTF8,
				   (const unsigned char *)"otattest", -1, -1, 0);
	X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_UTF8, (const unsigned char *)up, -1, -1, 0);
	if (how == 4)
		X509_NAME_add_entry_by_txt(n, "OU", MBSTRING_UTF8, (const unsigned char *)"fleet", -1,
					   -1, 0);
	return n;
}

static void add_ext(X509 *x, X509V3_CTX *ctx, const char *name, const char *value)
{
	X509_EXTENSION *e = X509V3_EXT_nconf(NULL, ctx, name, value);

	if (e) {
		X509_add_ext(x, e, -1);
		X509_EXTENSION_free(e);
	}
}

/* "DER:" and the bytes in hex, for a generic extension value. */
static void hex_der(char *out, size_t cap, const char *prefix, const uint8_t *b, size_t n)
{
	size_t k = (size_t)snprintf(out, cap, "%sDER:", prefix);

	for (size_t i = 0; i < n && k + 3 < cap; i++)
		k += (size_t)snprintf(out + k, cap - k, "%02X", b[i]);
}

/* One certificate of role `who`, as the input says; issuer NULL: self-signed. */
static X509 *build(struct in *in, int who, X509 *issuer)
{
	static const uint8_t bc_der[][8] = {
		{ 0x30, 0x00 },                                     /* cA FALSE, left out */
		{ 0x30, 0x03, 0x01, 0x01, 0xff },                   /* cA TRUE */
		{ 0x30, 0x06, 0x01, 0x01, 0xff, 0x02, 0x01, 0x00 }, /* pathlen 0 */
		{ 0x30, 0x06, 0x01, 0x01, 0xff, 0x02, 0x01, 0x01 }, /* pathlen 1 */
		{ 0x30, 0x03, 0x01, 0x01, 0x00 },                   /* cA FALSE written out */
		{ 0x30, 0x03, 0x01, 0x01, 0x01 },                   /* TRUE, not DER */
	};
	static const size_t bc_len[] = { 2, 5, 8, 8, 5, 5 };
	static const int default_bc[] = { 3, 2, 0 };
	static const uint8_t default_ku[] = { 0x06, 0x04, 0x80 };
	X509 *x = X509_new();
	X509_NAME *subject, *iname;
	ASN1_INTEGER *serial = ASN1_INTEGER_new();
	X509V3_CTX ctx;
	char v[160];
	unsigned int b, bc, ku, flags;
	uint8_t kub[4], id[21];
	long nb = -86400, na = 3650L * 86400;

	flags = next(in);
	/* names */
	b = next(in);
	subject = name_of(b % 7 == 5 && issuer ? names[who - 1] : names[who], b % 7 < 5 ? b % 7 : 0);
	b = next(in);
	iname = name_of(issuer ? names[who - 1] : names[who], b % 6 < 5 ? b % 6 : 0);
	/* serial */
	b = next(in);
	switch (b % 5) {
	case 1: ASN1_INTEGER_set(serial, 0); break;
	case 2: ASN1_INTEGER_set(serial, -5); break;
	case 3: case 4: {
		BIGNUM *bn = BN_new();

		BN_set_bit(bn, b % 5 == 3 ? 158 : 166); /* 20 and 21 bytes */
		BN_to_ASN1_INTEGER(bn, serial);
		BN_free(bn);
		break;
	}
	default: ASN1_INTEGER_set(serial, 0x4242 + who); break;
	}
	/* validity */
	b = next(in);
	if (b % 9 == 1)
		nb = 86400;
	if (b % 9 == 2)
		na = -60;
	X509_set_version(x, (flags & 0x80) && (flags & 0x40) ? X509_VERSION_1 : X509_VERSION_3);
	X509_set_serialNumber(x, serial);
	X509_set_subject_name(x, subject);
	X509_set_issuer_name(x, iname);
	X509_gmtime_adj(X509_getm_notBefore(x), nb);
	X509_gmtime_adj(X509_getm_notAfter(x), na);
	X509_set_pubkey(x, key[who]);
	X509V3_set_ctx(&ctx, issuer ? issuer : x, x, NULL, NULL, 0);

	/* basicConstraints */
	b = next(in);
	bc = b % 8 < 6 ? b % 8 : (unsigned int)default_bc[who];
	if (b % 8 != 6 || who == ALIAS) {
		if (!(b & 0x80) || (b % 8) > 5)
			bc = (unsigned int)default_bc[who];
		hex_der(v, sizeof(v), (b & 0x40) ? "" : "critical,", bc_der[bc], bc_len[bc]);
		if ((b % 16) != 13)
			add_ext(x, &ctx, "basicConstraints", v);
	}
	/* keyUsage */
	b = next(in);
	ku = next(in);
	kub[0] = 0x03;
	kub[1] = 0x02;
	kub[2] = (uint8_t)(b & 0x08 ? (b >> 4) % 8 : 0);
	kub[3] = (uint8_t)(b & 0x04 ? ku : default_ku[who]);
	if (!(b & 0x08)) /* DER: the trailing zero bits are unused */
		while (kub[2] < 7 && kub[3] && !(kub[3] & (1u << kub[2])))
			kub[2]++;
	hex_der(v, sizeof(v), (b & 0x02) ? "" : "critical,", kub, 4);
	if (!(b & 0x01))
		add_ext(x, &ctx, "keyUsage", v);
	/* key ids */
	b = next(in);
	if (b % 4 == 0)
		add_ext(x, &ctx, "subjectKeyIdentifier", "hash");
	else if (b % 4 == 1) {
		id[0] = 0x04;
		id[1] = 4;
		memset(id + 2, (int)(b >> 2), 4);
		hex_der(v, sizeof(v), "", id, 6);
		add_ext(x, &ctx, "subjectKeyIdentifier", v);
	}
	b = next(in);
	if (b % 5 == 0 || (b % 5 == 4 && !issuer))
		add_ext(x, &ctx, "authorityKeyIdentifier", "keyid:always");
	else if (b % 5 == 1)
		add_ext(x, &ctx, "authorityKeyIdentifier", "keyid:always,issuer:always");
	else if (b % 5 == 2) {
		static const uint8_t wrong[] = { 0x30, 0x06, 0x80, 0x04, 1, 2, 3, 4 };

		hex_der(v, sizeof(v), "", wrong, sizeof(wrong));
		add_ext(x, &ctx, "authorityKeyIdentifier", v);
	}
	/* one more extension */
	b = next(in);
	switch (b % 8) {
	case 1: add_ext(x, &ctx, "1.3.6.1.4.1.99999.1", "DER:0500"); break;
	case 2: add_ext(x, &ctx, "1.3.6.1.4.1.99999.1", "critical,DER:0500"); break;
	case 3: add_ext(x, &ctx, "nameConstraints", "critical,permitted;DNS:example.com"); break;
	case 4: add_ext(x, &ctx, "2.23.133.5.4.5", (b & 0x80) ? "critical,DER:3000" : "DER:3000"); break;
	case 5: add_ext(x, &ctx, "subjectAltName", "DNS:device.example"); break;
	default: break;
	}
	if (who == ALIAS && (flags & 0x01))
		add_ext(x, &ctx, "2.23.133.5.4.5", "DER:3000");
	X509_sign(x, (flags & 0x20) ? key[OTHER] : key[issuer ? who - 1 : who], EVP_sha256());
	ASN1_INTEGER_free(serial);
	X509_NAME_free(subject);
	X509_NAME_free(iname);
	return x;
}

static size_t der_of(X509 *x, uint8_t *out, size_t cap)
{
	int n = i2d_X509(x, NULL);
	unsigned char *p = out;

	if (n <= 0 || (size_t)n > cap)
		return 0;
	return (size_t)i2d_X509(x, &p);
}

/* The root's CRL as the input says, or none. */
static X509_CRL *crl_of(struct in *in, X509 *root, X509 *id)
{
	unsigned int b = next(in);
	X509_CRL *crl;
	X509_REVOKED *r;
	ASN1_TIME *t;
	ASN1_INTEGER *other = ASN1_INTEGER_new();

	if (b % 5 == 0) {
		ASN1_INTEGER_free(other);
		return NULL;
	}
	crl = X509_CRL_new();
	r = X509_REVOKED_new();
	X509_CRL_set_version(crl, X509_CRL_VERSION_2);
	X509_CRL_set_issuer_name(crl, X509_get_subject_name(root));
	t = X509_gmtime_adj(NULL, b % 5 == 3 ? -3 * 86400 : -86400);
	X509_CRL_set1_lastUpdate(crl, t);
	ASN1_TIME_free(t);
	t = X509_gmtime_adj(NULL, b % 5 == 3 ? -86400 : 7 * 86400);
	X509_CRL_set1_nextUpdate(crl, t);
	ASN1_INTEGER_set(other, 0x777);
	X509_REVOKED_set_serialNumber(r, b % 5 == 2 ? X509_get_serialNumber(id) : other);
	X509_REVOKED_set_revocationDate(r, t);
	ASN1_TIME_free(t);
	X509_CRL_add0_revoked(crl, r);
	if (b % 5 == 4) {
		X509V3_CTX ctx;
		X509_EXTENSION *e;

		X509V3_set_ctx(&ctx, root, NULL, NULL, crl, 0);
		e = X509V3_EXT_nconf(NULL, &ctx, "1.3.6.1.4.1.99999.2", (b & 0x80) ? "critical,DER:0500" : "DER:0500");
		if (e)
			X509_CRL_add_ext(crl, e, -1);
		X509_EXTENSION_free(e);
	}
	X509_CRL_sign(crl, (b & 0x40) ? key[OTHER] : key[CA], EVP_sha256());
	ASN1_INTEGER_free(other);
	return crl;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t der[2][2048];
	const uint8_t *certs[2] = { der[0], der[1] };
	struct in in = { data, size };
	X509 *root, *id, *alias, *extra = NULL;
	X509_CRL *crl;
	struct ota_trust *t = NULL;
	struct ota_chain_facts facts = { 0 };
	uint8_t pub[OTA_P256_PUBKEY_BYTES];
	size_t lens[2];
	char why[160];
	time_t nb, na;
	unsigned int b;
	BIO *bio;
	char *pem;
	long n;
	bool slow, fast;

	if (size > 256)
		return 0;
	root = build(&in, CA, NULL);
	id = build(&in, ID, root);
	alias = build(&in, ALIAS, id);
	b = next(&in);
	if (b % 4 == 1) { /* a twin of the root's name, another key */
		EVP_PKEY *keep = key[CA];

		key[CA] = key[OTHER];
		extra = build(&in, CA, NULL);
		key[CA] = keep;
	} else if (b % 4 == 2) {
		extra = build(&in, ID, NULL); /* another root (self-signed) named like the identity */
	}
	crl = crl_of(&in, root, id);
	lens[0] = der_of(alias, der[0], sizeof(der[0]));
	lens[1] = der_of(id, der[1], sizeof(der[1]));
	/* up to two byte flips, in either certificate */
	for (int k = 0; k < 2; k++) {
		unsigned int c = next(&in), off = next(&in) << 8 | next(&in), mask = next(&in);

		if (c & 1 && lens[c >> 7 & 1])
			der[c >> 7 & 1][off % lens[c >> 7 & 1]] ^= (uint8_t)mask;
	}
	bio = BIO_new(BIO_s_mem());
	PEM_write_bio_X509(bio, root);
	if (extra)
		PEM_write_bio_X509(bio, extra);
	n = BIO_get_mem_data(bio, &pem);
	if (lens[0] && lens[1] && ota_trust_load_pem(pem, (size_t)n, &t) == OTA_OK) {
		BIO_free(bio);
		bio = BIO_new(BIO_s_mem());
		if (crl)
			PEM_write_bio_X509_CRL(bio, crl);
		n = BIO_get_mem_data(bio, &pem);
		if (!crl || ota_trust_add_crl_pem(t, pem, (size_t)n) == OTA_OK) {
			fast = ota_fast_verify(ota_trust_fast(t), certs, lens, 2, time(NULL), &facts,
					       &nb, &na);
			slow = ota_chain_verify(t, certs, lens, 2, pub, why, sizeof(why)) == OTA_OK;
			if (getenv("OTA_FUZZ_SHOW")) /* each input's two verdicts */
				fprintf(stderr, "fast %d OpenSSL %d\n", fast, slow);
			REQUIRE(!fast || slow);
			if (fast)
				REQUIRE(!memcmp(facts.leaf_pubkey, pub, sizeof(pub)));
			EVP_PKEY_free(facts.leaf);
		}
		ota_trust_free(t);
	}
	BIO_free(bio);
	X509_CRL_free(crl);
	X509_free(root);
	X509_free(id);
	X509_free(alias);
	X509_free(extra);
	return 0;
}
