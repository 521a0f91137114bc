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

void hal_host_set_state(uint32_t state, uint32_t detail)
{
	if (!swhal_powered())
		return;
	swhal_dev.state = state;
	swhal_dev.state_detail = detail;
	if (swhal_dev.ops.state)
		swhal_dev.ops.state(swhal_dev.ops_ctx, state, detail);
}

void hal_host_progress(uint32_t done, uint32_t total)
{
	if (!swhal_powered())
		return;
	swhal_dev.progress_done = done;
	swhal_dev.progress_total = total;
	if (swhal_dev.ops.progress)
		swhal_dev.ops.progress(swhal_dev.ops_ctx, done, total);
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
