/* SPDX-License-Identifier: MIT */
/*
 * SLH-DSA-SHA2-128s (FIPS 205), pure mode with an empty context string.
 *
 * One implementation serves both sides: verification is freestanding (the
 * firmware's hybrid check), key generation and signing are for the host
 * (otimage). All of it runs over the SHA-256 in sha256.h.
 *
 * Sizes (FIPS 205 Table 2): public key 32 bytes (PK.seed || PK.root),
 * secret key 64 bytes (SK.seed || SK.prf || PK.seed || PK.root),
 * signature 7856 bytes.
 */
#ifndef OTATTEST_SLHDSA_H
#define OTATTEST_SLHDSA_H

#include "status.h"
#include "types.h"

/* slh_keygen_internal: keys from the three 16-byte seeds. */
void ota_slhdsa_keygen(const uint8_t sk_seed[16], const uint8_t sk_prf[16],
		       const uint8_t pk_seed[16], uint8_t pk[OTA_SLHDSA_PK_BYTES],
		       uint8_t sk[OTA_SLHDSA_SK_BYTES]);

/*
 * slh_sign with ctx = "" : addrnd is the 16-byte opt_rand for hedged
 * signing, or NULL for the deterministic variant (opt_rand = PK.seed).
 */
void ota_slhdsa_sign(const uint8_t sk[OTA_SLHDSA_SK_BYTES], const uint8_t *msg,
		     size_t msg_len, const uint8_t *addrnd,
		     uint8_t sig[OTA_SLHDSA_SIG_BYTES]);

/* slh_verify with ctx = "": OTA_OK or OTA_SLHDSA_INVALID. */
ota_status_t ota_slhdsa_verify(const uint8_t pk[OTA_SLHDSA_PK_BYTES],
			       const uint8_t *msg, size_t msg_len,
			       const uint8_t sig[OTA_SLHDSA_SIG_BYTES]);

#endif /* OTATTEST_SLHDSA_H */
