// SPDX-License-Identifier: MIT
/*
 * Someone with a flash programmer on the board (docs/model.md, "tamper"):
 * the tag table is in plain flash and its digest is a SHA-256 anyone can
 * recompute, so such a person can change a boot tag and reseal the copy.
 * The device must notice: a tag of the current key version that does not
 * match the image is a tag mismatch (the record's path reason), after which
 * the image is judged on its signatures alone. Writes go through the
 * chip's raw programmer access (swhal_poke_flash), not the flash
 * controller: no firmware rule applies to an external programmer.
 */
#include <otattest/flash.h>

#include "hal.h"
#include "model.h"
#include "swhal.h"

static ota_status_t region(const struct ota_flash_layout *l, uint32_t type, uint32_t *offset)
{
	const struct ota_flash_region *r = ota_flash_layout_region(l, type);

	if (!r)
		return OTA_LAYOUT_REGION_MISSING;
	*offset = r->offset;
	return OTA_OK;
}

ota_status_t device_tamper_tag(struct model *m, uint32_t stage, uint32_t slot)
{
	struct ota_flash_layout layout;
	struct ota_tag_table tt[2];
	struct ota_tag_entry *e;
	uint32_t off[2];
	int pick;

	(void)m;
	if (swhal_peek_flash(0, &layout, sizeof(layout)) != 0)
		return OTA_HOST_IO;
	OTA_TRY(ota_flash_layout_check(&layout, hal_flash_size()));
	OTA_TRY(region(&layout, OTA_REGION_TAG_TABLE_0, &off[0]));
	OTA_TRY(region(&layout, OTA_REGION_TAG_TABLE_1, &off[1]));
	if (swhal_peek_flash(off[0], &tt[0], sizeof(tt[0])) != 0 ||
	    swhal_peek_flash(off[1], &tt[1], sizeof(tt[1])) != 0)
		return OTA_HOST_IO;
	/* The copy the device will take: changing the other would change nothing. */
	pick = ota_tag_table_pick(tt, NULL);
	if (pick < 0)
		return OTA_TAG_TABLE_CORRUPT;
	e = &tt[pick].entry[ota_tag_index(stage, slot)];
	if (e->state != OTA_TAG_STATE_VALID)
		return OTA_MODEL_NO_TAG;
	e->tag[0] ^= 0x01;
	ota_tag_table_seal(&tt[pick]);
	if (swhal_poke_flash(off[pick], &tt[pick], sizeof(tt[pick])) != 0)
		return OTA_HOST_IO;
	log_info("tamper-tag", "stage=%u slot=%u copy=%d key-version=%u", stage, slot, pick,
		 e->key_version);
	return OTA_OK;
}
