// SPDX-License-Identifier: MIT
/*
 * The bus side: connection, well-known name, the manager object at
 * /org/otattest/BootAttest1 (with the ObjectManager), one object per
 * device below it (a fallback vtable plus a node enumerator, so devices
 * need no registration of their own), and the signals.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <systemd/sd-daemon.h>

#include <otu/json.h>

#include "args.h"
#include "log.h"
#include "manager.h"

static int find_device(sd_bus *bus, const char *path, const char *interface, void *userdata,
		       void **found, sd_bus_error *error)
{
	struct manager *m = userdata;
	_cleanup_free_ char *name = NULL;
	struct device *d;
	int r;

	r = sd_bus_path_decode(path, OTA_BUS_DEVICE_PREFIX, &name);
	if (r <= 0)
		return 0;
	d = device_find_by_name(m, name);
	if (!d)
		return 0;
	*found = d;
	return 1;
}

static int enumerate_devices(sd_bus *bus, const char *path, void *userdata, char ***nodes,
			     sd_bus_error *error)
{
	struct manager *m = userdata;
	struct device *d;
	char **v;
	size_t i = 0;

	v = calloc(m->n_devices + 1, sizeof(char *));
	if (!v)
		return -ENOMEM;
	for (d = m->devices; d; d = d->next) {
		v[i] = strdup(d->path);
		if (!v[i]) {
			while (i > 0)
				free(v[--i]);
			free(v);
			return -ENOMEM;
		}
		i++;
	}
	*nodes = v;
	return 1;
}

/* ---- Manager ---- */

static int method_get_device(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	struct manager *m = userdata;
	const char *name;
	struct device *d;
	struct ota_err e;
	uint32_t index;
	int r;

	r = sd_bus_message_read(msg, "s", &name);
	if (r < 0)
		return r;
	if (!args_parse_device_name(name, &index, &e))
		return ota_bus_error_set(error, &e);
	d = device_find(m, index);
	if (!d) {
		ota_err_set_statusf(&e, OTA_HOST_NO_DEVICE, "no otattest device named %s", name);
		return ota_bus_error_set(error, &e);
	}
	return sd_bus_reply_method_return(msg, "o", d->path);
}

static int prop_devices(sd_bus *bus, const char *path, const char *interface, const char *property,
			sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
	struct manager *m = userdata;
	struct device *d;
	int r;

	r = sd_bus_message_open_container(reply, 'a', "o");
	if (r < 0)
		return r;
	for (d = m->devices; d; d = d->next) {
		r = sd_bus_message_append(reply, "o", d->path);
		if (r < 0)
			return r;
	}
	return sd_bus_message_close_container(reply);
}

static int prop_version(sd_bus *bus, const char *path, const char *interface, const char *property,
			sd_bus_message *reply, void *userdata, sd_bus_error *error)
{
	return sd_bus_message_append(reply, "s", OTATTEST_VERSION);
}

