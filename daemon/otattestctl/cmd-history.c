// SPDX-License-Identifier: MIT
/*
 * otattestctl history [--json] [--all] [--since TIME] [-n N]: the boots
 * otattestd has seen (Manager.GetHistory), oldest first, with each stage's
 * path, why it was not the tag path, its status and its key chain by name.
 * --all adds the records that changed within a boot (an install, a dry
 * run, a commit pending), which are not boots.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <otu/num.h>

#include "ctl.h"

#define HISTORY_DEFAULT_COUNT 20u

/* One entry's dictionary: the device, when it was seen, the record's bytes (pointers into m). */
static int read_entry(sd_bus_message *m, struct ctl_history_entry *e)
{
	int r;

	memset(e, 0, sizeof(*e));
	e->boot = true; /* a daemon that does not say */
	r = sd_bus_message_enter_container(m, 'a', "{sv}");
	if (r <= 0)
		return r;
	while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		const char *key, *contents;
		const void *p;

		r = sd_bus_message_read(m, "s", &key);
		if (r >= 0)
			r = sd_bus_message_peek_type(m, NULL, &contents);
		if (r < 0)
			return r;
		if (!strcmp(key, "device") && !strcmp(contents, "s"))
			r = sd_bus_message_read(m, "v", "s", &e->device);
		else if (!strcmp(key, "seen_usec") && !strcmp(contents, "t"))
			r = sd_bus_message_read(m, "v", "t", &e->seen_usec);
		else if (!strcmp(key, "boot") && !strcmp(contents, "b")) {
			int b;

			r = sd_bus_message_read(m, "v", "b", &b);
			e->boot = b;
		}
		else if (!strcmp(key, "record") && !strcmp(contents, "ay")) {
			r = sd_bus_message_enter_container(m, 'v', "ay");
			if (r >= 0)
				r = sd_bus_message_read_array(m, 'y', &p, &e->len);
			if (r >= 0)
				r = sd_bus_message_exit_container(m);
			e->record = p;
		} else
			r = sd_bus_message_skip(m, "v"); /* typed fields the record also holds */
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
		if (r < 0)
			return r;
	}
	if (r >= 0)
		r = sd_bus_message_exit_container(m);
	if (r >= 0 && (!e->device || !e->record))
		r = -EBADMSG;
	return r < 0 ? r : 1;
}

/* Append one page (aa{sv}, t) to *v; pointers into reply, which must outlive v. */
static int read_page(sd_bus_message *reply, bool all, struct ctl_history_entry **v, size_t *n,
		     size_t *cap, uint64_t *next)
{
	int r;

	r = sd_bus_message_enter_container(reply, 'a', "a{sv}");
	if (r < 0)
		return r;
	for (;;) {
		struct ctl_history_entry e;

		r = read_entry(reply, &e);
		if (r <= 0)
			break;
		if (!all && !e.boot)
			continue; /* a change within a boot: an install, a dry run */
		if (*n == *cap) {
			struct ctl_history_entry *nv;

			*cap = *cap ? 2 * *cap : 64;
			nv = realloc(*v, *cap * sizeof(**v));
			if (!nv)
				return -ENOMEM;
			*v = nv;
		}
		(*v)[(*n)++] = e;
	}
	if (r >= 0)
		r = sd_bus_message_exit_container(reply);
	if (r >= 0)
		r = sd_bus_message_read(reply, "t", next);
	return r;
}

int cmd_history(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "since", required_argument, NULL, 's' },
		{ "lines", required_argument, NULL, 'n' },
		{ "all", no_argument, NULL, 'a' },
		{ 0 },
	};
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message **replies = NULL;
	size_t n_replies = 0, cap = 0;
	struct ctl_history_entry *v = NULL, *shown;
	bool since_given = false, all = false;
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
	while ((o = getopt_long(argc, argv, "js:n:a", opts, NULL)) >= 0) {
		switch (o) {
		case 'j': json = true; break;
		case 'a': all = true; break;
		case 's':
			if (ctl_parse_since(optarg, (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u,
					    &since) < 0) {
				fprintf(stderr, "otattestctl: history: --since '%s': give @SECONDS, -N[smhd] or "
						"YYYY-MM-DD[ HH:MM[:SS]] (UTC)\n", optarg);
				return OTA_EXIT_USAGE;
			}
			since_given = true;
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
	if (c->device) {
		/* A name otattestd never saw is an error, not an empty history. */
		char path[160];

		r = ctl_device_path(c, path, sizeof(path));
		if (r)
			return r;
	}
	/*
	 * -d names one device; by default every device's boots, interleaved
	 * in order. Page after page (GetHistory gives a bounded page and
	 * where the next starts), then the last `count` of them.
	 */
	do {
		sd_bus_message **nr = realloc(replies, (n_replies + 1) * sizeof(*replies));

		if (!nr) {
			r = ctl_fail(OTA_CLASS_INTERNAL, "out of memory");
			goto out;
		}
		replies = nr;
		r = sd_bus_call_method(c->bus, OTA_BUS_NAME, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
				       "GetHistory", &e, &replies[n_replies], "stu",
				       c->device ? c->device : "", since, 0u);
		if (r < 0) {
			r = ctl_fail_bus("GetHistory", &e, r);
			sd_bus_error_free(&e);
			goto out;
		}
		r = read_page(replies[n_replies++], all, &v, &n, &cap, &since);
		if (r < 0) {
			r = ctl_fail(OTA_CLASS_PROTOCOL, "bad reply to GetHistory: %s", strerror(-r));
			goto out;
		}
	} while (since);
	shown = count && n > count ? v + (n - count) : v;
	n = count && n > count ? count : n;
	r = 0;
	s = ctl_history_check(shown, n);
	if (s != OTA_OK) {
		r = ctl_fail(ota_status_class(s), "otattestd's history holds an invalid record: %s",
			     ota_status_message(s));
	} else if (json) {
		ctl_print_history_json(stdout, shown, n, &c->names);
	} else if (n == 0) {
		printf("no boots recorded%s\n", since_given ? " since then" : "");
	} else {
		ctl_print_history(stdout, shown, n, &c->names);
	}
out:
	free(v);
	while (n_replies)
		sd_bus_message_unref(replies[--n_replies]);
	free(replies);
	return r;
}
