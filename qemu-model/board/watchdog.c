// SPDX-License-Identifier: MIT
/*
 * The board's clock for BL0's main loop and the watchdog (hal/aon_timer.h):
 * every WATCHDOG_TICK_MS the runtime's idle step runs (ota_fw_idle: the
 * host build's, or with --core=rv32 the image's own loop on the core; BL0
 * pets the watchdog ROM_EXT armed there, and an image that spins or
 * faulted runs nothing and is bitten), unless the board plays a hung BL0 for the slot
 * that runs (control "hang bl0 a|b"); then the watchdog's count runs on,
 * and once it reaches its bite threshold the board performs the bite: a
 * WARM reset and a boot, as the chip's reset manager would
 * (device_watchdog_tick, firmware_host.c). A hung BL0 also answers no
 * mailbox request (mailbox.c).
 *
 * The hang is a stand-in for a BL0 *image* that hangs, for the host build,
 * whose BL0 is the runtime compiled into the model: the board stops
 * calling it instead (docs/model.md). On the core a hanging image is one
 * (test_hostile, HOSTILE_WATCHDOG).
 */
#include <time.h>

#include "model.h"

#define WATCHDOG_TICK_MS 100u

static int on_tick(sd_event_source *src, uint64_t usec, void *userdata)
{
	struct model *m = userdata;

	device_watchdog_tick(m);
	return sd_event_source_set_time(src, usec + WATCHDOG_TICK_MS * 1000u);
}

int watchdog_start(struct model *m)
{
	int r = sd_event_add_time_relative(m->event, &m->device.tick_src, CLOCK_MONOTONIC,
					   WATCHDOG_TICK_MS * 1000u, 0, on_tick, m);

	/* Periodic: each tick moves its own time on (on_tick). */
	if (r >= 0)
		r = sd_event_source_set_enabled(m->device.tick_src, SD_EVENT_ON);
	return r < 0 ? r : 0;
}

void watchdog_stop(struct model *m)
{
	m->device.tick_src = sd_event_source_disable_unref(m->device.tick_src);
}
