// SPDX-License-Identifier: MIT
/*
 * The host interface: what the device publishes to the world outside it
 * (the model puts it in shared memory and rings the guest).
 *
 * The record generation only moves forward, across resets, power cycles
 * and model restarts. Persisting every value would put a file write on
 * every boot, so generations are reserved in blocks: host.bin holds a
 * high-water mark that is written (durably) before any generation above
 * the previous mark is handed out. A restart resumes above the mark,
 * skipping at most one block of unused values, never repeating one.
 */
#include <errno.h>
#include <string.h>

#include "bus.h"
#include "mbox_regs.h"
#include "swhal_priv.h"

#define GENERATION_BLOCK 1024u

/*
 * The record's publication (RECORD window, RECORD_LEN, RECORD_PUBLISH.GO,
 * mbox.yaml): the next generation is stamped into the header in RECORD,
 * the record exported and RECORD_GENERATION set to it; 0 there when it
 * was refused (no power, a length the window or the record cannot be,
 * generations exhausted, the mark not persisted).
 */
static uint32_t publish_record(void)
{
	uint8_t *win = chip_window_mem(TOP_BLOCK_MBOX, MBOX_RECORD_OFFSET);
	uint32_t len = chip_reg_get(TOP_BLOCK_MBOX, MBOX_RECORD_LEN_REG_OFFSET);
	struct ota_record_header *record = (struct ota_record_header *)(void *)win;
	uint32_t gen;

	if (!swhal_powered() || !win || len < sizeof(*record) || len > MBOX_RECORD_SIZE ||
	    len > sizeof(swhal_dev.last_record))
		return 0;
	gen = swhal_dev.generation + 1u;
	if (gen == 0)
		return 0; /* 2^32 records: refuse rather than wrap */
	if (gen > swhal_dev.generation_mark) {
		uint32_t mark = gen + GENERATION_BLOCK - 1u;

		if (mark < gen)
			mark = UINT32_MAX;
		if (swhal_persist_generation_mark(mark) != 0)
			return 0;
		swhal_dev.generation_mark = mark;
	}
	swhal_dev.generation = gen;
	memcpy(&record->generation, &gen, sizeof(gen));
	memcpy(&swhal_dev.last_record, win, len);
	swhal_dev.last_record_len = len;
	if (swhal_dev.ops.record)
		swhal_dev.ops.record(swhal_dev.ops_ctx, &swhal_dev.last_record.hdr, len);
	return gen;
}

/*
 * The request/response mailbox (STATUS, REQ_*, REQ; RESP_*, RESP,
 * DOORBELL.RESPONSE). The request is the host's, posted by the board's
 * transport: it is kept here, outside the registers and windows a device
 * reset clears, so the runtime that boots after a reset the request asked
 * for still finds it (STATUS.RESUMED); a power cycle drops it. The answer
 * is taken when the firmware rings DOORBELL.RESPONSE.
 */
static struct {
	bool pending, resumed, answered;
	uint32_t seq, command, len;
	uint8_t req[MBOX_REQ_SIZE];
	uint32_t resp_status, resp_len;
	uint8_t resp[MBOX_RESP_SIZE];
} mb;

int swhal_mbox_post(uint32_t seq, uint32_t command, const void *req, uint32_t len)
{
	if (!swhal_powered() || len > sizeof(mb.req) || (len && !req))
		return -EINVAL;
	memset(&mb, 0, sizeof(mb));
	mb.pending = true;
	mb.seq = seq;
	mb.command = command;
	mb.len = len;
	if (len)
		memcpy(mb.req, req, len);
	return 0;
}

bool swhal_mbox_take_response(ota_status_t *status, void *resp, uint32_t cap, uint32_t *len)
{
	if (!mb.answered)
		return false;
	mb.answered = false;
	*status = (ota_status_t)mb.resp_status;
	*len = mb.resp_len < cap ? mb.resp_len : cap;
	if (*len)
		memcpy(resp, mb.resp, *len);
	return true;
}

bool swhal_mbox_owed(void)
{
	return mb.pending;
}

void swhal_mbox_cancel(void)
{
	memset(&mb, 0, sizeof(mb));
}

/* The request as the registers show it (they were reset with the device). */
static ota_status_t mbox_read(uint32_t reg)
{
	uint32_t status = mb.pending ? MBOX_STATUS_REQUEST_MASK | MBOX_STATUS_RESPONSE_OWED_MASK : 0;

	if (mb.pending && mb.resumed)
		status |= MBOX_STATUS_RESUMED_MASK;
	chip_reg_set(TOP_BLOCK_MBOX, MBOX_STATUS_REG_OFFSET, status);
	chip_reg_set(TOP_BLOCK_MBOX, MBOX_REQ_SEQ_REG_OFFSET, mb.pending ? mb.seq : 0);
	chip_reg_set(TOP_BLOCK_MBOX, MBOX_REQ_COMMAND_REG_OFFSET, mb.pending ? mb.command : 0);
	chip_reg_set(TOP_BLOCK_MBOX, MBOX_REQ_LEN_REG_OFFSET, mb.pending ? mb.len : 0);
	(void)reg;
	return OTA_OK;
}

