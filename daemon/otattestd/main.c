// SPDX-License-Identifier: MIT
/*
 * otattestd: serves otattest devices on the system bus as
 * org.otattest.BootAttest1. One sd-event loop drives everything: the bus,
 * the netlink client (whose blocking sends happen on its own thread, see
 * genl.h), the device monitor, signals and the watchdog.
 * Stopping is in manager.c.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otu/num.h>
#include <systemd/sd-daemon.h>

#include "image-read.h"
#include "log.h"
#include "manager.h"

static struct manager manager;

static int on_gc(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct manager *m = userdata;

	client_table_gc(&m->clients, usec);
	sd_event_source_set_time(s, usec + 60ull * 1000000u);
	sd_event_source_set_enabled(s, SD_EVENT_ON);
	return 0;
}

static void on_genl_event(void *userdata, uint32_t event, const struct nlattr *const *tb)
{
	device_on_event(userdata, event, tb);
}

static void on_genl_family(void *userdata, bool available)
{
	device_on_family(userdata, available);
}

static void help(void)
{
	printf("Usage: otattestd [OPTIONS]\n"
	       "\n"
	       "Serve otattest boot-attestation devices on the system bus as\n"
	       OTA_BUS_NAME ". Normally started by systemd (otattestd.service).\n"
	       "\n"
	       "Options:\n"
	       "  --bus-address=ADDRESS   connect to this bus instead of the system bus\n"
	       "  --no-polkit             never ask polkit: only root and group\n"
	       "                          " OTA_UPDATE_GROUP " may rotate or reset, and\n"
	       "                          " OTA_SIGN_GROUP " sign with a stable key\n"
	       "  --attest-rate=N         attestations per second per user (default 4)\n"
	       "  --attest-burst=N        attestations at once per user (default 8)\n"
	       "  --max-queued=N          requests in flight per user and lane (default 4)\n"
	       "  --request-timeout=SEC   deadline for a device request (default 30)\n"
	       "  --admin-timeout=SEC     deadline for rotation and reset (default 120)\n"
	       "  --log-target=auto|journal|stderr\n"
	       "  --log-level=err|warning|notice|info|debug (default info)\n"
	       "  --state-dir=DIR         where the boot history is kept (default\n"
	       "                          $STATE_DIRECTORY, which systemd sets; none:\n"
	       "                          in memory only)\n"
	       "  --history-max=N         boot records kept (default 1000)\n"
	       "  -h --help               show this help\n"
	       "  --version               show the version\n"
	       "\n"
	       "See otattestd(8) and docs/dbus-api.md.\n");
}

static int parse_args(int argc, char **argv, struct manager *m, struct client_limits *lim,
		      uint32_t *history_max)
{
	enum { O_BUS = 0x100, O_NOPK, O_RATE, O_BURST, O_QUEUE, O_RT, O_AT, O_LT, O_LL, O_STATE, O_HMAX, O_VER };
	static const struct option opts[] = {
		{ "bus-address", required_argument, NULL, O_BUS },
		{ "no-polkit", no_argument, NULL, O_NOPK },
		{ "attest-rate", required_argument, NULL, O_RATE },
		{ "attest-burst", required_argument, NULL, O_BURST },
		{ "max-queued", required_argument, NULL, O_QUEUE },
		{ "request-timeout", required_argument, NULL, O_RT },
		{ "admin-timeout", required_argument, NULL, O_AT },
		{ "log-target", required_argument, NULL, O_LT },
		{ "log-level", required_argument, NULL, O_LL },
		{ "state-dir", required_argument, NULL, O_STATE },
		{ "history-max", required_argument, NULL, O_HMAX },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, O_VER },
		{ 0 },
	};
	enum log_target target = LOG_TARGET_AUTO;
	int level = LOG_INFO, c;
	uint32_t v;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
		switch (c) {
		case O_BUS: m->bus_address = optarg; break;
		case O_NOPK: m->skip_polkit = true; break;
		case O_RATE:
			if (otu_parse_u32(optarg, OTU_DEC, 1, 10000, &lim->attest_per_sec) < 0)
				goto bad;
			break;
		case O_BURST:
			if (otu_parse_u32(optarg, OTU_DEC, 1, 10000, &lim->attest_burst) < 0)
				goto bad;
			break;
		case O_QUEUE:
			if (otu_parse_u32(optarg, OTU_DEC, 1, 1024, &lim->max_queued) < 0)
				goto bad;
			break;
		case O_RT:
			if (otu_parse_u32(optarg, OTU_DEC, 1, 3600, &v) < 0)
				goto bad;
			m->request_timeout_usec = (uint64_t)v * 1000000u;
			break;
		case O_AT:
			if (otu_parse_u32(optarg, OTU_DEC, 1, 3600, &v) < 0)
				goto bad;
			m->admin_timeout_usec = (uint64_t)v * 1000000u;
			break;
		case O_LT:
			if (!strcmp(optarg, "auto"))
				target = LOG_TARGET_AUTO;
			else if (!strcmp(optarg, "journal"))
				target = LOG_TARGET_JOURNAL;
			else if (!strcmp(optarg, "stderr"))
				target = LOG_TARGET_STDERR;
			else
				goto bad;
			break;
		case O_LL: {
			static const char *const names[] = { "emerg", "alert", "crit", "err",
							     "warning", "notice", "info", "debug" };
			int i;

			for (i = 0; i < 8 && strcmp(optarg, names[i]); i++)
				;
			if (i == 8)
				goto bad;
			level = i;
			break;
		}
		case O_STATE: m->state_dir = optarg; break;
		case O_HMAX:
			if (otu_parse_u32(optarg, OTU_DEC, 1, HISTORY_MAX_LIMIT, history_max) < 0)
				goto bad;
			break;
		case 'h': help(); exit(0);
		case O_VER: printf("otattestd %s\n", OTATTEST_VERSION); exit(0);
		default: return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "otattestd: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	log_setup(target, level);
	return 0;
bad:
	fprintf(stderr, "otattestd: invalid value '%s' for --%s\n", optarg, opts[c - O_BUS].name);
	return -1;
}

int main(int argc, char **argv)
{
	struct client_limits lim = CLIENT_LIMITS_DEFAULT;
	uint32_t history_max = HISTORY_DEFAULT_MAX;
	struct manager *m = &manager;
	struct genl_callbacks cb = { .event = on_genl_event, .family = on_genl_family, .userdata = m };
	int r;

	m->request_timeout_usec = 30ull * 1000000u;
	m->admin_timeout_usec = 120ull * 1000000u;
	m->image_read_timeout_usec = IMAGE_READ_TIMEOUT_USEC;
	if (parse_args(argc, argv, m, &lim, &history_max) < 0)
		return OTA_EXIT_USAGE;
	/* systemd's StateDirectory= (otattestd.service) unless told otherwise. */
	if (!m->state_dir)
		m->state_dir = getenv("STATE_DIRECTORY");
	client_table_init(&m->clients, &lim);

	r = sd_event_default(&m->event);
	if (r < 0) {
		log_error_errno(r, "cannot create the event loop: %m");
		goto out;
	}
	r = manager_setup_signals(m);
	if (r < 0) {
		log_error_errno(r, "cannot handle signals: %m");
		goto out;
	}
	/* Pings WATCHDOG=1 at half of WatchdogSec= when systemd asks for it. */
	sd_event_set_watchdog(m->event, true);

	r = genl_new(&m->genl, m->event, &cb);
	if (r < 0) {
		log_error_errno(r, "cannot open generic netlink: %m");
		goto out;
	}
	m->transport = (struct transport){ .ops = &genl_transport_ops, .impl = m->genl };
	if (!transport_available(&m->transport))
		log_notice("the otattest driver is not loaded (no generic netlink family \"%s\"); "
			   "waiting for it", OTATTEST_GENL_NAME);
	/* Before the bus: the first record seen must find the history loaded. */
	r = history_open(&m->history, m->state_dir, history_max);
	if (r < 0) {
		log_error_errno(r, "cannot set up the boot history: %m");
		goto out;
	}
	r = bus_setup(m);
	if (r < 0)
		goto out;
	r = udev_setup(m);
	if (r < 0)
		log_warning_errno(r, "no device monitor; relying on netlink events: %m");
	sd_event_add_time_relative(m->event, &m->gc_timer, CLOCK_MONOTONIC, 60ull * 1000000u, 0,
				   on_gc, m);
	r = log_refusals_attach(m->event, LOG_REFUSAL_SUMMARY_SEC * 1000000ull);
	if (r < 0)
		log_warning_errno(r, "suppressed refusals are summarized only when the next one comes: %m");

	sd_notify(0, "READY=1");
	bus_update_status(m);
	log_event(LOG_INFO, 0, MID_STARTED, NULL, NULL, 0, "serving %u device(s) as %s",
		  m->n_devices, OTA_BUS_NAME);

	r = sd_event_loop(m->event);
	if (r < 0)
		log_error_errno(r, "event loop failed: %m");
out:
	/* Order matters: netlink callbacks still touch devices and the bus. */
	m->genl = genl_free(m->genl);
	if (m->bus) {
		sd_bus_flush(m->bus);
		sd_bus_flush_close_unref(m->bus);
		m->bus = NULL;
	}
	sd_device_monitor_unref(m->monitor);
	sd_event_source_disable_unref(m->stop_timer);
	sd_event_source_disable_unref(m->gc_timer);
	log_refusals_detach();
	device_free_all(m);
	history_close(&m->history);
	client_table_free(&m->clients);
	peer_cache_free(&m->peers);
	sd_event_unref(m->event);
	return r < 0 ? 1 : 0;
}
