/* SPDX-License-Identifier: MIT */
/*
 * hal.h, ECDSA P-256 (the OTBN-like otbn block), signing keys sideloaded from the key manager:
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/otbn.yaml (docs/registers.md). The rules all blocks
 * share are in hal.h.
 */
#ifndef OTATTEST_HAL_OTBN_H
#define OTATTEST_HAL_OTBN_H

#include <otattest/record.h>
#include <otattest/status.h>

#include "hal/keymgr.h"

/* OTA_OK, SIG_ECDSA_INVALID or SIG_BAD_PUBKEY. Digest is SHA-256 of the message. */
ota_status_t hal_ecdsa_verify(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
			      const uint8_t digest[OTA_SHA256_BYTES],
			      const uint8_t sig[OTA_P256_SIG_BYTES]);
ota_status_t hal_ecdsa_sign(hal_key_t key, const uint8_t digest[OTA_SHA256_BYTES],
			    uint8_t sig[OTA_P256_SIG_BYTES]);
ota_status_t hal_ecdsa_pubkey(hal_key_t key, uint8_t pubkey[OTA_P256_PUBKEY_BYTES]);

#endif /* OTATTEST_HAL_OTBN_H */
