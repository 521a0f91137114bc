// SPDX-License-Identifier: MIT
/*
 * hal/rv_timer.h over the timer's registers (qemu-model/regs/rv_timer.yaml):
 * a 64-bit count of the nominal clock, read low word first (the read
 * latches the high word, so the two halves belong together).
 */
#include "hal.h"
#include "mmio.h"
#include "rv_timer_regs.h"

#define TIMER(reg) (TOP_RV_TIMER_BASE_ADDR + RV_TIMER_##reg##_REG_OFFSET)

uint64_t hal_cycles(void)
{
	uint32_t lo = ota_mmio_read32(TIMER(MTIME_LOW));

	return (uint64_t)ota_mmio_read32(TIMER(MTIME_HIGH)) << 32 | lo;
}

uint64_t hal_cycles_to_ns(uint64_t cycles)
{
	return cycles * (1000000000u / ota_mmio_read32(TIMER(FREQ_HZ)));
}

uint64_t hal_time_ns(void)
{
	return hal_cycles_to_ns(hal_cycles());
}
