// SPDX-License-Identifier: MIT
/*
 * The TRNG as a peripheral (qemu-model/regs/entropy_src.yaml): each read
 * of ENTROPY_DATA is 32 fresh bits from the DRBG itself (never the
 * key manager's masking pool). A read without power, or a DRBG failure,
 * reads 0 and leaves its status in ERR_CODE until CONF is written again.
 */
#include <openssl/rand.h>

#include "bus.h"
#include "entropy_src_regs.h"
#include "swhal_priv.h"

static void fail(ota_status_t why)
{
	chip_reg_set(TOP_BLOCK_ENTROPY_SRC, ENTROPY_SRC_ERR_CODE_REG_OFFSET, (uint32_t)why);
	chip_reg_set(TOP_BLOCK_ENTROPY_SRC, ENTROPY_SRC_STATUS_REG_OFFSET, ENTROPY_SRC_STATUS_ERROR_MASK);
	chip_reg_set(TOP_BLOCK_ENTROPY_SRC, ENTROPY_SRC_ENTROPY_DATA_REG_OFFSET, 0);
}

static ota_status_t entropy_write(uint32_t reg, uint32_t value)
{
	(void)value;
	if (reg != ENTROPY_SRC_CONF_REG_OFFSET)
		return OTA_OK;
	if (!swhal_powered()) {
		fail(OTA_HAL_POWER_LOST);
		return OTA_OK;
	}
	chip_reg_set(TOP_BLOCK_ENTROPY_SRC, ENTROPY_SRC_ERR_CODE_REG_OFFSET, OTA_OK);
	chip_reg_set(TOP_BLOCK_ENTROPY_SRC, ENTROPY_SRC_STATUS_REG_OFFSET, ENTROPY_SRC_STATUS_READY_MASK);
	return OTA_OK;
}

static ota_status_t entropy_read(uint32_t reg)
{
	uint8_t b[4];

	if (reg != ENTROPY_SRC_ENTROPY_DATA_REG_OFFSET)
		return OTA_OK;
	if (!swhal_powered() ||
	    !(chip_reg_get(TOP_BLOCK_ENTROPY_SRC, ENTROPY_SRC_CONF_REG_OFFSET) & ENTROPY_SRC_CONF_ENABLE_MASK)) {
		fail(swhal_powered() ? OTA_HAL_CRYPTO_FAILED : OTA_HAL_POWER_LOST);
		return OTA_OK;
	}
	if (RAND_bytes(b, sizeof(b)) != 1) {
		fail(OTA_HAL_CRYPTO_FAILED);
		return OTA_OK;
	}
	chip_reg_set(TOP_BLOCK_ENTROPY_SRC, ENTROPY_SRC_ENTROPY_DATA_REG_OFFSET,
		     (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
	swhal_wipe(b, sizeof(b));
	swhal_clock_charge(SWHAL_COST_TRNG_WORD, 1);
	return OTA_OK;
}

const struct chip_block_ops chip_entropy_src_ops = { .write = entropy_write, .read = entropy_read };
