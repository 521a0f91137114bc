// SPDX-License-Identifier: MIT
/*
 * Load a slot into the one RAM buffer and measure it on the way in.
 *
 * The image is read from flash exactly once, into image_buf; everything
 * after (parser, policy, tag, signatures) reads that copy, so flash that
 * changes after it was read changes nothing (no TOCTOU).
 *
 * The two digests every path needs are taken as the image lands in RAM:
 * hal_flash_read_sha256 is a flash-to-RAM transfer (a DMA with inline
 * hashing) that feeds the bytes it wrote to image_buf through the SHA-256
 * engine, so the digests are of the very copy every later check reads,
 * and no separate pass over the image hashes it. measurement = SHA-256
 * [64, signed_end), signature-block digest = SHA-256 [0, 64) ||
 * [signed_end, image_length). The manifest header is read into image_buf
 * first (it bounds the transfers) and hashed from there. Only
 * image_length and signed_end are read before the parser runs, and only
 * to bound the reads; ota_image_parse then checks the whole image, the
 * same fields included, and nothing is used unless it passes.
 */
#include <stddef.h>
#include <string.h>

#include "fwlib.h"

static uint8_t image_buf[OTA_BOOT_IMAGE_MAX] __attribute__((aligned(8)));
/* Moves whenever the buffer is loaded or handed out: an install's staging is then gone. */
static uint32_t image_buf_epoch;

static bool all_erased(const uint8_t *p, uint32_t len)
{
	uint32_t acc = 0xffffffffu, i = 0;

	/* A word at a time where it can (320 bytes were 1700 instructions on the core). */
	if (((uintptr_t)p & 3u) == 0)
		for (; i + 4 <= len; i += 4)
			acc &= *(const uint32_t *)(const void *)(p + i);
	for (; i < len; i++)
		acc &= 0xffffff00u | p[i];
	return acc == 0xffffffffu;
}

/* Read whatever the slot holds and let the parser say what is wrong with it. */
static ota_status_t refuse_by_parser(uint32_t base, uint32_t cap, struct boot_image *img)
{
	ota_status_t st = hal_flash_read(base, image_buf, cap);

	if (st == OTA_OK)
		st = ota_image_parse(image_buf, cap, &img->view);
	/* A header that bounds the reads but fails parsing is refused, never accepted. */
	return st == OTA_OK ? OTA_MANIFEST_BAD_LENGTH : st;
}

ota_status_t boot_image_load(const struct boot_ctx *b, uint32_t stage, uint32_t slot,
			     struct boot_image *img)
{
	const struct ota_flash_region *r = boot_region(b, ota_region_for_slot(stage, slot));
	uint32_t cap = r->size < OTA_BOOT_IMAGE_MAX ? r->size : OTA_BOOT_IMAGE_MAX;
	const uint32_t hdr = sizeof(struct ota_manifest);
	uint32_t magic, len, se;

	memset(img, 0, sizeof(*img));
	img->stage = stage;
	img->slot = slot;
	image_buf_epoch++;
	OTA_TRY(hal_flash_read(r->offset, image_buf, hdr));
	if (all_erased(image_buf, hdr))
		return OTA_SLOT_EMPTY;
	/* The three fields the load needs (a copy of the whole manifest was 270 instructions). */
	memcpy(&magic, image_buf + offsetof(struct ota_manifest, magic), sizeof(magic));
	memcpy(&len, image_buf + offsetof(struct ota_manifest, image_length), sizeof(len));
	memcpy(&se, image_buf + offsetof(struct ota_manifest, signed_end), sizeof(se));
	if (magic != OTA_MANIFEST_MAGIC || len < hdr || len > cap || se < hdr || se > len) {
		if (magic == OTA_MANIFEST_MAGIC && len > cap && len <= r->size)
			return OTA_IMAGE_TOO_LARGE;
		return refuse_by_parser(r->offset, cap, img);
	}

	OTA_TRY(hal_sha256_start());
	OTA_TRY(hal_sha256_update(image_buf + OTA_MANIFEST_SIGNED_START,
				  hdr - OTA_MANIFEST_SIGNED_START));
	OTA_TRY(hal_flash_read_sha256(r->offset + hdr, image_buf + hdr, se - hdr));
	OTA_TRY(hal_sha256_finish(img->measurement));
	OTA_TRY(hal_sha256_start());
	OTA_TRY(hal_sha256_update(image_buf, OTA_MANIFEST_SIGNED_START));
	OTA_TRY(hal_flash_read_sha256(r->offset + se, image_buf + se, len - se));
	OTA_TRY(hal_sha256_finish(img->sigblock));

	return ota_image_parse(image_buf, len, &img->view);
}

bool boot_slot_peek(const struct boot_ctx *b, uint32_t stage, uint32_t slot, uint32_t *svn)
{
	const struct ota_flash_region *r = boot_region(b, ota_region_for_slot(stage, slot));
	struct ota_manifest m;

	if (hal_flash_read(r->offset, &m, sizeof(m)) != OTA_OK || m.magic != OTA_MANIFEST_MAGIC ||
	    m.identifier != (stage == OTA_STAGE_ROM_EXT ? OTA_ID_ROM_EXT : OTA_ID_BL0) ||
	    m.security_version > OTA_SVN_LIMIT)
		return false;
	*svn = m.security_version;
	return true;
}

uint8_t *boot_image_staging(uint32_t *epoch)
{
	*epoch = ++image_buf_epoch;
	return image_buf;
}

bool boot_image_staging_intact(uint32_t epoch)
{
	return epoch == image_buf_epoch;
}

ota_status_t boot_image_measure_staged(uint32_t stage, uint32_t slot, uint32_t len,
				       struct boot_image *img)
{
	uint32_t se;

	memset(img, 0, sizeof(*img));
	img->stage = stage;
	img->slot = slot;
	if (len > OTA_BOOT_IMAGE_MAX)
		return OTA_IMAGE_TOO_LARGE;
	/* The parser bounds every range first; the image must be exactly what arrived. */
	OTA_TRY(ota_image_parse(image_buf, len, &img->view));
	if (img->view.manifest.image_length != len)
		return OTA_MANIFEST_BAD_LENGTH;
	se = img->view.manifest.signed_end;
	OTA_TRY(hal_sha256_start());
	OTA_TRY(hal_sha256_update(image_buf + OTA_MANIFEST_SIGNED_START,
				  se - OTA_MANIFEST_SIGNED_START));
	OTA_TRY(hal_sha256_finish(img->measurement));
	OTA_TRY(hal_sha256_start());
	OTA_TRY(hal_sha256_update(image_buf, OTA_MANIFEST_SIGNED_START));
	OTA_TRY(hal_sha256_update(image_buf + se, len - se));
	return hal_sha256_finish(img->sigblock);
}
