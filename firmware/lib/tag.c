// SPDX-License-Identifier: MIT
/*
 * Boot tags (seed 000): a device-unique KMAC over what every path has
 * computed anyway.
 *
 *   tag key = hal_keymgr_derive(root, "otattest-tag-key",
 *                               stage (u32 LE) || salt (32 bytes, if the
 *                               image carries a SALT extension),
 *                               key_version, manifest max_key_version)
 *   tag     = KMAC256(tag key, measurement || signature-block digest ||
 *                     stage (u32 LE) || key_version (u32 LE), 256,
 *                     "otattest-boot-tag")[0, 24) || measurement[0, 8)
 *
 * The last 8 bytes are a hint, not a MAC: they name the image the tag was
 * made for, so a slot rewritten since (an update written to flash, which
 * leaves the old tag behind) is told apart from a tag altered for the very
 * same image (a forgery: the record's tag-mismatch). 192 bits of MAC
 * remain.
 *
 * The tag binds the signature-block digest as well as the measurement, so
 * every byte of the image is covered: a changed certificate, SLH-DSA
 * signature or unsigned extension makes the tag fail and sends the image
 * to the slow path. It binds digests, not the image, because the digests
 * exist on every path and KMAC over 64 KiB costs more here than an ECDSA
 * verify. The key exists only while the tag is computed: the key manager
 * hands it to the KMAC engine by handle and it is destroyed at once.
 */
#include <string.h>

#include "fwlib.h"

ota_status_t boot_tag_compute(uint32_t stage, const struct boot_image *img,
			      uint32_t key_version, uint8_t tag[OTA_TAG_BYTES])
{
	const struct ota_image_view *v = &img->view;
	uint8_t ctx[4 + sizeof(((struct ota_ext_salt *)0)->salt)], tail[8];
	uint32_t ctx_len = 4;
	hal_key_t root, key;
	ota_status_t st;

	/* ROM tags ROM_EXT images, ROM_EXT tags BL0 images: each with its own state's secret. */
	root = hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST);
	if (root == HAL_KEY_INVALID)
		return OTA_HAL_BAD_HANDLE;
	boot_le32(ctx, stage);
	if (v->salt_offset) {
		memcpy(ctx + 4, v->image + v->salt_offset + sizeof(struct ota_ext_header),
		       sizeof(ctx) - 4);
		ctx_len = sizeof(ctx);
	}
	OTA_TRY(hal_keymgr_derive(root, OTA_TAG_KEY_LABEL, ctx, ctx_len, key_version,
				  v->manifest.max_key_version, HAL_KEY_PURPOSE_MAC, &key));
	boot_le32(tail, stage);
	boot_le32(tail + 4, key_version);
	st = hal_kmac_start(key, (const uint8_t *)OTA_TAG_CUSTOM, sizeof(OTA_TAG_CUSTOM) - 1u);
	if (st == OTA_OK)
		st = hal_kmac_update(img->measurement, OTA_SHA256_BYTES);
	if (st == OTA_OK)
		st = hal_kmac_update(img->sigblock, OTA_SHA256_BYTES);
	if (st == OTA_OK)
		st = hal_kmac_update(tail, sizeof(tail));
	if (st == OTA_OK)
		st = hal_kmac_finish(tag, OTA_TAG_BYTES);
	hal_key_destroy(key);
	memcpy(tag + OTA_TAG_MAC_BYTES, img->measurement, OTA_TAG_HINT_BYTES);
	return st;
}
