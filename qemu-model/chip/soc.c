// SPDX-License-Identifier: MIT
/*
 * The SoC's wiring: which blocks have their behaviour behind registers
 * (docs/hal.md, "Registers and the bus"). Blocks are converted one at a
 * time; a block not listed here is still reached through its hal.h calls
 * in this folder, and its registers have no effect yet.
 */
#include "bus.h"
#include "swhal_priv.h"

void chip_soc_wire(void)
{
	chip_bus_set_ops(TOP_BLOCK_RSTMGR, &chip_rstmgr_ops);
	chip_bus_set_ops(TOP_BLOCK_ENTROPY_SRC, &chip_entropy_src_ops);
	chip_bus_set_ops(TOP_BLOCK_RV_TIMER, &chip_rv_timer_ops);
	chip_bus_set_ops(TOP_BLOCK_ROM_CTRL, &chip_rom_ctrl_ops);
	chip_bus_set_ops(TOP_BLOCK_SRAM_CTRL_RET, &chip_sram_ctrl_ret_ops);
	chip_bus_set_ops(TOP_BLOCK_OTP_CTRL, &chip_otp_ctrl_ops);
	chip_bus_set_ops(TOP_BLOCK_MBOX, &chip_mbox_ops);
	chip_bus_set_ops(TOP_BLOCK_AON_TIMER, &chip_aon_timer_ops);
	chip_bus_set_ops(TOP_BLOCK_MPROT, &chip_mprot_ops);
}
