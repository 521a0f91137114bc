/* SPDX-License-Identifier: MIT */
/* Key helpers shared by keys.c, spxkey.c and ecdsa.c. */
#ifndef OTATTEST_OTIMAGE_KEYS_H
#define OTATTEST_OTIMAGE_KEYS_H

#include "otimage.h"

/* A P-256 EVP_PKEY for a raw public key; SIG_BAD_PUBKEY when off the curve. */
ota_status_t oti_pkey_from_raw(const uint8_t pub[OTA_P256_PUBKEY_BYTES], EVP_PKEY **out);

/* Fresh SLH-DSA-SHA2-128s key pair into k (spx_pk, spx_sk). */
ota_status_t oti_spx_generate(struct oti_key *k);
/* Parse an SLH-DSA key file into k; kind tells whether it held the secret key. */
ota_status_t oti_spx_parse(const uint8_t *buf, size_t len, struct oti_key *k, bool *secret);
void oti_spx_encode(const struct oti_key *k, bool public_only, struct oti_spx_keyfile *out);

#endif
