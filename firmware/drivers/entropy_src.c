// SPDX-License-Identifier: MIT
/*
 * hal/entropy_src.h over the TRNG's registers (qemu-model/regs/entropy_src.yaml):
 * (re)enable the source, which clears its error, read a word of
 * ENTROPY_DATA per 4 bytes, then ERR_CODE says whether every word was
 * good. On a failure nothing random is left in buf.
 */
#include <string.h>

#include "entropy_src_regs.h"
#include "hal.h"
#include "mmio.h"

#define ENTROPY(reg) (TOP_ENTROPY_SRC_BASE_ADDR + ENTROPY_SRC_##reg##_REG_OFFSET)

ota_status_t hal_trng_fill(void *buf, uint32_t len)
{
	uint8_t *p = buf;
	ota_status_t st;
	uint32_t i;

	if (!buf && len)
		return OTA_HAL_BAD_ARGUMENT;
	ota_mmio_write32(ENTROPY(CONF), ENTROPY_SRC_CONF_ENABLE_MASK);
	for (i = 0; i < len; i += 4) {
		uint32_t w = ota_mmio_read32(ENTROPY(ENTROPY_DATA)), k;

		for (k = 0; k < 4 && i + k < len; k++)
			p[i + k] = (uint8_t)(w >> (8 * k));
	}
	st = (ota_status_t)ota_mmio_read32(ENTROPY(ERR_CODE));
	if (st != OTA_OK && len)
		memset(buf, 0, len);
	return st;
}
