/* SPDX-License-Identifier: MIT */
/*
 * hal.h, flash (the flash_ctrl block): NOR rules, protection until reset, the hashing read:
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/flash_ctrl.yaml (docs/registers.md). The rules all blocks
 * share are in hal.h.
 */
#ifndef OTATTEST_HAL_FLASH_CTRL_H
#define OTATTEST_HAL_FLASH_CTRL_H

#include <otattest/record.h>
#include <otattest/status.h>

uint32_t hal_flash_size(void);
uint32_t hal_flash_page_size(void);
ota_status_t hal_flash_read(uint32_t addr, void *buf, uint32_t len);
ota_status_t hal_flash_erase_page(uint32_t addr);
/* HAL_FLASH_NOT_ERASED when a bit would go from 0 to 1. */
ota_status_t hal_flash_program(uint32_t addr, const void *buf, uint32_t len);

/*
 * Write-protect [addr, addr + len) (page aligned) until the next reset,
 * like OpenTitan's flash controller region protection that ROM_EXT locks
 * before the hand-off: from then on erase and program touching it fail
 * with HAL_FLASH_LOCKED, whoever asks. Up to HAL_FLASH_PROTECT_REGIONS
 * regions (HAL_BAD_ARGUMENT past that, or for a misaligned range). The
 * boot stages protect what the runtime must never write (the layout,
 * boot data, tag tables, owner config and the running slots), so that
 * holds even when the runtime is not what it should be.
 */
#define HAL_FLASH_PROTECT_REGIONS 8u
ota_status_t hal_flash_protect(uint32_t addr, uint32_t len);

/*
 * DMA from flash into RAM with inline hashing (like the SHA-2 inline
 * hashing of OpenTitan's DMA block): the len bytes at addr land in buf,
 * and the same bytes, as they were written to buf, go through the
 * running SHA-256 operation (hal_sha256_start before, hal_sha256_finish
 * after; plain hal_sha256_update calls may come between transfers). The
 * digest covers exactly what buf holds, never a later state of flash.
 * Checked first: HAL_FLASH_BAD_ADDRESS, HAL_BAD_ARGUMENT and
 * HAL_ENGINE_IDLE (no operation started) read, write and hash nothing
 * and leave a running operation as it was. A failure during the transfer
 * ends the operation, so a digest of part of the data never comes out.
 */
ota_status_t hal_flash_read_sha256(uint32_t addr, void *buf, uint32_t len);

#endif /* OTATTEST_HAL_FLASH_CTRL_H */
