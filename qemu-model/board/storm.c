// SPDX-License-Identifier: MIT
/*
 * The interrupt-storm fault: ring the guest's vectors with nothing
 * pending (no response written, event counter unchanged), COUNT times at
 * HZ. A driver must treat each such interrupt as a spurious one and
 * neither hang nor spin.
 *
 * A periodic timerfd paces it: one wakeup per 1/HZ, but never more often
 * than every STORM_TICK_MIN_USEC, each wakeup ringing as many times as the
 * rate says are due since the start. That keeps the model's own cost to a
 * read and a few writes per wakeup, so a 50 kHz storm does not eat the
 * core QEMU needs, while rings still arrive spread out at up to 20 kHz
 * (rings that land before QEMU has read the eventfd coalesce into one
 * interrupt, as any burst on ivshmem does).
 */
#include <errno.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "model.h"

#define STORM_TICK_MIN_USEC 50u

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

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

static int on_tick(sd_event_source *src, int fd, uint32_t revents, void *userdata)
{
	struct model *m = userdata;
	uint64_t expirations, due;

	(void)src;
	(void)revents;
	if (read(fd, &expirations, sizeof(expirations)) != sizeof(expirations))
		return 0; /* spurious wakeup */
	if (!server_has_guest(m)) {
		storm_stop(m);
		return 0;
	}
	/* Rings due by now at the storm's rate, at least one per tick. */
	due = (now_usec() - m->storm.start_usec) * m->storm.hz / 1000000u + 1u;
	if (due > m->storm.count)
		due = m->storm.count;
	while (m->storm.raised < due)
		ring_once(m);
	if (m->storm.raised >= m->storm.count) {
		log_info("irq-storm-done", "raised=%llu", (unsigned long long)m->storm.raised);
		storm_stop(m);
	}
	return 0;
}

int storm_start(struct model *m, uint32_t count, uint32_t hz, uint32_t vector)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };
	uint64_t period;
	int r;

	storm_stop(m);
	if (!server_has_guest(m))
		return -ENOTCONN;
	period = 1000000u / hz;
	if (period < STORM_TICK_MIN_USEC)
		period = STORM_TICK_MIN_USEC;
	m->storm.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (m->storm.fd < 0)
		return -errno;
	its.it_interval.tv_sec = (time_t)(period / 1000000u);
	its.it_interval.tv_nsec = (long)(period % 1000000u) * 1000;
	its.it_value.tv_nsec = 1; /* the first ring at once */
	if (timerfd_settime(m->storm.fd, 0, &its, NULL) < 0) {
		r = -errno;
		storm_stop(m);
		return r;
	}
	r = sd_event_add_io(m->event, &m->storm.src, m->storm.fd, EPOLLIN, on_tick, m);
	if (r < 0) {
		storm_stop(m);
		return r;
	}
	m->storm.count = count;
	m->storm.hz = hz;
	m->storm.vector = vector;
	m->storm.raised = 0;
	m->storm.start_usec = now_usec();
	log_info("irq-storm-start", "count=%u hz=%u vector=%s tick-usec=%llu", count, hz,
		 vector == FAULT_STORM_ALL_VECTORS ? "all" : (vector ? "1" : "0"),
		 (unsigned long long)period);
	return 0;
}

void storm_stop(struct model *m)
{
	m->storm.src = sd_event_source_disable_unref(m->storm.src);
	if (m->storm.fd >= 0)
		close(m->storm.fd);
	m->storm.fd = -1;
	m->storm.count = 0;
}
