// SPDX-License-Identifier: MIT
/*
 * A/B: which slot a stage tries first, and running a stage over its
 * slots. The order comes from the SVNs the manifests claim before any
 * check (an inflated claim only makes a bad slot fail first); every
 * attempt is recorded, so the record shows a refused slot followed by the
 * fallback that booted.
 */
#include <string.h>

#include "fwlib.h"

bool boot_slot_present(const struct boot_ctx *b, uint32_t stage, uint32_t slot)
{
	const struct ota_flash_region *r = boot_region(b, ota_region_for_slot(stage, slot));
	uint8_t head[64];
	uint32_t i;

	if (hal_flash_read(r->offset, head, sizeof(head)) != OTA_OK)
		return true; /* let the check say what is wrong */
	for (i = 0; i < sizeof(head); i++)
		if (head[i] != 0xff)
			return true;
	return false;
}

void boot_slot_order(const struct boot_ctx *b, uint32_t stage, uint32_t prefer,
		     uint32_t order[OTA_SLOT_COUNT])
{
	uint32_t other = prefer ^ 1u, svn_p = 0, svn_o = 0;
	bool ok_p = boot_slot_peek(b, stage, prefer, &svn_p);
	bool ok_o = boot_slot_peek(b, stage, other, &svn_o);

	if (ok_o && (!ok_p || svn_o > svn_p)) {
		order[0] = other;
		order[1] = prefer;
	} else {
		order[0] = prefer;
		order[1] = other;
	}
}

/* A tag table write that fails leaves the boot on the path it took, untagged. */
static void flush_tags(struct boot_ctx *b, uint32_t first, uint32_t end)
{
	uint32_t i;

	if (boot_tags_flush(b) == OTA_OK)
		return;
	for (i = first; i < end; i++)
		if (b->record.stage[i].path == OTA_PATH_SIGNATURE_RETAGGED)
			b->record.stage[i].path = OTA_PATH_SIGNATURE;
}

/* The slot boot_run_stage() is checking. */
static struct boot_image stage_img;

void boot_run_stage(struct boot_ctx *b, const struct ota_anchors *a, uint32_t stage,
		    const uint32_t order[OTA_SLOT_COUNT], uint32_t mode,
		    struct boot_stage_outcome *out)
{
	struct ota_record_header *h = &b->record.hdr;
	uint32_t first = h->stage_count, k, booted = OTA_RECORD_MAX_STAGES;

	memset(out, 0, sizeof(*out));
	out->status = OTA_NO_BOOTABLE_SLOT;
	for (k = 0; k < OTA_SLOT_COUNT && h->stage_count < OTA_RECORD_MAX_STAGES; k++) {
		struct ota_stage_record *rec = &b->record.stage[h->stage_count];
		uint32_t slot = order[k];

		if (mode == BOOT_MODE_RETAG && !boot_slot_present(b, stage, slot))
			continue;
		h->stage_count++;
		if (boot_stage_check(b, a, stage, slot, mode, rec, &stage_img) != OTA_OK) {
			if (mode == BOOT_MODE_RETAG)
				hal_host_progress(++b->progress_done, b->progress_total);
			continue;
		}
		if (mode == BOOT_MODE_RETAG) {
			out->retagged += rec->path == OTA_PATH_SIGNATURE_RETAGGED;
			/* Valid, but the new key version is past what it accepts. */
			out->exhausted |= b->tag_key_version > stage_img.view.manifest.max_key_version;
			hal_host_progress(++b->progress_done, b->progress_total);
		}
		if (booted == OTA_RECORD_MAX_STAGES &&
		    (rec->status = boot_stage_place(&stage_img, out)) != OTA_OK) {
			rec->path = OTA_PATH_NONE; /* valid, but no code this core can run */
			continue;
		}
		if (booted == OTA_RECORD_MAX_STAGES) {
			booted = h->stage_count - 1u;
			out->status = OTA_OK;
			out->slot = slot;
			out->svn = stage_img.view.manifest.security_version;
			out->max_key_version = stage_img.view.manifest.max_key_version;
			memcpy(out->measurement, stage_img.measurement, OTA_SHA256_BYTES);
			memcpy(out->root_key_id, rec->key_ids[0], OTA_KEY_ID_BYTES);
		}
		if (mode != BOOT_MODE_RETAG)
			break;
	}
	if (booted != OTA_RECORD_MAX_STAGES) {
		b->record.stage[booted].flags |= OTA_STAGE_F_BOOTED;
		if (booted != first)
			b->record.stage[booted].flags |= OTA_STAGE_F_FALLBACK;
	}
	if (mode != BOOT_MODE_VERIFY)
		flush_tags(b, first, h->stage_count);
}
