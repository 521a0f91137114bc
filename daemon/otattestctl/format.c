// SPDX-License-Identifier: MIT
/* Text and JSON views of devices and records. Pure: no bus, no globals. */
#include <stdio.h>
#include <string.h>

#include <otattest/shm.h>

#include "../common/hex.h"
#include "../common/json.h"
#include "ctl.h"

#define ANSI_GREEN "\033[32m"
#define ANSI_YELLOW "\033[33m"
#define ANSI_RED "\033[1;31m"
#define ANSI_BOLD "\033[1m"
#define ANSI_RESET "\033[0m"

const char *ctl_status_label(uint32_t status)
{
	static char buf[16];
	const char *n = ota_status_name(status);

	if (n)
		return n;
	snprintf(buf, sizeof(buf), "0x%06x", status);
	return buf;
}

static const char *state_color(const char *state)
{
	if (!strcmp(state, "ready"))
		return ANSI_GREEN;
	if (!strcmp(state, "failed") || !strcmp(state, OTA_STATE_ABSENT) ||
	    !strcmp(state, OTA_STATE_UNREACHABLE) || !strcmp(state, "off") ||
	    !strcmp(state, "record_invalid") || !strcmp(state, "info_invalid") ||
	    !strcmp(state, "unresponsive"))
		return ANSI_RED;
	return ANSI_YELLOW;
}

static void print_ms(FILE *out, uint64_t ns)
{
	fprintf(out, "%llu.%03llu ms", (unsigned long long)(ns / 1000000u),
		(unsigned long long)(ns / 1000u % 1000u));
}

bool ctl_want_color(bool no_color, bool json, bool tty, const char *term)
{
	return !no_color && !json && tty && term && *term && strcmp(term, "dumb") != 0;
}

void ctl_print_status(FILE *out, const struct ctl_device *d, bool color)
{
	char hex[2 * OTA_SHA256_BYTES + 1];
	size_t i;

	if (color)
		fprintf(out, ANSI_BOLD "%s" ANSI_RESET "  %s%s" ANSI_RESET, d->name, state_color(d->state),
			d->state);
	else
		fprintf(out, "%s  %s", d->name, d->state);
	/* OTA_OK is the "nothing to explain" detail too: no parenthesis. */
	if (d->state_detail && d->state_detail != OTA_OK)
		fprintf(out, " (%s: %s)", ctl_status_label(d->state_detail), d->state_message);
	fputc('\n', out);
	if (!d->record_valid) {
		fprintf(out, "  no valid boot record\n");
		return;
	}
	ota_hex_encode(hex, d->device_id, d->device_id_len);
	fprintf(out, "  %-16s %s\n", "device id", hex);
	fprintf(out, "  %-16s %-14s %-14s %s\n", "lifecycle", d->lifecycle, "reset reason", d->reset_reason);
	fprintf(out, "  %-16s %-14u %-14s %u (chain max %u)\n", "epoch", d->epoch, "min SVN", d->min_svn,
		d->chain_max_svn);
	fprintf(out, "  %-16s rom_ext %u, bl0 %u\n", "SVN floors", d->floor_rom_ext, d->floor_bl0);
	fprintf(out, "  %-16s %s, key version %u\n", "tag boot",
		d->tag_boot_enabled ? "enabled" : "disabled", d->tag_key_version);
	fprintf(out, "  %-16s %-14u %-14s ", "generation", d->generation, "boot time");
	print_ms(out, d->boot_time_ns);
	fputc('\n', out);
	fprintf(out, "  %-16s %s\n", "boot status", ctl_status_label(d->boot_status));
	fprintf(out, "\n  %-8s %-4s %-19s %-29s %4s %5s %16s  %s\n", "STAGE", "SLOT", "PATH", "SCHEME",
		"SVN", "DEPTH", "VERIFY", "STATUS");
	for (i = 0; i < d->n_stages; i++) {
		const struct ctl_stage *s = &d->stages[i];
		bool ok = s->status == OTA_OK;

		fprintf(out, "  %-8s %-4s ", s->stage, s->slot);
		if (color)
			fprintf(out, "%s%-19s" ANSI_RESET, !strcmp(s->path, "tag") ? ANSI_GREEN : "", s->path);
		else
			fprintf(out, "%-19s", s->path);
		fprintf(out, " %-29s %4u %5u ", s->scheme, s->svn, s->depth);
		fprintf(out, "%9llu.%03llu ms", (unsigned long long)(s->verify_time_ns / 1000000u),
			(unsigned long long)(s->verify_time_ns / 1000u % 1000u));
		if (color && !ok)
			fprintf(out, "  " ANSI_RED "%s" ANSI_RESET, ctl_status_label(s->status));
		else
			fprintf(out, "  %s", ctl_status_label(s->status));
		if (s->booted)
			fputs(" (booted)", out);
		if (s->fallback)
			fputs(" (fallback)", out);
		fputc('\n', out);
	}
}

