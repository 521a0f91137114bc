// SPDX-License-Identifier: MIT
/*
 * hal/otp_ctrl.h's counters lock over the OTP controller's registers
 * (qemu-model/regs/otp_ctrl.yaml): COUNTERS_LOCK is write-1-to-set,
 * cleared only by a reset. (OTP reads and programs are still the chip's
 * calls until the direct access interface is converted.)
 */
#include "hal.h"
#include "mmio.h"
#include "otp_ctrl_regs.h"

#define OTP(reg) (TOP_OTP_CTRL_BASE_ADDR + OTP_CTRL_##reg##_REG_OFFSET)

ota_status_t hal_otp_lock_counters(void)
{
	ota_mmio_write32(OTP(COUNTERS_LOCK), OTP_CTRL_COUNTERS_LOCK_LOCKED_MASK);
	return (ota_status_t)ota_mmio_read32(OTP(ERR_CODE));
}
