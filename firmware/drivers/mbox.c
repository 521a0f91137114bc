// SPDX-License-Identifier: MIT
/*
 * hal/mbox.h over the mailbox block's registers (qemu-model/regs/mbox.yaml):
 * state and progress (write the pair, ring DOORBELL.EVENT), the record's
 * publication (RECORD window, RECORD_LEN, RECORD_PUBLISH, the generation
 * from RECORD_GENERATION), and the request/response mailbox BL0 serves
 * (STATUS, REQ_*, the REQ window; RESP_*, the RESP window,
 * DOORBELL.RESPONSE). Windows are copied one 32-bit word at a time, the
 * only access the bus takes.
 */
#include <string.h>

#include "hal.h"
#include "mbox_regs.h"
#include "mmio.h"

#define MBOX(reg) (TOP_MBOX_BASE_ADDR + MBOX_##reg##_REG_OFFSET)
#define MBOX_WIN(win) (TOP_MBOX_BASE_ADDR + MBOX_##win##_OFFSET)

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

/* len bytes into a window at addr, word by word (the last word zero-padded). */
static void window_write(uint32_t addr, const void *src, uint32_t len)
{
	const uint8_t *p = src;
	uint32_t off, w;

	for (off = 0; off < len; off += 4) {
		w = 0;
		memcpy(&w, p + off, len - off < 4 ? len - off : 4);
		ota_mmio_write32(addr + off, w);
	}
}

static void window_read(uint32_t addr, void *dst, uint32_t len)
{
	uint8_t *p = dst;
	uint32_t off, w;

	for (off = 0; off < len; off += 4) {
		w = ota_mmio_read32(addr + off);
		memcpy(p + off, &w, len - off < 4 ? len - off : 4);
	}
}

uint32_t hal_host_publish_record(struct ota_record_header *record, uint32_t len)
{
	uint32_t gen;

	if (!record || len < sizeof(*record) || len > MBOX_RECORD_SIZE)
		return 0;
	window_write(MBOX_WIN(RECORD), record, len);
	ota_mmio_write32(MBOX(RECORD_LEN), len);
	ota_mmio_write32(MBOX(RECORD_PUBLISH), MBOX_RECORD_PUBLISH_GO_MASK);
	gen = ota_mmio_read32(MBOX(RECORD_GENERATION));
	if (gen)
		record->generation = gen;
	return gen;
}

bool hal_mbox_request(struct hal_mbox_request *req)
{
	uint32_t status = ota_mmio_read32(MBOX(STATUS));

	if (!(status & MBOX_STATUS_REQUEST_MASK))
		return false;
	req->command = ota_mmio_read32(MBOX(REQ_COMMAND));
	req->len = ota_mmio_read32(MBOX(REQ_LEN));
	req->resumed = (status & MBOX_STATUS_RESUMED_MASK) != 0;
	return true;
}

ota_status_t hal_mbox_read(void *buf, uint32_t len)
{
	if (len > MBOX_REQ_SIZE)
		return OTA_HAL_BAD_ARGUMENT;
	window_read(MBOX_WIN(REQ), buf, len);
	return OTA_OK;
}

ota_status_t hal_mbox_respond(ota_status_t status, const void *resp, uint32_t len)
{
	if (len > MBOX_RESP_SIZE || (len && !resp))
		return OTA_HAL_BAD_ARGUMENT;
	window_write(MBOX_WIN(RESP), resp, len);
	ota_mmio_write32(MBOX(RESP_LEN), len);
	ota_mmio_write32(MBOX(RESP_STATUS), (uint32_t)status);
	ota_mmio_write32(MBOX(DOORBELL), MBOX_DOORBELL_RESPONSE_MASK);
	return OTA_OK;
}
