// SPDX-License-Identifier: MIT
/*
 * ROM_EXT's verification of BL0, in the slot order the boot flow chose
 * for this reset (A/B on cold boot, the running slot on a warm reset, the
 * requested slot on an update reset).
 */
#include "../lib/fwlib.h"

ota_status_t rom_ext_verify_bl0(struct boot_ctx *b, uint32_t mode,
				const uint32_t order[OTA_SLOT_COUNT],
				struct boot_stage_outcome *out)
{
	static struct ota_owner_config oc;
	struct boot_anchors a;
	ota_status_t st;

	st = rom_ext_anchors(b, &oc, &a);
	if (st != OTA_OK) {
		out->status = st;
		return st;
	}
	boot_run_stage(b, &a, OTA_STAGE_BL0, order, mode, out);
	return out->status;
}