/* REQ reads the posted request (zero past it, or with none); the other windows are memory. */
static ota_status_t mbox_window_read(uint32_t window, uint32_t offset, void *data, uint32_t len)
{
	const struct chip_window *w = &chip_blocks[TOP_BLOCK_MBOX].windows[window];

	if (w->offset != MBOX_REQ_OFFSET) {
		memcpy(data, chip_window_mem(TOP_BLOCK_MBOX, w->offset) + offset, len);
		return OTA_OK;
	}
	memset(data, 0, len);
	if (mb.pending && offset < mb.len)
		memcpy(data, mb.req + offset, mb.len - offset < len ? mb.len - offset : len);
	return OTA_OK;
}

/* DOORBELL.RESPONSE: RESP_STATUS, RESP_LEN (at most RESP's size) and RESP are the answer. */
static void take_response(void)
{
	uint32_t len = chip_reg_get(TOP_BLOCK_MBOX, MBOX_RESP_LEN_REG_OFFSET);

	if (!mb.pending)
		return; /* nothing asked: a ring without a request is dropped */
	mb.pending = false;
	mb.resumed = false;
	mb.answered = true;
	mb.resp_status = chip_reg_get(TOP_BLOCK_MBOX, MBOX_RESP_STATUS_REG_OFFSET);
	mb.resp_len = len < sizeof(mb.resp) ? len : sizeof(mb.resp);
	memcpy(mb.resp, chip_window_mem(TOP_BLOCK_MBOX, MBOX_RESP_OFFSET), mb.resp_len);
}

/*
 * State and progress as mbox registers (qemu-model/regs/mbox.yaml): the
 * firmware writes STATE and STATE_DETAIL, or PROGRESS_DONE and
 * PROGRESS_TOTAL, then rings DOORBELL.EVENT; the ring publishes what was
 * written since the last one (each write marks its pair, whatever the
 * value), as hal_host_set_state and hal_host_progress did. Nothing is
 * published while power is lost; a reset forgets unrung writes.
 */
static bool state_written, progress_written;

static void publish_events(void)
{
	if (!swhal_powered()) {
		state_written = progress_written = false;
		return;
	}
	if (state_written) {
		swhal_dev.state = chip_reg_get(TOP_BLOCK_MBOX, MBOX_STATE_REG_OFFSET);
		swhal_dev.state_detail = chip_reg_get(TOP_BLOCK_MBOX, MBOX_STATE_DETAIL_REG_OFFSET);
		if (swhal_dev.ops.state)
			swhal_dev.ops.state(swhal_dev.ops_ctx, swhal_dev.state, swhal_dev.state_detail);
	}
	if (progress_written) {
		swhal_dev.progress_done = chip_reg_get(TOP_BLOCK_MBOX, MBOX_PROGRESS_DONE_REG_OFFSET);
		swhal_dev.progress_total = chip_reg_get(TOP_BLOCK_MBOX, MBOX_PROGRESS_TOTAL_REG_OFFSET);
		if (swhal_dev.ops.progress)
			swhal_dev.ops.progress(swhal_dev.ops_ctx, swhal_dev.progress_done,
					       swhal_dev.progress_total);
	}
	state_written = progress_written = false;
}

static ota_status_t mbox_write(uint32_t reg, uint32_t value)
{
	switch (reg) {
	case MBOX_STATE_REG_OFFSET:
	case MBOX_STATE_DETAIL_REG_OFFSET:
		state_written = true;
		break;
	case MBOX_PROGRESS_DONE_REG_OFFSET:
	case MBOX_PROGRESS_TOTAL_REG_OFFSET:
		progress_written = true;
		break;
	case MBOX_DOORBELL_REG_OFFSET:
		if (value & MBOX_DOORBELL_RESPONSE_MASK)
			take_response();
		if (value & MBOX_DOORBELL_EVENT_MASK)
			publish_events();
		break;
	case MBOX_RECORD_PUBLISH_REG_OFFSET:
		if (value & MBOX_RECORD_PUBLISH_GO_MASK)
			chip_reg_set(TOP_BLOCK_MBOX, MBOX_RECORD_GENERATION_REG_OFFSET,
				     publish_record());
		break;
	default:
		break;
	}
	return OTA_OK;
}

const struct chip_block_ops chip_mbox_ops = {
	.write = mbox_write,
	.read = mbox_read,
	.window_read = mbox_window_read,
};

/* A device reset: unrung writes are forgotten; an owed request stays, to be resumed. */
void chip_mbox_reset(void)
{
	state_written = progress_written = false;
	if (mb.pending)
		mb.resumed = true;
}

uint32_t swhal_last_record(void *buf, uint32_t cap)
{
	uint32_t n = swhal_dev.last_record_len;

	if (!buf || cap < n)
		return n;
	memcpy(buf, &swhal_dev.last_record, n);
	return n;
}

void swhal_last_state(uint32_t *state, uint32_t *detail)
{
	if (state)
		*state = swhal_dev.state;
	if (detail)
		*detail = swhal_dev.state_detail;
}

void swhal_last_progress(uint32_t *done, uint32_t *total)
{
	if (done)
		*done = swhal_dev.progress_done;
	if (total)
		*total = swhal_dev.progress_total;
}

uint32_t swhal_next_generation(void)
{
	return swhal_dev.generation + 1u;
}
