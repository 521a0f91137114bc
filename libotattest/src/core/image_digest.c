// SPDX-License-Identifier: MIT
/*
 * The measurement and the signature-block digest of a parsed image.
 * Between them they cover every byte of [0, image_length) exactly once,
 * which is what lets a boot tag stand in for the signatures.
 */
#include "otattest/manifest.h"
#include "otattest/sha256.h"

void ota_image_measure(const struct ota_image_view *v, uint8_t out[OTA_SHA256_BYTES])
{
	ota_sha256(v->image + OTA_MANIFEST_SIGNED_START,
		   v->manifest.signed_end - OTA_MANIFEST_SIGNED_START, out);
}

void ota_image_sigblock_digest(const struct ota_image_view *v, uint8_t out[OTA_SHA256_BYTES])
{
	struct ota_sha256 c;

	ota_sha256_init(&c);
	ota_sha256_update(&c, v->image, OTA_MANIFEST_SIGNED_START);
	ota_sha256_update(&c, v->image + v->manifest.signed_end,
			  v->length - v->manifest.signed_end);
	ota_sha256_final(&c, out);
}
