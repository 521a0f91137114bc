// SPDX-License-Identifier: MIT
/*
 * The mask ROM image's C entry on the core (firmware/base/crt0.S calls it
 * as stage_main): the reason the core started in ROM is the reset
 * manager's RESET_INFO, then the ROM runs. The board, which calls
 * ota_rom_main itself on the host build, does not use this.
 */
#include "firmware.h"
#include "mmio.h"
#include "rstmgr_regs.h"

uint32_t ota_rom_start(void);

uint32_t ota_rom_start(void)
{
	return ota_rom_main(ota_mmio_read32(TOP_RSTMGR_BASE_ADDR + RSTMGR_RESET_INFO_REG_OFFSET));
}
