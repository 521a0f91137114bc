// SPDX-License-Identifier: MIT
/*
 * The bus (bus.h): address decoding by the generated tables and the
 * access types every register of every block obeys.
 */
#include <string.h>

#include "bus.h"

static const struct chip_block_ops *block_ops[TOP_BLOCK_COUNT];

void chip_bus_set_ops(enum top_block block, const struct chip_block_ops *ops)
{
	if ((unsigned)block < TOP_BLOCK_COUNT)
		block_ops[block] = ops;
}

static const struct chip_block *block_at(uint32_t addr, enum top_block *id)
{
	uint32_t i;

	for (i = 0; i < TOP_BLOCK_COUNT; i++)
		if (addr - chip_blocks[i].base < chip_blocks[i].size) {
			*id = (enum top_block)i;
			return &chip_blocks[i];
		}
	return NULL;
}

static int reg_index(const struct chip_block *b, uint32_t offset)
{
	uint32_t i;

	for (i = 0; i < b->nregs; i++)
		if (b->regs[i].offset == offset)
			return (int)i;
	return -1;
}

/* The window [offset, offset + len) lies in, or -1. */
static int window_index(const struct chip_block *b, uint32_t offset, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < b->nwindows; i++) {
		const struct chip_window *w = &b->windows[i];

		if (offset - w->offset < w->size && len <= w->size - (offset - w->offset))
			return (int)i;
	}
	return -1;
}

static ota_status_t window_access(enum top_block id, const struct chip_block *b, uint32_t addr,
				  void *data, uint32_t len, bool write)
{
	uint32_t off = addr - b->base;
	int w = len ? window_index(b, off, len) : -1;
	const struct chip_block_ops *ops = block_ops[id];
	const struct chip_window *win;
	uint32_t woff;

	if (w < 0 || !data)
		return OTA_HAL_BUS_ERROR;
	win = &b->windows[w];
	woff = off - win->offset;
	if (write) {
		if (win->access == CHIP_ACCESS_RO)
			return OTA_OK; /* ignored, as a read-only register */
		if (ops && ops->window_write)
			return ops->window_write((uint32_t)w, woff, data, len);
		memcpy(b->window_mem[w] + woff, data, len);
		return OTA_OK;
	}
	if (win->access == CHIP_ACCESS_WO) {
		memset(data, 0, len);
		return OTA_OK;
	}
	if (ops && ops->window_read)
		return ops->window_read((uint32_t)w, woff, data, len);
	memcpy(data, b->window_mem[w] + woff, len);
	return OTA_OK;
}

ota_status_t chip_bus_read32(uint32_t addr, uint32_t *value)
{
	enum top_block id;
	const struct chip_block *b = block_at(addr, &id);
	const struct chip_block_ops *ops;
	int r;

	if (!value)
		return OTA_HAL_BUS_ERROR;
	*value = 0;
	if (!b || addr % 4)
		return OTA_HAL_BUS_ERROR;
	r = reg_index(b, addr - b->base);
	if (r < 0)
		return window_access(id, b, addr, value, 4, false);
	if (b->regs[r].access == CHIP_ACCESS_WO)
		return OTA_OK;
	ops = block_ops[id];
	if (ops && ops->read) {
		ota_status_t st = ops->read(b->regs[r].offset);

		if (st != OTA_OK)
			return st;
	}
	*value = b->values[r];
	return OTA_OK;
}

ota_status_t chip_bus_write32(uint32_t addr, uint32_t value)
{
	enum top_block id;
	const struct chip_block *b = block_at(addr, &id);
	const struct chip_block_ops *ops;
	uint32_t *v;
	int r;

	if (!b || addr % 4)
		return OTA_HAL_BUS_ERROR;
	r = reg_index(b, addr - b->base);
	if (r < 0)
		return window_access(id, b, addr, &value, 4, true);
	v = &b->values[r];
	switch (b->regs[r].access) {
	case CHIP_ACCESS_RO:
		return OTA_OK;
	case CHIP_ACCESS_W1C:
		*v &= ~(value & b->regs[r].mask);
		break;
	case CHIP_ACCESS_W1S:
		*v |= value & b->regs[r].mask;
		break;
	default: /* RW, WO */
		*v = value & b->regs[r].mask;
		break;
	}
	ops = block_ops[id];
	return ops && ops->write ? ops->write(b->regs[r].offset, value) : OTA_OK;
}

ota_status_t chip_bus_read(uint32_t addr, void *data, uint32_t len)
{
	enum top_block id;
	const struct chip_block *b = block_at(addr, &id);

	return b ? window_access(id, b, addr, data, len, false) : OTA_HAL_BUS_ERROR;
}

ota_status_t chip_bus_write(uint32_t addr, const void *data, uint32_t len)
{
	enum top_block id;
	const struct chip_block *b = block_at(addr, &id);

	/* window_access only reads data when it writes. */
	return b ? window_access(id, b, addr, (void *)(uintptr_t)data, len, true) : OTA_HAL_BUS_ERROR;
}

void chip_bus_reset(void)
{
	uint32_t i, r;

	for (i = 0; i < TOP_BLOCK_COUNT; i++) {
		const struct chip_block *b = &chip_blocks[i];

		for (r = 0; r < b->nregs; r++)
			b->values[r] = b->regs[r].resval;
		for (r = 0; r < b->nwindows; r++)
			memset(b->window_mem[r], 0, b->windows[r].size);
	}
}

uint32_t chip_reg_get(enum top_block block, uint32_t reg_offset)
{
	int r;

	if ((unsigned)block >= TOP_BLOCK_COUNT)
		return 0;
	r = reg_index(&chip_blocks[block], reg_offset);
	return r < 0 ? 0 : chip_blocks[block].values[r];
}

void chip_reg_set(enum top_block block, uint32_t reg_offset, uint32_t value)
{
	int r;

	if ((unsigned)block >= TOP_BLOCK_COUNT)
		return;
	r = reg_index(&chip_blocks[block], reg_offset);
	if (r >= 0)
		chip_blocks[block].values[r] = value;
}

uint8_t *chip_window_mem(enum top_block block, uint32_t window_offset)
{
	uint32_t i;

	if ((unsigned)block >= TOP_BLOCK_COUNT)
		return NULL;
	for (i = 0; i < chip_blocks[block].nwindows; i++)
		if (chip_blocks[block].windows[i].offset == window_offset)
			return chip_blocks[block].window_mem[i];
	return NULL;
}
