/* SPDX-License-Identifier: MIT */
/*
 * The chip's bus: every block at its address with the registers and
 * windows its description gives it (qemu-model/regs/<block>.yaml; the
 * tables are generated into regs_gen.c, docs/registers.md). A core's load
 * or store, or a driver's MMIO access on the host, is one call here.
 *
 * What the bus itself enforces, for every block alike: an address in no
 * block, in no register or window of its block, or a register access that
 * is not one aligned 32-bit word is HAL_BUS_ERROR and changes nothing;
 * each register's access type (ro writes ignored, wo reads 0, w1c clears,
 * w1s sets until reset, rw keeps only its fields' bits); a reset puts
 * every register back to its reset value and clears the windows. A block's
 * behaviour (what START does, what a FIFO write feeds) is its own, hooked
 * in with chip_bus_set_ops as each block is converted (docs/hal.md).
 */
#ifndef OTATTEST_CHIP_BUS_H
#define OTATTEST_CHIP_BUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <otattest/status.h>

#include "top_regs.h"

enum chip_access {
	CHIP_ACCESS_RW,
	CHIP_ACCESS_RO,
	CHIP_ACCESS_WO,
	CHIP_ACCESS_W1C,
	CHIP_ACCESS_W1S,
};

struct chip_reg {
	const char *name; /* NAME, or NAME_n for an element of an array */
	uint32_t offset;
	uint8_t access;   /* enum chip_access */
	uint32_t resval;
	uint32_t mask;    /* the bits its fields cover (all when it has none) */
};

struct chip_window {
	const char *name;
	uint32_t offset, size;
	uint8_t access;   /* CHIP_ACCESS_RW, _RO or _WO, for the core */
};

struct chip_block {
	const char *name;
	uint32_t base, size;
	const struct chip_reg *regs;
	uint32_t *values; /* the registers' current values, one per reg */
	uint32_t nregs;
	const struct chip_window *windows;
	uint8_t *const *window_mem; /* each window's bytes */
	uint32_t nwindows;
};

struct chip_memory {
	const char *name;
	uint32_t base, size;
};

/* regs_gen.c, generated from qemu-model/regs/. */
extern const struct chip_block chip_blocks[TOP_BLOCK_COUNT];
extern const struct chip_memory chip_memories[TOP_MEMORY_COUNT];

/*
 * A block's behaviour. Each hook sees an access the bus has already
 * checked (in the block, right alignment, the access type allows it).
 * write runs after the register took its value (the value the access
 * type leaves: read it with chip_reg_get); read may refresh a register
 * before the bus returns it. Either may return a status the access
 * reports (a driver turns it into the HAL call's status).
 */
struct chip_block_ops {
	ota_status_t (*write)(uint32_t reg, uint32_t value);
	ota_status_t (*read)(uint32_t reg);
	ota_status_t (*window_write)(uint32_t window, uint32_t offset, const void *data, uint32_t len);
	ota_status_t (*window_read)(uint32_t window, uint32_t offset, void *data, uint32_t len);
};
void chip_bus_set_ops(enum top_block block, const struct chip_block_ops *ops);

/* One 32-bit register or window word; OTA_OK or HAL_BUS_ERROR (or the block's status). */
ota_status_t chip_bus_read32(uint32_t addr, uint32_t *value);
ota_status_t chip_bus_write32(uint32_t addr, uint32_t value);
/* Bytes within one window (FIFOs, key manager operands, the mailbox). */
ota_status_t chip_bus_read(uint32_t addr, void *data, uint32_t len);
ota_status_t chip_bus_write(uint32_t addr, const void *data, uint32_t len);

/* Every register to its reset value, every window cleared (power-on, reset). */
void chip_bus_reset(void);

/* The block's view of its own registers (the hardware side, past the access type). */
uint32_t chip_reg_get(enum top_block block, uint32_t reg_offset);
void chip_reg_set(enum top_block block, uint32_t reg_offset, uint32_t value);
/* A window's bytes, for the block behind it; NULL for an unknown window. */
uint8_t *chip_window_mem(enum top_block block, uint32_t window_offset);

#endif /* OTATTEST_CHIP_BUS_H */
