// SPDX-License-Identifier: MIT
/*
 * A revocation command checked against this device, as the runtime's
 * pre-check and ROM_EXT both need it: the creator keys from OTP, the
 * owner keys from the owner config OTP authenticates (an owner config
 * that does not authenticate signs nothing), and what runs. The check
 * itself is libotattest core's (ota_revocation_check) with the device's
 * ECDSA engine.
 */
#include <string.h>

#include "fwlib.h"

/* The owner config the revocation is judged against. */
static struct ota_owner_config revoke_oc;

ota_status_t boot_revocation_check(const struct boot_ctx *b, const struct ota_revocation *r,
				   const uint32_t svn[OTA_STAGE_COUNT],
				   const uint8_t *const root[OTA_STAGE_COUNT])
{
	return boot_revocation_check_hybrid(b, r, NULL, svn, root);
}

ota_status_t boot_revocation_staging(const struct boot_ctx *b, const struct ota_flash_region **out)
{
	const struct ota_flash_region *reg = boot_region(b, OTA_REGION_REVOCATION);

	if (!reg || reg->size < sizeof(struct ota_revocation_hybrid))
		return OTA_REVOKE_NO_STAGING;
	*out = reg;
	return OTA_OK;
}

ota_status_t boot_revocation_check_hybrid(const struct boot_ctx *b, const struct ota_revocation *r,
					  const uint8_t spx[OTA_SLHDSA_SIG_BYTES],
					  const uint32_t svn[OTA_STAGE_COUNT],
					  const uint8_t *const root[OTA_STAGE_COUNT])
{
	struct ota_anchors creator, owner;
	struct ota_revocation_facts f;
	uint32_t i;

	memset(&f, 0, sizeof(f));
	f.otp = &b->otp;
	boot_anchors_rom_ext(b, &creator);
	f.creator = &creator;
	f.owner = boot_anchors_bl0(b, &revoke_oc, &owner) == OTA_OK ? &owner : NULL;
	for (i = 0; i < OTA_STAGE_COUNT; i++) {
		f.running_svn[i] = svn[i];
		memcpy(f.running_root[i], root[i], OTA_KEY_ID_BYTES);
	}
	return ota_revocation_check_hybrid(r, spx, &f, hal_ecdsa_verify);
}
