// SPDX-License-Identifier: MIT
/*
 * The keys and rules each stage is verified against. Shared because the
 * stage that boots an image, the runtime's pre-check of an update and
 * otimage must judge it the same way.
 *
 * ROM_EXT (checked by ROM): the creator keys fused into OTP and nothing
 * else - no delegation (depth 0), images signed directly by a creator key,
 * hybrid when that key is hybrid.
 *
 * BL0 (checked by ROM_EXT): the owner config, authenticated by the
 * SHA-256 provisioned in OTP, then structurally checked. Its keys (minus
 * those revoked in OTP), maximum delegation depth, direct-boot and hybrid
 * rules; BL0's SVN may not exceed the key chain's length (chain_max_svn).
 *
 * The caller passes the effective floor of the stage, max(OTP floor, boot
 * data floor): the boot data is the firmware's to read.
 */
#include <string.h>

#include "otattest/keys.h"
#include "otattest/sha256.h"
#include "otattest/stage_check.h"

static void device_facts(const struct ota_otp_info *otp, struct ota_anchors *a)
{
	a->lifecycle = otp->lifecycle;
	memcpy(a->device_id, otp->device_id, sizeof(a->device_id));
}

void ota_anchors_rom_ext(const struct ota_otp_info *otp, uint32_t floor,
			 struct ota_root_key keys[OTA_OTP_CREATOR_KEYS], struct ota_anchors *a)
{
	uint32_t i;

	memset(a, 0, sizeof(*a));
	/* Only provisioned slots can ever match an image's key id. */
	for (i = 0; i < OTA_OTP_CREATOR_KEYS; i++) {
		if (!ota_root_key_valid(&otp->creator_keys[i]))
			continue;
		keys[a->count] = otp->creator_keys[i];
		ota_key_id(keys[a->count].ecdsa_pubkey, a->key_ids[a->count]);
		a->revoked[a->count] = otp->creator_key_revoked[i];
		a->count++;
	}
	a->keys = keys;
	a->max_depth = 0;
	a->direct_allowed = true;
	a->hybrid_required = false;
	a->floor = floor;
	a->svn_max = OTA_SVN_LIMIT;
	device_facts(otp, a);
}

ota_status_t ota_anchors_bl0(const struct ota_otp_info *otp, const struct ota_owner_config *oc,
			     uint32_t floor, struct ota_anchors *a)
{
	uint8_t digest[OTA_SHA256_BYTES];
	uint32_t i;

	memset(a, 0, sizeof(*a));
	/* Authenticate first: nothing in an unauthenticated config means anything. */
	ota_sha256(oc, sizeof(*oc), digest);
	if (!ota_ct_equal(digest, otp->owner_config_digest, sizeof(digest)))
		return OTA_OWNER_DIGEST_MISMATCH;
	OTA_TRY(ota_owner_config_check(oc));

	a->keys = oc->keys;
	a->count = oc->key_count;
	for (i = 0; i < a->count; i++) {
		ota_key_id(oc->keys[i].ecdsa_pubkey, a->key_ids[i]);
		a->revoked[i] = otp->owner_key_revoked[i];
	}
	a->max_depth = oc->max_delegation_depth;
	a->direct_allowed = (oc->flags & OTA_OWNER_F_DIRECT_BOOT) != 0;
	a->hybrid_required = (oc->flags & OTA_OWNER_F_HYBRID_REQUIRED) != 0;
	a->floor = floor;
	a->svn_max = otp->chain_max_svn;
	device_facts(otp, a);
	return OTA_OK;
}
