// SPDX-License-Identifier: MIT
/*
 * otattestctl watch: events as they come. Every signal of otattestd's
 * objects (property changes, record changes, rotation progress/results,
 * devices appearing) and otattestd itself coming and going, one line each;
 * --json makes each line a JSON object.
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <otu/json.h>
#include <otu/num.h>

#include "ctl.h"

struct watch {
	struct ctl *c;
	long remaining; /* --count; <0: forever */
};

static void timestamp(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + strlen(buf), len - strlen(buf), ".%03uZ", (unsigned)(ts.tv_nsec / 1000000) % 1000u);
}

static const char *device_of(const char *path)
{
	const char *p = strrchr(path ? path : "", '/');

	return p ? p + 1 : "";
}

/*
 * One simple variant value as text, and as JSON when jv is not NULL (*jv:
 * the value, or NULL for null); complex ones are skipped.
 */
static int print_value(sd_bus_message *m, const char *name, struct json_object **jv, char *text,
		       size_t tlen)
{
	const char *contents, *s;
	uint32_t u;
	uint64_t t;
	int b, r;
	char type;

	r = sd_bus_message_peek_type(m, &type, &contents);
	if (r < 0)
		return r;
	r = sd_bus_message_enter_container(m, 'v', contents);
	if (r < 0)
		return r;
	switch (contents[0] == '\0' ? 0 : contents[1] ? 0 : contents[0]) {
	case 's':
		r = sd_bus_message_read(m, "s", &s);
		if (r >= 0 && jv)
			*jv = otu_json_string(s);
		snprintf(text, tlen, "%s", s);
		break;
	case 'u':
		r = sd_bus_message_read(m, "u", &u);
		if (r >= 0 && jv)
			*jv = json_object_new_uint64(u);
		{
			char num[16];

			snprintf(text, tlen, "%s", ctl_u32_property_text(name, u, num, sizeof(num)));
		}
		break;
	case 't':
		r = sd_bus_message_read(m, "t", &t);
		if (r >= 0 && jv)
			*jv = json_object_new_uint64(t);
		snprintf(text, tlen, "%llu", (unsigned long long)t);
		break;
	case 'b':
		r = sd_bus_message_read(m, "b", &b);
		if (r >= 0 && jv)
			*jv = json_object_new_boolean(b);
		snprintf(text, tlen, "%s", b ? "yes" : "no");
		break;
	default:
		if (!strcmp(contents, "ay")) {
			const void *p = NULL;
			size_t n = 0;

			/* Binary values (ids, digests) as hex, as everywhere else. */
			r = sd_bus_message_read_array(m, 'y', &p, &n);
			if (r >= 0 && jv)
				*jv = otu_json_hex(p, n);
			snprintf(text, tlen, "(%zu bytes)", n);
			break;
		}
		r = sd_bus_message_skip(m, contents);
		snprintf(text, tlen, "(changed)");
	}
	if (r < 0)
		return r;
	return sd_bus_message_exit_container(m);
}

/* The start of every event line: when, which device, what. */
static struct json_object *event_json(const char *ts, const char *dev, const char *event)
{
	struct json_object *o = json_object_new_object();

	otu_json_add_str(o, "time", ts);
	if (dev)
		otu_json_add_str(o, "device", dev);
	otu_json_add_str(o, "event", event);
	return o;
}

