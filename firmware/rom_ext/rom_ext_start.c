// SPDX-License-Identifier: MIT
/*
 * ROM_EXT's C entry on the core (firmware/base/crt0.S calls it as
 * stage_main, after ROM jumped here): run ROM_EXT; when it hands off,
 * BL0's verified code is already at its load address (boot_stage_place,
 * as the slot was accepted) and ROM_EXT jumps to its entry point, wiping
 * its own RAM and stack and the registers on the way
 * (firmware/base/jump.S): BL0 starts with nothing of ROM_EXT's but the
 * hand-off state. A boot that fails returns its status to the start-up
 * code, and the core halts. The board calls ota_rom_ext_main itself on
 * the host build and does not use this.
 */
#include "firmware.h"
#include "../lib/fwlib.h"

uint32_t ota_rom_ext_start(void);

#if defined(__riscv)
/* firmware/base/jump.S: wipe [lo, hi), clear the registers, jump. */
__attribute__((noreturn)) void ota_stage_jump(uint32_t entry, void *lo, void *hi);
extern char __bss_start[], __stack_top[];
#endif

uint32_t ota_rom_ext_start(void)
{
	ota_status_t st = ota_rom_ext_main();
	uint32_t entry = boot_scratch_ctx()->bl0_out.entry;

	if (st != OTA_OK)
		return st;
	if (!entry)
		return OTA_EXT_BAD_LOAD; /* not reached: on the core a BL0 is accepted only once placed */
#if defined(__riscv)
	ota_stage_jump(entry, __bss_start, __stack_top);
#else
	return OTA_OK;
#endif
}
