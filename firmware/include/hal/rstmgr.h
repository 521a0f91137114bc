/* SPDX-License-Identifier: MIT */
/*
 * hal.h, reset manager (the rstmgr block):
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/rstmgr.yaml (docs/registers.md). The rules all blocks
 * share are in hal.h.
 */
#ifndef OTATTEST_HAL_RSTMGR_H
#define OTATTEST_HAL_RSTMGR_H

#include <otattest/record.h>
#include <otattest/status.h>

/*
 * Ask the reset manager for a reset (enum ota_reset_reason). Nothing
 * happens until the current mailbox request returns; then the chip resets
 * - the key manager back to ROM, every working key slot and engine
 * cleared, retention RAM and the retained key vault kept for WARM and
 * UPDATE - and execution restarts in ROM. The firmware never runs an
 * earlier stage itself. HAL_BAD_ARGUMENT for an unknown reason.
 */
ota_status_t hal_reset_request(uint32_t reason);

/* Whether a reset was asked for and not yet performed (RESET_REQ): the request must not be answered now. */
bool hal_reset_pending(void);

#endif /* OTATTEST_HAL_RSTMGR_H */
