/* SPDX-License-Identifier: MIT */
/*
 * The verifier's fast path for a chain it has not seen (host internal).
 *
 * OpenSSL 3.0 spends about 100 us decoding each certificate, most of it
 * setting up a provider decoder for the public key, and a chain first
 * seen has two: more than the three ECDSA verifications that are the
 * real work. So a chain in the profile otattest issues (cert_view.h) -
 * an alias certificate under an identity certificate under one of the
 * trust store's roots - is checked here from its bytes: every rule
 * OpenSSL's strict path validation applies to that shape, and the
 * signatures with OpenSSL's EVP. An identity certificate once accepted
 * (here, or by OpenSSL's path validation with CRLs) is remembered with
 * its key, so a known device's new alias certificate costs one
 * verification. With CRLs, a new identity is checked against its root's
 * CRL when that is one plain CRL the fast path reads as OpenSSL does.
 *
 * The fast path only ever accepts: a chain it does not accept, for any
 * reason, goes to OpenSSL's path validation, which decides and explains.
 * tests/unit/test_chain_fast.c and the chain_fast fuzz target hold it to
 * that: nothing it accepts is refused by OpenSSL. Thread-safe.
 */
#ifndef OTATTEST_HOST_CHAIN_FAST_H
#define OTATTEST_HOST_CHAIN_FAST_H

#include <openssl/x509.h>

#include "chain_cache.h"

struct ota_fast;
struct ota_fast *ota_fast_new(void);
void ota_fast_free(struct ota_fast *f);

/*
 * The roots the fast path may chain to, from the store's certificates:
 * self-signed CA certificates in the profile with a name no other
 * certificate in the store shares, each with its CRL when the store has
 * CRLs. Call again when the store changes (a CRL added too).
 */
void ota_fast_set_anchors(struct ota_fast *f, X509_STORE *store);

/* Forget the identities remembered (the CRLs changed: set the anchors again too). */
void ota_fast_forget(struct ota_fast *f);

/*
 * Remember an identity certificate OpenSSL's path validation accepted
 * (with the store's CRLs, when it has some) as the issuer of a leaf in
 * a chain of exactly these two (so its own issuer is in the store), with
 * its key, from not_before to not_after. Ignored when it is not in the
 * profile.
 */
void ota_fast_put_identity(struct ota_fast *f, const uint8_t *der, size_t len, EVP_PKEY *key,
			   time_t not_before, time_t not_after);

/*
 * The fast path. true: the chain (alias, identity) is accepted at now,
 * facts filled as trust.c fills them after OpenSSL's validation (the
 * leaf key a new reference) and the period in which every certificate
 * of it is valid. false: declined, nothing filled; OpenSSL decides.
 */
bool ota_fast_verify(struct ota_fast *f, const uint8_t *const certs[],
		     const size_t lens[], uint32_t n, time_t now,
		     struct ota_chain_facts *facts, time_t *not_before, time_t *not_after);

/* What the fast path did since it was made (tests, benchmarks). */
struct ota_fast_stats {
	uint64_t accepted;    /* chains accepted */
	uint64_t identities;  /* of them, with an identity checked here (not remembered) */
	uint64_t declined;
};
void ota_fast_get_stats(struct ota_fast *f, struct ota_fast_stats *out);

/* The trust store's fast path and its counters (trust.c). */
struct ota_fast *ota_trust_fast(const struct ota_trust *t);
void ota_trust_fast_stats(const struct ota_trust *t, struct ota_fast_stats *out);

#endif /* OTATTEST_HOST_CHAIN_FAST_H */
