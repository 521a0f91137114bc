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
#include <string.h>

#include "bus.h"
#include "mbox_regs.h"
#include "swhal_priv.h"

#define GENERATION_BLOCK 1024u

uint32_t hal_host_publish_record(struct ota_record_header *record, uint32_t len)
{
	uint32_t gen;

	if (!swhal_powered() || !record || len < sizeof(*record) ||
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
	record->generation = gen;
	memcpy(&swhal_dev.last_record, record, len);
	swhal_dev.last_record_len = len;
	if (swhal_dev.ops.record)
		swhal_dev.ops.record(swhal_dev.ops_ctx, record, len);
	return gen;
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
		if (value & MBOX_DOORBELL_EVENT_MASK)
			publish_events();
		break;
	default:
		break;
	}
	return OTA_OK;
}

const struct chip_block_ops chip_mbox_ops = { .write = mbox_write };

void chip_mbox_reset(void)
{
	state_written = progress_written = false;
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
