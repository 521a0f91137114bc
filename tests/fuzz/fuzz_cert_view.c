// SPDX-License-Identifier: MIT
/*
 * The verifier's certificate view (libotattest/src/host/cert_view.c) on
 * hostile bytes, against OpenSSL as the independent reader. The fast
 * path (chain_fast.c) trusts a view to mean to OpenSSL exactly what its
 * fields say, so whenever the view takes a certificate: OpenSSL decodes
 * the same bytes as one whole certificate, version 3, with no invalid or
 * unhandled critical extension, and reads the same TBS, names, validity,
 * key, CA flag and path length, key usage and key ids. And two names the
 * view compares agree with X509_NAME_cmp. Input: one certificate, or two
 * back to back (the first's length from its header) for the name
 * comparison.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "../../libotattest/src/host/cert_view.h"
#include "fuzz_require.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static time_t seconds(const ASN1_TIME *a)
{
	struct tm tm;

	REQUIRE(a != NULL && ASN1_TIME_to_tm(a, &tm) == 1);
	return timegm(&tm);
}

static void same_name(const X509_NAME *n, const struct der *v)
{
	const unsigned char *p = NULL;
	size_t len = 0;

	REQUIRE(X509_NAME_get0_der(n, &p, &len) == 1);
	REQUIRE(len == v->n && memcmp(p, v->p, len) == 0);
}

static void same_octets(const ASN1_OCTET_STRING *o, const struct der *v)
{
	if (v->p == NULL) {
		REQUIRE(o == NULL);
		return;
	}
	REQUIRE(o != NULL && (size_t)ASN1_STRING_length(o) == v->n &&
		memcmp(ASN1_STRING_get0_data(o), v->p, v->n) == 0);
}

/* OpenSSL reads what the view read. */
static X509 *check_view(const uint8_t *der, size_t len, const struct ota_cert_view *v)
{
	const unsigned char *p = der;
	X509 *x = d2i_X509(NULL, &p, (long)len);
	uint8_t point[1 + OTA_P256_PUBKEY_BYTES];
	unsigned char *tbs = NULL;
	size_t n = 0;
	int tbs_len;
	uint32_t flags;

	REQUIRE(x != NULL && p == der + len);
	REQUIRE(X509_get_version(x) == X509_VERSION_3);
	flags = X509_get_extension_flags(x);
	REQUIRE(!(flags & (EXFLAG_INVALID | EXFLAG_CRITICAL)));
	tbs_len = i2d_re_X509_tbs(x, &tbs);
	REQUIRE(tbs_len > 0 && (size_t)tbs_len == v->tbs.n && !memcmp(tbs, v->tbs.p, v->tbs.n));
	OPENSSL_free(tbs);
	same_name(X509_get_subject_name(x), &v->subject);
	same_name(X509_get_issuer_name(x), &v->issuer);
	REQUIRE(seconds(X509_get0_notBefore(x)) == v->not_before);
	REQUIRE(seconds(X509_get0_notAfter(x)) == v->not_after);
	/* The key is decoded lazily by OpenSSL; a point off the curve leaves none. */
	if (X509_get0_pubkey(x) != NULL) {
		REQUIRE(EVP_PKEY_get_octet_string_param(X509_get0_pubkey(x), "encoded-pub-key",
							point, sizeof(point), &n) == 1);
		REQUIRE(n == sizeof(point) && !memcmp(point + 1, v->pubkey, OTA_P256_PUBKEY_BYTES));
	}
	/* basicConstraints' cA; OpenSSL's CA also needs keyCertSign, as the fast path asks. */
	REQUIRE(((flags & EXFLAG_CA) != 0) == v->ca);
	REQUIRE((X509_check_ca(x) == 1) == (v->ca && (v->key_usage & OTA_KU_KEY_CERT_SIGN)));
	REQUIRE(X509_get_pathlen(x) == v->pathlen);
	REQUIRE((flags & EXFLAG_KUSAGE) && (X509_get_key_usage(x) & 0xffu) == v->key_usage &&
		!(X509_get_key_usage(x) & ~0xffu));
	same_octets(X509_get0_subject_key_id(x), &v->skid);
	same_octets(X509_get0_authority_key_id(x), &v->akid);
	if (v->akid.p)
		REQUIRE(X509_get0_authority_issuer(x) == NULL &&
			X509_get0_authority_serial(x) == NULL);
	return x;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ota_cert_view a, b;
	size_t first = size;
	X509 *xa = NULL, *xb = NULL;
	enum ota_names_cmp c;

	/* Two certificates: the first's DER length from its header, when it fits. */
	if (size > 4 && data[0] == 0x30 && data[1] == 0x82) {
		size_t n = 4 + ((size_t)data[2] << 8 | data[3]);

		if (n < size)
			first = n;
	}
	if (ota_cert_view_parse(data, first, &a))
		xa = check_view(data, first, &a);
	if (first < size && ota_cert_view_parse(data + first, size - first, &b)) {
		xb = check_view(data + first, size - first, &b);
		if (xa) {
			c = ota_cert_names_cmp(a.subject.p, a.subject.n, b.subject.p, b.subject.n);
			if (c != OTA_NAMES_UNKNOWN)
				REQUIRE((c == OTA_NAMES_EQUAL) ==
					(X509_NAME_cmp(X509_get_subject_name(xa),
						       X509_get_subject_name(xb)) == 0));
			c = ota_cert_names_cmp(a.issuer.p, a.issuer.n, b.subject.p, b.subject.n);
			if (c != OTA_NAMES_UNKNOWN)
				REQUIRE((c == OTA_NAMES_EQUAL) ==
					(X509_NAME_cmp(X509_get_issuer_name(xa),
						       X509_get_subject_name(xb)) == 0));
		}
	}
	/* A name against itself: always equal when the view can read it. */
	if (xa)
		REQUIRE(ota_cert_names_cmp(a.subject.p, a.subject.n, a.subject.p, a.subject.n) ==
			OTA_NAMES_EQUAL);
	X509_free(xa);
	X509_free(xb);
	return 0;
}
