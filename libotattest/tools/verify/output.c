// SPDX-License-Identifier: MIT
/*
 * otattest-verify's output: the verdict as text for a person or as one
 * JSON object (json-c, through libotattest-util's helpers), to any stream.
 */
#include <string.h>

#include <otattest/refusal.h>
#include <otu/hex.h>
#include <otu/json.h>

#include "output.h"

/* Exit code of a status's class (status.h). */
int vo_class_exit(ota_status_t st)
{
	switch (ota_status_class(st)) {
#define X(name, num, err, dbus, exitc) \
	case OTA_CLASS_##name:         \
		return exitc;
		OTA_CLASS_LIST(X)
#undef X
	}
	return 24;
}

static const char *stage_or_null(uint32_t stage)
{
	return stage == OTA_VERDICT_NO_STAGE ? NULL : ota_stage_name(stage);
}

static const struct otu_keynames *key_names;

void vo_set_key_names(const struct otu_keynames *names)
{
	key_names = names;
}

static bool is_lower_hex(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
}

/*
 * A failure's detail as the library wrote it, each key id in it (a run
 * of exactly 64 hex digits) followed by " (name)" when the names file
 * has it: "root key 1a2b... (owner-2019) is not allowed".
 */
static void print_detail(FILE *out, const char *d)
{
	uint8_t id[OTA_KEY_ID_BYTES];
	char hex[2 * OTA_KEY_ID_BYTES + 1];
	const char *name;
	size_t run;

	while (*d) {
		for (run = 0; is_lower_hex(d[run]); run++)
			;
		if (run == 0) {
			fputc(*d++, out);
			continue;
		}
		fwrite(d, 1, run, out);
		if (run == 2 * OTA_KEY_ID_BYTES) {
			memcpy(hex, d, run);
			hex[run] = '\0';
			if (otu_hex_decode(hex, id, sizeof(id)) == (ssize_t)sizeof(id) &&
			    (name = otu_keynames_lookup(key_names, id)))
				fprintf(out, " (%s)", name);
		}
		d += run;
	}
}

const char *vo_status_name(ota_status_t st)
{
	return ota_status_name(st) ? ota_status_name(st) : "UNKNOWN";
}

static struct json_object *stage_json(const struct ota_evidence_stage *s)
{
	struct json_object *o = json_object_new_object(), *keys = json_object_new_array();
	char slot[2] = { (char)('A' + (int)s->slot), '\0' };
	uint32_t k;

	otu_json_add_str(o, "stage", ota_stage_name(s->stage));
	otu_json_add_str(o, "slot", slot);
	otu_json_add_str(o, "status", vo_status_name(s->status));
	otu_json_add_bool(o, "booted", s->flags & OTA_STAGE_F_BOOTED);
	otu_json_add_bool(o, "fallback", s->flags & OTA_STAGE_F_FALLBACK);
	otu_json_add_str(o, "path", ota_path_name(s->path));
	otu_json_add_str(o, "sig_scheme", ota_scheme_name(s->sig_scheme));
	otu_json_add_u64(o, "delegation_depth", s->depth);
	otu_json_add_u64(o, "svn", s->svn);
	otu_json_add_u64(o, "tag_key_version", s->tag_key_version);
	otu_json_add_u64(o, "verify_time_ns", s->verify_time_ns);
	otu_json_add_hex(o, "measurement", s->measurement, sizeof(s->measurement));
	for (k = 0; k < s->key_id_count; k++)
		json_object_array_add(keys, otu_json_hex(s->key_ids[k], OTA_KEY_ID_BYTES));
	json_object_object_add(o, "key_ids", keys);
	keys = json_object_new_array();
	for (k = 0; k < s->key_id_count; k++) {
		struct json_object *ko = json_object_new_object();
		const char *name = otu_keynames_lookup(key_names, s->key_ids[k]);

		otu_json_add_hex(ko, "key_id", s->key_ids[k], OTA_KEY_ID_BYTES);
		json_object_object_add(ko, "name", name ? json_object_new_string(name) : NULL);
		json_object_array_add(keys, ko);
	}
	json_object_object_add(o, "key_chain", keys);
	return o;
}

/* The update state (claims 12..18; ROM_EXT certifies all but pending). */
static struct json_object *update_json(const struct ota_update_claims *u)
{
	struct json_object *o = json_object_new_object();

