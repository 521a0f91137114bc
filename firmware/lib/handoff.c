// SPDX-License-Identifier: MIT
/*
 * The RAM that carries one stage's results to the next (handoff.h): the
 * boot state and rotation outcome ROM and ROM_EXT leave for the runtime,
 * and the runtime's keys and certificates ROM_EXT prepares.
 */
#include <string.h>

#include "fwlib.h"

static struct ota_boot_state state;
static bool state_valid;
static struct boot_rotation rotation;
struct ota_runtime ota_rt;

const struct ota_boot_state *ota_boot_state(void)
{
	return state_valid ? &state : NULL;
}

struct ota_boot_state *boot_state_mut(void)
{
	return &state;
}

void boot_state_set_valid(bool valid)
{
	state_valid = valid;
}

const struct boot_rotation *boot_last_rotation(void)
{
	return &rotation;
}

struct boot_rotation *boot_rotation_mut(void)
{
	return &rotation;
}

const struct ota_runtime *ota_runtime_current(const struct ota_boot_state *bs)
{
	const struct ota_runtime *rt = &ota_rt;

	if (bs == NULL || bs->boot_status != OTA_OK || rt->valid != OTA_HARDENED_TRUE)
		return NULL;
	/* State prepared for another boot (one that failed later) never serves. */
	if (memcmp(rt->rom_ext_measurement, bs->rom_ext_measurement, OTA_SHA256_BYTES) != 0 ||
	    memcmp(rt->bl0_measurement, bs->bl0_measurement, OTA_SHA256_BYTES) != 0)
		return NULL;
	return rt;
}
