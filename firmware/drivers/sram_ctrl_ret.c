// SPDX-License-Identifier: MIT
/*
 * hal/sram_ctrl_ret.h's lock over the retention SRAM controller's
 * registers (qemu-model/regs/sram_ctrl_ret.yaml): VAULT_LOCK is
 * write-1-to-set, cleared only by a reset. (Reads and writes of retention
 * RAM are still the chip's calls; the RAM becomes the RET_SRAM region when
 * the stages run on the core.)
 */
#include "hal.h"
#include "mmio.h"
#include "sram_ctrl_ret_regs.h"

#define RET(reg) (TOP_SRAM_CTRL_RET_BASE_ADDR + SRAM_CTRL_RET_##reg##_REG_OFFSET)

ota_status_t hal_retention_lock(void)
{
	ota_mmio_write32(RET(VAULT_LOCK), SRAM_CTRL_RET_VAULT_LOCK_LOCK_MASK);
	return (ota_status_t)ota_mmio_read32(RET(ERR_CODE));
}
