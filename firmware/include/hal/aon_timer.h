/* SPDX-License-Identifier: MIT */
/*
 * hal.h, the watchdog (aon_timer's watchdog half): the calls the firmware
 * makes to this block. Registers: qemu-model/regs/aon_timer.yaml
 * (docs/registers.md). The rules all blocks share are in hal.h.
 *
 * ROM_EXT arms it before the hand-off and locks its configuration until
 * the next reset, so the runtime can only pet it; a runtime that stops
 * petting it for bite_cycles is reset (a WARM reset) and the next boot
 * sees hal_wdog_bitten(). ROM_EXT counts that against a trial
 * (docs/boot-flow.md, "Trial attempts").
 */
#ifndef OTATTEST_HAL_AON_TIMER_H
#define OTATTEST_HAL_AON_TIMER_H

#include <otattest/status.h>

/*
 * Count from zero, bite at bite_cycles (nominal clock), and lock the
 * configuration. HAL_WDOG_LOCKED when it was locked already (this reset's
 * configuration stays).
 */
ota_status_t hal_wdog_arm(uint32_t bite_cycles);
/* Restart the count. */
void hal_wdog_pet(void);
/* Whether the reset the core last started from was this watchdog's bite. */
bool hal_wdog_bitten(void);

#endif /* OTATTEST_HAL_AON_TIMER_H */
