/* SPDX-License-Identifier: MIT */
/*
 * hal.h, KMAC256 with a key sideloaded from the key manager (the kmac block):
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/kmac.yaml (docs/registers.md). The rules all blocks
 * share are in hal.h.
 */
#ifndef OTATTEST_HAL_KMAC_H
#define OTATTEST_HAL_KMAC_H

#include <otattest/record.h>
#include <otattest/status.h>

#include "hal/keymgr.h"

ota_status_t hal_kmac_start(hal_key_t key, const uint8_t *custom, uint32_t custom_len);
ota_status_t hal_kmac_update(const void *data, uint32_t len);
ota_status_t hal_kmac_finish(uint8_t *out, uint32_t out_len);

#endif /* OTATTEST_HAL_KMAC_H */
