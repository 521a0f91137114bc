// SPDX-License-Identifier: MIT
/*
 * hal/rstmgr.h over the reset manager's registers (qemu-model/regs/rstmgr.yaml):
 * the request is one write of RESET_REQ; the block refuses a reason it
 * does not know, or any request while power is lost, and says why in
 * ERR_CODE.
 */
#include "hal.h"
#include "mmio.h"
#include "rstmgr_regs.h"

#define RSTMGR(reg) (TOP_RSTMGR_BASE_ADDR + RSTMGR_##reg##_REG_OFFSET)

ota_status_t hal_reset_request(uint32_t reason)
{
	ota_mmio_write32(RSTMGR(RESET_REQ), reason);
	return (ota_status_t)ota_mmio_read32(RSTMGR(ERR_CODE));
}

bool hal_reset_pending(void)
{
	return (ota_mmio_read32(RSTMGR(RESET_REQ)) & RSTMGR_RESET_REQ_REASON_MASK) != 0;
}
