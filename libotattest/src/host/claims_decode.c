// SPDX-License-Identifier: MIT
/*
 * Claims set decoding, profile v2 (evidence.h, docs/evidence.md). The
 * profile defines exactly which claims appear, so the decoder is
 * closed-world: every claim must be present once, an unknown claim is
 * refused, every value is range checked like ota_record_validate() checks
 * the record it came from, and the registered claims that summarise the
 * private ones (oemboot, dbgstat, measres, measurements) must agree with
 * them. A claims set that passes here can be shown and judged without
 * further checks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "claims_parts.h"

/*
 * Depth 6: a measres result inside its group inside the claim's array
 * inside the map. Strings: a wrapped measured component with three key
 * ids is about 160 bytes. The map has OTA_CLAIM_COUNT pairs.
 */
static const struct ota_cbor_limits claims_limits = {
	.max_depth = 6, .max_string = 256, .max_count = 32,
};

#define BAD OTA_VERIFY_CLAIMS_INVALID

/* What the claims say before they are put together. */
struct claims_parts {
	uint32_t component_count; /* measurements after the ROM's */
	struct ota_claims_component component[OTA_RECORD_MAX_STAGES];
	uint32_t measres_count;
	struct ota_claims_measres measres[OTA_RECORD_MAX_STAGES];
};

static ota_status_t get_u32(struct ota_cbor_dec *d, uint32_t max, uint32_t *out)
{
	uint64_t v;

	if (ota_cbor_get_uint(d, &v) != OTA_OK || v > max)
		return BAD;
	*out = (uint32_t)v;
	return OTA_OK;
}

static ota_status_t get_fixed(struct ota_cbor_dec *d, uint8_t *out, size_t want)
{
	const uint8_t *p;
	size_t n;

	if (ota_cbor_get_bytes(d, &p, &n) != OTA_OK || n != want)
		return BAD;
	memcpy(out, p, n);
	return OTA_OK;
}

static ota_status_t get_bool(struct ota_cbor_dec *d, bool *out)
{
	uint32_t major;

	/* false is f4, true f5: simple values 20 and 21 (major 7). */
	if (ota_cbor_peek(d, &major) != OTA_OK || major != OTA_CBOR_SIMPLE ||
	    (d->buf[d->pos] != 0xf4 && d->buf[d->pos] != 0xf5))
		return BAD;
	*out = d->buf[d->pos] == 0xf5;
	d->pos++;
	return OTA_OK;
}

