/* SPDX-License-Identifier: MIT */
/*
 * Fixtures shared by the unit tests (libtestutil.a): independent
 * reference computations over OpenSSL, and an emulated device in memory.
 */
#ifndef OTATTEST_TESTUTIL_H
#define OTATTEST_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include <otattest/otp.h>

#include "hal.h"

/* Reference SHA-256 and KMAC256 (EVP one-shot, not the HAL's code path). */
void tu_sha256(const void *data, size_t len, uint8_t out[32]);
void tu_kmac256(const uint8_t key[32], const char *custom, const void *msg, size_t len,
		uint8_t *out, size_t out_len);
/*
 * SP 800-108r1 KMAC KDF as the spec reads, with the HAL's fixed input:
 * KMAC256(K, ctx || LE32(ver) || LE32(purpose), 256, label).
 */
void tu_kdf(const uint8_t parent[32], const char *label, const void *ctx, size_t ctx_len,
	    uint32_t key_version, uint32_t purpose, uint8_t out[32]);

/* A key manager binding for tests that advance the state by hand. */
extern const struct hal_keymgr_binding tu_binding;

/* An OTP image holding only a device secret and its partition digest. */
void tu_otp_secret_only(struct ota_otp *otp, const uint8_t secret[32]);

/* Open the emulated device in memory (flash_size 0: default) and power it on. */
void tu_hal_open_memory(uint32_t flash_size);
/* tu_bus_rd: a 32-bit read on the chip's bus that must succeed. */
uint32_t tu_bus_rd(uint32_t addr);
void tu_hal_close(void);
/* Bytes equal to v in raw flash [addr, addr + len), len at most one page (swhal_peek_flash). */
uint32_t tu_flash_count_byte(uint32_t addr, uint32_t len, uint8_t v);

/* A fresh temporary state directory (removed by tu_rmdir_state). */
char *tu_mkdtemp(void);
void tu_rmdir_state(char *dir);

#endif /* OTATTEST_TESTUTIL_H */
