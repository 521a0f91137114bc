// SPDX-License-Identifier: MIT
/* otattestctl's side of the bus: connecting, finding devices, properties. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../common/macro.h"
#include "ctl.h"

int ctl_exit_for_class(uint32_t cls)
{
	return ota_class_exit_code(cls);
}

int ctl_fail(uint32_t cls, const char *fmt, ...)
{
	va_list ap;

	fputs("otattestctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return ctl_exit_for_class(cls);
}

const char *ctl_error_hint(const char *what, const char *error_name, char *buf, size_t len)
{
	static const struct {
		const char *method, *action, *group;
	} privileged[] = {
#define OTA_X_PRIV(m, a, g) { m, a, g },
		OTA_PRIVILEGED_METHODS(OTA_X_PRIV)
#undef OTA_X_PRIV
	};
	size_t i;

	if (!error_name)
		return NULL;
	if (!strcmp(error_name, SD_BUS_ERROR_ACCESS_DENIED) ||
	    !strcmp(error_name, OTA_BUS_ERROR_PREFIX "AccessDenied") ||
	    !strcmp(error_name, SD_BUS_ERROR_INTERACTIVE_AUTHORIZATION_REQUIRED)) {
		for (i = 0; i < ELEMENTSOF(privileged); i++)
			if (!strcmp(what, privileged[i].method)) {
				snprintf(buf, len,
					 "%s needs root, membership in group %s, or polkit authorization "
					 "for %s",
					 what, privileged[i].group, privileged[i].action);
				return buf;
			}
		return NULL;
	}
	if (!strcmp(error_name, SD_BUS_ERROR_SERVICE_UNKNOWN) ||
	    !strcmp(error_name, SD_BUS_ERROR_NAME_HAS_NO_OWNER)) {
		snprintf(buf, len,
			 "otattestd is not running and could not be started: see 'systemctl status "
			 "otattestd' and 'journalctl -u otattestd'");
		return buf;
	}
	return NULL;
}

int ctl_fail_bus(const char *what, const sd_bus_error *e, int r)
{
	char hint[256];

	if (e && sd_bus_error_is_set(e)) {
		const char *h = ctl_error_hint(what, e->name, hint, sizeof(hint));

		/*
		 * A refusal says first what would be allowed; who refused and
		 * why (otattestd's text, or the bus's own rule text such as
		 * dbus-daemon's "Rejected send message, 2 matched rules...")
		 * follows as the detail, for whoever has to debug a policy.
		 */
		if (h && strstr(h, " needs root")) {
			fprintf(stderr, "otattestctl: %s: not allowed: %s (%s)\n", what, h, e->name);
			if (e->message && *e->message)
				fprintf(stderr, "  detail: %s\n", e->message);
		} else if (h)
			fprintf(stderr, "otattestctl: %s: %s (%s)\n  %s\n", what,
				e->message ? e->message : "failed", e->name, h);
		else
			fprintf(stderr, "otattestctl: %s: %s (%s)\n", what, e->message ? e->message : "failed",
				e->name);
		return ota_dbus_error_exit_code(e->name);
	}
	fprintf(stderr, "otattestctl: %s: %s\n", what, strerror(r < 0 ? -r : r));
	return ctl_exit_for_class(ota_errno_class(r));
}

int ctl_connect(struct ctl *c)
{
	int r;

	/* sd-bus then knows our errors' errnos (daemon/common/errmap.h). */
	r = ota_bus_errors_register();
	if (r < 0)
		return ctl_fail(OTA_CLASS_INTERNAL, "cannot register the D-Bus error names: %s", strerror(-r));
	if (c->bus_address) {
		r = sd_bus_new(&c->bus);
		if (r >= 0)
			r = sd_bus_set_address(c->bus, c->bus_address);
		if (r >= 0)
			r = sd_bus_set_bus_client(c->bus, true);
		if (r >= 0)
			r = sd_bus_start(c->bus);
	} else {
		r = sd_bus_open_system(&c->bus);
	}
	if (r < 0)
		return ctl_fail(OTA_CLASS_UNAVAILABLE,
				"cannot connect to the %s: %s\n  is dbus running? see 'systemctl status dbus'",
				c->bus_address ? c->bus_address : "system bus", strerror(-r));
	return 0;
}

