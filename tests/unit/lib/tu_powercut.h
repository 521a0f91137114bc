/* SPDX-License-Identifier: MIT */
/*
 * Power cuts in the unit tests: the chip model reports a power loss to the
 * host hook installed here, which counts it and jumps back to the test's
 * setjmp(tu_cut) - the firmware's call never returns, as on a device.
 */
#ifndef OTATTEST_TU_POWERCUT_H
#define OTATTEST_TU_POWERCUT_H

#include <setjmp.h>
#include <stdint.h>

#include "swhal.h"
#include "tu_device.h"

extern jmp_buf tu_cut;
extern uint32_t tu_cuts;

/* Power dev on (a fresh chip model) with the power-loss hook installed. */
void tu_powercut_power_on(struct tu_device *dev);
/* The fault armed as kind really fired: a power loss is one more cut since before. */
void tu_fault_fired(enum swhal_fault kind, uint32_t before);
/* Run op with power cut right after its nth OTP program; the cut must fire. */
void tu_cut_after_otp_program(uint32_t n, void (*op)(void));

#endif /* OTATTEST_TU_POWERCUT_H */
