// SPDX-License-Identifier: MIT
/*
 * hal/rom_ctrl.h over the ROM controller's registers (qemu-model/regs/rom_ctrl.yaml):
 * the digest of the mask ROM, DIGEST_n holding bytes 4n..4n+3.
 */
#include "hal.h"
#include "mmio.h"
#include "rom_ctrl_regs.h"

void hal_rom_identity(uint8_t out[OTA_SHA256_BYTES])
{
	uint32_t n, k;

	for (n = 0; n < ROM_CTRL_DIGEST_COUNT; n++) {
		uint32_t w = ota_mmio_read32(TOP_ROM_CTRL_BASE_ADDR + ROM_CTRL_DIGEST_REG_OFFSET(n));

		for (k = 0; k < 4; k++)
			out[4 * n + k] = (uint8_t)(w >> (8 * k));
	}
}
