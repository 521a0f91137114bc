/* SPDX-License-Identifier: MIT */
/*
 * hal.h, SHA-256 engine (the hmac block):
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/hmac.yaml (docs/registers.md). The rules all blocks
 * share are in hal.h.
 */
#ifndef OTATTEST_HAL_HMAC_H
#define OTATTEST_HAL_HMAC_H

#include <otattest/record.h>
#include <otattest/status.h>

ota_status_t hal_sha256_start(void);
ota_status_t hal_sha256_update(const void *data, uint32_t len);
ota_status_t hal_sha256_finish(uint8_t digest[OTA_SHA256_BYTES]);

#endif /* OTATTEST_HAL_HMAC_H */
