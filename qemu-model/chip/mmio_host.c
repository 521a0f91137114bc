// SPDX-License-Identifier: MIT
/*
 * The firmware drivers' host MMIO backend (firmware/drivers/mmio.h): each
 * access is one call into the bus (bus.h), so the native build runs the
 * drivers against the same registers and rules an rv32 core would. A bus
 * error is an access fault on the core; here it is a driver bug, and the
 * process aborts with the address.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bus.h"
#include "mmio.h"

static void fault(const char *what, uint32_t addr, ota_status_t st)
{
	fprintf(stderr, "mmio: %s at 0x%08x: %s\n", what, addr, ota_status_name(st));
	abort();
}

uint32_t ota_mmio_read32(uint32_t addr)
{
	uint32_t v = 0;
	ota_status_t st = chip_bus_read32(addr, &v);

	if (st == OTA_HAL_BUS_ERROR)
		fault("load fault", addr, st);
	return v;
}

void ota_mmio_write32(uint32_t addr, uint32_t value)
{
	ota_status_t st = chip_bus_write32(addr, value);

	if (st == OTA_HAL_BUS_ERROR)
		fault("store fault", addr, st);
}
