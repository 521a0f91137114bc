// SPDX-License-Identifier: MIT
/*
 * otattestctl history [--json] [--since TIME] [-n N]: the boots otattestd
 * has seen (Manager.GetHistory), oldest first, with each stage's path, why
 * it was not the tag path, its status and its key chain by name.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <otu/num.h>

#include "ctl.h"

#define HISTORY_DEFAULT_COUNT 20u

/* Read a(stay) into v (pointers into reply, which must outlive v). */
static int read_entries(sd_bus_message *reply, struct ctl_history_entry **out, size_t *n_out)
{
	struct ctl_history_entry *v = NULL;
	size_t n = 0, cap = 0;
	int r;

	r = sd_bus_message_enter_container(reply, 'a', "(stay)");
	if (r < 0)
		return r;
	while ((r = sd_bus_message_enter_container(reply, 'r', "stay")) > 0) {
		struct ctl_history_entry e;
		const void *p;

		if (n == cap) {
			struct ctl_history_entry *nv;

			cap = cap ? 2 * cap : 32;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				return -ENOMEM;
			}
			v = nv;
		}
		r = sd_bus_message_read(reply, "st", &e.device, &e.seen_usec);
		if (r >= 0)
			r = sd_bus_message_read_array(reply, 'y', &p, &e.len);
		if (r >= 0)
			r = sd_bus_message_exit_container(reply);
		if (r < 0) {
			free(v);
			return r;
		}
		e.record = p;
		v[n++] = e;
	}
	if (r >= 0)
		r = sd_bus_message_exit_container(reply);
	if (r < 0) {
		free(v);
		return r;
	}
	*out = v;
	*n_out = n;
	return 0;
}

int cmd_history(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "since", required_argument, NULL, 's' },
		{ "lines", required_argument, NULL, 'n' },
		{ 0 },
	};
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	struct ctl_history_entry *v = NULL;
	uint32_t count = HISTORY_DEFAULT_COUNT;
	uint64_t since = 0;
	bool json = c->json;
	struct timespec now;
	size_t n = 0;
	ota_status_t s;
	int r, o;

	clock_gettime(CLOCK_REALTIME, &now);
	/* 0, not 1: glibc then re-reads the ordering (main parsed with "+"). */
	optind = 0;
	while ((o = getopt_long(argc, argv, "js:n:", opts, NULL)) >= 0) {
		switch (o) {
		case 'j': json = true; break;
		case 's':
			if (ctl_parse_since(optarg, (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u,
					    &since) < 0) {
				fprintf(stderr, "otattestctl: history: --since '%s': give @SECONDS, -N[smhd] or "
						"YYYY-MM-DD[ HH:MM[:SS]] (UTC)\n", optarg);
				return OTA_EXIT_USAGE;
			}
			break;
		case 'n':
			if (otu_parse_u32(optarg, OTU_DEC, 0, UINT32_MAX, &count) < 0) {
				fprintf(stderr, "otattestctl: history: -n '%s' is not a count\n", optarg);
				return OTA_EXIT_USAGE;
			}
			break;
		default: return OTA_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "otattestctl: history: unexpected argument '%s'\n", argv[optind]);
		return OTA_EXIT_USAGE;
	}
	r = ctl_load_names(c);
	if (r)
		return r;
	/* -d names one device; by default every device's boots, interleaved in order. */
	r = sd_bus_call_method(c->bus, OTA_BUS_NAME, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
			       "GetHistory", &e, &reply, "stu", c->device ? c->device : "", since, count);
	if (r < 0) {
		r = ctl_fail_bus("GetHistory", &e, r);
		sd_bus_error_free(&e);
		return r;
	}
	r = read_entries(reply, &v, &n);
	if (r < 0) {
		sd_bus_message_unref(reply);
		return ctl_fail(OTA_CLASS_PROTOCOL, "bad reply to GetHistory: %s", strerror(-r));
	}
	s = ctl_history_check(v, n);
	if (s != OTA_OK) {
		r = ctl_fail(ota_status_class(s), "otattestd's history holds an invalid record: %s",
			     ota_status_message(s));
	} else if (json) {
		ctl_print_history_json(stdout, v, n, &c->names);
	} else if (n == 0) {
		printf("no boots recorded%s\n", since ? " since then" : "");
	} else {
		ctl_print_history(stdout, v, n, &c->names);
	}
	free(v);
	sd_bus_message_unref(reply);
	return r;
}
