// SPDX-License-Identifier: MIT
/*
 * A record's stages as the API types them: one a{sv} per verification
 * attempt, each value under a documented key (docs/dbus-api.md, "Stage
 * dictionaries"), so a client in any language reads them by name and a
 * later key is one more entry, not a new struct type. Used by the Stages
 * property and by each GetHistory entry.
 */
#include <errno.h>
#include <stdarg.h>

#include "manager.h"

static const char *slot_name(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "unknown";
}

/* One "key": variant entry of basic type t. */
static int entry(sd_bus_message *m, const char *key, const char *t, ...)
{
	va_list ap;
	int r;

	r = sd_bus_message_open_container(m, 'e', "sv");
	if (r >= 0)
		r = sd_bus_message_append(m, "s", key);
	if (r >= 0)
		r = sd_bus_message_open_container(m, 'v', t);
	if (r >= 0) {
		va_start(ap, t);
		r = sd_bus_message_appendv(m, t, ap);
		va_end(ap);
	}
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	return r;
}

static int entry_bytes(sd_bus_message *m, const char *key, const void *p, size_t n)
{
	int r;

	r = sd_bus_message_open_container(m, 'e', "sv");
	if (r >= 0)
		r = sd_bus_message_append(m, "s", key);
	if (r >= 0)
		r = sd_bus_message_open_container(m, 'v', "ay");
	if (r >= 0)
		r = sd_bus_message_append_array(m, 'y', p, n);
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	return r;
}

static int append_stage(sd_bus_message *m, const struct ota_stage_record *s)
{
	uint32_t k;
	int r;

	r = sd_bus_message_open_container(m, 'a', "{sv}");
	if (r >= 0)
		r = entry(m, "stage", "s", ota_stage_name(s->stage));
	if (r >= 0)
		r = entry(m, "slot", "s", slot_name(s->slot));
	if (r >= 0)
		r = entry(m, "path", "s", ota_path_name(s->path));
	if (r >= 0)
		r = entry(m, "path_reason", "s", ota_path_reason_name(s->path_reason));
	if (r >= 0)
		r = entry(m, "scheme", "s", ota_scheme_name(s->sig_scheme));
	if (r >= 0)
		r = entry(m, "status", "u", s->status);
	if (r >= 0)
		r = entry(m, "svn", "u", s->security_version);
	if (r >= 0)
		r = entry(m, "delegation_depth", "u", s->delegation_depth);
	if (r >= 0)
		r = entry(m, "tag_key_version", "u", s->tag_key_version);
	if (r >= 0)
		r = entry_bytes(m, "measurement", s->measurement, sizeof(s->measurement));
	if (r >= 0)
		r = sd_bus_message_open_container(m, 'e', "sv");
	if (r >= 0)
		r = sd_bus_message_append(m, "s", "key_ids");
	if (r >= 0)
		r = sd_bus_message_open_container(m, 'v', "aay");
	if (r >= 0)
		r = sd_bus_message_open_container(m, 'a', "ay");
	/* Validated: delegation_depth < OTA_MAX_CHAIN_KEYS. */
	for (k = 0; r >= 0 && k <= s->delegation_depth && k < OTA_MAX_CHAIN_KEYS; k++)
		r = sd_bus_message_append_array(m, 'y', s->key_ids[k], OTA_KEY_ID_BYTES);
	for (k = 0; r >= 0 && k < 3; k++)
		r = sd_bus_message_close_container(m);
	if (r >= 0)
		r = entry(m, "check_time_ns", "t", (uint64_t)s->verify_time_ns);
	if (r >= 0)
		r = entry(m, "check_cycles", "t", (uint64_t)s->verify_cycles);
	if (r >= 0)
		r = entry(m, "booted", "b", !!(s->flags & OTA_STAGE_F_BOOTED));
	if (r >= 0)
		r = entry(m, "fallback", "b", !!(s->flags & OTA_STAGE_F_FALLBACK));
	if (r >= 0)
		r = entry(m, "debug", "b", !!(s->effective.usage.flags & OTA_CAP_DEBUG));
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	return r;
}

int bus_append_stages(sd_bus_message *m, const struct ota_record *rec, uint32_t n)
{
	uint32_t i;
	int r;

	r = sd_bus_message_open_container(m, 'a', OTA_BUS_DICT_SIG);
	for (i = 0; r >= 0 && i < n && i < OTA_RECORD_MAX_STAGES; i++)
		r = append_stage(m, &rec->stage[i]);
	return r < 0 ? r : sd_bus_message_close_container(m);
}

int bus_append_history_entry(sd_bus_message *m, const struct history_entry *e)
{
	const struct ota_record *rec = (const struct ota_record *)e->record;
	int r;

	/* history.c keeps only records that validated: the header and stages are whole. */
	r = sd_bus_message_open_container(m, 'a', "{sv}");
	if (r >= 0)
		r = entry(m, "device", "s", e->device);
	if (r >= 0)
		r = entry(m, "seen_usec", "t", e->seen_usec);
	if (r >= 0)
		r = entry(m, "boot", "b", (int)e->new_boot);
	if (r >= 0)
		r = entry(m, "generation", "u", rec->hdr.generation);
	if (r >= 0)
		r = entry(m, "boot_status", "u", rec->hdr.boot_status);
	if (r >= 0)
		r = entry(m, "reset_reason", "s", ota_reset_reason_name(rec->hdr.reset_reason));
	if (r >= 0)
		r = entry(m, "lifecycle", "s", ota_lifecycle_name(rec->hdr.lifecycle));
	if (r >= 0)
		r = entry(m, "tag_key_version", "u", rec->hdr.tag_key_version);
	if (r >= 0)
		r = entry(m, "min_svn", "u", rec->hdr.min_svn);
	if (r >= 0)
		r = entry_bytes(m, "device_id", rec->hdr.device_id, sizeof(rec->hdr.device_id));
	if (r >= 0)
		r = sd_bus_message_open_container(m, 'e', "sv");
	if (r >= 0)
		r = sd_bus_message_append(m, "s", "stages");
	if (r >= 0)
		r = sd_bus_message_open_container(m, 'v', "a" OTA_BUS_DICT_SIG);
	if (r >= 0)
		r = bus_append_stages(m, rec, rec->hdr.stage_count);
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	if (r >= 0)
		r = entry_bytes(m, "record", e->record, e->len);
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	return r;
}
