// SPDX-License-Identifier: MIT
/*
 * Stopping cleanly. On SIGTERM or SIGINT the bus name is released first, so
 * new calls queue in the bus for the next instance (D-Bus activation, or
 * systemd's restart); calls already accepted, above all those the kernel
 * is working on, are finished and answered; then the loop exits. A second
 * signal, or the stop deadline, exits at once.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include <systemd/sd-daemon.h>

#include "log.h"
#include "manager.h"

#define STOP_DEADLINE_USEC (60ull * 1000000u)

void manager_maybe_exit(struct manager *m)
{
	if (m->stopping && m->n_calls == 0)
		sd_event_exit(m->event, 0);
}

void manager_call_finished(struct manager *m)
{
	manager_maybe_exit(m);
}

static int on_stop_deadline(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;

	log_warning("%u call(s) still waiting for the device at the stop deadline; exiting", m->n_calls);
	sd_event_exit(m->event, 0);
	return 0;
}

static int on_signal(sd_event_source *s, const struct signalfd_siginfo *si, void *userdata)
{
	struct manager *m = userdata;

	if (m->stopping) {
		log_warning("second signal: exiting without waiting for %u call(s)", m->n_calls);
		sd_event_exit(m->event, 0);
		return 0;
	}
	m->stopping = true;
	sd_notify(0, "STOPPING=1\nSTATUS=Finishing accepted requests");
	log_event(LOG_INFO, 0, MID_STOPPING, NULL, NULL, 0,
		  "stopping on %s; finishing %u accepted call(s)", strsignal((int)si->ssi_signo),
		  m->n_calls);
	if (m->bus)
		sd_bus_release_name_async(m->bus, NULL, OTA_BUS_NAME, NULL, NULL);
	sd_event_add_time_relative(m->event, &m->stop_timer, CLOCK_MONOTONIC, STOP_DEADLINE_USEC, 0,
				   on_stop_deadline, m);
	manager_maybe_exit(m);
	return 0;
}

int manager_setup_signals(struct manager *m)
{
	sigset_t mask;
	int r;

	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
		return -errno;
	r = sd_event_add_signal(m->event, NULL, SIGTERM, on_signal, m);
	if (r >= 0)
		r = sd_event_add_signal(m->event, NULL, SIGINT, on_signal, m);
	return r < 0 ? r : 0;
}
