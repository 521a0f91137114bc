// SPDX-License-Identifier: MIT
/*
 * A privileged method call that may take a while (a rotation, a reset, an
 * install): sent with interactive authorization allowed (polkit may ask
 * the person at the terminal), with the device's progress signal
 * dispatched to the command while the call runs, and its error turned into
 * the class's exit code.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <otattest/shm.h>
#include <otu/json.h>

#include "ctl.h"

/* Rotations and installs re-verify images on the device: give them time. */
#define ADMIN_CALL_TIMEOUT_USEC (180ull * 1000000u)

struct admin_wait {
	bool done;
	sd_bus_message *reply;
};

static int on_reply(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
	struct admin_wait *w = userdata;

	w->done = true;
	w->reply = sd_bus_message_ref(m);
	return 0;
}

/* Send call (unref'd here) and wait for its reply, progress dispatched meanwhile. */
static int admin_send(struct ctl *c, const char *path, const char *method, sd_bus_message *call,
		      int r, const char *progress_signal, sd_bus_message_handler_t on_progress,
		      void *progress_data, sd_bus_message **reply)
{
	struct admin_wait w = { 0 };
	sd_bus_slot *match = NULL;
	char rule[512];

	if (r >= 0 && progress_signal) {
		snprintf(rule, sizeof(rule),
			 "type='signal',sender='%s',path='%s',interface='%s',member='%s'", OTA_BUS_NAME,
			 path, OTA_BUS_DEVICE_IFACE, progress_signal);
		r = sd_bus_add_match(c->bus, &match, rule, on_progress, progress_data);
	}
	if (r >= 0)
		r = sd_bus_message_set_allow_interactive_authorization(call, true);
	if (r >= 0)
		r = sd_bus_call_async(c->bus, NULL, call, on_reply, &w, ADMIN_CALL_TIMEOUT_USEC);
	sd_bus_message_unref(call);
	if (r < 0) {
		sd_bus_slot_unref(match);
		return ctl_fail(OTA_CLASS_INTERNAL, "cannot send %s: %s", method, strerror(-r));
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

int ctl_admin_call(struct ctl *c, const char *path, const char *method, const char *progress_signal,
		   sd_bus_message_handler_t on_progress, void *progress_data, sd_bus_message **reply,
		   const char *types, ...)
{
	sd_bus_message *call = NULL;
	va_list ap;
	int r;

	r = sd_bus_message_new_method_call(c->bus, &call, OTA_BUS_NAME, path, OTA_BUS_DEVICE_IFACE, method);
	if (r >= 0 && types) {
		va_start(ap, types);
		r = sd_bus_message_appendv(call, types, ap);
		va_end(ap);
	}
	return admin_send(c, path, method, call, r, progress_signal, on_progress, progress_data, reply);
}

int ctl_admin_call_bytes(struct ctl *c, const char *path, const char *method, const void *p,
			 size_t len, sd_bus_message **reply)
{
	sd_bus_message *call = NULL;
	int r;

	r = sd_bus_message_new_method_call(c->bus, &call, OTA_BUS_NAME, path, OTA_BUS_DEVICE_IFACE, method);
	if (r >= 0)
		r = sd_bus_message_append_array(call, 'y', p, len);
	return admin_send(c, path, method, call, r, NULL, NULL, NULL, reply);
}

static const char *slot_label(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "unknown";
}

int ctl_reset_result(struct ctl *c, const char *what, sd_bus_message *reply)
{
	uint32_t boot_status, generation, booted;
	int r;

	r = sd_bus_message_read(reply, "uuu", &boot_status, &generation, &booted);
	sd_bus_message_unref(reply);
	if (r < 0)
		return ctl_fail(OTA_CLASS_PROTOCOL, "bad reply to the %s", what);
	if (c->json) {
		struct json_object *doc = json_object_new_object();

		otu_json_add_str(doc, "boot_status", ctl_status_label(boot_status));
		otu_json_add_u64(doc, "generation", generation);
		otu_json_add_str(doc, "booted_slot", slot_label(booted));
		otu_json_emit(stdout, doc);
	} else {
		printf("%s done: slot %s booted, boot status %s, record generation %u\n",
		       what, slot_label(booted), ctl_status_label(boot_status), generation);
	}
	/* The reset happened; a boot that brought up no runtime is still a failure. */
	if (boot_status != OTA_OK)
		return ctl_exit_for_class(ota_status_class(boot_status));
	return 0;
}

int ctl_parse_slot(const char *s, bool allow_other, uint32_t *slot)
{
	if (!strcmp(s, "a") || !strcmp(s, "A") || !strcmp(s, "0"))
		*slot = OTA_SLOT_A;
	else if (!strcmp(s, "b") || !strcmp(s, "B") || !strcmp(s, "1"))
		*slot = OTA_SLOT_B;
	else if (allow_other && !strcmp(s, "other"))
		*slot = OTA_UPDATE_SLOT_OTHER;
	else {
		fprintf(stderr, "otattestctl: --slot must be a, b%s\n", allow_other ? " or other" : "");
		return OTA_EXIT_USAGE;
	}
	return 0;
}

int ctl_parse_slot_args(int argc, char **argv, const char *shortopts, bool allow_other,
			uint32_t *slot)
{
	static const struct option opts[] = {
		{ "slot", required_argument, NULL, 's' },
		{ 0 },
	};
	int r, o;

	/* 0, not 1: glibc then re-reads the ordering (main parsed with "+"). */
	optind = 0;
	while ((o = getopt_long(argc, argv, shortopts, opts, NULL)) >= 0) {
		r = o == 's' ? ctl_parse_slot(optarg, allow_other, slot) : OTA_EXIT_USAGE;
		if (r)
			return r;
	}
	if (optind < argc) {
		fprintf(stderr, "otattestctl: %s: unexpected argument '%s'\n", argv[0], argv[optind]);
		return OTA_EXIT_USAGE;
	}
	return 0;
}
