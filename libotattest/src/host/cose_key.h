/* SPDX-License-Identifier: MIT */
/* The evidence signature checked with a key already made (host internal). */
#ifndef OTATTEST_HOST_COSE_KEY_H
#define OTATTEST_HOST_COSE_KEY_H

#include <openssl/evp.h>

#include "otattest/verify.h"

/*
 * ota_cose_sign1_verify with the alias key as an EVP_PKEY (a cached
 * chain's, chain_cache.h), so it is not decoded again for every evidence.
 */
ota_status_t ota_cose_sign1_verify_pkey(const struct ota_cose_sign1 *m, EVP_PKEY *pkey);

/* An EVP_PKEY for a P-256 point x || y; NULL when it is not one (not on the curve). */
EVP_PKEY *ota_p256_public_key(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES]);

/* Raw r || s (64 bytes) to the DER ECDSA-Sig-Value EVP expects; its length, or -1. OPENSSL_free it. */
int ota_p256_sig_to_der(const uint8_t *raw, uint8_t **der);

#endif /* OTATTEST_HOST_COSE_KEY_H */