	otu_json_add_str(o, "state", u->state == OTA_UPDATE_CLAIM_TRIAL ? "trial" : "committed");
	otu_json_add_str(o, "primary_slot", u->primary_slot ? "B" : "A");
	otu_json_add_str(o, "booted_slot", u->booted_slot ? "B" : "A");
	otu_json_add_u64(o, "trial_boots", u->trial_boots);
	otu_json_add_str(o, "revert_reason", ota_revert_reason_name(u->revert_reason));
	if (u->revert_reason)
		otu_json_add_str(o, "reverted_slot", u->reverted_slot ? "B" : "A");
	otu_json_add_u64(o, "revocation_sequence", u->revocation_seq);
	otu_json_add_u64(o, "revocation_sequence_device", u->revocation_seq_device);
	otu_json_add_u64(o, "refused_attempts", u->refused_count);
	if (u->pending_stage) {
		otu_json_add_str(o, "pending_stage", ota_stage_name(u->pending_stage));
		otu_json_add_str(o, "pending_slot", u->pending_slot ? "B" : "A");
	}
	return o;
}

static struct json_object *claims_json(const struct ota_evidence_claims *c)
{
	struct json_object *o = json_object_new_object(), *stages = json_object_new_array();
	uint32_t i;

	otu_json_add_hex(o, "nonce", c->nonce, c->nonce_len);
	otu_json_add_hex(o, "device_id", c->device_id, sizeof(c->device_id));
	otu_json_add_hex(o, "record_digest", c->record_digest, sizeof(c->record_digest));
	otu_json_add_hex(o, "rom_identity", c->rom_identity, sizeof(c->rom_identity));
	otu_json_add_str(o, "lifecycle", ota_lifecycle_name(c->lifecycle));
	otu_json_add_str(o, "dbgstat", ota_dbgstat_name(c->dbgstat));
	otu_json_add_bool(o, "oemboot", c->oemboot);
	otu_json_add_str(o, "reset_reason", ota_reset_reason_name(c->reset_reason));
	otu_json_add_u64(o, "epoch", c->epoch);
	otu_json_add_u64(o, "min_svn", c->min_svn);
	otu_json_add_u64(o, "chain_max_svn", c->chain_max_svn);
	otu_json_add_u64(o, "tag_key_version", c->tag_key_version);
	otu_json_add_bool(o, "tag_boot_enabled", c->record_flags & OTA_RECORD_F_TAG_BOOT_ENABLED);
	otu_json_add_u64(o, "floor_rom_ext", c->floor_rom_ext);
	otu_json_add_u64(o, "floor_bl0", c->floor_bl0);
	otu_json_add_u64(o, "generation", c->generation);
	json_object_object_add(o, "update", update_json(&c->update));
	for (i = 0; i < c->stage_count; i++)
		json_object_array_add(stages, stage_json(&c->stage[i]));
	json_object_object_add(o, "stages", stages);
	return o;
}

/*
 * What a failure tells a relying party, from the refusal table
 * (refusal.h): the AR4SI claim, its value and tier, as the EAR gives them.
 */
static struct json_object *ear_json(ota_status_t st)
{
	struct json_object *o;
	uint32_t claim;
	int value;

	if (!ota_refusal_ar4si(st, &claim, &value))
		return NULL;
	o = json_object_new_object();
	otu_json_add_str(o, "claim", ota_ar4si_claim_name(claim));
	otu_json_add_i64(o, "value", value);
	otu_json_add_str(o, "tier", ota_ear_tier_name(ota_ar4si_tier(value)));
	return o;
}

void vo_print_json(FILE *out, const char *file, const struct ota_verdict *v, ota_status_t st)
{
	struct json_object *doc = json_object_new_object(), *failures = json_object_new_array();
	uint32_t i;

	if (file)
		otu_json_add_str(doc, "file", file);
	otu_json_add_str(doc, "verdict", st == OTA_OK ? "pass" : "fail");
	otu_json_add_bool(doc, "authentic", v->authentic);
	otu_json_add_str(doc, "status", vo_status_name(st));
	for (i = 0; i < v->failure_count; i++) {
		const struct ota_verdict_failure *f = &v->failures[i];
		struct json_object *o = json_object_new_object();

		otu_json_add_str(o, "check", vo_status_name(f->status));
		otu_json_add_u64(o, "code", f->status);
		otu_json_add_str(o, "stage", stage_or_null(f->stage));
		otu_json_add_str(o, "message",
				 ota_status_message(f->status) ? ota_status_message(f->status) : "");
		otu_json_add_str(o, "detail", f->detail);
		json_object_object_add(o, "ear", ear_json(f->status));
		json_object_array_add(failures, o);
	}
	json_object_object_add(doc, "failures", failures);
	otu_json_add_bool(doc, "failures_truncated", v->failures_truncated);
	if (v->claims_valid)
		json_object_object_add(doc, "claims", claims_json(&v->claims));
	otu_json_emit(out, doc);
}

