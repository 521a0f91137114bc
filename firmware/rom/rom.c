// SPDX-License-Identifier: MIT
/*
 * ROM: the immutable first stage. It verifies ROM_EXT with the creator
 * keys fused into OTP and nothing else: no delegation (depth 0), images
 * signed directly by a creator key, hybrid when that key is hybrid. The
 * effective floor is max(OTP floor, boot data floor) for ROM_EXT.
 */
#include <string.h>

#include <otattest/keys.h>

#include "../lib/fwlib.h"

void rom_anchors(const struct boot_ctx *b, struct boot_anchors *a)
{
	static struct ota_root_key keys[OTA_OTP_CREATOR_KEYS];
	uint32_t i;

	memset(a, 0, sizeof(*a));
	/* Only provisioned slots can ever match an image's key id. */
	for (i = 0; i < OTA_OTP_CREATOR_KEYS; i++) {
		if (!ota_root_key_valid(&b->otp.creator_keys[i]))
			continue;
		keys[a->count] = b->otp.creator_keys[i];
		ota_key_id(keys[a->count].ecdsa_pubkey, a->key_ids[a->count]);
		a->revoked[a->count] = b->otp.creator_key_revoked[i];
		a->count++;
	}
	a->keys = keys;
	a->max_depth = 0;
	a->direct_allowed = true;
	a->hybrid_required = false;
	a->floor = boot_effective_floor(b, OTA_STAGE_ROM_EXT);
	a->svn_max = OTA_SVN_LIMIT;
}

/* ROM's one job: pick and verify a ROM_EXT slot (A breaks SVN ties). */
ota_status_t rom_verify_rom_ext(struct boot_ctx *b, uint32_t mode, struct boot_stage_outcome *out)
{
	struct boot_anchors a;
	uint32_t order[OTA_SLOT_COUNT];

	rom_anchors(b, &a);
	boot_slot_order(b, OTA_STAGE_ROM_EXT, OTA_SLOT_A, order);
	boot_run_stage(b, &a, OTA_STAGE_ROM_EXT, order, mode, out);
	return out->status;
}
