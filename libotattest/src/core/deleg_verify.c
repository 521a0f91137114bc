// SPDX-License-Identifier: MIT
/*
 * The slow path's delegation verifier (seed 001), after ota_policy_check
 * accepted the chain's structure and containment (ota_chain_check).
 *
 * The delegation verifier: each certificate is verified with its
 * parent's key: ECDSA always, SLH-DSA when the certificate carries a
 * DLGS. An SLH-DSA key is trusted only when its own DLGS was verified by
 * a trusted SLH-DSA parent, so the hybrid chain is as long as the ECDSA
 * one or stops at the first certificate without a DLGS; a DLGS below
 * that point has no key to be checked under and is invalid.
 *
 * ECDSA verification is the caller's (hal_ecdsa_verify on the device,
 * OpenSSL in otimage); SLH-DSA is the core's own. Kept in its own file
 * so `make size` shows it: with ota_chain_check it is the code seed 001
 * budgets at about 2 KB of ROM_EXT.
 */
#include <string.h>

#include "otattest/slhdsa.h"
#include "otattest/stage_check.h"

ota_status_t ota_deleg_verify(const struct ota_image_view *v, const struct ota_dlgc *certs,
			      const struct ota_root_key *root, ota_ecdsa_verify_fn ecdsa,
			      struct ota_signer *s)
{
	uint8_t digest[OTA_SHA256_BYTES], msg[OTA_DLGS_MSG_BYTES];
	uint32_t i;

	memcpy(s->ecdsa, root->ecdsa_pubkey, sizeof(s->ecdsa));
	memcpy(s->spx, root->spx_pubkey, sizeof(s->spx));
	s->has_spx = root->algorithm == OTA_KEY_ALG_HYBRID;

	for (i = 0; i < v->cert_count; i++) {
		const struct ota_dlgc *c = &certs[i];
		const uint8_t *dlgs = v->image + v->cert_spx_offset[i];

		s->depth = i;
		ota_dlgc_digest(c, digest);
		if (ecdsa(s->ecdsa, digest, c->signature) != OTA_OK)
			return OTA_DELEG_CERT_SIG_INVALID;
		if (v->cert_spx_offset[i]) {
			const uint8_t *spx_pk = dlgs + offsetof(struct ota_dlgs, delegate_spx_pubkey);

			if (!s->has_spx)
				return OTA_DELEG_CERT_SPX_INVALID;
			ota_dlgs_message(c, spx_pk, msg);
			if (ota_slhdsa_verify(s->spx, msg, sizeof(msg),
					      dlgs + offsetof(struct ota_dlgs, signature)) != OTA_OK)
				return OTA_DELEG_CERT_SPX_INVALID;
			memcpy(s->spx, spx_pk, sizeof(s->spx));
		} else {
			s->has_spx = false;
		}
		memcpy(s->ecdsa, c->delegate_pubkey, sizeof(s->ecdsa));
	}
	s->depth = i;
	return OTA_OK;
}