static void properties_changed(struct watch *w, sd_bus_message *m, const char *dev, const char *ts)
{
	struct json_object *doc = NULL, *changed = NULL;
	const char *iface, *name;
	char text[256];

	if (sd_bus_message_read(m, "s", &iface) < 0 || strcmp(iface, OTA_BUS_DEVICE_IFACE) != 0)
		return;
	if (sd_bus_message_enter_container(m, 'a', "{sv}") < 0)
		return;
	if (w->c->json) {
		doc = event_json(ts, dev, "properties");
		changed = json_object_new_object();
		json_object_object_add(doc, "changed", changed);
	} else {
		printf("%s %s properties:", ts, dev);
	}
	while (sd_bus_message_enter_container(m, 'e', "sv") > 0) {
		struct json_object *value = NULL;

		if (sd_bus_message_read(m, "s", &name) < 0)
			break;
		if (print_value(m, name, changed ? &value : NULL, text, sizeof(text)) < 0) {
			json_object_put(value);
			break;
		}
		if (changed)
			json_object_object_add(changed, name, value);
		/* The stage list is long; the record command shows it. */
		else if (strcmp(name, "Stages") != 0 && strcmp(name, "DeviceId") != 0 &&
			 strcmp(name, "RomIdentity") != 0)
			printf(" %s=%s", name, text);
		sd_bus_message_exit_container(m);
	}
	if (doc)
		otu_json_emit(stdout, doc);
	else
		putchar('\n');
}

static int on_signal(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
	struct watch *w = userdata;
	const char *member = sd_bus_message_get_member(m), *dev = device_of(sd_bus_message_get_path(m));
	bool json = w->c->json;
	struct json_object *doc;
	char ts[40];

	timestamp(ts, sizeof(ts));
	if (!member)
		return 0;
	if (!strcmp(member, "PropertiesChanged")) {
		properties_changed(w, m, dev, ts);
	} else if (!strcmp(member, "RecordChanged")) {
		uint32_t gen;

		if (sd_bus_message_read(m, "u", &gen) < 0)
			return 0;
		if (json) {
			doc = event_json(ts, dev, "record-changed");
			otu_json_add_u64(doc, "generation", gen);
			otu_json_emit(stdout, doc);
		} else {
			printf("%s %s record changed: generation %u\n", ts, dev, gen);
		}
	} else if (!strcmp(member, "TagMismatch")) {
		uint32_t gen, kv, status;
		const char *stage, *slot;
		const void *meas = NULL;
		size_t mlen = 0;

		if (sd_bus_message_read(m, "ussu", &gen, &stage, &slot, &kv) < 0 ||
		    sd_bus_message_read_array(m, 'y', &meas, &mlen) < 0 ||
		    sd_bus_message_read(m, "u", &status) < 0)
			return 0;
		if (json) {
			doc = event_json(ts, dev, "tag-mismatch");
			otu_json_add_u64(doc, "generation", gen);
			otu_json_add_str(doc, "stage", stage);
			otu_json_add_str(doc, "slot", slot);
			otu_json_add_u64(doc, "tag_key_version", kv);
			otu_json_add_hex(doc, "measurement", meas, mlen);
			otu_json_add_str(doc, "status", ctl_status_label(status));
			otu_json_emit(stdout, doc);
		} else {
			printf("%s %s tag mismatch: %s slot %s, tag key version %u, generation %u: %s\n",
			       ts, dev, stage, slot, kv, gen, ctl_status_label(status));
		}
	} else if (!strcmp(member, "TrialReverted")) {
		const char *slot, *reason;
		uint32_t gen;

		if (sd_bus_message_read(m, "uss", &gen, &slot, &reason) < 0)
			return 0;
		if (json) {
			doc = event_json(ts, dev, "trial-reverted");
			otu_json_add_u64(doc, "generation", gen);
			otu_json_add_str(doc, "slot", slot);
			otu_json_add_str(doc, "reason", reason);
			otu_json_emit(stdout, doc);
		} else {
			printf("%s %s trial reverted: bl0 slot %s (%s), generation %u\n", ts, dev, slot,
			       reason, gen);
		}
	} else if (!strcmp(member, "RotationProgress")) {
		uint32_t done, total;

		if (sd_bus_message_read(m, "uu", &done, &total) < 0)
			return 0;
		if (json) {
			doc = event_json(ts, dev, "rotation-progress");
			otu_json_add_u64(doc, "done", done);
			otu_json_add_u64(doc, "total", total);
			otu_json_emit(stdout, doc);
		} else {
			printf("%s %s rotation: %u of %u stage(s) re-tagged\n", ts, dev, done, total);
		}
	} else if (!strcmp(member, "RotationFinished")) {
		uint32_t old_kv, new_kv, n;
		const char *ename, *emsg;

		if (sd_bus_message_read(m, "uuuss", &old_kv, &new_kv, &n, &ename, &emsg) < 0)
			return 0;
		if (json) {
			doc = event_json(ts, dev, "rotation-finished");
			otu_json_add_u64(doc, "old_key_version", old_kv);
			otu_json_add_u64(doc, "new_key_version", new_kv);
			otu_json_add_u64(doc, "stages_retagged", n);
			otu_json_add_str(doc, "error", ename);
			otu_json_add_str(doc, "message", emsg);
			otu_json_emit(stdout, doc);
		} else if (*ename) {
			printf("%s %s rotation failed: %s (%s)\n", ts, dev, emsg, ename);
		} else {
			printf("%s %s rotation finished: key version %u -> %u, %u stage(s)\n", ts, dev,
			       old_kv, new_kv, n);
		}
	} else if (!strcmp(member, "InterfacesAdded")) {
		const char *path;

		if (sd_bus_message_read(m, "o", &path) < 0)
			return 0;
		if (json)
			otu_json_emit(stdout, event_json(ts, device_of(path), "device-added"));
		else
			printf("%s %s device added\n", ts, device_of(path));
	} else if (!strcmp(member, "NameOwnerChanged")) {
		const char *name, *old_owner, *new_owner;

		if (sd_bus_message_read(m, "sss", &name, &old_owner, &new_owner) < 0)
			return 0;
		if (json)
			otu_json_emit(stdout, event_json(ts, NULL, *new_owner ? "daemon-started"
									   : "daemon-stopped"));
		else
			printf("%s otattestd %s\n", ts, *new_owner ? "started" : "stopped");
	} else {
		return 0;
	}
	fflush(stdout);
	if (w->remaining > 0)
		w->remaining--;
	return 0;
}

