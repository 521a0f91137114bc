// SPDX-License-Identifier: MIT
/*
 * The ROM controller as a peripheral (qemu-model/regs/rom_ctrl.yaml):
 * DIGEST_n reads the ROM identity the chip holds (docs/hal.md, "ROM
 * identity"; swhal_set_rom_identity), bytes 4n..4n+3. The key manager
 * takes the same digest on its sideload port, not through these registers.
 */
#include "bus.h"
#include "rom_ctrl_regs.h"
#include "swhal_priv.h"

static ota_status_t rom_ctrl_read(uint32_t reg)
{
	uint32_t n = (reg - ROM_CTRL_DIGEST_REG_OFFSET(0)) / 4;
	const uint8_t *d = swhal_dev.rom_identity + 4 * n;

	if (n >= ROM_CTRL_DIGEST_COUNT)
		return OTA_OK;
	chip_reg_set(TOP_BLOCK_ROM_CTRL, reg,
		     (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24);
	return OTA_OK;
}

const struct chip_block_ops chip_rom_ctrl_ops = { .read = rom_ctrl_read };
