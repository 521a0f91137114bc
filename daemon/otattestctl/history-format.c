// SPDX-License-Identifier: MIT
/*
 * otattestctl history's output (pure: no bus). Each entry is a boot record
 * as GetHistory returns it, validated before anything is printed, the
 * same as `record` does with GetRecord's; a history with a record that
 * fails is refused whole.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <otu/hex.h>
#include <otu/json.h>
#include <otu/num.h>

#include "ctl.h"

/* "2026-12-02 06:40:01 UTC"; text output is in UTC so it reads the same everywhere. */
static void format_time(char *buf, size_t len, uint64_t usec, bool iso)
{
	time_t t = (time_t)(usec / 1000000u);
	struct tm tm;

	if (!gmtime_r(&t, &tm)) {
		snprintf(buf, len, "?");
		return;
	}
	if (iso) {
		char s[32];

		strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(buf, len, "%s.%06lluZ", s, (unsigned long long)(usec % 1000000u));
	} else {
		strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
	}
}

static const char *slot_name(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "unknown";
}

static size_t chain_len(const struct ota_stage_record *st)
{
	return st->delegation_depth + 1u <= OTA_MAX_CHAIN_KEYS ? st->delegation_depth + 1u
							       : OTA_MAX_CHAIN_KEYS;
}

/* The record's update section, NULL without one. */
static const struct ota_record_update *update_section(const struct ota_record *r)
{
	return (r->hdr.flags & OTA_RECORD_F_UPDATE_SECTION) ? ota_record_update_of(r) : NULL;
}

ota_status_t ctl_history_check(const struct ctl_history_entry *v, size_t n)
{
	struct ota_record r;
	ota_status_t s;
	size_t i;

	for (i = 0; i < n; i++) {
		s = ctl_load_record(&r, v[i].record, v[i].len);
		if (s != OTA_OK)
			return s;
	}
	return OTA_OK;
}

void ctl_print_history(FILE *out, const struct ctl_history_entry *v, size_t n,
		       const struct otu_keynames *names)
{
	const struct ota_record_update *u;
	char when[48];
	struct ota_record r;
	size_t i;
	uint32_t k;

	for (i = 0; i < n; i++) {
		if (ctl_load_record(&r, v[i].record, v[i].len) != OTA_OK)
			continue; /* ctl_history_check refused it first */
		format_time(when, sizeof(when), v[i].seen_usec, false);
		fprintf(out, "%s  generation %u  seen %s  reset %s  boot %s  tag key version %u\n",
			v[i].device, r.hdr.generation, when, ota_reset_reason_name(r.hdr.reset_reason),
			ctl_status_label(r.hdr.boot_status), r.hdr.tag_key_version);
		u = update_section(&r);
		if (u && u->trial_boots)
			fprintf(out, "  update trial: boot %u of %u of bl0 slot %s\n", u->trial_boots,
				OTA_TRIAL_MAX_BOOTS, slot_name(u->running_bl0_slot));
		if (u && u->revert_reason != OTA_REVERT_NONE)
			fprintf(out, "  update trial of bl0 slot %s reverted (%s): primary slot %s booted\n",
				slot_name(u->reverted_slot), ota_revert_reason_name(u->revert_reason),
				slot_name(u->primary_slot));
		for (k = 0; k < r.hdr.stage_count; k++) {
			const struct ota_stage_record *st = &r.stage[k];
			char path[64];

			if (st->path != OTA_PATH_TAG && st->path_reason != OTA_REASON_NONE)
				snprintf(path, sizeof(path), "%s (%s)", ota_path_name(st->path),
					 ota_path_reason_name(st->path_reason));
			else
				snprintf(path, sizeof(path), "%s", ota_path_name(st->path));
			fprintf(out, "  %-8s %-2s %-38s %-22s ", ota_stage_name(st->stage),
				slot_name(st->slot), path, ctl_status_label(st->status));
			ctl_print_key_chain(out, (const uint8_t(*)[OTA_KEY_ID_BYTES])st->key_ids,
					    chain_len(st), names);
			if (st->flags & OTA_STAGE_F_BOOTED)
				fputs(" (booted)", out);
			if (st->flags & OTA_STAGE_F_FALLBACK)
				fputs(" (fallback)", out);
			fputc('\n', out);
		}
	}
}

