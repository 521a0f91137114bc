// SPDX-License-Identifier: MIT
/*
 * Boot data: the soft floors, the primary BL0 slot and the authoritative
 * tag key version, as two copies in flash (flash.h).
 *
 * With no intact copy a device in TEST_UNLOCKED, DEV or RMA boots with
 * defaults (version 0, slot A, no soft floors), as a factory-fresh part
 * would; a PROD or PROD_END device refuses, because erasing both copies
 * would otherwise be a way to drop the soft floors. Two-copy writes mean
 * a power cut never gets a device there.
 */
#include <string.h>

#include "fwlib.h"

static bool defaults_allowed(uint32_t lifecycle)
{
	return lifecycle != OTA_LC_PROD && lifecycle != OTA_LC_PROD_END;
}

ota_status_t boot_data_load(struct boot_ctx *b)
{
	struct ota_boot_data copy[2];
	ota_status_t why;
	int pick;

	OTA_TRY(hal_flash_read(boot_region(b, OTA_REGION_BOOT_DATA_0)->offset, &copy[0],
			       sizeof(copy[0])));
	OTA_TRY(hal_flash_read(boot_region(b, OTA_REGION_BOOT_DATA_1)->offset, &copy[1],
			       sizeof(copy[1])));
	pick = ota_boot_data_pick(copy, &why);
	if (pick >= 0) {
		b->bd = copy[pick];
		b->bd_index = pick;
		return OTA_OK;
	}
	b->bd_index = -1;
	memset(&b->bd, 0, sizeof(b->bd));
	b->bd.magic = OTA_BOOT_DATA_MAGIC;
	b->bd.version = OTA_BOOT_DATA_VERSION;
	b->bd.size = sizeof(b->bd);
	b->bd.primary_slot = OTA_SLOT_A;
	return defaults_allowed(b->otp.lifecycle) ? OTA_OK : OTA_BOOT_DATA_CORRUPT;
}

ota_status_t boot_data_commit(struct boot_ctx *b, struct ota_boot_data *bd)
{
	/* Write over the copy that does not hold the record in use. */
	int target = b->bd_index == 0 ? 1 : 0;
	uint32_t type = target ? OTA_REGION_BOOT_DATA_1 : OTA_REGION_BOOT_DATA_0;

	bd->counter = b->bd_index >= 0 ? b->bd.counter + 1u : 1u;
	ota_boot_data_seal(bd);
	OTA_TRY(boot_flash_store(boot_region(b, type)->offset, bd, sizeof(*bd)));
	b->bd = *bd;
	b->bd_index = target;
	return OTA_OK;
}
