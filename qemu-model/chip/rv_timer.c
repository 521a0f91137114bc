// SPDX-License-Identifier: MIT
/*
 * The timer as a peripheral (qemu-model/regs/rv_timer.yaml): MTIME counts
 * the nominal clock (SWHAL_CYCLE_HZ, FREQ_HZ). With the core (--core=rv32)
 * it is the cycle model's count (clock.c: instructions retired times the
 * CPI plus each peripheral's cost), so a stage's cycles are the device's,
 * the same on every run of the same boot; the host build, with no core,
 * counts host time (CLOCK_MONOTONIC). A read of MTIME_LOW latches
 * MTIME_HIGH.
 */
#include <time.h>

#include "bus.h"
#include "rv_timer_regs.h"
#include "swhal_priv.h"

OTA_STATIC_ASSERT(RV_TIMER_FREQ_HZ_RESVAL == SWHAL_CYCLE_HZ, "the timer counts the nominal clock");

static ota_status_t timer_read(uint32_t reg)
{
	struct timespec ts;
	uint64_t cycles;

	if (reg != RV_TIMER_MTIME_LOW_REG_OFFSET)
		return OTA_OK;
	if (swhal_clock_modelled()) {
		cycles = swhal_clock_mtime();
	} else {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		cycles = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) /
			 (1000000000u / SWHAL_CYCLE_HZ);
	}
	chip_reg_set(TOP_BLOCK_RV_TIMER, RV_TIMER_MTIME_LOW_REG_OFFSET, (uint32_t)cycles);
	chip_reg_set(TOP_BLOCK_RV_TIMER, RV_TIMER_MTIME_HIGH_REG_OFFSET, (uint32_t)(cycles >> 32));
	return OTA_OK;
}

const struct chip_block_ops chip_rv_timer_ops = { .read = timer_read };
