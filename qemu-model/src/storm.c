// SPDX-License-Identifier: MIT
/*
 * The interrupt-storm fault: ring the guest's vectors with nothing
 * pending (no response written, event counter unchanged), count times at
 * a fixed rate. A driver must treat each such interrupt as a spurious one
 * and neither hang nor spin.
 */
#include <errno.h>

#include "model.h"

static void ring_once(struct model *m)
{
	if (m->storm.vector == FAULT_STORM_ALL_VECTORS) {
		for (unsigned v = 0; v < OTA_VEC_COUNT; v++)
			server_ring_guest(m, v);
	} else {
		server_ring_guest(m, m->storm.vector);
	}
	m->storm.raised++;
}

static int on_tick(sd_event_source *src, uint64_t usec, void *userdata)
{
	struct model *m = userdata;

	(void)usec;
	if (m->storm.left == 0 || !server_has_guest(m)) {
		storm_stop(m);
		return 0;
	}
	ring_once(m);
	if (--m->storm.left == 0) {
		log_info("irq-storm-done", "raised=%llu", (unsigned long long)m->storm.raised);
		storm_stop(m);
		return 0;
	}
	sd_event_source_set_time_relative(src, m->storm.period_usec);
	sd_event_source_set_enabled(src, SD_EVENT_ONESHOT);
	return 0;
}

int storm_start(struct model *m, uint32_t count, uint32_t hz, uint32_t vector)
{
	int r;

	storm_stop(m);
	if (!server_has_guest(m))
		return -ENOTCONN;
	m->storm.left = count;
	m->storm.vector = vector;
	m->storm.raised = 0;
	m->storm.period_usec = 1000000u / hz;
	r = sd_event_add_time_relative(m->event, &m->storm.timer, CLOCK_MONOTONIC, 0, 1, on_tick,
				       m);
	if (r < 0)
		return r;
	log_info("irq-storm-start", "count=%u hz=%u vector=%s", count, hz,
		 vector == FAULT_STORM_ALL_VECTORS ? "all" : (vector ? "1" : "0"));
	return 0;
}

void storm_stop(struct model *m)
{
	m->storm.timer = sd_event_source_disable_unref(m->storm.timer);
	m->storm.left = 0;
}
