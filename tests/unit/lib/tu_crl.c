// SPDX-License-Identifier: MIT
/* CRLs made with OpenSSL's own CRL writer, for the revocation tests. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include "tu_crl.h"

char *tu_crl_pem(EVP_PKEY *ca_key, X509 *ca, const ASN1_INTEGER *serial, long valid_days,
		 size_t *len)
{
	X509_CRL *crl = X509_CRL_new();
	ASN1_TIME *last = ASN1_TIME_adj(NULL, time(NULL), -2, 0);
	ASN1_TIME *next = ASN1_TIME_adj(NULL, time(NULL), valid_days - 1, 0);

	ck_assert_ptr_nonnull(crl);
	ck_assert_int_eq(X509_CRL_set_version(crl, X509_CRL_VERSION_2), 1);
	ck_assert_int_eq(X509_CRL_set_issuer_name(crl, X509_get_subject_name(ca)), 1);
	ck_assert_int_eq(X509_CRL_set1_lastUpdate(crl, last), 1);
	ck_assert_int_eq(X509_CRL_set1_nextUpdate(crl, next), 1);
	if (serial) {
		X509_REVOKED *r = X509_REVOKED_new();

		ck_assert_int_eq(X509_REVOKED_set_serialNumber(r, (ASN1_INTEGER *)serial), 1);
		ck_assert_int_eq(X509_REVOKED_set_revocationDate(r, last), 1);
		ck_assert_int_eq(X509_CRL_add0_revoked(crl, r), 1);
	}
	ck_assert_int_gt(X509_CRL_sign(crl, ca_key, EVP_sha256()), 0);
	ASN1_TIME_free(last);
	ASN1_TIME_free(next);
	return tu_crl_to_pem(crl, len);
}

char *tu_crl_to_pem(X509_CRL *crl, size_t *len)
{
	BIO *bio = BIO_new(BIO_s_mem());
	char *data, *out;
	long n;

	ck_assert_int_eq(PEM_write_bio_X509_CRL(bio, crl), 1);
	n = BIO_get_mem_data(bio, &data);
	out = malloc((size_t)n);
	ck_assert_ptr_nonnull(out);
	memcpy(out, data, (size_t)n);
	*len = (size_t)n;
	BIO_free(bio);
	X509_CRL_free(crl);
	return out;
}

/* The extension of each scope, as OpenSSL's configuration writes it (DER where it has no syntax). */
static X509_EXTENSION *scope_ext(X509 *ca, X509_CRL *crl, const char *name, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *e;

	X509V3_set_ctx(&ctx, ca, NULL, NULL, crl, 0);
	e = X509V3_EXT_nconf(NULL, &ctx, name, value);
	ck_assert_msg(e != NULL, "extension %s", name);
	return e;
}

char *tu_crl_scoped_pem(EVP_PKEY *ca_key, X509 *ca, const ASN1_INTEGER *serial,
			enum tu_crl_scope scope, size_t *len)
{
	X509_CRL *crl = X509_CRL_new();
	ASN1_TIME *last = ASN1_TIME_adj(NULL, time(NULL), -1, 0);
	ASN1_TIME *next = ASN1_TIME_adj(NULL, time(NULL), 7, 0);
	X509_REVOKED *r = X509_REVOKED_new();
	X509_EXTENSION *e;

	ck_assert_int_eq(X509_CRL_set_version(crl, X509_CRL_VERSION_2), 1);
	ck_assert_int_eq(X509_CRL_set_issuer_name(crl, X509_get_subject_name(ca)), 1);
	ck_assert_int_eq(X509_CRL_set1_lastUpdate(crl, last), 1);
	ck_assert_int_eq(X509_CRL_set1_nextUpdate(crl, next), 1);
	ck_assert_int_eq(X509_REVOKED_set_serialNumber(r, (ASN1_INTEGER *)serial), 1);
	ck_assert_int_eq(X509_REVOKED_set_revocationDate(r, last), 1);
	if (scope == TU_CRL_INDIRECT) {
		/* certificateIssuer: DNS name "ca.example" (critical, RFC 5280 5.3.3) */
		e = scope_ext(ca, crl, "certificateIssuer", "critical,DER:300c820a63612e6578616d706c65");
		ck_assert_int_eq(X509_REVOKED_add_ext(r, e, -1), 1);
		X509_EXTENSION_free(e);
	}
	ck_assert_int_eq(X509_CRL_add0_revoked(crl, r), 1);
	/* CRL number 2; a delta's base is CRL number 1. */
	e = scope_ext(ca, crl, "crlNumber", "DER:020102");
	X509_CRL_add_ext(crl, e, -1);
	X509_EXTENSION_free(e);
	if (scope == TU_CRL_DELTA)
		e = scope_ext(ca, crl, "deltaCRL", "critical,DER:020101");
	else if (scope == TU_CRL_IDP) /* onlyContainsUserCerts */
		e = scope_ext(ca, crl, "issuingDistributionPoint", "critical,DER:30038101ff");
	else if (scope == TU_CRL_FRESHEST) /* the deltas at http://x */
		e = scope_ext(ca, crl, "freshestCRL", "DER:3010300ea00ca00a8608687474703a2f2f78");
	else
		e = NULL;
	if (e) {
		ck_assert_int_eq(X509_CRL_add_ext(crl, e, -1), 1);
		X509_EXTENSION_free(e);
	}
	ck_assert_int_gt(X509_CRL_sign(crl, ca_key, EVP_sha256()), 0);
	ASN1_TIME_free(last);
	ASN1_TIME_free(next);
	return tu_crl_to_pem(crl, len);
}