void ctl_print_history_json(FILE *out, const struct ctl_history_entry *v, size_t n,
			    const struct otu_keynames *names)
{
	struct json_object *doc = json_object_new_object(), *list = json_object_new_array();
	const struct ota_record_update *u;
	char when[48];
	struct ota_record r;
	size_t i;
	uint32_t k;

	json_object_object_add(doc, "entries", list);
	for (i = 0; i < n; i++) {
		struct json_object *o, *stages;

		if (ctl_load_record(&r, v[i].record, v[i].len) != OTA_OK)
			continue;
		o = json_object_new_object();
		json_object_array_add(list, o);
		otu_json_add_str(o, "device", v[i].device);
		otu_json_add_u64(o, "seen_usec", v[i].seen_usec);
		format_time(when, sizeof(when), v[i].seen_usec, true);
		otu_json_add_str(o, "seen", when);
		otu_json_add_hex(o, "device_id", r.hdr.device_id, sizeof(r.hdr.device_id));
		otu_json_add_u64(o, "generation", r.hdr.generation);
		otu_json_add_str(o, "reset_reason", ota_reset_reason_name(r.hdr.reset_reason));
		otu_json_add_str(o, "lifecycle", ota_lifecycle_name(r.hdr.lifecycle));
		otu_json_add_str(o, "boot_status", ctl_status_label(r.hdr.boot_status));
		otu_json_add_u64(o, "boot_status_code", r.hdr.boot_status);
		otu_json_add_u64(o, "tag_key_version", r.hdr.tag_key_version);
		otu_json_add_u64(o, "min_svn", r.hdr.min_svn);
		otu_json_add_u64(o, "boot_time_ns", r.hdr.boot_time_ns);
		u = update_section(&r);
		if (u) {
			otu_json_add_str(o, "update_state", ota_update_state_name(u->update_state));
			otu_json_add_u64(o, "trial_boots", u->trial_boots);
			otu_json_add_str(o, "revert_reason", ota_revert_reason_name(u->revert_reason));
			if (u->revert_reason != OTA_REVERT_NONE)
				otu_json_add_str(o, "reverted_slot", slot_name(u->reverted_slot));
		}
		stages = json_object_new_array();
		json_object_object_add(o, "stages", stages);
		for (k = 0; k < r.hdr.stage_count; k++) {
			const struct ota_stage_record *st = &r.stage[k];
			struct json_object *so = json_object_new_object();

			json_object_array_add(stages, so);
			otu_json_add_str(so, "stage", ota_stage_name(st->stage));
			otu_json_add_str(so, "slot", slot_name(st->slot));
			otu_json_add_str(so, "path", ota_path_name(st->path));
			otu_json_add_str(so, "path_reason", ota_path_reason_name(st->path_reason));
			otu_json_add_str(so, "status", ctl_status_label(st->status));
			otu_json_add_u64(so, "status_code", st->status);
			otu_json_add_u64(so, "svn", st->security_version);
			json_object_object_add(so, "key_chain",
					       ctl_key_chain_json((const uint8_t(*)[OTA_KEY_ID_BYTES])st->key_ids,
								  chain_len(st), names));
			otu_json_add_bool(so, "booted", st->flags & OTA_STAGE_F_BOOTED);
			otu_json_add_bool(so, "fallback", st->flags & OTA_STAGE_F_FALLBACK);
		}
	}
	otu_json_emit(out, doc);
}

/*
 * --since: "@SECONDS" (Unix time), "-N" with a unit s, m, h or d (that
 * long ago), or "YYYY-MM-DD[ HH:MM[:SS]]" in UTC (as the text output
 * shows times). Nothing else: no guessing at other formats.
 */
int ctl_parse_since(const char *s, uint64_t now_usec, uint64_t *out)
{
	static const struct { char unit; uint64_t sec; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	};
	uint64_t v, mult = 0;
	size_t len, i;
	char num[24];
	struct tm tm;
	const char *end;

	if (!s || !*s)
		return -EINVAL;
	len = strlen(s);
	if (s[0] == '@') {
		if (otu_parse_u64(s + 1, OTU_DEC, 0, UINT64_MAX / 1000000u, &v) < 0)
			return -EINVAL;
		*out = v * 1000000u;
		return 0;
	}
	if (s[0] == '-') {
		if (len < 3 || len - 2 >= sizeof(num))
			return -EINVAL;
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (s[len - 1] == units[i].unit)
				mult = units[i].sec;
		if (!mult)
			return -EINVAL;
		memcpy(num, s + 1, len - 2);
		num[len - 2] = '\0';
		if (otu_parse_u64(num, OTU_DEC, 0, now_usec / 1000000u / mult, &v) < 0)
			return -EINVAL;
		*out = now_usec - v * mult * 1000000u;
		return 0;
	}
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%d", &tm);
	if (end && *end == ' ')
		end = strptime(end + 1, len > 16 ? "%H:%M:%S" : "%H:%M", &tm);
	if (!end || *end || tm.tm_year < 70)
		return -EINVAL;
	*out = (uint64_t)timegm(&tm) * 1000000u;
	return 0;
}
