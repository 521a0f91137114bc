// SPDX-License-Identifier: MIT
/* Power cuts in the unit tests (tu_powercut.h). */
#include <check.h>

#include "tu_powercut.h"

jmp_buf tu_cut;
uint32_t tu_cuts;

static void on_power_loss(void *ctx)
{
	(void)ctx;
	tu_cuts++;
	longjmp(tu_cut, 1);
}

void tu_powercut_power_on(struct tu_device *dev)
{
	struct swhal_host_ops ops = { .power_loss = on_power_loss };

	swhal_close();
	tu_device_power_on(dev);
	swhal_set_host_ops(&ops, NULL);
}

void tu_fault_fired(enum swhal_fault kind, uint32_t before)
{
	ck_assert_uint_eq(tu_cuts, before + (kind == SWHAL_FAULT_POWER_LOSS));
}

void tu_cut_after_otp_program(uint32_t n, void (*op)(void))
{
	uint32_t before = tu_cuts;

	swhal_fault_otp_power_cut(n);
	if (setjmp(tu_cut) == 0) {
		op();
		ck_abort_msg("the power cut after OTP program %u did not fire", n);
	}
	ck_assert_uint_eq(tu_cuts, before + 1);
}
