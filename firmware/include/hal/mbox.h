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

/*
 * The request/response mailbox, for firmware that serves it (BL0 on the
 * emulated core; on the host build the board calls ota_runtime_command
 * itself). hal_mbox_request: whether a request waits, with its command,
 * length (the host's claim: check it) and whether it was already there
 * when the device reset (the request asked for that reset: answer it with
 * ota_runtime_resume). hal_mbox_read: its first len bytes (zero past the
 * request). hal_mbox_respond: the answer, then the doorbell; the request
 * is gone. HAL_BAD_ARGUMENT for a length the windows cannot hold.
 */
struct hal_mbox_request {
	uint32_t command;
	uint32_t len;
	bool resumed;
};
bool hal_mbox_request(struct hal_mbox_request *req);
ota_status_t hal_mbox_read(void *buf, uint32_t len);
ota_status_t hal_mbox_respond(ota_status_t status, const void *resp, uint32_t len);

/*
 * Wait until the next request (wfi with the mailbox's request interrupt
 * enabled). rv32 images only (firmware/base/hal_svc.c): on the core a
 * stand-in that stops it until the board posts a request (hal/svc.h,
 * HAL_SVC_WFI); the host build has no loop that waits.
 */
void hal_wait_for_interrupt(void);

#endif /* OTATTEST_HAL_MBOX_H */
