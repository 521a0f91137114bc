// SPDX-License-Identifier: MIT
/* Time, randomness and the ROM measurement. */
#include <string.h>
#include <time.h>

#include <openssl/rand.h>

#include "swhal_priv.h"

uint64_t hal_time_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Nominal cycles of a SWHAL_CYCLE_HZ device clock, from the same
 * monotonic clock: the model has no cycle-accurate core, so a cycle count
 * is time at the clock rate OpenTitan's Earl Grey runs at.
 */
uint64_t hal_cycles(void)
{
	return hal_time_ns() / (1000000000u / SWHAL_CYCLE_HZ);
}

ota_status_t hal_trng_fill(void *buf, uint32_t len)
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!buf && len)
		return OTA_HAL_BAD_ARGUMENT;
	/* The TRNG is the DRBG itself, not the masking pool. */
	if (len && RAND_bytes(buf, (int)len) != 1)
		return OTA_HAL_CRYPTO_FAILED;
	return OTA_OK;
}

void hal_rom_identity(uint8_t out[OTA_SHA256_BYTES])
{
	memcpy(out, swhal_dev.rom_identity, OTA_SHA256_BYTES);
}