int cmd_watch(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "count", required_argument, NULL, 'n' },
		{ 0 },
	};
	struct watch w = { .c = c, .remaining = -1 };
	char rule[512];
	int r, o;

	/* 0, not 1: glibc then re-reads the ordering (main parsed with "+"). */
	optind = 0;
	while ((o = getopt_long(argc, argv, "jn:", opts, NULL)) >= 0) {
		if (o == 'j') {
			c->json = true;
		} else if (o == 'n') {
			uint64_t count;

			if (otu_parse_u64(optarg, OTU_DEC, 1, LONG_MAX, &count) < 0) {
				fprintf(stderr, "otattestctl: --count must be a positive number\n");
				return OTA_EXIT_USAGE;
			}
			w.remaining = (long)count;
		} else {
			return OTA_EXIT_USAGE;
		}
	}
	snprintf(rule, sizeof(rule), "type='signal',sender='%s',path_namespace='%s'", OTA_BUS_NAME,
		 OTA_BUS_ROOT_PATH);
	r = sd_bus_add_match(c->bus, NULL, rule, on_signal, &w);
	/* otattestd itself coming and going: only its name's owner changes. */
	if (r >= 0)
		r = sd_bus_add_match(c->bus, NULL,
				     "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
				     "member='NameOwnerChanged',arg0='" OTA_BUS_NAME "'",
				     on_signal, &w);
	if (r < 0)
		return ctl_fail(OTA_CLASS_INTERNAL, "cannot subscribe to signals");
	while (w.remaining != 0) {
		r = sd_bus_process(c->bus, NULL);
		if (r < 0)
			return ctl_fail(OTA_CLASS_UNAVAILABLE, "lost the bus: %s", strerror(-r));
		if (r > 0)
			continue;
		r = sd_bus_wait(c->bus, UINT64_MAX);
		if (r < 0 && r != -EINTR)
			return ctl_fail(OTA_CLASS_UNAVAILABLE, "lost the bus: %s", strerror(-r));
	}
	return 0;
}
