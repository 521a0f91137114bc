// SPDX-License-Identifier: MIT
/*
 * Verifying an image's signatures on the host, the way the device's slow
 * path does minus device policy (lifecycle, floors, revocation, owner
 * config): structure, chain shape and containment, every certificate
 * signature, the image signature, and the SLH-DSA halves that are
 * present. otimage inspect --root-key uses it; tests use it to prove
 * that what otimage signs verifies.
 */
#include <string.h>

#include <otattest/slhdsa.h>

#include "otimage.h"
#include "otimage_internal.h"

ota_status_t oti_image_verify(const uint8_t *img, size_t len, const struct ota_root_key *root,
			      struct oti_diag *d)
{
	struct ota_image_view v;
	struct ota_dlgc certs[OTA_MAX_DELEGATION_DEPTH];
	uint8_t root_id[OTA_KEY_ID_BYTES], digest[OTA_SHA256_BYTES], msg[OTA_DLGS_MSG_BYTES];
	const uint8_t *pub, *spx;
	uint32_t i;
	ota_status_t st;

	if (len > UINT32_MAX)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, NULL, NULL);
	st = ota_image_parse(img, (uint32_t)len, &v);
	if (st != OTA_OK)
		return oti_image_parse_diag(&v, st, NULL, d);
	for (i = 0; i < v.cert_count; i++)
		OTA_TRY(ota_dlgc_read(&v, i, &certs[i]));
	ota_key_id(root->ecdsa_pubkey, root_id);
	if (memcmp(ota_chain_root_id(&v.manifest, certs, v.cert_count), root_id,
		   sizeof(root_id)) != 0)
		return oti_diag_set(d, OTA_ROOT_KEY_UNKNOWN, NULL,
				    v.cert_count ? "dlgc.parent_key_id" : "manifest.signer_key_id",
				    "the image does not chain to this root key");
	st = ota_chain_check(&v.manifest, root_id, certs, v.cert_count, NULL);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);

	/* Walk down the chain with the parent's keys: ECDSA always, SLH-DSA when known. */
	pub = root->ecdsa_pubkey;
	spx = root->algorithm == OTA_KEY_ALG_HYBRID ? root->spx_pubkey : NULL;
	for (i = 0; i < v.cert_count; i++) {
		const uint8_t *dlgs = v.cert_spx_offset[i] ? v.image + v.cert_spx_offset[i] : NULL;
		char field[32];

		snprintf(field, sizeof(field), "certificate %u", i + 1);
		ota_dlgc_digest(&certs[i], digest);
		st = oti_ecdsa_verify(pub, digest, certs[i].signature);
		if (st != OTA_OK)
			return oti_diag_set(d, st == OTA_SIG_ECDSA_INVALID ? OTA_DELEG_CERT_SIG_INVALID : st,
					    NULL, field, NULL);
		if (dlgs && spx) {
			ota_dlgs_message(&certs[i], dlgs + offsetof(struct ota_dlgs, delegate_spx_pubkey),
					 msg);
			if (ota_slhdsa_verify(spx, msg, sizeof(msg),
					      dlgs + offsetof(struct ota_dlgs, signature)) != OTA_OK)
				return oti_diag_set(d, OTA_DELEG_CERT_SPX_INVALID, NULL, field, NULL);
		}
		pub = certs[i].delegate_pubkey;
		spx = dlgs && spx ? dlgs + offsetof(struct ota_dlgs, delegate_spx_pubkey) : NULL;
	}

	ota_image_measure(&v, digest);
	st = oti_ecdsa_verify(pub, digest, v.image);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, "manifest.signature", NULL);
	if (v.spxs_offset) {
		if (!spx)
			return oti_diag_set(d, OTA_SIG_SPX_KEY_MISSING, NULL, "SPXS",
					    "no SLH-DSA key for the signer along the chain");
		if (ota_slhdsa_verify(spx, digest, sizeof(digest),
				      v.image + v.spxs_offset + offsetof(struct ota_spxs, signature)) !=
		    OTA_OK)
			return oti_diag_set(d, OTA_SIG_SPX_INVALID, NULL, "SPXS", NULL);
	}
	return OTA_OK;
}