static void stage_json(struct json *j, const struct ctl_stage *s)
{
	size_t k;

	json_object_open(j);
	json_kv_string(j, "stage", s->stage);
	json_kv_string(j, "slot", s->slot);
	json_kv_string(j, "path", s->path);
	json_kv_string(j, "scheme", s->scheme);
	json_kv_string(j, "status", ctl_status_label(s->status));
	json_kv_uint(j, "svn", s->svn);
	json_kv_uint(j, "delegation_depth", s->depth);
	json_kv_uint(j, "tag_key_version", s->tag_key_version);
	json_kv_hex(j, "measurement", s->measurement, sizeof(s->measurement));
	json_key(j, "key_ids");
	json_array_open(j);
	for (k = 0; k < s->n_keys; k++)
		json_hex(j, s->key_ids[k], OTA_KEY_ID_BYTES);
	json_array_close(j);
	json_kv_uint(j, "verify_time_ns", s->verify_time_ns);
	json_kv_bool(j, "booted", s->booted);
	json_kv_bool(j, "fallback", s->fallback);
	json_object_close(j);
}

void ctl_print_status_json(FILE *out, const struct ctl_device *devs, size_t n)
{
	struct json j;
	size_t i, s;

	json_begin(&j, out);
	json_object_open(&j);
	json_key(&j, "devices");
	json_array_open(&j);
	for (i = 0; i < n; i++) {
		const struct ctl_device *d = &devs[i];

		json_object_open(&j);
		json_kv_string(&j, "name", d->name);
		json_kv_string(&j, "state", d->state);
		json_kv_string(&j, "state_detail", d->state_detail ? ctl_status_label(d->state_detail) : "OK");
		json_kv_uint(&j, "state_detail_code", d->state_detail);
		json_kv_string(&j, "state_message", d->state_message);
		json_kv_bool(&j, "record_valid", d->record_valid);
		if (d->record_valid) {
			json_kv_hex(&j, "device_id", d->device_id, d->device_id_len);
			json_kv_string(&j, "lifecycle", d->lifecycle);
			json_kv_string(&j, "reset_reason", d->reset_reason);
			json_kv_uint(&j, "epoch", d->epoch);
			json_kv_uint(&j, "min_svn", d->min_svn);
			json_kv_uint(&j, "chain_max_svn", d->chain_max_svn);
			json_kv_uint(&j, "floor_rom_ext", d->floor_rom_ext);
			json_kv_uint(&j, "floor_bl0", d->floor_bl0);
			json_kv_bool(&j, "tag_boot_enabled", d->tag_boot_enabled);
			json_kv_uint(&j, "tag_key_version", d->tag_key_version);
			json_kv_uint(&j, "generation", d->generation);
			json_kv_string(&j, "boot_status", ctl_status_label(d->boot_status));
			json_kv_uint(&j, "boot_data_counter", d->boot_data_counter);
			json_kv_uint(&j, "boot_time_ns", d->boot_time_ns);
			json_kv_hex(&j, "rom_identity", d->rom_identity, d->rom_identity_len);
			json_key(&j, "stages");
			json_array_open(&j);
			for (s = 0; s < d->n_stages; s++)
				stage_json(&j, &d->stages[s]);
			json_array_close(&j);
		}
		json_object_close(&j);
	}
	json_array_close(&j);
	json_object_close(&j);
	json_end(&j);
}

