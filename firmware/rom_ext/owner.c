// SPDX-License-Identifier: MIT
/*
 * ROM_EXT's trust anchors for BL0: the owner config in flash,
 * authenticated by the SHA-256 provisioned in OTP, then structurally
 * checked. Its keys (minus those revoked in OTP), maximum delegation
 * depth, direct-boot and hybrid rules are what BL0 is checked against;
 * BL0's SVN may not exceed the key chain's length (chain_max_svn).
 */
#include <string.h>

#include <otattest/keys.h>
#include <otattest/sha256.h>

#include "../lib/fwlib.h"

ota_status_t rom_ext_anchors(const struct boot_ctx *b, struct ota_owner_config *oc,
			     struct boot_anchors *a)
{
	const struct ota_flash_region *r = boot_region(b, OTA_REGION_OWNER_CONFIG);
	uint8_t digest[OTA_SHA256_BYTES];
	uint32_t i;

	memset(a, 0, sizeof(*a));
	OTA_TRY(hal_flash_read(r->offset, oc, sizeof(*oc)));
	/* Authenticate first: nothing in an unauthenticated config means anything. */
	ota_sha256(oc, sizeof(*oc), digest);
	if (!ota_ct_equal(digest, b->otp.owner_config_digest, sizeof(digest)))
		return OTA_OWNER_DIGEST_MISMATCH;
	OTA_TRY(ota_owner_config_check(oc));

	a->keys = oc->keys;
	a->count = oc->key_count;
	for (i = 0; i < a->count; i++) {
		ota_key_id(oc->keys[i].ecdsa_pubkey, a->key_ids[i]);
		a->revoked[i] = b->otp.owner_key_revoked[i];
	}
	a->max_depth = oc->max_delegation_depth;
	a->direct_allowed = (oc->flags & OTA_OWNER_F_DIRECT_BOOT) != 0;
	a->hybrid_required = (oc->flags & OTA_OWNER_F_HYBRID_REQUIRED) != 0;
	a->floor = boot_effective_floor(b, OTA_STAGE_BL0);
	a->svn_max = b->otp.chain_max_svn;
	return OTA_OK;
}
