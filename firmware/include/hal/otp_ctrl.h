/* SPDX-License-Identifier: MIT */
/*
 * hal.h, OTP (the otp_ctrl block):
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/otp_ctrl.yaml (docs/registers.md). The rules all blocks
 * share are in hal.h.
 */
#ifndef OTATTEST_HAL_OTP_CTRL_H
#define OTATTEST_HAL_OTP_CTRL_H

#include <otattest/record.h>
#include <otattest/status.h>

/* Offsets into struct ota_otp. The secret partition reads as an error. */
ota_status_t hal_otp_read(uint32_t offset, void *buf, uint32_t len);
/* OR-only programming: OTP_CLEARS_BITS if any set bit would be cleared. */
ota_status_t hal_otp_program(uint32_t offset, const void *buf, uint32_t len);
/*
 * Lock the COUNTERS partition until the next reset: hal_otp_program then
 * fails with HAL_OTP_COUNTERS_LOCKED. ROM_EXT locks it before the
 * hand-off, so floors, revocations, the epoch and the anchors move only
 * at a boot, as the boot stages decide.
 */
ota_status_t hal_otp_lock_counters(void);

#endif /* OTATTEST_HAL_OTP_CTRL_H */
