/* SPDX-License-Identifier: MIT */
/*
 * What a trust store remembers about the certificate chains it verified
 * (host internal). A device sends the same x5chain (alias certificate,
 * identity certificate) in every evidence until its firmware changes, and
 * checking that chain is most of an evidence's cost: X.509 decoding, path
 * validation, two of the three ECDSA verifications. So a chain that
 * verified is remembered under the SHA-256 of its bytes, with its leaf
 * key ready for the evidence signature and what the verifier reads from
 * the alias certificate; the next evidence with the same chain checks the
 * signature and nothing else of it.
 *
 * Only chains that verified are kept (a failure is worked out afresh each
 * time, with its reasons), only as long as every certificate in the
 * chain is within its validity period, in a bounded table. Thread-safe.
 */
#ifndef OTATTEST_HOST_CHAIN_CACHE_H
#define OTATTEST_HOST_CHAIN_CACHE_H

#include <time.h>

#include <openssl/evp.h>

#include "otattest/verify.h"

/* What a verified chain yields. */
struct ota_chain_facts {
	uint8_t leaf_pubkey[OTA_P256_PUBKEY_BYTES];
	/* The same key made once, for ota_cose_sign1_verify_pkey: a reference, or NULL. */
	EVP_PKEY *leaf;
	ota_status_t alias_st; /* ota_alias_cert_info of the leaf */
	struct ota_alias_info alias;
	/* ota_identity_cert_info of the second certificate (when there is one) */
	ota_status_t identity_st;
	struct ota_identity_info identity;
};

/* The facts above that are read from the certificates' bytes (alias, identity). */
void ota_chain_facts_read(const uint8_t *const certs[], const size_t lens[], uint32_t count,
			  struct ota_chain_facts *facts);

/* The name of an x5chain: SHA-256 over its certificates' lengths and bytes. */
void ota_chain_key(const uint8_t *const certs[], const size_t lens[], uint32_t count,
		   uint8_t key[OTA_SHA256_BYTES]);

struct ota_chain_cache;
struct ota_chain_cache *ota_chain_cache_new(void);
void ota_chain_cache_free(struct ota_chain_cache *c);

/*
 * The facts remembered for key when every certificate of the chain is
 * valid at now: true, and *out filled (out->leaf is a new reference the
 * caller frees). false otherwise.
 */
bool ota_chain_cache_get(struct ota_chain_cache *c, const uint8_t key[OTA_SHA256_BYTES],
			 time_t now, struct ota_chain_facts *out);
/*
 * Remember the facts of a chain that verified, valid from not_before to
 * not_after (the intersection of its certificates' periods). The cache
 * takes its own reference to facts->leaf. Replaces whatever held the slot.
 */
void ota_chain_cache_put(struct ota_chain_cache *c, const uint8_t key[OTA_SHA256_BYTES],
			 const struct ota_chain_facts *facts, time_t not_before, time_t not_after);

/* Lookups answered and not since the cache was made (tests, benchmarks). */
void ota_chain_cache_stats(struct ota_chain_cache *c, uint64_t *hits, uint64_t *misses);

/*
 * ota_chain_verify through the trust store's cache: the chain's facts on
 * OTA_OK (from the cache, or worked out and remembered); on failure the
 * same status and reason as ota_chain_verify, and nothing remembered.
 * facts->leaf is a reference the caller frees (EVP_PKEY_free).
 */
ota_status_t ota_chain_verify_cached(const struct ota_trust *t, const uint8_t *const certs[],
				     const size_t lens[], uint32_t count,
				     struct ota_chain_facts *facts, char *why, size_t why_len);

/*
 * Evidence whose identity changed hands (handover.h): the identity
 * certificate (certs[1]) verified to the trust store on its own, the
 * alias certificate (certs[0]) an end entity in its name, the hand-overs
 * walked from the identity it certifies (ota_handover_chain_check, whose
 * statuses come back as they are), and the alias certificate signed by
 * the key the last one leads to. The facts on OTA_OK (not cached);
 * *version the identity version reached.
 */
ota_status_t ota_chain_verify_handovers(const struct ota_trust *t, const uint8_t *const certs[],
					const size_t lens[], uint32_t count,
					const uint8_t *const ho[], const size_t ho_lens[],
					uint32_t ho_count, struct ota_chain_facts *facts,
					uint32_t *version, char *why, size_t why_len);
/*
 * An x5chain that failed path validation because a hand-over is missing:
 * the identity certificate verifies to the store on its own and the alias
 * certificate is in its name, but names another issuer key (authority key
 * id) and the identity's key did not sign it.
 */
bool ota_chain_handover_missing(const struct ota_trust *t, const uint8_t *const certs[],
				const size_t lens[], uint32_t count);

/* The trust store's cache's lookups answered and not (trust.c). */
void ota_trust_cache_stats(const struct ota_trust *t, uint64_t *hits, uint64_t *misses);

#endif /* OTATTEST_HOST_CHAIN_CACHE_H */