void vo_print_human(FILE *out, const struct ota_verdict *v, ota_status_t st)
{
	const struct ota_evidence_claims *c = &v->claims;
	uint32_t i, k;

	fprintf(out, "verdict: %s (evidence authentic: %s)\n", st == OTA_OK ? "PASS" : "FAIL",
	       v->authentic ? "yes" : "no");
	for (i = 0; i < v->failure_count; i++) {
		const struct ota_verdict_failure *f = &v->failures[i];
		const char *name = ota_status_name(f->status);

		fprintf(out, "  FAILED %s: ", name ? name : "UNKNOWN");
		print_detail(out, f->detail);
		fputc('\n', out);
	}
	if (v->failures_truncated)
		fprintf(out, "  (more failures not shown)\n");
	if (!v->claims_valid)
		return;
	fprintf(out, "device ");
	otu_hex_fprint(out, c->device_id, sizeof(c->device_id));
	fprintf(out, ": lifecycle %s, epoch %u, min SVN %u, tag key version %u, %s reset\n",
	       ota_lifecycle_name(c->lifecycle), c->epoch, c->min_svn, c->tag_key_version,
	       ota_reset_reason_name(c->reset_reason));
	fprintf(out, "  debug %s, OEM boot %s\n", ota_dbgstat_name(c->dbgstat),
		c->oemboot ? "yes" : "no");
	fprintf(out, "  update: bl0 slot %c %s (primary %c", 'A' + (int)c->update.booted_slot,
		c->update.state == OTA_UPDATE_CLAIM_TRIAL ? "on trial" : "committed",
		'A' + (int)c->update.primary_slot);
	if (c->update.state == OTA_UPDATE_CLAIM_TRIAL)
		fprintf(out, ", boot %u of %u", c->update.trial_boots, OTA_TRIAL_MAX_BOOTS);
	fprintf(out, "), revocation sequence %u (device %u)", c->update.revocation_seq,
		c->update.revocation_seq_device);
	if (c->update.revert_reason)
		fprintf(out, ", trial of slot %c reverted (%s)", 'A' + (int)c->update.reverted_slot,
			ota_revert_reason_name(c->update.revert_reason));
	if (c->update.pending_stage)
		fprintf(out, ", %s slot %c pending", ota_stage_name(c->update.pending_stage),
			'A' + (int)c->update.pending_slot);
	fputc('\n', out);
	for (i = 0; i < c->stage_count; i++) {
		const struct ota_evidence_stage *s = &c->stage[i];
		const char *sn = ota_status_name(s->status);

		fprintf(out, "  %-7s slot %c: %s, SVN %u, path %s, %s, depth %u, %s\n",
		       ota_stage_name(s->stage), 'A' + (int)s->slot,
		       (s->flags & OTA_STAGE_F_BOOTED) ? "booted" : "not booted", s->svn,
		       ota_path_name(s->path), ota_scheme_name(s->sig_scheme), s->depth,
		       sn ? sn : "UNKNOWN");
		fprintf(out, "          measurement ");
		otu_hex_fprint(out, s->measurement, sizeof(s->measurement));
		fprintf(out, "\n          root key    ");
		otu_hex_fprint(out, s->key_ids[0], OTA_KEY_ID_BYTES);
		if (otu_keynames_lookup(key_names, s->key_ids[0]))
			fprintf(out, " (%s)", otu_keynames_lookup(key_names, s->key_ids[0]));
		fprintf(out, "\n          key chain   ");
		for (k = 0; k < s->key_id_count; k++) {
			char buf[OTU_KEYID_SHORT_HEX + 1];

			fprintf(out, "%s%s", k ? " > " : "",
				otu_keynames_display(key_names, s->key_ids[k], buf, sizeof(buf)));
		}
		fprintf(out, "\n");
	}
}

void vo_print_json_error(FILE *out, const char *file, ota_status_t st, const char *detail)
{
	struct json_object *doc = json_object_new_object();

	if (file)
		otu_json_add_str(doc, "file", file);
	otu_json_add_str(doc, "verdict", "error");
	otu_json_add_str(doc, "status", vo_status_name(st));
	otu_json_add_u64(doc, "code", st);
	otu_json_add_str(doc, "detail", detail);
	otu_json_emit(out, doc);
}
