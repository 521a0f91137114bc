// SPDX-License-Identifier: MIT
/*
 * The watchdog as a peripheral (qemu-model/regs/aon_timer.yaml, the
 * watchdog half of OpenTitan's aon_timer). WDOG_COUNT counts the nominal
 * clock from the moment it was last written (a pet writes 0) while
 * WDOG_CTRL.ENABLE is set, read from the same CLOCK_MONOTONIC source as
 * rv_timer; once WDOG_REGWEN is cleared, writes of WDOG_CTRL and the
 * thresholds are ignored until the next reset. The count reaching
 * WDOG_BITE_THOLD is a bite: the board notices it on its own clock
 * (swhal_wdog_due) and performs it (swhal_wdog_bite), a WARM reset after
 * which WDOG_BITE_INFO reads 1. The bark (interrupt) is not modelled: no
 * stage takes interrupts yet.
 */
#include <time.h>

#include "aon_timer_regs.h"
#include "bus.h"
#include "swhal.h"
#include "swhal_priv.h"

#define REG(name) AON_TIMER_##name##_REG_OFFSET

/* The clock value WDOG_COUNT counts from (valid while enabled). */
static uint64_t count_base;
/* The configuration as locked (restored over a write while REGWEN is clear). */
static uint32_t locked_ctrl, locked_bark, locked_bite;

static uint64_t now_cycles(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) /
	       (1000000000u / SWHAL_CYCLE_HZ);
}

static uint32_t reg(uint32_t offset)
{
	return chip_reg_get(TOP_BLOCK_AON_TIMER, offset);
}

static bool enabled(void)
{
	return reg(REG(WDOG_CTRL)) & AON_TIMER_WDOG_CTRL_ENABLE_MASK;
}

static uint64_t count_now(void)
{
	return enabled() ? now_cycles() - count_base : reg(REG(WDOG_COUNT));
}

static ota_status_t wdog_write(uint32_t offset, uint32_t value)
{
	bool locked = !(reg(REG(WDOG_REGWEN)) & AON_TIMER_WDOG_REGWEN_REGWEN_MASK);

	switch (offset) {
	case REG(WDOG_REGWEN):
		if (locked) { /* the write that cleared it: this is the configuration held */
			locked_ctrl = reg(REG(WDOG_CTRL));
			locked_bark = reg(REG(WDOG_BARK_THOLD));
			locked_bite = reg(REG(WDOG_BITE_THOLD));
		}
		break;
	case REG(WDOG_CTRL):
		if (locked) {
			chip_reg_set(TOP_BLOCK_AON_TIMER, offset, locked_ctrl);
			break;
		}
		/* Counting starts from the count the register holds. */
		count_base = now_cycles() - reg(REG(WDOG_COUNT));
		break;
	case REG(WDOG_BARK_THOLD):
	case REG(WDOG_BITE_THOLD):
		if (locked)
			chip_reg_set(TOP_BLOCK_AON_TIMER, offset,
				     offset == REG(WDOG_BITE_THOLD) ? locked_bite : locked_bark);
		break;
	case REG(WDOG_COUNT):
		count_base = now_cycles() - value;
		break;
	}
	return OTA_OK;
}

static ota_status_t wdog_read(uint32_t offset)
{
	if (offset == REG(WDOG_COUNT)) {
		uint64_t c = count_now();

		chip_reg_set(TOP_BLOCK_AON_TIMER, offset, c > UINT32_MAX ? UINT32_MAX : (uint32_t)c);
	}
	return OTA_OK;
}

const struct chip_block_ops chip_aon_timer_ops = { .write = wdog_write, .read = wdog_read };

bool swhal_wdog_due(void)
{
	return swhal_powered() && enabled() && count_now() >= reg(REG(WDOG_BITE_THOLD));
}

ota_status_t swhal_wdog_bite(void)
{
	ota_status_t st = swhal_reset(OTA_RESET_WARM);

	if (st == OTA_OK)
		chip_reg_set(TOP_BLOCK_AON_TIMER, REG(WDOG_BITE_INFO),
			     AON_TIMER_WDOG_BITE_INFO_BITTEN_MASK);
	return st;
}
