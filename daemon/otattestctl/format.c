// SPDX-License-Identifier: MIT
/* Text and JSON views of devices and records. Pure: no bus, no globals. */
#include <stdio.h>
#include <string.h>

#include <otattest/shm.h>
#include <otu/hex.h>
#include <otu/json.h>
#include <otu/usage.h>

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

const char *ctl_u32_property_text(const char *property, uint32_t v, char *buf, size_t len)
{
	/* Status codes by name, as status and record show them (1849 is OK). */
	if (!strcmp(property, "BootStatus"))
		return ctl_status_label(v);
	if (!strcmp(property, "StateDetail"))
		return v ? ctl_status_label(v) : "none";
	snprintf(buf, len, "%u", v);
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
	struct ctl_attention att[CTL_ATTENTION_MAX];
	char hex[2 * OTA_SHA256_BYTES + 1];
	size_t i, n_att;

	if (color)
		fprintf(out, ANSI_BOLD "%s" ANSI_RESET "  %s%s" ANSI_RESET, d->name, state_color(d->state),
			d->state);
	else
		fprintf(out, "%s  %s", d->name, d->state);
	/* OTA_OK is the "nothing to explain" detail too: no parenthesis. */
	if (d->state_detail && d->state_detail != OTA_OK)
		fprintf(out, " (%s: %s)", ctl_status_label(d->state_detail), d->state_message);
	fputc('\n', out);
	/* What to do next, where the state alone does not say it. */
	if (!strcmp(d->state, OTA_STATE_UNREACHABLE))
		fprintf(out, "  hint: the otattest kernel driver is not loaded: modprobe otattest\n"
			     "        (or see 'journalctl -k' for why it did not bind)\n");
	else if (!strcmp(d->state, OTA_STATE_ABSENT))
		fprintf(out, "  hint: the kernel no longer shows this device (unplugged or unbound)\n");
	if (!d->record_valid) {
		fprintf(out, "  no valid boot record\n");
		return;
	}
	otu_hex_encode(hex, d->device_id, d->device_id_len);
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
	/* What the running BL0 says its code is (GET_INFO); nothing while unknown. */
	if (*d->runtime_version)
		fprintf(out, "  %-16s %s\n", "runtime version", d->runtime_version);
	if (d->trial_boots)
		fprintf(out, "  %-16s boot %u of %u: commit, or the device reverts\n", "update trial",
			d->trial_boots, OTA_TRIAL_MAX_BOOTS);
	/* Only when there is something to act on: a tag that did not match its image. */
	if (d->tag_mismatches)
		fprintf(out, "  %-16s %s%llu seen by otattestd%s\n", "tag mismatches",
			color ? ANSI_RED : "", (unsigned long long)d->tag_mismatches,
			color ? ANSI_RESET : "");
	n_att = ctl_device_attention(d, att, CTL_ATTENTION_MAX);
	for (i = 0; i < n_att; i++)
		fprintf(out, "  %-16s %s%s%s\n", i ? "" : "attention", color ? ANSI_RED : "", att[i].text,
			color ? ANSI_RESET : "");
	/*
	 * 80 columns: the table holds what tells attempts apart (stage, slot,
	 * path, why not the tag path, SVN, status); the scheme, depth, check
	 * time, flags and key chain go on the lines below each row.
	 */
	fprintf(out, "\n  %-7s %-4s %-18s %-21s %3s  %s\n", "STAGE", "SLOT", "PATH", "WHY NOT TAG", "SVN",
		"STATUS");
	for (i = 0; i < d->n_stages; i++) {
		const struct ctl_stage *s = &d->stages[i];
		const char *why = ctl_stage_path_reason(d, i);
		bool ok = s->status == OTA_OK, mismatch = !strcmp(why, "tag-mismatch");

		/* "none" (the tag path, or refused before a path) and "" (an older daemon): nothing to say. */
		if (!*why || !strcmp(why, "none"))
			why = "-";
		fprintf(out, "  %-7s %-4s ", s->stage, s->slot);
		if (color)
			fprintf(out, "%s%-18s" ANSI_RESET, !strcmp(s->path, "tag") ? ANSI_GREEN : "", s->path);
		else
			fprintf(out, "%-18s", s->path);
		if (color && mismatch)
			fprintf(out, " " ANSI_RED "%-21s" ANSI_RESET, why);
		else
			fprintf(out, " %-21s", why);
		fprintf(out, " %3u  ", s->svn);
		if (color && !ok)
			fprintf(out, ANSI_RED "%s" ANSI_RESET "\n", ctl_status_label(s->status));
		else
			fprintf(out, "%s\n", ctl_status_label(s->status));
		fprintf(out, "    %s, depth %u, ", s->scheme, s->depth);
		print_ms(out, s->verify_time_ns);
		if (s->booted)
			fputs(", booted", out);
		if (s->fallback)
			fputs(", fallback", out);
		if (ctl_stage_debug(d, i))
			fputs(", debug", out);
		fputc('\n', out);
		/* The device's cycles for the check (the cycle model's with the emulated core). */
		if (s->verify_cycles)
			fprintf(out, "    device cycles %llu\n", (unsigned long long)s->verify_cycles);
		/* The key chain, root first, by name (docs/keynames.md). */
		if (s->n_keys) {
			fputs("    keys: ", out);
			ctl_print_key_chain(out, (const uint8_t(*)[OTA_KEY_ID_BYTES])s->key_ids, s->n_keys,
					    d->names);
			fputc('\n', out);
		}
	}
}

