// SPDX-License-Identifier: MIT
/*
 * What a stage's entry binds into the key manager (fwlib.h, hal.h). The
 * attest half holds only what admitted the stage - its root key - so the
 * identity and key chain a stage derives survive its updates; the seal half
 * adds the measurement and SVN, so a secret sealed by one image is out of
 * reach of every other.
 */
#include <otattest/sha256.h>

#include "fwlib.h"

#define ATTEST_DOMAIN "otattest-binding-attest"
#define SEAL_DOMAIN "otattest-binding-seal"

void boot_binding_attest(uint32_t stage, const uint8_t root_key_id[OTA_KEY_ID_BYTES],
			 uint8_t out[OTA_SHA256_BYTES])
{
	struct ota_sha256 c;
	uint8_t le[4];

	boot_le32(le, stage);
	ota_sha256_init(&c);
	ota_sha256_update(&c, ATTEST_DOMAIN, sizeof(ATTEST_DOMAIN) - 1u);
	ota_sha256_update(&c, le, sizeof(le));
	ota_sha256_update(&c, root_key_id, OTA_KEY_ID_BYTES);
	ota_sha256_final(&c, out);
}

void boot_binding(uint32_t stage, const struct boot_stage_outcome *o,
		  struct hal_keymgr_binding *out)
{
	struct ota_sha256 c;
	uint8_t le[4];

	boot_binding_attest(stage, o->root_key_id, out->attest);
	ota_sha256_init(&c);
	ota_sha256_update(&c, SEAL_DOMAIN, sizeof(SEAL_DOMAIN) - 1u);
	boot_le32(le, stage);
	ota_sha256_update(&c, le, sizeof(le));
	ota_sha256_update(&c, o->root_key_id, OTA_KEY_ID_BYTES);
	ota_sha256_update(&c, o->measurement, OTA_SHA256_BYTES);
	boot_le32(le, o->svn);
	ota_sha256_update(&c, le, sizeof(le));
	ota_sha256_final(&c, out->seal);
}