/* Copy out of the caller's buffer and validate before reading a field. */
static ota_status_t load_record(struct ota_record *r, const uint8_t *buf, size_t len)
{
	if (len > sizeof(*r))
		return OTA_RECORD_BAD_LENGTH;
	memset(r, 0, sizeof(*r));
	memcpy(r, buf, len);
	return ota_record_validate(r, (uint32_t)len);
}

static const char *slot_name(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "unknown";
}

ota_status_t ctl_print_record(FILE *out, const uint8_t *buf, size_t len)
{
	char hex[2 * OTA_SHA256_BYTES + 1];
	struct ota_record r;
	ota_status_t s = load_record(&r, buf, len);
	uint32_t i, k;

	if (s != OTA_OK)
		return s;
	ota_hex_encode(hex, r.hdr.device_id, sizeof(r.hdr.device_id));
	fprintf(out, "boot record v%u, %u bytes, generation %u\n", r.hdr.version, r.hdr.length,
		r.hdr.generation);
	fprintf(out, "  device id          %s\n", hex);
	fprintf(out, "  lifecycle          %s\n", ota_lifecycle_name(r.hdr.lifecycle));
	fprintf(out, "  reset reason       %s\n", ota_reset_reason_name(r.hdr.reset_reason));
	fprintf(out, "  epoch              %u\n", r.hdr.epoch);
	fprintf(out, "  min SVN            %u (chain max %u)\n", r.hdr.min_svn, r.hdr.chain_max_svn);
	fprintf(out, "  SVN floors         rom_ext %u, bl0 %u\n", r.hdr.floor_rom_ext, r.hdr.floor_bl0);
	fprintf(out, "  tag boot           %s, key version %u\n",
		r.hdr.flags & OTA_RECORD_F_TAG_BOOT_ENABLED ? "enabled" : "disabled", r.hdr.tag_key_version);
	fprintf(out, "  boot status        %s\n", ctl_status_label(r.hdr.boot_status));
	fprintf(out, "  boot data counter  %u\n", r.hdr.boot_data_counter);
	fprintf(out, "  boot time          ");
	print_ms(out, r.hdr.boot_time_ns);
	fputc('\n', out);
	ota_hex_encode(hex, r.hdr.rom_identity, sizeof(r.hdr.rom_identity));
	fprintf(out, "  ROM identity       %s\n", hex);
	for (i = 0; i < r.hdr.stage_count; i++) {
		const struct ota_stage_record *st = &r.stage[i];

		fprintf(out, "stage %u: %s slot %s%s%s\n", i, ota_stage_name(st->stage), slot_name(st->slot),
			st->flags & OTA_STAGE_F_BOOTED ? " (booted)" : "",
			st->flags & OTA_STAGE_F_FALLBACK ? " (fallback)" : "");
		fprintf(out, "  status             %s\n", ctl_status_label(st->status));
		fprintf(out, "  path               %s\n", ota_path_name(st->path));
		fprintf(out, "  scheme             %s\n", ota_scheme_name(st->sig_scheme));
		fprintf(out, "  SVN                %u (leaf allows %u..%u)\n", st->security_version,
			st->effective.svn_min, st->effective.svn_max);
		fprintf(out, "  delegation depth   %u\n", st->delegation_depth);
		fprintf(out, "  tag key version    %u\n", st->tag_key_version);
		ota_hex_encode(hex, st->measurement, sizeof(st->measurement));
		fprintf(out, "  measurement        %s\n", hex);
		for (k = 0; k <= st->delegation_depth && k < OTA_MAX_CHAIN_KEYS; k++) {
			ota_hex_encode(hex, st->key_ids[k], OTA_KEY_ID_BYTES);
			fprintf(out, "  %-18s %s\n", k == 0 ? "root key id" : "delegate key id", hex);
		}
		fprintf(out, "  verify time        ");
		print_ms(out, st->verify_time_ns);
		fprintf(out, " (%llu cycles)\n", (unsigned long long)st->verify_cycles);
	}
	return OTA_OK;
}