/*
 * What an operator must act on, one rule per row (otattestctl.8, EXIT
 * STATUS; docs/dbus-api.md, "Monitoring"): `status` exits
 * CTL_EXIT_ATTENTION when any device has one. A rule for a new finding
 * is one more row.
 */
size_t ctl_device_attention(const struct ctl_device *d, struct ctl_attention *out, size_t max)
{
	size_t n = 0, i;

	if (!d->record_valid)
		return 0; /* the state says it: not ready */
	if (d->boot_status != OTA_OK && n < max) {
		out[n].kind = "boot-failed";
		snprintf(out[n++].text, sizeof(out->text), "no runtime booted: %s",
			 ctl_status_label(d->boot_status));
	}
	for (i = 0; i < d->n_stages && n < max; i++) {
		const struct ctl_stage *s = &d->stages[i];

		if (!strcmp(ctl_stage_path_reason(d, i), "tag-mismatch")) {
			out[n].kind = "tag-mismatch";
			snprintf(out[n++].text, sizeof(out->text),
				 "%s slot %s: its boot tag did not match the image", s->stage, s->slot);
		} else if (s->fallback) {
			out[n].kind = "fallback";
			snprintf(out[n++].text, sizeof(out->text),
				 "%s slot %s: booted as fallback, the other was refused", s->stage,
				 s->slot);
		}
	}
	/* Until the next cold boot or trial: the record keeps the revert that long. */
	if (d->revert_reason[0] && strcmp(d->revert_reason, "none") != 0 && n < max) {
		out[n].kind = "reverted-trial";
		snprintf(out[n++].text, sizeof(out->text),
			 "the update trial of bl0 slot %s was reverted (%s): not committed",
			 d->reverted_slot, d->revert_reason);
	}
	return n;
}

static struct json_object *stage_json(const struct ctl_device *d, size_t i)
{
	const struct ctl_stage *s = &d->stages[i];
	struct json_object *o = json_object_new_object(), *keys = json_object_new_array();
	size_t k;

