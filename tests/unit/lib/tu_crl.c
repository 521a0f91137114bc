// SPDX-License-Identifier: MIT
/* CRLs made with OpenSSL's own CRL writer, for the revocation tests. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/pem.h>

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
