/* SPDX-License-Identifier: MIT */
/*
 * hal.h, time (the rv_timer block):
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/rv_timer.yaml (docs/registers.md). The rules all blocks
 * share are in hal.h.
 */
#ifndef OTATTEST_HAL_RV_TIMER_H
#define OTATTEST_HAL_RV_TIMER_H

#include <otattest/record.h>
#include <otattest/status.h>

uint64_t hal_cycles(void);  /* free-running cycle counter */
uint64_t hal_time_ns(void); /* monotonic nanoseconds */
uint64_t hal_cycles_to_ns(uint64_t cycles); /* a span of cycles at the timer's nominal clock */

#endif /* OTATTEST_HAL_RV_TIMER_H */
