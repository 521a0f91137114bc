/* SPDX-License-Identifier: MIT */
/*
 * The parts of a profile v2 claims set that have a shape of their own
 * (docs/evidence.md): a measured component and a measres group. The
 * claims decoder (claims_decode.c) puts them together and cross-checks
 * them; these only decode and range-check one part each.
 */
#ifndef OTATTEST_HOST_CLAIMS_PARTS_H
#define OTATTEST_HOST_CLAIMS_PARTS_H

#include "otattest/cbor.h"
#include "otattest/verify.h"

/* One measured component: the ROM's (no version, no authorities) or a stage's. */
struct ota_claims_component {
	uint32_t stage;           /* enum ota_stage; 0 for the ROM */
	uint32_t svn;
	uint8_t measurement[OTA_SHA256_BYTES];
	uint32_t key_id_count;    /* 0 for the ROM, else 1..OTA_MAX_CHAIN_KEYS */
	uint8_t key_ids[OTA_MAX_CHAIN_KEYS][OTA_KEY_ID_BYTES];
};

/*
 * Read a bstr .cbor measured-component at the cursor. rom: it must be
 * the ROM's ("rom", no version, no authorities); else a stage's (its
 * name, SVN as version, authorities). OTA_VERIFY_CLAIMS_INVALID otherwise.
 */
ota_status_t ota_claims_get_component(struct ota_cbor_dec *d, bool rom,
				      struct ota_claims_component *out);

/* One measres group: [ "otattest-boot/<path>", [ [ "<stage>", result ] ] ]. */
struct ota_claims_measres {
	uint32_t path, stage, result;
};
ota_status_t ota_claims_get_measres(struct ota_cbor_dec *d, struct ota_claims_measres *out);

#endif /* OTATTEST_HOST_CLAIMS_PARTS_H */
