// SPDX-License-Identifier: MIT
/*
 * hal/mbox.h's state and progress over the mailbox block's registers
 * (qemu-model/regs/mbox.yaml): write the pair, ring DOORBELL.EVENT; the
 * block publishes what was written to the host. The record's publication
 * (RECORD window, RECORD_PUBLISH) is still the chip's call.
 */
#include "hal.h"
#include "mbox_regs.h"
#include "mmio.h"

#define MBOX(reg) (TOP_MBOX_BASE_ADDR + MBOX_##reg##_REG_OFFSET)

void hal_host_set_state(uint32_t state, uint32_t detail)
{
	ota_mmio_write32(MBOX(STATE), state);
	ota_mmio_write32(MBOX(STATE_DETAIL), detail);
	ota_mmio_write32(MBOX(DOORBELL), MBOX_DOORBELL_EVENT_MASK);
}

void hal_host_progress(uint32_t done, uint32_t total)
{
	ota_mmio_write32(MBOX(PROGRESS_DONE), done);
	ota_mmio_write32(MBOX(PROGRESS_TOTAL), total);
	ota_mmio_write32(MBOX(DOORBELL), MBOX_DOORBELL_EVENT_MASK);
}
