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
 *
 * Before the jump ROM_EXT programs the memory protection for BL0
 * (hal/mprot.h, docs/hal.md "Memory protection") and the jump locks it:
 * BL0 executes only its own placed code, reads and writes only its RAM
 * and stack, the hand-off state and the registers of the blocks it
 * drives (timer, watchdog, reset manager, TRNG, mailbox). ROM, ROM_EXT's
 * code and RAM, ROM's RAM, the retention SRAM and every other block
 * (mprot itself among them) are out of its reach until the next reset.
 */
#include "aon_timer_regs.h"
#include "entropy_src_regs.h"
#include "firmware.h"
#include "mbox_regs.h"
#include "rom_ctrl_regs.h"
#include "rstmgr_regs.h"
#include "rv_timer_regs.h"
#include "top_regs.h"
#include "../lib/fwlib.h"

uint32_t ota_rom_ext_start(void);

#if defined(__riscv)
/* firmware/base/jump.S: wipe [lo, hi), lock mprot (lock != 0), clear the registers, jump. */
__attribute__((noreturn)) void ota_stage_jump(uint32_t entry, void *lo, void *hi, uint32_t lock);
extern char __bss_start[], __stack_top[], __handoff_start[], __handoff_end[], __bl0_ram[],
	__bl0_ram_end[];

#define PAGE_DOWN(a) ((uint32_t)(a) & ~(HAL_MPROT_PAGE - 1u))
#define PAGE_UP(a) PAGE_DOWN((uint32_t)(a) + HAL_MPROT_PAGE - 1u)

/* The blocks BL0 drives through their registers, and how. */
static const struct {
	uint32_t base, size, perms;
} bl0_blocks[] = {
	{ TOP_RV_TIMER_BASE_ADDR, RV_TIMER_SIZE, HAL_MPROT_R | HAL_MPROT_W },
	{ TOP_AON_TIMER_BASE_ADDR, AON_TIMER_SIZE, HAL_MPROT_R | HAL_MPROT_W },
	{ TOP_RSTMGR_BASE_ADDR, RSTMGR_SIZE, HAL_MPROT_R | HAL_MPROT_W },
	{ TOP_ENTROPY_SRC_BASE_ADDR, ENTROPY_SRC_SIZE, HAL_MPROT_R | HAL_MPROT_W },
	{ TOP_MBOX_BASE_ADDR, MBOX_SIZE, HAL_MPROT_R | HAL_MPROT_W },
	{ TOP_ROM_CTRL_BASE_ADDR, ROM_CTRL_SIZE, HAL_MPROT_R }, /* the ROM identity an install binds */
};

/* BL0's regions, first match first; the jump locks them. */
static ota_status_t protect_bl0(const struct boot_stage_outcome *bl0)
{
	uint32_t i, r = 0;
	ota_status_t st;

	/* Its placed payload (boot_stage_place: inside BL0's code window), then its RAM window. */
	st = hal_mprot_region(r++, PAGE_DOWN(bl0->code_lo), PAGE_UP(bl0->code_hi),
			      HAL_MPROT_R | HAL_MPROT_X);
	if (st == OTA_OK)
		st = hal_mprot_region(r++, PAGE_DOWN(__bl0_ram), PAGE_UP(__bl0_ram_end),
				      HAL_MPROT_R | HAL_MPROT_W);
	if (st == OTA_OK)
		st = hal_mprot_region(r++, PAGE_DOWN(__handoff_start), PAGE_UP(__handoff_end),
				      HAL_MPROT_R | HAL_MPROT_W);
	for (i = 0; st == OTA_OK && i < sizeof(bl0_blocks) / sizeof(bl0_blocks[0]); i++)
		st = hal_mprot_region(r++, bl0_blocks[i].base, bl0_blocks[i].base + bl0_blocks[i].size,
				      bl0_blocks[i].perms);
	return st;
}
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
	st = protect_bl0(&boot_scratch_ctx()->bl0_out);
	if (st != OTA_OK)
		return st;
	ota_stage_jump(entry, __bss_start, __stack_top, hal_mprot_lock_reg());
#else
	return OTA_OK;
#endif
}