/* The reason, for the verdict; returns BAD. */
static ota_status_t why_fmt(char *why, size_t why_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static ota_status_t why_fmt(char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	if (why && why_len) {
		va_start(ap, fmt);
		vsnprintf(why, why_len, fmt, ap);
		va_end(ap);
	}
	return BAD;
}

static void take_component(struct ota_evidence_stage *s, const struct ota_claims_component *c)
{
	s->svn = c->svn;
	memcpy(s->measurement, c->measurement, sizeof(s->measurement));
	s->key_id_count = c->key_id_count;
	s->depth = c->key_id_count - 1u;
	memcpy(s->key_ids, c->key_ids, sizeof(s->key_ids));
}

static ota_status_t decode_attempt(struct ota_cbor_dec *d, struct ota_evidence_stage *s,
				   uint32_t index, char *why, size_t why_len)
{
	struct ota_claims_component c;
	uint64_t pairs, i, key;
	uint32_t seen = 0;
	bool has_component = false;
	ota_status_t st = OTA_OK;

	if (ota_cbor_get_map(d, &pairs) != OTA_OK ||
	    (pairs != OTA_ACLAIM_COUNT && pairs != OTA_ACLAIM_COUNT + 1u))
		return why_fmt(why, why_len, "attempt %u is not a map of %u or %u claims", index,
			       OTA_ACLAIM_COUNT, OTA_ACLAIM_COUNT + 1u);
	for (i = 0; i < pairs && st == OTA_OK; i++) {
		if (ota_cbor_get_uint(d, &key) != OTA_OK || key < 1 || key > OTA_ACLAIM_USAGE_FLAGS)
			return why_fmt(why, why_len, "attempt %u has an unknown claim (#%llu)", index,
				       (unsigned long long)i);
		if (seen & (1u << key))
			return BAD; /* the checker already refuses this; belt and braces */
		seen |= 1u << key;
		switch (key) {
		case OTA_ACLAIM_STAGE:
			st = get_u32(d, OTA_STAGE_BL0, &s->stage);
			if (st == OTA_OK && s->stage < OTA_STAGE_ROM_EXT)
				st = BAD;
			break;
		case OTA_ACLAIM_SLOT: st = get_u32(d, OTA_SLOT_COUNT - 1u, &s->slot); break;
		case OTA_ACLAIM_STATUS: st = get_u32(d, UINT32_MAX, &s->status); break;
		case OTA_ACLAIM_SIG_SCHEME: st = get_u32(d, OTA_SCHEME_HYBRID, &s->sig_scheme); break;
		case OTA_ACLAIM_TAG_KEY_VERSION: st = get_u32(d, UINT32_MAX, &s->tag_key_version); break;
		case OTA_ACLAIM_FLAGS: st = get_u32(d, OTA_STAGE_F_ALL, &s->flags); break;
		case OTA_ACLAIM_VERIFY_TIME_NS:
			st = ota_cbor_get_uint(d, &s->verify_time_ns) == OTA_OK ? OTA_OK : BAD;
			break;
		case OTA_ACLAIM_COMPONENT:
			st = ota_claims_get_component(d, false, &c);
			has_component = true;
			break;
		case OTA_ACLAIM_PATH_REASON: st = get_u32(d, OTA_REASON_MAX, &s->path_reason); break;
		case OTA_ACLAIM_USAGE_FLAGS: st = get_u32(d, OTA_CAP_ALL, &s->usage_flags); break;
		}
		if (st != OTA_OK)
			return why_fmt(why, why_len, "attempt %u claim %llu is out of range", index,
				       (unsigned long long)key);
	}
	if (seen != ((((1u << (OTA_ACLAIM_SCALARS + 1u)) - 2u) | 1u << OTA_ACLAIM_PATH_REASON |
		      1u << OTA_ACLAIM_USAGE_FLAGS) |
		     (has_component ? 1u << OTA_ACLAIM_COMPONENT : 0u)))
		return why_fmt(why, why_len, "attempt %u lacks a claim", index);
	/* A booted image is described by measurements, a refused one here: never both. */
	if (has_component == ((s->flags & OTA_STAGE_F_BOOTED) != 0))
		return why_fmt(why, why_len, "attempt %u %s a component but %s", index,
			       has_component ? "has" : "lacks",
			       has_component ? "booted" : "did not boot");
	if (has_component) {
		if (c.stage != s->stage)
			return why_fmt(why, why_len, "attempt %u's component names another stage",
				       index);
		take_component(s, &c);
	}
	return OTA_OK;
}

static ota_status_t decode_measurements(struct ota_cbor_dec *d, struct ota_evidence_claims *c,
					struct claims_parts *parts)
{
	struct ota_claims_component rom;
	uint64_t n, k, cf;

	if (ota_cbor_get_array(d, &n) != OTA_OK || n < 1 || n > 1u + OTA_RECORD_MAX_STAGES)
		return BAD;
	for (k = 0; k < n; k++) {
		struct ota_claims_component *out = k ? &parts->component[k - 1u] : &rom;
		uint64_t two;

		if (ota_cbor_get_array(d, &two) != OTA_OK || two != 2 ||
		    ota_cbor_get_uint(d, &cf) != OTA_OK || cf != OTA_CF_MEASURED_COMPONENT ||
		    ota_claims_get_component(d, k == 0, out) != OTA_OK)
			return BAD;
	}
	memcpy(c->rom_identity, rom.measurement, sizeof(c->rom_identity));
	parts->component_count = (uint32_t)(n - 1u);
	return OTA_OK;
}

static ota_status_t decode_measres(struct ota_cbor_dec *d, struct claims_parts *parts)
{
	uint64_t n, k;

	if (ota_cbor_get_array(d, &n) != OTA_OK || n > OTA_RECORD_MAX_STAGES)
		return BAD;
	for (k = 0; k < n; k++)
		if (ota_claims_get_measres(d, &parts->measres[k]) != OTA_OK)
			return BAD;
	parts->measres_count = (uint32_t)n;
	return OTA_OK;
}

/*
 * The update claims against the attempts: the booted slot is the booted
 * BL0 attempt's, committed means it is the primary; the refused attempts
 * are counted here (ROM_EXT certifies their count and slots).
 */
static ota_status_t assemble_update(struct ota_evidence_claims *c, char *why, size_t why_len)
{
	struct ota_update_claims *u = &c->update;
	uint32_t i;

	u->reset_reason = c->reset_reason;
	u->refused_count = 0;
	u->refused_slots = 0;
	for (i = 0; i < c->stage_count; i++) {
		const struct ota_evidence_stage *s = &c->stage[i];

		if (s->flags & OTA_STAGE_F_BOOTED) {
			if (s->stage == OTA_STAGE_BL0 && s->slot != u->booted_slot)
				return why_fmt(why, why_len,
					       "booted-slot %u is not the slot of the BL0 attempt that booted (%u)",
					       u->booted_slot, s->slot);
			continue;
		}
		u->refused_count++;
		u->refused_slots |= 1u << ((s->stage - 1u) * OTA_SLOT_COUNT + s->slot);
	}
	if (u->state != (u->booted_slot == u->primary_slot ? OTA_UPDATE_CLAIM_COMMITTED
							   : OTA_UPDATE_CLAIM_TRIAL))
		return why_fmt(why, why_len, "update-state %s disagrees with the booted and primary slots",
			       u->state == OTA_UPDATE_CLAIM_TRIAL ? "trial" : "committed");
	return OTA_OK;
}

/* [a, b] with a <= max_a and b <= max_b. */
static ota_status_t get_pair(struct ota_cbor_dec *d, uint32_t max_a, uint32_t *a, uint32_t max_b,
			     uint32_t *b)
{
	uint64_t n;

	if (ota_cbor_get_array(d, &n) != OTA_OK || n != 2 || get_u32(d, max_a, a) != OTA_OK ||
	    get_u32(d, max_b, b) != OTA_OK)
		return BAD;
	return OTA_OK;
}

/*
 * Put the attempts together with measres (path, result) and measurements
 * (each booted attempt's component, in order), and hold the summaries to
 * what they summarise.
 */
static ota_status_t assemble(struct ota_evidence_claims *c, const struct claims_parts *parts,
			     char *why, size_t why_len)
{
	bool rom_ext = false, bl0 = false;
	enum ota_attempt_rule rule;
	uint32_t i, booted = 0;

	if (parts->measres_count != c->stage_count)
		return why_fmt(why, why_len, "measres has %u groups for %u attempts",
			       parts->measres_count, c->stage_count);
	for (i = 0; i < c->stage_count; i++) {
		struct ota_evidence_stage *s = &c->stage[i];
		const struct ota_claims_measres *m = &parts->measres[i];

		s->path = m->path;
		if (m->stage != s->stage || m->result != ota_measres_result(s->status, s->path))
			return why_fmt(why, why_len, "measres group %u does not match attempt %u",
				       i, i);
		/* Path, status, reason, usage and tag-boot flag: one table (evidence.h). */
		rule = ota_attempt_check(s->status, s->path, s->path_reason, s->usage_flags,
					 c->record_flags);
		if (rule != OTA_ATTEMPT_CONSISTENT)
			return why_fmt(why, why_len, "attempt %u: %s", i, ota_attempt_rule_text(rule));
		if (!(s->flags & OTA_STAGE_F_BOOTED))
			continue;
		if (booted >= parts->component_count ||
		    parts->component[booted].stage != s->stage)
			return why_fmt(why, why_len,
				       "measurements do not list attempt %u, which booted", i);
		take_component(s, &parts->component[booted++]);
		if (s->status == OTA_OK) {
			rom_ext |= s->stage == OTA_STAGE_ROM_EXT;
			bl0 |= s->stage == OTA_STAGE_BL0;
		}
	}
	if (booted != parts->component_count)
		return why_fmt(why, why_len, "measurements list %u stages, %u attempts booted",
			       parts->component_count, booted);
	if (c->oemboot != (rom_ext && bl0))
		return why_fmt(why, why_len, "oemboot is %s, the attempts say otherwise",
			       c->oemboot ? "true" : "false");
	if (c->dbgstat != ota_dbgstat(c->lifecycle))
		return why_fmt(why, why_len, "dbgstat %u is not the one lifecycle %s has",
			       c->dbgstat, ota_lifecycle_name(c->lifecycle));
	return assemble_update(c, why, why_len);
}

/* Position of a claim in OTA_CLAIM_COUNT's bit set, -1 when unknown. */
static int claim_index(int64_t key)
{
	static const int64_t registered[OTA_CLAIM_REGISTERED_COUNT] = {
		OTA_CLAIM_NONCE, OTA_CLAIM_UEID, OTA_CLAIM_OEMID, OTA_CLAIM_OEMBOOT,
		OTA_CLAIM_DBGSTAT, OTA_CLAIM_EAT_PROFILE, OTA_CLAIM_MEASUREMENTS, OTA_CLAIM_MEASRES,
	};
	int i;

	for (i = 0; i < (int)OTA_CLAIM_REGISTERED_COUNT; i++)
		if (key == registered[i])
			return i;
	if (key <= OTA_CLAIM_PRIVATE(1) && key >= OTA_CLAIM_PRIVATE(OTA_CLAIM_PRIVATE_COUNT))
		return (int)OTA_CLAIM_REGISTERED_COUNT + (int)(OTA_CLAIM_PRIVATE(1) - key);
	return -1;
}

/* The eat_profile claim's text, wherever it is; NULL when there is none. */
static const char *find_profile(const uint8_t *buf, size_t len, size_t *plen)
{
	struct ota_cbor_dec d;
	uint64_t pairs, i;
	const char *txt;
	int64_t key;

	ota_cbor_dec_init(&d, buf, len);
	if (ota_cbor_get_map(&d, &pairs) != OTA_OK)
		return NULL;
	for (i = 0; i < pairs; i++) {
		if (ota_cbor_get_int(&d, &key) != OTA_OK)
			return NULL;
		if (key == OTA_CLAIM_EAT_PROFILE)
			return ota_cbor_get_text(&d, &txt, plen) == OTA_OK ? txt : NULL;
		if (ota_cbor_skip(&d) != OTA_OK)
			return NULL;
	}
	return NULL;
}

static ota_status_t check_profile(const uint8_t *buf, size_t len, char *why, size_t why_len)
{
	size_t n = 0;
	const char *p = find_profile(buf, len, &n);

	if (p && n == sizeof(OTA_EAT_PROFILE) - 1u && !memcmp(p, OTA_EAT_PROFILE, n))
		return OTA_OK;
	if (p && n == sizeof(OTA_EAT_PROFILE_V1) - 1u && !memcmp(p, OTA_EAT_PROFILE_V1, n))
		return why_fmt(why, why_len, "profile evidence-v1 is retired; this verifier reads "
			       "%s (docs/evidence.md)", OTA_EAT_PROFILE);
	return why_fmt(why, why_len, "eat_profile is missing or not %s", OTA_EAT_PROFILE);
}

ota_status_t ota_evidence_decode_claims(const uint8_t *buf, size_t len,
					struct ota_evidence_claims *c, char *why, size_t why_len)
{
	static const uint8_t oemid[OTA_OEMID_BYTES] = OTA_OEMID_INIT;
	uint8_t ueid[OTA_UEID_BYTES], got_oemid[OTA_OEMID_BYTES];
	struct claims_parts parts;
	struct ota_cbor_dec d;
	uint64_t pairs, n, i;
	uint32_t seen = 0;
	const uint8_t *p;
	size_t plen;
	int64_t key;
	int idx;
	ota_status_t st;

	memset(c, 0, sizeof(*c));
	memset(&parts, 0, sizeof(parts));
	if (why && why_len)
		snprintf(why, why_len, "ok");
	st = ota_cbor_check(buf, len, &claims_limits);
	if (st != OTA_OK) {
		if (why && why_len)
			snprintf(why, why_len, "%s", ota_status_message(st));
		return st;
	}
	/* First the profile, so evidence of another one is named as such. */
	st = check_profile(buf, len, why, why_len);
	if (st != OTA_OK)
		return st;
	ota_cbor_dec_init(&d, buf, len);
	if (ota_cbor_get_map(&d, &pairs) != OTA_OK || pairs != OTA_CLAIM_COUNT)
		return why_fmt(why, why_len, "not a map of %u claims", OTA_CLAIM_COUNT);
	for (i = 0; i < pairs; i++) {
		if (ota_cbor_get_int(&d, &key) != OTA_OK)
			return why_fmt(why, why_len, "claim key #%llu is not an integer",
				       (unsigned long long)i);
		idx = claim_index(key);
		if (idx < 0)
			return why_fmt(why, why_len, "unknown claim %lld", (long long)key);
		if (seen & (1u << idx))
			return why_fmt(why, why_len, "claim %lld appears twice", (long long)key);
		seen |= 1u << idx;
		switch (key) {
		case OTA_CLAIM_NONCE:
			if (ota_cbor_get_bytes(&d, &p, &plen) != OTA_OK || plen < OTA_NONCE_MIN ||
			    plen > OTA_NONCE_MAX) {
				st = BAD;
				break;
			}
			memcpy(c->nonce, p, plen);
			c->nonce_len = (uint32_t)plen;
			break;
		case OTA_CLAIM_UEID:
			st = get_fixed(&d, ueid, sizeof(ueid));
			if (st == OTA_OK && ueid[0] != OTA_UEID_TYPE_RAND)
				st = BAD;
			if (st == OTA_OK)
				memcpy(c->device_id, ueid + 1, OTA_DEVICE_ID_BYTES);
			break;
		case OTA_CLAIM_OEMID:
			st = get_fixed(&d, got_oemid, sizeof(got_oemid));
			if (st == OTA_OK && memcmp(got_oemid, oemid, sizeof(oemid)))
				st = BAD;
			break;
		case OTA_CLAIM_OEMBOOT: st = get_bool(&d, &c->oemboot); break;
		case OTA_CLAIM_DBGSTAT:
			st = get_u32(&d, OTA_DBGSTAT_DISABLED_FULLY_AND_PERMANENTLY, &c->dbgstat);
			break;
		case OTA_CLAIM_EAT_PROFILE: st = ota_cbor_skip(&d) == OTA_OK ? OTA_OK : BAD; break;
		case OTA_CLAIM_MEASUREMENTS: st = decode_measurements(&d, c, &parts); break;
		case OTA_CLAIM_MEASRES: st = decode_measres(&d, &parts); break;
		case OTA_CLAIM_RECORD_DIGEST: st = get_fixed(&d, c->record_digest, 32); break;
		case OTA_CLAIM_MIN_SVN: st = get_u32(&d, OTA_SVN_LIMIT, &c->min_svn); break;
		case OTA_CLAIM_EPOCH: st = get_u32(&d, UINT32_MAX, &c->epoch); break;
		case OTA_CLAIM_LIFECYCLE: st = get_u32(&d, OTA_LC_COUNT - 1u, &c->lifecycle); break;
		case OTA_CLAIM_TAG_KEY_VERSION: st = get_u32(&d, UINT32_MAX, &c->tag_key_version); break;
		case OTA_CLAIM_RESET_REASON:
			st = get_u32(&d, OTA_RESET_UPDATE, &c->reset_reason);
			if (st == OTA_OK && c->reset_reason < OTA_RESET_COLD)
				st = BAD;
			break;
		case OTA_CLAIM_RECORD_FLAGS: st = get_u32(&d, OTA_RECORD_F_ALL, &c->record_flags); break;
		case OTA_CLAIM_CHAIN_MAX_SVN: st = get_u32(&d, OTA_SVN_LIMIT, &c->chain_max_svn); break;
		case OTA_CLAIM_FLOORS:
			if (ota_cbor_get_array(&d, &n) != OTA_OK || n != 2) {
				st = BAD;
				break;
			}
			st = get_u32(&d, OTA_SVN_LIMIT, &c->floor_rom_ext);
			if (st == OTA_OK)
				st = get_u32(&d, OTA_SVN_LIMIT, &c->floor_bl0);
			break;
		case OTA_CLAIM_GENERATION: st = get_u32(&d, UINT32_MAX, &c->generation); break;
		case OTA_CLAIM_UPDATE_STATE:
			st = get_u32(&d, OTA_UPDATE_CLAIM_TRIAL, &c->update.state);
			break;
		case OTA_CLAIM_PRIMARY_SLOT:
			st = get_u32(&d, OTA_SLOT_COUNT - 1u, &c->update.primary_slot);
			break;
		case OTA_CLAIM_BOOTED_SLOT:
			st = get_u32(&d, OTA_SLOT_COUNT - 1u, &c->update.booted_slot);
			break;
		case OTA_CLAIM_PENDING_UPDATE:
			st = get_pair(&d, OTA_STAGE_BL0, &c->update.pending_stage, OTA_SLOT_COUNT - 1u,
				      &c->update.pending_slot);
			if (st == OTA_OK && c->update.pending_stage == 0 && c->update.pending_slot != 0)
				st = BAD;
			break;
		case OTA_CLAIM_REVOCATION_SEQ:
			st = get_pair(&d, OTA_REVOCATION_SEQ_MAX, &c->update.revocation_seq,
				      OTA_REVOCATION_SEQ_MAX, &c->update.revocation_seq_device);
			break;
		case OTA_CLAIM_TRIAL_BOOTS:
			st = get_u32(&d, OTA_TRIAL_MAX_BOOTS, &c->update.trial_boots);
			break;
		case OTA_CLAIM_REVERT:
			st = get_pair(&d, OTA_REVERT_REASON_MAX, &c->update.revert_reason,
				      OTA_SLOT_COUNT - 1u, &c->update.reverted_slot);
			if (st == OTA_OK && c->update.revert_reason == OTA_REVERT_NONE &&
			    c->update.reverted_slot != 0)
				st = BAD;
			break;
		case OTA_CLAIM_ATTEMPTS:
			if (ota_cbor_get_array(&d, &n) != OTA_OK || n > OTA_RECORD_MAX_STAGES) {
				st = BAD;
				break;
			}
			c->stage_count = (uint32_t)n;
			for (uint64_t k = 0; k < n && st == OTA_OK; k++)
				st = decode_attempt(&d, &c->stage[k], (uint32_t)k, why, why_len);
			if (st != OTA_OK)
				return st; /* the attempt said why */
			break;
		}
		if (st != OTA_OK)
			return why_fmt(why, why_len, "claim %lld is malformed or out of range",
				       (long long)key);
	}
	return assemble(c, &parts, why, why_len);
}
