// SPDX-License-Identifier: MIT
/*
 * The boot stages' sticky locks as registers: sram_ctrl_ret's VAULT_LOCK
 * (the retention data vault, hal_retention_lock) and otp_ctrl's
 * COUNTERS_LOCK (hal_otp_lock_counters). Both are w1s (bus.h): a 1 sets
 * the lock, nothing but a reset clears it, and the chip's checks
 * (storage.c) read the register. A lock written while power is lost does
 * not take, and ERR_CODE says so.
 */
#include "bus.h"
#include "otp_ctrl_regs.h"
#include "sram_ctrl_ret_regs.h"
#include "swhal_priv.h"

bool chip_lock_set(unsigned block, uint32_t reg_offset)
{
	return chip_reg_get((enum top_block)block, reg_offset) & 1u;
}

/* After the bus set the bit: keep it only with power; ERR_CODE either way. */
static void lock_written(enum top_block block, uint32_t lock_reg, uint32_t err_reg)
{
	if (!swhal_powered()) {
		chip_reg_set(block, lock_reg, 0);
		chip_reg_set(block, err_reg, OTA_HAL_POWER_LOST);
		return;
	}
	chip_reg_set(block, err_reg, OTA_OK);
}

static ota_status_t vault_write(uint32_t reg, uint32_t value)
{
	(void)value;
	if (reg == SRAM_CTRL_RET_VAULT_LOCK_REG_OFFSET)
		lock_written(TOP_BLOCK_SRAM_CTRL_RET, reg, SRAM_CTRL_RET_ERR_CODE_REG_OFFSET);
	return OTA_OK;
}

/* STATUS.VAULT_LOCKED mirrors the lock. */
static ota_status_t vault_read(uint32_t reg)
{
	uint32_t st;

	if (reg != SRAM_CTRL_RET_STATUS_REG_OFFSET)
		return OTA_OK;
	st = chip_reg_get(TOP_BLOCK_SRAM_CTRL_RET, reg) & ~SRAM_CTRL_RET_STATUS_VAULT_LOCKED_MASK;
	if (chip_lock_set(TOP_BLOCK_SRAM_CTRL_RET, SRAM_CTRL_RET_VAULT_LOCK_REG_OFFSET))
		st |= SRAM_CTRL_RET_STATUS_VAULT_LOCKED_MASK;
	chip_reg_set(TOP_BLOCK_SRAM_CTRL_RET, reg, st);
	return OTA_OK;
}

static ota_status_t otp_write(uint32_t reg, uint32_t value)
{
	(void)value;
	if (reg == OTP_CTRL_COUNTERS_LOCK_REG_OFFSET)
		lock_written(TOP_BLOCK_OTP_CTRL, reg, OTP_CTRL_ERR_CODE_REG_OFFSET);
	return OTA_OK;
}

const struct chip_block_ops chip_sram_ctrl_ret_ops = { .write = vault_write, .read = vault_read };
const struct chip_block_ops chip_otp_ctrl_ops = { .write = otp_write };