	otu_json_add_str(o, "stage", s->stage);
	otu_json_add_str(o, "slot", s->slot);
	otu_json_add_str(o, "path", s->path);
	otu_json_add_str(o, "scheme", s->scheme);
	otu_json_add_str(o, "status", ctl_status_label(s->status));
	otu_json_add_u64(o, "svn", s->svn);
	otu_json_add_u64(o, "delegation_depth", s->depth);
	otu_json_add_u64(o, "tag_key_version", s->tag_key_version);
	otu_json_add_hex(o, "measurement", s->measurement, sizeof(s->measurement));
	for (k = 0; k < s->n_keys; k++)
		json_object_array_add(keys, otu_json_hex(s->key_ids[k], OTA_KEY_ID_BYTES));
	json_object_object_add(o, "key_ids", keys);
	otu_json_add_u64(o, "verify_time_ns", s->verify_time_ns);
	otu_json_add_u64(o, "verify_cycles", s->verify_cycles);
	otu_json_add_bool(o, "booted", s->booted);
	otu_json_add_bool(o, "fallback", s->fallback);
	otu_json_add_str(o, "path_reason", ctl_stage_path_reason(d, i));
	otu_json_add_bool(o, "debug", ctl_stage_debug(d, i));
	return o;
}

void ctl_print_status_json(FILE *out, const struct ctl_device *devs, size_t n)
{
	struct json_object *doc = json_object_new_object(), *list = json_object_new_array();
	size_t i, s;

	json_object_object_add(doc, "devices", list);
	for (i = 0; i < n; i++) {
		const struct ctl_device *d = &devs[i];
		struct json_object *o = json_object_new_object(), *stages;

		json_object_array_add(list, o);
		otu_json_add_str(o, "name", d->name);
		otu_json_add_str(o, "state", d->state);
		otu_json_add_str(o, "state_detail", d->state_detail ? ctl_status_label(d->state_detail) : "OK");
		otu_json_add_u64(o, "state_detail_code", d->state_detail);
		otu_json_add_str(o, "state_message", d->state_message);
		otu_json_add_bool(o, "record_valid", d->record_valid);
		if (!d->record_valid)
			continue;
		otu_json_add_hex(o, "device_id", d->device_id, d->device_id_len);
		otu_json_add_str(o, "lifecycle", d->lifecycle);
		otu_json_add_str(o, "reset_reason", d->reset_reason);
		otu_json_add_u64(o, "epoch", d->epoch);
		otu_json_add_u64(o, "min_svn", d->min_svn);
		otu_json_add_u64(o, "chain_max_svn", d->chain_max_svn);
		otu_json_add_u64(o, "floor_rom_ext", d->floor_rom_ext);
		otu_json_add_u64(o, "floor_bl0", d->floor_bl0);
		otu_json_add_bool(o, "tag_boot_enabled", d->tag_boot_enabled);
		otu_json_add_u64(o, "tag_key_version", d->tag_key_version);
		otu_json_add_u64(o, "generation", d->generation);
		otu_json_add_str(o, "boot_status", ctl_status_label(d->boot_status));
		otu_json_add_u64(o, "boot_data_counter", d->boot_data_counter);
		otu_json_add_u64(o, "boot_time_ns", d->boot_time_ns);
		otu_json_add_hex(o, "rom_identity", d->rom_identity, d->rom_identity_len);
		otu_json_add_str(o, "runtime_version", d->runtime_version);
		stages = json_object_new_array();
		for (s = 0; s < d->n_stages; s++)
			json_object_array_add(stages, stage_json(d, s));
		/* Each stage's key chain with names, beside its key_ids. */
		for (s = 0; s < d->n_stages; s++)
			json_object_object_add(json_object_array_get_idx(stages, s), "key_chain",
					       ctl_key_chain_json((const uint8_t(*)[OTA_KEY_ID_BYTES])d->stages[s].key_ids,
								  d->stages[s].n_keys, d->names));
		json_object_object_add(o, "stages", stages);
		otu_json_add_u64(o, "tag_mismatches", d->tag_mismatches);
		otu_json_add_u64(o, "trial_boots", d->trial_boots);
		otu_json_add_str(o, "revert_reason", d->revert_reason);
		otu_json_add_str(o, "reverted_slot", d->reverted_slot);
		otu_json_add_u64(o, "trial_reverts", d->trial_reverts);
		{
			struct ctl_attention att[CTL_ATTENTION_MAX];
			struct json_object *arr = json_object_new_array();
			size_t k, n_att = ctl_device_attention(d, att, CTL_ATTENTION_MAX);

			for (k = 0; k < n_att; k++)
				json_object_array_add(arr, otu_json_string(att[k].text));
			json_object_object_add(o, "attention", arr);
		}
	}
	otu_json_emit(out, doc);
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

ota_status_t ctl_load_record(struct ota_record *r, const uint8_t *buf, size_t len)
{
	return load_record(r, buf, len);
}

static const char *slot_name(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "unknown";
}

/* The effective usage's capability flags by name, as otimage names them. */
static const char *usage_flags_name(uint32_t flags)
{
	static char buf[OTU_USAGE_FLAGS_STR_MAX];

	return otu_usage_flags_str(flags, buf);
}

ota_status_t ctl_print_record(FILE *out, const uint8_t *buf, size_t len,
			      const struct otu_keynames *names)
{
	char hex[2 * OTA_SHA256_BYTES + 1];
	const char *name;
	struct ota_record r;
	ota_status_t s = load_record(&r, buf, len);
	uint32_t i, k;

	if (s != OTA_OK)
		return s;
	otu_hex_encode(hex, r.hdr.device_id, sizeof(r.hdr.device_id));
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
	otu_hex_encode(hex, r.hdr.rom_identity, sizeof(r.hdr.rom_identity));
	fprintf(out, "  ROM identity       %s\n", hex);
	for (i = 0; i < r.hdr.stage_count; i++) {
		const struct ota_stage_record *st = &r.stage[i];

		fprintf(out, "stage %u: %s slot %s%s%s\n", i, ota_stage_name(st->stage), slot_name(st->slot),
			st->flags & OTA_STAGE_F_BOOTED ? " (booted)" : "",
			st->flags & OTA_STAGE_F_FALLBACK ? " (fallback)" : "");
		fprintf(out, "  status             %s\n", ctl_status_label(st->status));
		fprintf(out, "  path               %s\n", ota_path_name(st->path));
		fprintf(out, "  why not tag        %s\n", ota_path_reason_name(st->path_reason));
		fprintf(out, "  usage flags        %s\n", usage_flags_name(st->effective.usage.flags));
		fprintf(out, "  scheme             %s\n", ota_scheme_name(st->sig_scheme));
		fprintf(out, "  SVN                %u (leaf allows %u..%u)\n", st->security_version,
			st->effective.svn_min, st->effective.svn_max);
		fprintf(out, "  delegation depth   %u\n", st->delegation_depth);
		fprintf(out, "  tag key version    %u\n", st->tag_key_version);
		otu_hex_encode(hex, st->measurement, sizeof(st->measurement));
		fprintf(out, "  measurement        %s\n", hex);
		for (k = 0; k <= st->delegation_depth && k < OTA_MAX_CHAIN_KEYS; k++) {
			otu_hex_encode(hex, st->key_ids[k], OTA_KEY_ID_BYTES);
			name = otu_keynames_lookup(names, st->key_ids[k]);
			fprintf(out, "  %-18s %s%s%s%s\n", k == 0 ? "root key id" : "delegate key id", hex,
				name ? " (" : "", name ? name : "", name ? ")" : "");
		}
		fprintf(out, "  verify time        ");
		print_ms(out, st->verify_time_ns);
		fprintf(out, " (%llu cycles)\n", (unsigned long long)st->verify_cycles);
	}
	return OTA_OK;
}

ota_status_t ctl_print_record_json(FILE *out, const uint8_t *buf, size_t len,
				   const struct otu_keynames *names)
{
	struct json_object *doc, *stages;
	struct ota_record r;
	ota_status_t s = load_record(&r, buf, len);
	uint32_t i, k;

	if (s != OTA_OK)
		return s;
	doc = json_object_new_object();
	otu_json_add_u64(doc, "version", r.hdr.version);
	otu_json_add_u64(doc, "length", r.hdr.length);
	otu_json_add_u64(doc, "generation", r.hdr.generation);
	otu_json_add_str(doc, "reset_reason", ota_reset_reason_name(r.hdr.reset_reason));
	otu_json_add_str(doc, "lifecycle", ota_lifecycle_name(r.hdr.lifecycle));
	otu_json_add_hex(doc, "device_id", r.hdr.device_id, sizeof(r.hdr.device_id));
	otu_json_add_u64(doc, "epoch", r.hdr.epoch);
	otu_json_add_u64(doc, "min_svn", r.hdr.min_svn);
	otu_json_add_u64(doc, "chain_max_svn", r.hdr.chain_max_svn);
	otu_json_add_u64(doc, "floor_rom_ext", r.hdr.floor_rom_ext);
	otu_json_add_u64(doc, "floor_bl0", r.hdr.floor_bl0);
	otu_json_add_bool(doc, "tag_boot_enabled", r.hdr.flags & OTA_RECORD_F_TAG_BOOT_ENABLED);
	otu_json_add_u64(doc, "tag_key_version", r.hdr.tag_key_version);
	otu_json_add_str(doc, "boot_status", ctl_status_label(r.hdr.boot_status));
	otu_json_add_u64(doc, "boot_data_counter", r.hdr.boot_data_counter);
	otu_json_add_hex(doc, "rom_identity", r.hdr.rom_identity, sizeof(r.hdr.rom_identity));
	otu_json_add_u64(doc, "boot_time_ns", r.hdr.boot_time_ns);
	stages = json_object_new_array();
	json_object_object_add(doc, "stages", stages);
	for (i = 0; i < r.hdr.stage_count; i++) {
		const struct ota_stage_record *st = &r.stage[i];
		struct json_object *o = json_object_new_object(), *keys = json_object_new_array();
		struct json_object *eff = json_object_new_object();

		json_object_array_add(stages, o);
		otu_json_add_str(o, "stage", ota_stage_name(st->stage));
		otu_json_add_str(o, "slot", slot_name(st->slot));
		otu_json_add_str(o, "status", ctl_status_label(st->status));
		otu_json_add_str(o, "path", ota_path_name(st->path));
		otu_json_add_str(o, "scheme", ota_scheme_name(st->sig_scheme));
		otu_json_add_u64(o, "delegation_depth", st->delegation_depth);
		otu_json_add_u64(o, "svn", st->security_version);
		otu_json_add_u64(o, "tag_key_version", st->tag_key_version);
		otu_json_add_hex(o, "measurement", st->measurement, sizeof(st->measurement));
		for (k = 0; k <= st->delegation_depth && k < OTA_MAX_CHAIN_KEYS; k++)
			json_object_array_add(keys, otu_json_hex(st->key_ids[k], OTA_KEY_ID_BYTES));
		json_object_object_add(o, "key_ids", keys);
		json_object_object_add(o, "key_chain",
				       ctl_key_chain_json((const uint8_t(*)[OTA_KEY_ID_BYTES])st->key_ids,
							  k, names));
		otu_json_add_u64(eff, "svn_min", st->effective.svn_min);
		otu_json_add_u64(eff, "svn_max", st->effective.svn_max);
		otu_json_add_u64(eff, "slot_mask", st->effective.usage.slot_mask);
		otu_json_add_u64(eff, "lifecycle_mask", st->effective.usage.lifecycle_mask);
		otu_json_add_u64(eff, "flags", st->effective.usage.flags);
		otu_json_add_u64(eff, "device_binding", st->effective.usage.device_binding);
		otu_json_add_hex(eff, "device_id", st->effective.usage.device_id,
			sizeof(st->effective.usage.device_id));
		json_object_object_add(o, "effective", eff);
		otu_json_add_u64(o, "verify_time_ns", st->verify_time_ns);
		otu_json_add_u64(o, "verify_cycles", st->verify_cycles);
		otu_json_add_bool(o, "booted", st->flags & OTA_STAGE_F_BOOTED);
		otu_json_add_bool(o, "fallback", st->flags & OTA_STAGE_F_FALLBACK);
		otu_json_add_str(o, "path_reason", ota_path_reason_name(st->path_reason));
		otu_json_add_bool(o, "debug", st->effective.usage.flags & OTA_CAP_DEBUG);
	}
	otu_json_emit(out, doc);
	return OTA_OK;
}