void ctl_strv_free(char **v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

int ctl_list_devices(struct ctl *c, char ***paths)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	char **v = NULL;
	int r;

	r = sd_bus_get_property_strv(c->bus, OTA_BUS_NAME, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
				     "Devices", &e, &v);
	if (r < 0) {
		r = ctl_fail_bus("cannot list devices", &e, r);
		sd_bus_error_free(&e);
		return r;
	}
	*paths = v;
	return 0;
}

int ctl_device_path(struct ctl *c, char *path, size_t len)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	const char *p;
	int r;

	if (!c->device) {
		char **v = NULL;

		r = ctl_list_devices(c, &v);
		if (r)
			return r;
		if (!v || !v[0]) {
			ctl_strv_free(v);
			return ctl_fail(OTA_CLASS_NOT_FOUND, "no otattest device is known to otattestd");
		}
		snprintf(path, len, "%s", v[0]);
		ctl_strv_free(v);
		return 0;
	}
	r = sd_bus_call_method(c->bus, OTA_BUS_NAME, OTA_BUS_ROOT_PATH, OTA_BUS_MANAGER_IFACE,
			       "GetDevice", &e, &reply, "s", c->device);
	if (r < 0) {
		r = ctl_fail_bus(c->device, &e, r);
		sd_bus_error_free(&e);
		return r;
	}
	r = sd_bus_message_read(reply, "o", &p);
	if (r >= 0)
		snprintf(path, len, "%s", p);
	sd_bus_message_unref(reply);
	return r < 0 ? ctl_fail(OTA_CLASS_PROTOCOL, "bad reply to GetDevice") : 0;
}

static int read_bytes(sd_bus_message *m, uint8_t *out, size_t max, size_t *len)
{
	const void *p;
	size_t n;
	int r;

	r = sd_bus_message_read_array(m, 'y', &p, &n);
	if (r < 0)
		return r;
	if (n > max)
		return -EBADMSG;
	memcpy(out, p, n);
	if (len)
		*len = n;
	return 0;
}

static int read_str(sd_bus_message *m, char *out, size_t max)
{
	const char *s;
	int r = sd_bus_message_read(m, "s", &s);

	if (r >= 0)
		snprintf(out, max, "%s", s);
	return r;
}

