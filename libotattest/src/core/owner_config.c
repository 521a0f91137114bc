// SPDX-License-Identifier: MIT
/*
 * The owner config: BL0's root keys and delegation policy. Its integrity
 * comes from the digest in OTP (checked by the caller); this is the
 * structural check of what the digest vouches for.
 */
#include <string.h>

#include "otattest/flash.h"
#include "otattest/keys.h"

ota_status_t ota_owner_config_check(const struct ota_owner_config *oc)
{
	uint32_t i, j;

	if (oc->magic != OTA_OWNER_MAGIC)
		return OTA_OWNER_BAD_MAGIC;
	if (oc->version != OTA_OWNER_VERSION)
		return OTA_OWNER_BAD_VERSION;
	if (oc->size != sizeof(*oc))
		return OTA_OWNER_BAD_SIZE;
	if (oc->reserved != 0 || !ota_all_zero(oc->reserved2, sizeof(oc->reserved2)))
		return OTA_OWNER_RESERVED_NONZERO;
	if (oc->max_delegation_depth > OTA_MAX_DELEGATION_DEPTH)
		return OTA_OWNER_BAD_DEPTH;
	if (oc->flags & ~OTA_OWNER_F_ALL)
		return OTA_OWNER_UNKNOWN_FLAGS;
	if (oc->key_count < 1 || oc->key_count > OTA_OWNER_MAX_KEYS)
		return OTA_OWNER_BAD_KEYS;
	for (i = 0; i < oc->key_count; i++) {
		const struct ota_root_key *k = &oc->keys[i];

		if (!ota_root_key_valid(k))
			return OTA_OWNER_BAD_KEYS;
		/* Hybrid required and an ECDSA-only key: a key nothing could ever pass. */
		if ((oc->flags & OTA_OWNER_F_HYBRID_REQUIRED) && k->algorithm != OTA_KEY_ALG_HYBRID)
			return OTA_OWNER_BAD_KEYS;
		/* Two entries for one key would make lookup by key id ambiguous. */
		for (j = 0; j < i; j++)
			if (memcmp(k->ecdsa_pubkey, oc->keys[j].ecdsa_pubkey,
				   sizeof(k->ecdsa_pubkey)) == 0)
				return OTA_OWNER_BAD_KEYS;
	}
	for (i = oc->key_count; i < OTA_OWNER_MAX_KEYS; i++)
		if (!ota_root_key_empty(&oc->keys[i]))
			return OTA_OWNER_RESERVED_NONZERO;
	return OTA_OK;
}
