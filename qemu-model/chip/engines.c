// SPDX-License-Identifier: MIT
/*
 * The SHA-256 and KMAC engine entry points of hal.h. Like the hardware
 * blocks, each runs one operation at a time: start resets the engine,
 * update and finish without a started operation are refused.
 */
#include "swhal_priv.h"

#define KMAC_MAX_OUT 64u

ota_status_t hal_sha256_start(void)
{
	ota_status_t st;

	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	st = swhal_sha_engine_start();
	swhal_dev.sha_active = st == OTA_OK;
	return st;
}

ota_status_t hal_sha256_update(const void *data, uint32_t len)
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!swhal_dev.sha_active)
		return OTA_HAL_ENGINE_IDLE;
	if (!data && len)
		return OTA_HAL_BAD_ARGUMENT;
	return len ? swhal_sha_engine_update(data, len) : OTA_OK;
}

ota_status_t hal_sha256_finish(uint8_t digest[OTA_SHA256_BYTES])
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!swhal_dev.sha_active)
		return OTA_HAL_ENGINE_IDLE;
	swhal_dev.sha_active = false;
	return swhal_sha_engine_finish(digest);
}

/* The key is sideloaded: recombined for the engine's init, then wiped. */
ota_status_t hal_kmac_start(hal_key_t key, const uint8_t *custom, uint32_t custom_len)
{
	uint8_t clear[SWHAL_KEY_BYTES];
	ota_status_t st;

	swhal_dev.kmac_active = false;
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (custom_len > SWHAL_MAX_CUSTOM || (!custom && custom_len))
		return OTA_HAL_BAD_ARGUMENT;
	st = swhal_key_use(key, HAL_KEY_PURPOSE_MAC, clear);
	if (st != OTA_OK)
		return st;
	st = swhal_kmac_engine_start(clear, custom, custom_len);
	swhal_wipe(clear, sizeof(clear));
	swhal_dev.kmac_active = st == OTA_OK;
	return st;
}

ota_status_t hal_kmac_update(const void *data, uint32_t len)
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!swhal_dev.kmac_active)
		return OTA_HAL_ENGINE_IDLE;
	if (!data && len)
		return OTA_HAL_BAD_ARGUMENT;
	return len ? swhal_kmac_engine_update(data, len) : OTA_OK;
}

ota_status_t hal_kmac_finish(uint8_t *out, uint32_t out_len)
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!swhal_dev.kmac_active)
		return OTA_HAL_ENGINE_IDLE;
	swhal_dev.kmac_active = false;
	if (!out || out_len == 0 || out_len > KMAC_MAX_OUT)
		return OTA_HAL_BAD_ARGUMENT;
	return swhal_kmac_engine_finish(out, out_len);
}

/* ---- ECDSA P-256 ---------------------------------------------------------- */

ota_status_t hal_ecdsa_verify(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
			      const uint8_t digest[OTA_SHA256_BYTES],
			      const uint8_t sig[OTA_P256_SIG_BYTES])
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!pubkey || !digest || !sig)
		return OTA_HAL_BAD_ARGUMENT;
	swhal_clock_charge(SWHAL_COST_P256_VERIFY, 1);
	return swhal_p256_verify(pubkey, digest, sig);
}

ota_status_t hal_ecdsa_sign(hal_key_t key, const uint8_t digest[OTA_SHA256_BYTES],
			    uint8_t sig[OTA_P256_SIG_BYTES])
{
	uint8_t scalar[SWHAL_KEY_BYTES];
	ota_status_t st;

	if (!digest || !sig)
		return OTA_HAL_BAD_ARGUMENT;
	st = swhal_key_use(key, HAL_KEY_PURPOSE_SIGN, scalar);
	if (st != OTA_OK)
		return st;
	swhal_clock_charge(SWHAL_COST_P256_SIGN, 1);
	st = swhal_p256_sign(scalar, digest, sig);
	swhal_wipe(scalar, sizeof(scalar));
	return st;
}

ota_status_t hal_ecdsa_pubkey(hal_key_t key, uint8_t pubkey[OTA_P256_PUBKEY_BYTES])
{
	uint8_t scalar[SWHAL_KEY_BYTES];
	ota_status_t st;

	if (!pubkey)
		return OTA_HAL_BAD_ARGUMENT;
	st = swhal_key_use(key, HAL_KEY_PURPOSE_SIGN, scalar);
	if (st != OTA_OK)
		return st;
	swhal_clock_charge(SWHAL_COST_P256_PUBKEY, 1);
	st = swhal_p256_pubkey(scalar, pubkey);
	swhal_wipe(scalar, sizeof(scalar));
	return st;
}
