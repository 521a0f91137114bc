/* SPDX-License-Identifier: MIT */
/*
 * hal.h, retention RAM and its data vault (sram_ctrl_ret): survives warm and update resets, not cold boot:
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/sram_ctrl_ret.yaml (docs/registers.md). The rules all blocks
 * share are in hal.h.
 */
#ifndef OTATTEST_HAL_SRAM_CTRL_RET_H
#define OTATTEST_HAL_SRAM_CTRL_RET_H

#include <otattest/record.h>
#include <otattest/status.h>

#define HAL_RETENTION_BYTES 512u
ota_status_t hal_retention_read(uint32_t offset, void *buf, uint32_t len);
ota_status_t hal_retention_write(uint32_t offset, const void *buf, uint32_t len);

/*
 * The data vault, Caliptra's in miniature: retention RAM [0,
 * HAL_RETENTION_VAULT_BYTES) is writable until hal_retention_lock(), then
 * read-only (HAL_RETENTION_LOCKED) until the next reset. The boot stages
 * write what the runtime must not choose (min SVN, the chain's state) and
 * lock it before the hand-off; the rest of retention RAM stays writable
 * for the runtime's requests.
 */
#define HAL_RETENTION_VAULT_BYTES 128u
ota_status_t hal_retention_lock(void);

#endif /* OTATTEST_HAL_SRAM_CTRL_RET_H */
