// SPDX-License-Identifier: MIT
/*
 * BL0's side of the watchdog ROM_EXT armed (hal/aon_timer.h): its main
 * loop pets it. A runtime that hangs stops petting, the watchdog bites
 * (a WARM reset), and on trial ROM_EXT counts the bite against the trial
 * (docs/boot-flow.md, "Trial attempts").
 */
#include "firmware.h"
#include "hal.h"

void ota_runtime_idle(void)
{
	hal_wdog_pet();
}
