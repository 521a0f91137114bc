/* SPDX-License-Identifier: MIT */
/*
 * Key identity and root key slots, shared by the OTP creator keys, the
 * owner config keys and the delegation chain.
 */
#ifndef OTATTEST_KEYS_H
#define OTATTEST_KEYS_H

#include "common.h"

/*
 * The key id of a P-256 public key: SHA-256 over the 64-byte raw point
 * (X || Y, big-endian). Manifests, certificates and boot records name
 * keys only by this id, so there is exactly one way to compute it.
 */
void ota_key_id(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
		uint8_t out[OTA_KEY_ID_BYTES]);

/*
 * A provisioned root key entry is well formed: state PROVISIONED, a known
 * algorithm, a non-empty lifecycle mask of known states, zero reserved
 * word, and an SLH-DSA public key that is zero unless the key is HYBRID
 * (and, for HYBRID, not zero). Says nothing about whether the point is on
 * the curve: the signature engine refuses that with SIG_BAD_PUBKEY.
 */
bool ota_root_key_valid(const struct ota_root_key *k);

/* An unused slot: every byte zero. */
bool ota_root_key_empty(const struct ota_root_key *k);

#endif /* OTATTEST_KEYS_H */
