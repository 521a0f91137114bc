// SPDX-License-Identifier: MIT
/*
 * The slow path's last step: the image's own signatures over its
 * measurement, with the signer's keys ota_deleg_verify left. ECDSA P-256
 * always (the caller's verifier: hal_ecdsa_verify on the device, OpenSSL
 * in otimage), SLH-DSA-SHA2-128s when the image carries an SPXS (policy
 * has already refused a hybrid-required image without one); an SPXS with
 * no trusted SLH-DSA key to check it under is invalid, not ignored.
 */
#include <string.h>

#include "otattest/slhdsa.h"
#include "otattest/stage_check.h"

ota_status_t ota_image_sig_verify(const struct ota_image_view *v,
				  const uint8_t measurement[OTA_SHA256_BYTES],
				  const struct ota_signer *s, ota_ecdsa_verify_fn ecdsa)
{
	ota_status_t st;

	st = ecdsa(s->ecdsa, measurement, v->manifest.signature);
	if (st != OTA_OK)
		return st == OTA_SIG_BAD_PUBKEY ? st : OTA_SIG_ECDSA_INVALID;
	if (!v->spxs_offset)
		return OTA_OK;
	if (!s->has_spx)
		return OTA_SIG_SPX_INVALID;
	if (ota_slhdsa_verify(s->spx, measurement, OTA_SHA256_BYTES,
			      v->image + v->spxs_offset + offsetof(struct ota_spxs, signature)) != OTA_OK)
		return OTA_SIG_SPX_INVALID;
	return OTA_OK;
}
