/* SPDX-License-Identifier: MIT */
/*
 * hal.h, randomness (the entropy_src block):
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/entropy_src.yaml (docs/registers.md). The rules all blocks
 * share are in hal.h.
 */
#ifndef OTATTEST_HAL_ENTROPY_SRC_H
#define OTATTEST_HAL_ENTROPY_SRC_H

#include <otattest/record.h>
#include <otattest/status.h>

ota_status_t hal_trng_fill(void *buf, uint32_t len);

#endif /* OTATTEST_HAL_ENTROPY_SRC_H */
