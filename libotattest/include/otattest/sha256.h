/* SPDX-License-Identifier: MIT */
/*
 * Freestanding SHA-256 (FIPS 180-4). Used where a call into a hardware
 * engine would cost more than the hashing: the many short hashes of
 * SLH-DSA (which also reuses a midstate), and the digests of small flash
 * records. Large measurements go through the HAL's SHA-256 engine.
 * Tested against OpenSSL.
 */
#ifndef OTATTEST_SHA256_H
#define OTATTEST_SHA256_H

#include "types.h"

struct ota_sha256 {
	uint32_t h[8];
	uint64_t bytes; /* total bytes absorbed */
	uint8_t buf[64];
	uint32_t buf_len;
};

void ota_sha256_init(struct ota_sha256 *c);
void ota_sha256_update(struct ota_sha256 *c, const void *data, size_t len);
void ota_sha256_final(struct ota_sha256 *c, uint8_t out[OTA_SHA256_BYTES]);
void ota_sha256(const void *data, size_t len, uint8_t out[OTA_SHA256_BYTES]);

/* Constant-time comparison: true when equal. Never exits early. */
bool ota_ct_equal(const void *a, const void *b, size_t len);

#endif /* OTATTEST_SHA256_H */
