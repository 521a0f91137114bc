// SPDX-License-Identifier: MIT
/*
 * Host-side derivation of a public key ROM_EXT holds, for tests: the same
 * functions the key manager runs (swhal_device_root, swhal_kdf) in the
 * same order, so a key computed here matches the device's (swhal.h).
 */
#include <string.h>

#include "swhal_priv.h"

ota_status_t swhal_derive_rom_ext_pubkey(const uint8_t device_secret[32],
					 const uint8_t rom_identity[OTA_SHA256_BYTES],
					 const uint8_t rom_ext_attest[OTA_SHA256_BYTES],
					 const char *label, const uint8_t *context,
					 uint32_t context_len,
					 uint8_t pubkey[OTA_P256_PUBKEY_BYTES])
{
	uint8_t root[SWHAL_KEY_BYTES], cdi[SWHAL_KEY_BYTES], scalar[SWHAL_KEY_BYTES];
	uint8_t ctx[4 + OTA_SHA256_BYTES] = { HAL_KEYMGR_ROM_EXT, 0, 0, 0 };
	size_t label_len = label ? strnlen(label, SWHAL_MAX_LABEL + 1u) : 0;
	ota_status_t st;

	if (!device_secret || !rom_identity || !rom_ext_attest || !pubkey || label_len == 0 ||
	    label_len > SWHAL_MAX_LABEL || context_len > SWHAL_MAX_CONTEXT ||
	    (!context && context_len))
		return OTA_HAL_BAD_ARGUMENT;
	if (swhal_crypto_init() != 0)
		return OTA_HAL_CRYPTO_FAILED;
	memcpy(ctx + 4, rom_ext_attest, OTA_SHA256_BYTES);
	st = swhal_device_root(device_secret, rom_identity, root);
	if (st == OTA_OK)
		st = swhal_kdf(root, "otattest-keymgr-attest", ctx, sizeof(ctx), 0,
			       HAL_KEY_PURPOSE_KDF, cdi);
	if (st == OTA_OK)
		st = swhal_kdf(cdi, label, context, context_len, 0, HAL_KEY_PURPOSE_SIGN, scalar);
	if (st == OTA_OK)
		st = swhal_p256_pubkey(scalar, pubkey);
	swhal_wipe(root, sizeof(root));
	swhal_wipe(cdi, sizeof(cdi));
	swhal_wipe(scalar, sizeof(scalar));
	return st;
}
