/* SPDX-License-Identifier: MIT */
/*
 * hal.h, the ROM identity (the rom_ctrl block):
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/rom_ctrl.yaml (docs/registers.md). The rules all blocks
 * share are in hal.h.
 */
#ifndef OTATTEST_HAL_ROM_CTRL_H
#define OTATTEST_HAL_ROM_CTRL_H

#include <otattest/record.h>
#include <otattest/status.h>

/* SHA-256 measurement of the ROM: stable across every firmware update. */
void hal_rom_identity(uint8_t out[OTA_SHA256_BYTES]);

#endif /* OTATTEST_HAL_ROM_CTRL_H */
