// SPDX-License-Identifier: MIT
/*
 * hal/mprot.h over the memory protection block's registers
 * (qemu-model/regs/mprot.yaml): a region is three writes, read back,
 * since the block refuses (keeps the old value of) an unaligned bound and
 * every region write once locked.
 */
#include "hal.h"
#include "mmio.h"
#include "mprot_regs.h"

#define MPROT(reg) (TOP_MPROT_BASE_ADDR + MPROT_##reg##_REG_OFFSET)

ota_status_t hal_mprot_region(uint32_t i, uint32_t base, uint32_t limit, uint32_t perms)
{
	uint32_t cfg = (perms & (HAL_MPROT_R | HAL_MPROT_W | HAL_MPROT_X)) | MPROT_REGION_CFG_EN_MASK;

	if (i >= MPROT_REGION_CFG_COUNT || base % HAL_MPROT_PAGE || limit % HAL_MPROT_PAGE || limit <= base)
		return OTA_HAL_BAD_ARGUMENT;
	ota_mmio_write32(TOP_MPROT_BASE_ADDR + MPROT_REGION_BASE_REG_OFFSET(i), base);
	ota_mmio_write32(TOP_MPROT_BASE_ADDR + MPROT_REGION_LIMIT_REG_OFFSET(i), limit);
	ota_mmio_write32(TOP_MPROT_BASE_ADDR + MPROT_REGION_CFG_REG_OFFSET(i), cfg);
	if (ota_mmio_read32(TOP_MPROT_BASE_ADDR + MPROT_REGION_BASE_REG_OFFSET(i)) != base ||
	    ota_mmio_read32(TOP_MPROT_BASE_ADDR + MPROT_REGION_LIMIT_REG_OFFSET(i)) != limit ||
	    ota_mmio_read32(TOP_MPROT_BASE_ADDR + MPROT_REGION_CFG_REG_OFFSET(i)) != cfg)
		return OTA_HAL_BAD_ARGUMENT;
	return OTA_OK;
}

uint32_t hal_mprot_lock_reg(void)
{
	return MPROT(LOCK);
}
