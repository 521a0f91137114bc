// SPDX-License-Identifier: MIT
/*
 * hal/aon_timer.h over the watchdog's registers
 * (qemu-model/regs/aon_timer.yaml): threshold, count, enable, then
 * WDOG_REGWEN cleared (write 1), which holds the configuration until the
 * next reset. A pet is a write of 0 to WDOG_COUNT, which REGWEN does not
 * guard (as in OpenTitan's aon_timer).
 */
#include "aon_timer_regs.h"
#include "hal.h"
#include "mmio.h"

#define WDOG(reg) (TOP_AON_TIMER_BASE_ADDR + AON_TIMER_##reg##_REG_OFFSET)

ota_status_t hal_wdog_arm(uint32_t bite_cycles)
{
	if (!(ota_mmio_read32(WDOG(WDOG_REGWEN)) & AON_TIMER_WDOG_REGWEN_REGWEN_MASK))
		return OTA_HAL_WDOG_LOCKED;
	ota_mmio_write32(WDOG(WDOG_BITE_THOLD), bite_cycles);
	ota_mmio_write32(WDOG(WDOG_COUNT), 0);
	ota_mmio_write32(WDOG(WDOG_CTRL), AON_TIMER_WDOG_CTRL_ENABLE_MASK);
	ota_mmio_write32(WDOG(WDOG_REGWEN), AON_TIMER_WDOG_REGWEN_REGWEN_MASK);
	return OTA_OK;
}

void hal_wdog_pet(void)
{
	ota_mmio_write32(WDOG(WDOG_COUNT), 0);
}

bool hal_wdog_bitten(void)
{
	return ota_mmio_read32(WDOG(WDOG_BITE_INFO)) & AON_TIMER_WDOG_BITE_INFO_BITTEN_MASK;
}
