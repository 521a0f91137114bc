/* SPDX-License-Identifier: MIT */
/* CRLs for the verifier's revocation tests (test_verify, test_verify_rules). */
#ifndef OTATTEST_TU_CRL_H
#define OTATTEST_TU_CRL_H

#include <stddef.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

/*
 * A PEM X.509 v2 CRL issued by ca_key/ca, revoking serial (NULL: nothing),
 * from two days ago until valid_days - 1 days from now (0 or less: already
 * expired). malloc'd; its length in *len. Asserts with check.
 */
char *tu_crl_pem(EVP_PKEY *ca_key, X509 *ca, const ASN1_INTEGER *serial, long valid_days,
		 size_t *len);

/* A CRL made and signed by the caller as PEM: malloc'd, its length in *len; crl is freed. */
char *tu_crl_to_pem(X509_CRL *crl, size_t *len);

/*
 * A CRL of a scope the verifier refuses (X509_CRL_UNSUPPORTED), revoking
 * serial, current for a week, CRL number 2: a delta CRL on base 1, one
 * with an issuing distribution point (only user certificates), one
 * naming its deltas (freshestCRL), or an indirect one (the entry's
 * certificateIssuer). TU_CRL_PLAIN: the same with none of them.
 */
enum tu_crl_scope { TU_CRL_PLAIN, TU_CRL_DELTA, TU_CRL_IDP, TU_CRL_FRESHEST, TU_CRL_INDIRECT };
char *tu_crl_scoped_pem(EVP_PKEY *ca_key, X509 *ca, const ASN1_INTEGER *serial,
			enum tu_crl_scope scope, size_t *len);

#endif
