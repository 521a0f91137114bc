// SPDX-License-Identifier: MIT
/*
 * Host-side derivation of a device public key, for provisioning: the
 * same two functions the key manager runs (swhal_device_root, swhal_kdf),
 * so a certificate issued from this public key matches the key the device
 * will hold.
 */
#include <string.h>

#include "swhal_priv.h"

ota_status_t swhal_derive_root_pubkey(const uint8_t device_secret[32],
				      const uint8_t rom_identity[OTA_SHA256_BYTES],
				      const char *label, const uint8_t *context,
				      uint32_t context_len,
				      uint8_t pubkey[OTA_P256_PUBKEY_BYTES])
{
	uint8_t root[SWHAL_KEY_BYTES], scalar[SWHAL_KEY_BYTES];
	size_t label_len = label ? strnlen(label, SWHAL_MAX_LABEL + 1u) : 0;
	ota_status_t st;

	if (!device_secret || !rom_identity || !pubkey || label_len == 0 ||
	    label_len > SWHAL_MAX_LABEL || context_len > SWHAL_MAX_CONTEXT ||
	    (!context && context_len))
		return OTA_HAL_BAD_ARGUMENT;
	if (swhal_crypto_init() != 0)
		return OTA_HAL_CRYPTO_FAILED;
	st = swhal_device_root(device_secret, rom_identity, root);
	if (st == OTA_OK)
		st = swhal_kdf(root, label, context, context_len, 0, HAL_KEY_KIND_ECDSA_P256, scalar);
	if (st == OTA_OK)
		st = swhal_p256_pubkey(scalar, pubkey);
	swhal_wipe(root, sizeof(root));
	swhal_wipe(scalar, sizeof(scalar));
	return st;
}
