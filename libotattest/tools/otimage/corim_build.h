/* SPDX-License-Identifier: MIT */
/* A release's reference values as a signed CoRIM (docs/corim.md). */
#ifndef OTATTEST_OTIMAGE_CORIM_BUILD_H
#define OTATTEST_OTIMAGE_CORIM_BUILD_H

#include "otattest/corim.h"

#include "otimage.h"

/* What one signed image contributes: its stage's reference measurement. */
struct oti_corim_stage {
	uint32_t stage; /* enum ota_stage */
	uint32_t svn;
	uint8_t measurement[OTA_SHA256_BYTES];
	uint32_t key_id_count; /* root key id, then each delegate's */
	uint8_t key_ids[OTA_MAX_CHAIN_KEYS][OTA_KEY_ID_BYTES];
};

/* CoMIDs in one CoRIM: the strict reader's container bound (corim_decode.c). */
#define OTI_CORIM_MAX_IMAGES 16u

/*
 * The stage, SVN, measurement and key ids of a signed image, read with
 * the device's parsers and chain check (structure only: the signatures
 * are the device's business, and `otimage inspect --root-key` checks them).
 */
ota_status_t oti_corim_stage_from_image(const uint8_t *img, size_t len,
					struct oti_corim_stage *out, struct oti_diag *d);

/*
 * How each CoMID sits in the corim-map's tags (docs/corim.md, "Where
 * Veraison and the draft differ"): the draft's CDDL puts tag 506 around a
 * byte string holding the CoMID; Veraison's corim library up to v1.1.x
 * reads a byte string holding the tagged CoMID.
 */
enum oti_corim_form {
	OTI_CORIM_FORM_DRAFT,    /* 506(<< concise-mid-tag >>) */
	OTI_CORIM_FORM_VERAISON, /* << 506(concise-mid-tag) >> */
};

/*
 * The signed CoRIM: id names the release (1..OTA_CORIM_MAX_TEXT bytes),
 * signer the corim-meta signer name; signed with key's P-256 half.
 * *out is malloc'd.
 */
ota_status_t oti_corim_build(const char *id, const char *signer,
			     const struct oti_corim_stage *stages, uint32_t count,
			     enum oti_corim_form form, const struct oti_key *key, uint8_t **out,
			     size_t *out_len);

#endif