ota_status_t ctl_print_record_json(FILE *out, const uint8_t *buf, size_t len)
{
	struct ota_record r;
	ota_status_t s = load_record(&r, buf, len);
	struct json j;
	uint32_t i, k;

	if (s != OTA_OK)
		return s;
	json_begin(&j, out);
	json_object_open(&j);
	json_kv_uint(&j, "version", r.hdr.version);
	json_kv_uint(&j, "length", r.hdr.length);
	json_kv_uint(&j, "generation", r.hdr.generation);
	json_kv_string(&j, "reset_reason", ota_reset_reason_name(r.hdr.reset_reason));
	json_kv_string(&j, "lifecycle", ota_lifecycle_name(r.hdr.lifecycle));
	json_kv_hex(&j, "device_id", r.hdr.device_id, sizeof(r.hdr.device_id));
	json_kv_uint(&j, "epoch", r.hdr.epoch);
	json_kv_uint(&j, "min_svn", r.hdr.min_svn);
	json_kv_uint(&j, "chain_max_svn", r.hdr.chain_max_svn);
	json_kv_uint(&j, "floor_rom_ext", r.hdr.floor_rom_ext);
	json_kv_uint(&j, "floor_bl0", r.hdr.floor_bl0);
	json_kv_bool(&j, "tag_boot_enabled", r.hdr.flags & OTA_RECORD_F_TAG_BOOT_ENABLED);
	json_kv_uint(&j, "tag_key_version", r.hdr.tag_key_version);
	json_kv_string(&j, "boot_status", ctl_status_label(r.hdr.boot_status));
	json_kv_uint(&j, "boot_data_counter", r.hdr.boot_data_counter);
	json_kv_hex(&j, "rom_identity", r.hdr.rom_identity, sizeof(r.hdr.rom_identity));
	json_kv_uint(&j, "boot_time_ns", r.hdr.boot_time_ns);
	json_key(&j, "stages");
	json_array_open(&j);
	for (i = 0; i < r.hdr.stage_count; i++) {
		const struct ota_stage_record *st = &r.stage[i];

		json_object_open(&j);
		json_kv_string(&j, "stage", ota_stage_name(st->stage));
		json_kv_string(&j, "slot", slot_name(st->slot));
		json_kv_string(&j, "status", ctl_status_label(st->status));
		json_kv_string(&j, "path", ota_path_name(st->path));
		json_kv_string(&j, "scheme", ota_scheme_name(st->sig_scheme));
		json_kv_uint(&j, "delegation_depth", st->delegation_depth);
		json_kv_uint(&j, "svn", st->security_version);
		json_kv_uint(&j, "tag_key_version", st->tag_key_version);
		json_kv_hex(&j, "measurement", st->measurement, sizeof(st->measurement));
		json_key(&j, "key_ids");
		json_array_open(&j);
		for (k = 0; k <= st->delegation_depth && k < OTA_MAX_CHAIN_KEYS; k++)
			json_hex(&j, st->key_ids[k], OTA_KEY_ID_BYTES);
		json_array_close(&j);
		json_key(&j, "effective");
		json_object_open(&j);
		json_kv_uint(&j, "svn_min", st->effective.svn_min);
		json_kv_uint(&j, "svn_max", st->effective.svn_max);
		json_kv_uint(&j, "slot_mask", st->effective.usage.slot_mask);
		json_kv_uint(&j, "lifecycle_mask", st->effective.usage.lifecycle_mask);
		json_kv_uint(&j, "flags", st->effective.usage.flags);
		json_kv_uint(&j, "device_binding", st->effective.usage.device_binding);
		json_kv_hex(&j, "device_id", st->effective.usage.device_id, sizeof(st->effective.usage.device_id));
		json_object_close(&j);
		json_kv_uint(&j, "verify_time_ns", st->verify_time_ns);
		json_kv_uint(&j, "verify_cycles", st->verify_cycles);
		json_kv_bool(&j, "booted", st->flags & OTA_STAGE_F_BOOTED);
		json_kv_bool(&j, "fallback", st->flags & OTA_STAGE_F_FALLBACK);
		json_object_close(&j);
	}
	json_array_close(&j);
	json_object_close(&j);
	json_end(&j);
	return OTA_OK;
}
