// SPDX-License-Identifier: MIT
/*
 * The flash layout and the one way boot code writes a record to flash:
 * erase the page, program, read back. A copy that does not read back as
 * written is reported as a failed write, so a caller never believes a
 * torn copy is the newest.
 */
#include <string.h>

#include "fwlib.h"

ota_status_t boot_layout_load(struct boot_ctx *b)
{
	OTA_TRY(hal_flash_read(0, &b->layout, sizeof(b->layout)));
	OTA_TRY(ota_flash_layout_check(&b->layout, hal_flash_size()));
	b->layout_ok = true;
	return OTA_OK;
}

const struct ota_flash_region *boot_region(const struct boot_ctx *b, uint32_t type)
{
	return ota_flash_layout_region(&b->layout, type);
}

ota_status_t boot_flash_store(uint32_t offset, const void *data, uint32_t len)
{
	/* Records are small: one page, checked against a copy on the stack. */
	uint8_t back[256];

	if (len > sizeof(back) || len > hal_flash_page_size())
		return OTA_HAL_BAD_ARGUMENT;
	OTA_TRY(hal_flash_erase_page(offset));
	OTA_TRY(hal_flash_program(offset, data, len));
	OTA_TRY(hal_flash_read(offset, back, len));
	return memcmp(back, data, len) == 0 ? OTA_OK : OTA_HAL_FLASH_WRITE_FAILED;
}
