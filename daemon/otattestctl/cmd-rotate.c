// SPDX-License-Identifier: MIT
/*
 * otattestctl rotate: RotateTags, with progress from the RotationProgress
 * signals while the call runs. otattestctl update-reset: UpdateReset.
 * Both are privileged (root, group otattest-update, or polkit).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/shm.h>
#include <otu/json.h>

#include "ctl.h"

/* A rotation re-verifies every stage's signature: give it time. */
#define ADMIN_CALL_TIMEOUT_USEC (180ull * 1000000u)

struct wait_ctx {
	struct ctl *c;
	bool done;
	int exit_code;
	sd_bus_message *reply;
};

static int on_progress(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
	struct wait_ctx *w = userdata;
	uint32_t done, total;

	if (sd_bus_message_read(m, "uu", &done, &total) < 0)
		return 0;
	if (w->c->json) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_str(doc, "event", "progress");
		otu_json_add_u64(doc, "done", done);
		otu_json_add_u64(doc, "total", total);
		otu_json_emit(stdout, doc);
		fflush(stdout);
	} else if (!w->c->quiet) {
		printf("re-tagged %u of %u stage(s)\n", done, total);
		fflush(stdout);
	}
	return 0;
}

static int on_reply(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
	struct wait_ctx *w = userdata;

	w->done = true;
	w->reply = sd_bus_message_ref(m);
	return 0;
}

/* Call method on the device and wait, dispatching signals meanwhile. */
static int call_and_wait(struct ctl *c, const char *path, const char *method, sd_bus_message **reply,
			 const char *types, ...)
{
	struct wait_ctx w = { .c = c };
	sd_bus_message *call = NULL;
	sd_bus_slot *match = NULL;
	char rule[512];
	va_list ap;
	int r;

	snprintf(rule, sizeof(rule),
		 "type='signal',sender='%s',path='%s',interface='%s',member='RotationProgress'",
		 OTA_BUS_NAME, path, OTA_BUS_DEVICE_IFACE);
	r = sd_bus_add_match(c->bus, &match, rule, on_progress, &w);
	if (r < 0)
		return ctl_fail(OTA_CLASS_INTERNAL, "cannot subscribe to progress signals");
	r = sd_bus_message_new_method_call(c->bus, &call, OTA_BUS_NAME, path, OTA_BUS_DEVICE_IFACE, method);
	if (r >= 0 && types) {
		va_start(ap, types);
		r = sd_bus_message_appendv(call, types, ap);
		va_end(ap);
	}
	/* polkit may ask the person at the terminal. */
	if (r >= 0)
		r = sd_bus_message_set_allow_interactive_authorization(call, true);
	if (r >= 0)
		r = sd_bus_call_async(c->bus, NULL, call, on_reply, &w, ADMIN_CALL_TIMEOUT_USEC);
	sd_bus_message_unref(call);
	if (r < 0) {
		sd_bus_slot_unref(match);
		return ctl_fail(OTA_CLASS_INTERNAL, "cannot send %s", method);
	}
	while (!w.done) {
		r = sd_bus_process(c->bus, NULL);
		if (r < 0)
			break;
		if (r > 0)
			continue;
		r = sd_bus_wait(c->bus, UINT64_MAX);
		if (r < 0)
			break;
	}
	sd_bus_slot_unref(match);
	if (!w.done)
		return ctl_fail(OTA_CLASS_UNAVAILABLE, "lost the bus while waiting for %s", method);
	if (sd_bus_message_is_method_error(w.reply, NULL)) {
		r = ctl_fail_bus(method, sd_bus_message_get_error(w.reply), -EIO);
		sd_bus_message_unref(w.reply);
		return r;
	}
	*reply = w.reply;
	return 0;
}

int cmd_rotate(struct ctl *c, int argc, char **argv)
{
	sd_bus_message *reply = NULL;
	uint32_t old_kv, new_kv, retagged;
	char path[160];
	int r;

	if (argc > 1) {
		fprintf(stderr, "otattestctl: rotate takes no arguments (use -d DEVICE)\n");
		return OTA_EXIT_USAGE;
	}
	r = ctl_device_path(c, path, sizeof(path));
	if (r)
		return r;
	if (!c->json && !c->quiet)
		printf("rotating boot tags...\n");
	r = call_and_wait(c, path, "RotateTags", &reply, NULL);
	if (r)
		return r;
	r = sd_bus_message_read(reply, "uuu", &old_kv, &new_kv, &retagged);
	sd_bus_message_unref(reply);
	if (r < 0)
		return ctl_fail(OTA_CLASS_PROTOCOL, "bad reply to RotateTags");
	if (c->json) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_str(doc, "event", "finished");
		otu_json_add_u64(doc, "old_key_version", old_kv);
		otu_json_add_u64(doc, "new_key_version", new_kv);
		otu_json_add_u64(doc, "stages_retagged", retagged);
		otu_json_emit(stdout, doc);
	} else {
		printf("tag key version %u -> %u, %u stage(s) re-tagged\n", old_kv, new_kv, retagged);
	}
	return 0;
}

int cmd_update_reset(struct ctl *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "slot", required_argument, NULL, 's' },
		{ 0 },
	};
	uint32_t slot = OTA_UPDATE_SLOT_OTHER, boot_status, generation, booted;
	sd_bus_message *reply = NULL;
	char path[160];
	int r, o;

	/* 0, not 1: glibc then re-reads the ordering (main parsed with "+"). */
	optind = 0;
	while ((o = getopt_long(argc, argv, "s:", opts, NULL)) >= 0) {
		if (o != 's')
			return OTA_EXIT_USAGE;
		if (!strcmp(optarg, "a") || !strcmp(optarg, "A") || !strcmp(optarg, "0"))
			slot = OTA_SLOT_A;
		else if (!strcmp(optarg, "b") || !strcmp(optarg, "B") || !strcmp(optarg, "1"))
			slot = OTA_SLOT_B;
		else if (!strcmp(optarg, "other"))
			slot = OTA_UPDATE_SLOT_OTHER;
		else {
			fprintf(stderr, "otattestctl: --slot must be a, b or other\n");
			return OTA_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "otattestctl: update-reset: unexpected argument '%s'\n", argv[optind]);
		return OTA_EXIT_USAGE;
	}
	r = ctl_device_path(c, path, sizeof(path));
	if (r)
		return r;
	r = call_and_wait(c, path, "UpdateReset", &reply, "u", slot);
	if (r)
		return r;
	r = sd_bus_message_read(reply, "uuu", &boot_status, &generation, &booted);
	sd_bus_message_unref(reply);
	if (r < 0)
		return ctl_fail(OTA_CLASS_PROTOCOL, "bad reply to UpdateReset");
	if (c->json) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_str(doc, "boot_status", ctl_status_label(boot_status));
		otu_json_add_u64(doc, "generation", generation);
		otu_json_add_str(doc, "booted_slot",
				 booted == OTA_SLOT_A ? "a" : booted == OTA_SLOT_B ? "b" : "unknown");
		otu_json_emit(stdout, doc);
	} else {
		printf("update reset done: slot %s booted, boot status %s, record generation %u\n",
		       booted == OTA_SLOT_A ? "a" : booted == OTA_SLOT_B ? "b" : "unknown",
		       ctl_status_label(boot_status), generation);
	}
	/* The reset happened; a boot that brought up no runtime is still a failure. */
	if (boot_status != OTA_OK)
		return ctl_exit_for_class(ota_status_class(boot_status));
	return 0;
}
