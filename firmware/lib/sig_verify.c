// SPDX-License-Identifier: MIT
/*
 * The image's own signatures over its measurement: ECDSA P-256 always,
 * SLH-DSA-SHA2-128s when the image carries an SPXS (policy has already
 * refused a hybrid-required image without one).
 */
#include <string.h>

#include <otattest/slhdsa.h>

#include "fwlib.h"

ota_status_t boot_image_sig_verify(const struct boot_image *img, const struct boot_signer *s)
{
	const struct ota_image_view *v = &img->view;
	ota_status_t st;

	st = hal_ecdsa_verify(s->ecdsa, img->measurement, v->manifest.signature);
	if (st != OTA_OK)
		return st == OTA_SIG_BAD_PUBKEY ? st : OTA_SIG_ECDSA_INVALID;
	if (!v->spxs_offset)
		return OTA_OK;
	if (!s->has_spx)
		return OTA_SIG_SPX_INVALID;
	if (ota_slhdsa_verify(s->spx, img->measurement, OTA_SHA256_BYTES,
			      v->image + v->spxs_offset + offsetof(struct ota_spxs, signature)) != OTA_OK)
		return OTA_SIG_SPX_INVALID;
	return OTA_OK;
}
