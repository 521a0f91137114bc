/* SPDX-License-Identifier: MIT */
/*
 * hal.h, the host interface (the mbox block; the mailbox transport lives in the device):
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/mbox.yaml (docs/registers.md). The rules all blocks
 * share are in hal.h.
 */
#ifndef OTATTEST_HAL_MBOX_H
#define OTATTEST_HAL_MBOX_H

#include <otattest/record.h>
#include <otattest/status.h>

/*
 * Publish a new boot record. The host interface keeps a generation counter
 * that only moves forward (across resets and power cycles too): it stamps
 * the next value into the record header's generation field, exports the
 * record and returns that value.
 */
uint32_t hal_host_publish_record(struct ota_record_header *record, uint32_t len);
/* Publish device state and the status explaining it. */
void hal_host_set_state(uint32_t state, uint32_t detail);
/* Publish progress of a long operation (tag rotation). */
void hal_host_progress(uint32_t done, uint32_t total);

#endif /* OTATTEST_HAL_MBOX_H */