/* One stage's dictionary (docs/dbus-api.md, "Stage dictionaries"); unknown keys are a newer daemon's. */
static int read_stage(sd_bus_message *m, struct ctl_stage *s)
{
	int r;

	while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		const char *key, *contents;
		int b;

		r = sd_bus_message_read(m, "s", &key);
		if (r >= 0)
			r = sd_bus_message_peek_type(m, NULL, &contents);
		if (r >= 0)
			r = sd_bus_message_enter_container(m, 'v', contents);
		if (r < 0)
			return r;
#define IS(k, sig) (!strcmp(key, k) && !strcmp(contents, sig))
		if (IS("stage", "s"))
			r = read_str(m, s->stage, sizeof(s->stage));
		else if (IS("slot", "s"))
			r = read_str(m, s->slot, sizeof(s->slot));
		else if (IS("path", "s"))
			r = read_str(m, s->path, sizeof(s->path));
		else if (IS("path_reason", "s"))
			r = read_str(m, s->path_reason, sizeof(s->path_reason));
		else if (IS("scheme", "s"))
			r = read_str(m, s->scheme, sizeof(s->scheme));
		else if (IS("status", "u"))
			r = sd_bus_message_read(m, "u", &s->status);
		else if (IS("svn", "u"))
			r = sd_bus_message_read(m, "u", &s->svn);
		else if (IS("delegation_depth", "u"))
			r = sd_bus_message_read(m, "u", &s->depth);
		else if (IS("tag_key_version", "u"))
			r = sd_bus_message_read(m, "u", &s->tag_key_version);
		else if (IS("check_time_ns", "t"))
			r = sd_bus_message_read(m, "t", &s->verify_time_ns);
		else if (IS("check_cycles", "t"))
			r = sd_bus_message_read(m, "t", &s->verify_cycles);
		else if (IS("measurement", "ay")) {
			size_t n = 0;

			r = read_bytes(m, s->measurement, sizeof(s->measurement), &n);
			if (r >= 0 && n != sizeof(s->measurement))
				r = -EBADMSG;
		} else if (IS("key_ids", "aay")) {
			r = sd_bus_message_enter_container(m, 'a', "ay");
			for (;;) {
				const void *p;
				size_t n;

				if (r < 0)
					break;
				r = sd_bus_message_read_array(m, 'y', &p, &n);
				if (r <= 0)
					break;
				if (s->n_keys >= OTA_MAX_CHAIN_KEYS || n != OTA_KEY_ID_BYTES)
					return -EBADMSG;
				memcpy(s->key_ids[s->n_keys++], p, n);
			}
			if (r >= 0)
				r = sd_bus_message_exit_container(m);
		} else if (IS("booted", "b") || IS("fallback", "b") || IS("debug", "b")) {
			r = sd_bus_message_read(m, "b", &b);
			if (key[0] == 'b')
				s->booted = b;
			else if (key[0] == 'f')
				s->fallback = b;
			else
				s->debug = b;
		} else
			r = sd_bus_message_skip(m, contents);
#undef IS
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
		if (r < 0)
			return r;
	}
	return r;
}

static int read_stages(sd_bus_message *m, struct ctl_device *d)
{
	int r;

	r = sd_bus_message_enter_container(m, 'a', OTA_BUS_DICT_SIG);
	if (r < 0)
		return r;
	d->n_stages = 0;
	while ((r = sd_bus_message_enter_container(m, 'a', "{sv}")) > 0) {
		struct ctl_stage *s;

		if (d->n_stages >= OTA_RECORD_MAX_STAGES)
			return -EBADMSG;
		s = &d->stages[d->n_stages++];
		memset(s, 0, sizeof(*s));
		r = read_stage(m, s);
		if (r >= 0)
			r = sd_bus_message_exit_container(m);
		if (r < 0)
			return r;
	}
	if (r < 0)
		return r;
	return sd_bus_message_exit_container(m);
}

const char *ctl_stage_path_reason(const struct ctl_device *d, size_t i)
{
	return i < d->n_stages ? d->stages[i].path_reason : "";
}

bool ctl_stage_debug(const struct ctl_device *d, size_t i)
{
	return i < d->n_stages && d->stages[i].debug;
}

