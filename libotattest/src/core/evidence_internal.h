/* SPDX-License-Identifier: MIT */
/*
 * Inside the claims encoder: one measured component (docs/evidence.md),
 * described by the fields the boot record holds for it.
 */
#ifndef OTATTEST_CORE_EVIDENCE_INTERNAL_H
#define OTATTEST_CORE_EVIDENCE_INTERNAL_H

#include "otattest/cbor.h"
#include "otattest/evidence.h"

struct ota_component_src {
	const char *name;          /* OTA_MC_NAME_ROM or ota_stage_name() */
	bool versioned;            /* false for the ROM: no SVN */
	uint32_t svn;
	const uint8_t *measurement; /* OTA_SHA256_BYTES */
	uint32_t key_id_count;      /* 0 (the ROM) or depth + 1 */
	const uint8_t (*key_ids)[OTA_KEY_ID_BYTES];
};

/* bstr .cbor measured-component */
void ota_evidence_put_component(struct ota_cbor_enc *e, const struct ota_component_src *c);

#endif /* OTATTEST_CORE_EVIDENCE_INTERNAL_H */
