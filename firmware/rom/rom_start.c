// SPDX-License-Identifier: MIT
/*
 * The mask ROM image's C entry on the core (firmware/base/crt0.S calls it
 * as stage_main): the reason the core started in ROM is the reset
 * manager's RESET_INFO, then the ROM runs. When it hands off, ROM_EXT's
 * verified code is already at its load address (boot_stage_place, as the
 * slot was accepted) and ROM jumps to its entry point, wiping its own RAM
 * and stack and the registers on the way (firmware/base/jump.S): ROM_EXT's
 * start-up code takes its own stack and never returns here. The board, which calls
 * ota_rom_main and ota_rom_ext_main itself on the host build, does not
 * use this.
 */
#include "firmware.h"
#include "mmio.h"
#include "rstmgr_regs.h"
#include "../lib/fwlib.h"

uint32_t ota_rom_start(void);

#if defined(__riscv)
/* firmware/base/jump.S: wipe [lo, hi), lock mprot (lock != 0), clear the registers, jump. */
__attribute__((noreturn)) void ota_stage_jump(uint32_t entry, void *lo, void *hi, uint32_t lock);
extern char __bss_start[], __stack_top[];
#endif

uint32_t ota_rom_start(void)
{
	ota_status_t st = ota_rom_main(
		ota_mmio_read32(TOP_RSTMGR_BASE_ADDR + RSTMGR_RESET_INFO_REG_OFFSET));
	uint32_t entry = boot_scratch_ctx()->rom_ext_out.entry;

	if (st != OTA_OK)
		return st;
	if (!entry)
		return OTA_EXT_BAD_LOAD; /* not reached: a slot is accepted only once placed */
#if defined(__riscv)
	/*
	 * ROM's RAM and stack are wiped on the way out: ROM_EXT starts with
	 * none of it. ROM does not lock mprot: the lock holds until reset,
	 * and ROM_EXT programs the regions for BL0.
	 */
	ota_stage_jump(entry, __bss_start, __stack_top, 0);
#else
	return ((uint32_t (*)(void))(uintptr_t)entry)();
#endif
}