/* Manager.Describe(): the version and every device, as hostnamed's Describe. */
static int method_describe(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	struct manager *m = userdata;
	struct json_object *doc = json_object_new_object(), *devs = json_object_new_array();
	struct device *d;
	int r;

	if (!doc || !devs) {
		json_object_put(doc);
		json_object_put(devs);
		return -ENOMEM;
	}
	json_object_object_add(doc, "Version", otu_json_string(OTATTEST_VERSION));
	json_object_object_add(doc, "Devices", devs);
	for (d = m->devices; d; d = d->next) {
		struct json_object *one = device_describe(d);

		if (!one) {
			json_object_put(doc);
			return -ENOMEM;
		}
		json_object_array_add(devs, one);
	}
	r = sd_bus_reply_method_return(msg, "s", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
	return r;
}

static const sd_bus_vtable manager_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_PROPERTY("Version", "s", prop_version, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("Devices", "ao", prop_devices, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
	SD_BUS_METHOD_WITH_ARGS("GetDevice", SD_BUS_ARGS("s", name), SD_BUS_RESULT("o", device),
				method_get_device, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("GetHistory", SD_BUS_ARGS("s", device, "t", since_usec, "u", count),
				SD_BUS_RESULT("a" OTA_BUS_DICT_SIG, entries, "t", next_since_usec),
				bus_method_get_history, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_ARGS("Describe", SD_BUS_NO_ARGS, SD_BUS_RESULT("s", json),
				method_describe, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

/* ---- signals ---- */

void bus_emit_device_added(struct manager *m, struct device *d)
{
	if (!m->bus)
		return;
	bus_properties_announced(d);
	sd_bus_emit_interfaces_added(m->bus, d->path, OTA_BUS_DEVICE_IFACE, NULL);
	sd_bus_emit_properties_changed(m->bus, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE, "Devices",
				       NULL);
}

void bus_emit_record_changed(struct device *d)
{
	if (!d->m->bus)
		return;
	sd_bus_emit_signal(d->m->bus, d->path, OTA_BUS_DEVICE_IFACE, "RecordChanged", "u",
			   d->generation);
}

void bus_emit_rotation_progress(struct device *d, uint32_t done, uint32_t total)
{
	if (!d->m->bus)
		return;
	sd_bus_emit_signal(d->m->bus, d->path, OTA_BUS_DEVICE_IFACE, "RotationProgress", "uu", done,
			   total);
}

void bus_emit_rotation_finished(struct device *d, uint32_t old_kv, uint32_t new_kv,
				uint32_t retagged, const struct ota_err *e)
{
	if (!d->m->bus)
		return;
	sd_bus_emit_signal(d->m->bus, d->path, OTA_BUS_DEVICE_IFACE, "RotationFinished", "uuuss",
			   old_kv, new_kv, retagged, e ? ota_class_error_name(e->cls) : "",
			   e ? e->message : "");
}

void bus_emit_tag_mismatch(struct device *d, uint32_t generation, const struct ota_stage_record *s)
{
	_cleanup_(sd_bus_message_unrefp) sd_bus_message *sig = NULL;
	int r;

	if (!d->m->bus)
		return;
	r = sd_bus_message_new_signal(d->m->bus, &sig, d->path, OTA_BUS_DEVICE_IFACE, "TagMismatch");
	if (r >= 0)
		r = sd_bus_message_append(sig, "ussu", generation, ota_stage_name(s->stage),
					  s->slot == OTA_SLOT_A ? "a" : "b", s->tag_key_version);
	if (r >= 0)
		r = sd_bus_message_append_array(sig, 'y', s->measurement, sizeof(s->measurement));
	if (r >= 0)
		r = sd_bus_message_append(sig, "u", s->status);
	if (r >= 0)
		r = sd_bus_send(d->m->bus, sig, NULL);
	if (r < 0)
		log_warning_errno(r, "%s: cannot send TagMismatch: %m", d->name);
}

void bus_emit_trial_reverted(struct device *d, uint32_t generation, const char *slot,
			     const char *reason)
{
	int r;

	if (!d->m->bus)
		return;
	r = sd_bus_emit_signal(d->m->bus, d->path, OTA_BUS_DEVICE_IFACE, "TrialReverted", "uss",
			       generation, slot, reason);
	if (r < 0)
		log_warning_errno(r, "%s: cannot send TrialReverted: %m", d->name);
}

void bus_update_status(struct manager *m)
{
	struct device *d;
	unsigned present = 0, ready = 0;

	for (d = m->devices; d; d = d->next) {
		present += d->present;
		ready += d->present && d->have_state && d->state == OTA_DEV_READY;
	}
	if (m->stopping)
		return;
	sd_notifyf(0, "STATUS=%u device(s), %u ready%s", present, ready,
		   transport_available(&m->transport) ? "" : "; otattest driver not loaded");
}

/* ---- setup ---- */

static int on_name_acquired(sd_bus_message *msg, void *userdata, sd_bus_error *error)
{
	if (sd_bus_message_is_method_error(msg, NULL)) {
		const sd_bus_error *e = sd_bus_message_get_error(msg);

		log_error_errno(sd_bus_message_get_errno(msg), "cannot own %s: %s", OTA_BUS_NAME,
				e && e->message ? e->message : "unknown error");
		sd_event_exit(sd_bus_get_event(sd_bus_message_get_bus(msg)), 1);
		return 0;
	}
	log_debug("owning %s", OTA_BUS_NAME);
	return 0;
}

int bus_setup(struct manager *m)
{
	int r;

	r = ota_bus_errors_register();
	if (r < 0)
		return log_error_errno(r, "cannot register the D-Bus error names: %m");
	if (m->bus_address) {
		r = sd_bus_new(&m->bus);
		if (r >= 0)
			r = sd_bus_set_address(m->bus, m->bus_address);
		if (r >= 0)
			r = sd_bus_set_bus_client(m->bus, true);
		if (r >= 0)
			r = sd_bus_start(m->bus);
	} else {
		r = sd_bus_open_system(&m->bus);
	}
	if (r < 0)
		return log_error_errno(r, "cannot connect to the bus: %m");

	r = sd_bus_add_object_vtable(m->bus, NULL, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
				     manager_vtable, m);
	if (r < 0)
		return log_error_errno(r, "cannot register the manager object: %m");
	r = sd_bus_add_fallback_vtable(m->bus, NULL, OTA_BUS_DEVICE_PREFIX, OTA_BUS_DEVICE_IFACE,
				       device_vtable, find_device, m);
	if (r < 0)
		return log_error_errno(r, "cannot register device objects: %m");
	r = sd_bus_add_node_enumerator(m->bus, NULL, OTA_BUS_DEVICE_PREFIX, enumerate_devices, m);
	if (r < 0)
		return log_error_errno(r, "cannot register the device enumerator: %m");
	r = sd_bus_add_object_manager(m->bus, NULL, OTA_BUS_ROOT_PATH);
	if (r < 0)
		return log_error_errno(r, "cannot register the object manager: %m");

	r = sd_bus_attach_event(m->bus, m->event, SD_EVENT_PRIORITY_NORMAL);
	if (r < 0)
		return log_error_errno(r, "cannot attach the bus to the event loop: %m");
	/* Replace nothing, queue nothing: a second instance must fail loudly. */
	r = sd_bus_request_name_async(m->bus, NULL, OTA_BUS_NAME, 0, on_name_acquired, m);
	if (r < 0)
		return log_error_errno(r, "cannot request %s: %m", OTA_BUS_NAME);
	return 0;
}