int ctl_parse_properties(sd_bus_message *m, struct ctl_device *d)
{
	int r;

	r = sd_bus_message_enter_container(m, 'a', "{sv}");
	if (r < 0)
		return r;
	while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		const char *name, *contents;
		char type;
		int b;

		r = sd_bus_message_read(m, "s", &name);
		if (r < 0)
			return r;
		r = sd_bus_message_peek_type(m, &type, &contents);
		if (r < 0)
			return r;
		r = sd_bus_message_enter_container(m, 'v', contents);
		if (r < 0)
			return r;
#define U32(prop, field) else if (!strcmp(name, prop)) r = sd_bus_message_read(m, "u", &d->field)
#define STR(prop, field) else if (!strcmp(name, prop)) r = read_str(m, d->field, sizeof(d->field))
		if (!strcmp(name, "Name"))
			r = read_str(m, d->name, sizeof(d->name));
		STR("State", state);
		STR("StateMessage", state_message);
		STR("Lifecycle", lifecycle);
		STR("ResetReason", reset_reason);
		STR("RuntimeVersion", runtime_version);
		STR("RevertReason", revert_reason);
		STR("RevertedSlot", reverted_slot);
		U32("TrialBoots", trial_boots);
		U32("StateDetail", state_detail);
		U32("Epoch", epoch);
		U32("MinSvn", min_svn);
		U32("ChainMaxSvn", chain_max_svn);
		U32("FloorRomExt", floor_rom_ext);
		U32("FloorBl0", floor_bl0);
		U32("TagKeyVersion", tag_key_version);
		U32("Generation", generation);
		U32("BootStatus", boot_status);
		U32("BootDataCounter", boot_data_counter);
		else if (!strcmp(name, "BootTimeNs"))
			r = sd_bus_message_read(m, "t", &d->boot_time_ns);
		else if (!strcmp(name, "RecordValid")) {
			r = sd_bus_message_read(m, "b", &b);
			d->record_valid = b;
		} else if (!strcmp(name, "TagBootEnabled")) {
			r = sd_bus_message_read(m, "b", &b);
			d->tag_boot_enabled = b;
		} else if (!strcmp(name, "DeviceId"))
			r = read_bytes(m, d->device_id, sizeof(d->device_id), &d->device_id_len);
		else if (!strcmp(name, "RomIdentity"))
			r = read_bytes(m, d->rom_identity, sizeof(d->rom_identity), &d->rom_identity_len);
		else if (!strcmp(name, "Stages"))
			r = read_stages(m, d);
		else if (!strcmp(name, "TagMismatches"))
			r = sd_bus_message_read(m, "t", &d->tag_mismatches);
		else if (!strcmp(name, "TrialReverts"))
			r = sd_bus_message_read(m, "t", &d->trial_reverts);
		else
			r = sd_bus_message_skip(m, contents); /* a newer daemon's property */
#undef U32
#undef STR
		if (r < 0)
			return r;
		r = sd_bus_message_exit_container(m);
		if (r < 0)
			return r;
		r = sd_bus_message_exit_container(m);
		if (r < 0)
			return r;
	}
	if (r < 0)
		return r;
	return sd_bus_message_exit_container(m);
}

int ctl_get_device(struct ctl *c, const char *path, struct ctl_device *d)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	int r;

	memset(d, 0, sizeof(*d));
	snprintf(d->path, sizeof(d->path), "%s", path);
	r = sd_bus_call_method(c->bus, OTA_BUS_NAME, path, "org.freedesktop.DBus.Properties", "GetAll",
			       &e, &reply, "s", OTA_BUS_DEVICE_IFACE);
	if (r < 0) {
		r = ctl_fail_bus("cannot read device properties", &e, r);
		sd_bus_error_free(&e);
		return r;
	}
	r = ctl_parse_properties(reply, d);
	sd_bus_message_unref(reply);
	if (r < 0)
		return ctl_fail(OTA_CLASS_PROTOCOL, "otattestd sent malformed properties: %s", strerror(-r));
	return 0;
}

int ctl_get_devices(struct ctl *c, char **paths, struct ctl_device **devs, size_t *n)
{
	struct ctl_device *d;
	size_t count, i;
	int r = 0;

	for (count = 0; paths && paths[count]; count++)
		;
	d = calloc(count ? count : 1, sizeof(*d));
	if (!d) {
		ctl_strv_free(paths);
		return ctl_fail(OTA_CLASS_INTERNAL, "out of memory");
	}
	for (i = 0; i < count && !r; i++)
		r = ctl_get_device(c, paths[i], &d[i]);
	ctl_strv_free(paths);
	/* Keys by name (docs/keynames.md); a names file that does not parse stops here. */
	if (!r)
		r = ctl_load_names(c);
	if (r) {
		free(d);
		return r;
	}
	for (i = 0; i < count; i++)
		d[i].names = &c->names;
	*devs = d;
	*n = count;
	return 0;
}
