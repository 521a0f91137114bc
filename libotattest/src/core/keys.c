// SPDX-License-Identifier: MIT
/*
 * Key ids and root key slots.
 */
#include "otattest/keys.h"
#include "otattest/sha256.h"

void ota_key_id(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES], uint8_t out[OTA_KEY_ID_BYTES])
{
	ota_sha256(pubkey, OTA_P256_PUBKEY_BYTES, out);
}

bool ota_root_key_empty(const struct ota_root_key *k)
{
	return ota_all_zero(k, sizeof(*k));
}

bool ota_root_key_valid(const struct ota_root_key *k)
{
	bool spx_zero = ota_all_zero(k->spx_pubkey, sizeof(k->spx_pubkey));

	if (k->state != OTA_KEY_STATE_PROVISIONED || k->reserved != 0)
		return false;
	if (k->lifecycle_mask == 0 || (k->lifecycle_mask & ~OTA_LC_MASK_ALL))
		return false;
	/* An all-zero point is what an erased or forgotten entry looks like. */
	if (ota_all_zero(k->ecdsa_pubkey, sizeof(k->ecdsa_pubkey)))
		return false;
	switch (k->algorithm) {
	case OTA_KEY_ALG_ECDSA_P256:
		return spx_zero;
	case OTA_KEY_ALG_HYBRID:
		return !spx_zero;
	}
	return false;
}
