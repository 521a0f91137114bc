// SPDX-License-Identifier: MIT
/*
 * The reset manager as a peripheral (qemu-model/regs/rstmgr.yaml): a
 * write of RESET_REQ asks for a reset, which the board performs when the
 * current request returns (swhal_reset_take, swhal_reset); RESET_INFO
 * says why the core last started in ROM. The rules hal_reset_request
 * had: only WARM or UPDATE (or COLD) are reasons, judged on the whole
 * value written, not just the field's bits; nothing while power is lost.
 */
#include "bus.h"
#include "rstmgr_regs.h"
#include "swhal_priv.h"

static bool reason_known(uint32_t reason)
{
	return reason == OTA_RESET_COLD || reason == OTA_RESET_WARM || reason == OTA_RESET_UPDATE;
}

static void refuse(ota_status_t why)
{
	chip_reg_set(TOP_BLOCK_RSTMGR, RSTMGR_RESET_REQ_REG_OFFSET, 0);
	chip_reg_set(TOP_BLOCK_RSTMGR, RSTMGR_ERR_CODE_REG_OFFSET, (uint32_t)why);
}

static ota_status_t rstmgr_write(uint32_t reg, uint32_t value)
{
	if (reg != RSTMGR_RESET_REQ_REG_OFFSET)
		return OTA_OK;
	if (!swhal_powered()) {
		refuse(OTA_HAL_POWER_LOST);
		return OTA_OK;
	}
	if (!reason_known(value)) {
		refuse(OTA_HAL_BAD_ARGUMENT);
		return OTA_OK;
	}
	swhal_dev.reset_pending = true;
	swhal_dev.reset_reason = value;
	chip_reg_set(TOP_BLOCK_RSTMGR, RSTMGR_ERR_CODE_REG_OFFSET, OTA_OK);
	return OTA_OK;
}

const struct chip_block_ops chip_rstmgr_ops = { .write = rstmgr_write };

void chip_rstmgr_started(uint32_t reason)
{
	chip_reg_set(TOP_BLOCK_RSTMGR, RSTMGR_RESET_REQ_REG_OFFSET, 0);
	chip_reg_set(TOP_BLOCK_RSTMGR, RSTMGR_RESET_INFO_REG_OFFSET, reason);
}
