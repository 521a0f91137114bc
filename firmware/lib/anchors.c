// SPDX-License-Identifier: MIT
/*
 * The keys and rules each stage is verified against, from this boot's
 * OTP, owner config and boot data. Which keys and rules those are is
 * libotattest core's (stage_anchors.c), shared with otimage; this file
 * reads the inputs: the owner config from flash, the effective floor
 * max(OTP floor, boot data floor).
 */
#include <string.h>

#include "fwlib.h"

/* The creator keys ROM_EXT's anchors point into. */
static struct ota_root_key creator_keys[OTA_OTP_CREATOR_KEYS];

void boot_anchors_rom_ext(const struct boot_ctx *b, struct ota_anchors *a)
{
	ota_anchors_rom_ext(&b->otp, boot_effective_floor(b, OTA_STAGE_ROM_EXT), creator_keys, a);
}

ota_status_t boot_anchors_bl0(const struct boot_ctx *b, struct ota_owner_config *oc,
			      struct ota_anchors *a)
{
	const struct ota_flash_region *r = boot_region(b, OTA_REGION_OWNER_CONFIG);

	memset(a, 0, sizeof(*a));
	OTA_TRY(hal_flash_read(r->offset, oc, sizeof(*oc)));
	return ota_anchors_bl0(&b->otp, oc, boot_effective_floor(b, OTA_STAGE_BL0), a);
}
