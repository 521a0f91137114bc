/* SPDX-License-Identifier: MIT */
/*
 * The drivers' only way to the chip: 32-bit loads and stores at the
 * addresses qemu-model/regs/top_regs.h and <block>_regs.h give
 * (docs/registers.md). On the rv32 core they are volatile accesses; on
 * the host (unit tests, fuzzing, the model today) the same driver code
 * calls the model's bus directly (qemu-model/chip/mmio_host.c), so both
 * builds run the same drivers against the same peripheral rules. A bus
 * error is a driver bug: the core would take an access fault, the host
 * backend aborts.
 */
#ifndef OTATTEST_FW_MMIO_H
#define OTATTEST_FW_MMIO_H

#include <stdint.h>

#include "top_regs.h"

#if defined(__riscv)
static inline uint32_t ota_mmio_read32(uint32_t addr)
{
	return *(volatile const uint32_t *)(uintptr_t)addr;
}

static inline void ota_mmio_write32(uint32_t addr, uint32_t value)
{
	*(volatile uint32_t *)(uintptr_t)addr = value;
}
#else
uint32_t ota_mmio_read32(uint32_t addr);
void ota_mmio_write32(uint32_t addr, uint32_t value);
#endif

#endif /* OTATTEST_FW_MMIO_H */
