// SPDX-License-Identifier: MIT
/*
 * A stage image for the emulated core (tests/unit/test_core.c): it runs
 * the firmware's drivers on rv32imc against the chip's registers and
 * leaves what they returned in retention SRAM, where the test reads it:
 * the ROM identity (rom_ctrl), two cycle counts (rv_timer), a refused and
 * an accepted reset request (rstmgr). Then it returns 0x739 (OTA_OK).
 */
#include "core_probe.h"
#include "hal.h"
#include "top_regs.h"

uint32_t stage_main(void);

uint32_t stage_main(void)
{
	struct core_probe_out *out = (struct core_probe_out *)(uintptr_t)TOP_RET_SRAM_BASE_ADDR;
	volatile uint32_t spin = 0;

	out->c0 = hal_cycles();
	hal_rom_identity(out->rom_id);
	out->bad_reset = hal_reset_request(7);
	out->good_reset = hal_reset_request(OTA_RESET_WARM);
	while (spin < 1000)
		spin++;
	out->c1 = hal_cycles();
	out->magic = CORE_PROBE_MAGIC;
	return OTA_OK;
}
