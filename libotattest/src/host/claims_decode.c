// SPDX-License-Identifier: MIT
/*
 * Claims set decoding (evidence.h). The profile defines exactly which
 * claims appear, so the decoder is closed-world: every claim must be
 * present once, an unknown claim is refused, and every value is range
 * checked like ota_record_validate() checks the record it came from.
 * A claims set that passes here can be shown and judged without further
 * checks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "otattest/cbor.h"
#include "otattest/verify.h"

static const struct ota_cbor_limits claims_limits = {
	.max_depth = 5, .max_string = 128, .max_count = 16,
};

#define BAD OTA_VERIFY_CLAIMS_INVALID

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

static ota_status_t decode_stage(struct ota_cbor_dec *d, struct ota_evidence_stage *s,
				 uint32_t index, char *why, size_t why_len)
{
	uint64_t pairs, n, i;
	uint32_t seen = 0, bit;
	ota_status_t st = OTA_OK;

	if (ota_cbor_get_map(d, &pairs) != OTA_OK || pairs != OTA_SCLAIM_COUNT)
		return why_fmt(why, why_len, "stage %u is not a map of %u claims", index,
			       OTA_SCLAIM_COUNT);
	for (i = 0; i < pairs && st == OTA_OK; i++) {
		uint64_t key;

		if (ota_cbor_get_uint(d, &key) != OTA_OK || key < 1 || key > OTA_SCLAIM_COUNT)
			return why_fmt(why, why_len, "stage %u has an unknown claim (#%llu)", index,
				       (unsigned long long)i);
		bit = 1u << key;
		if (seen & bit)
			return BAD; /* the checker already refuses this; belt and braces */
		seen |= bit;
		switch (key) {
		case OTA_SCLAIM_STAGE:
			st = get_u32(d, OTA_STAGE_BL0, &s->stage);
			if (st == OTA_OK && s->stage < OTA_STAGE_ROM_EXT)
				st = BAD;
			break;
		case OTA_SCLAIM_SLOT: st = get_u32(d, OTA_SLOT_COUNT - 1u, &s->slot); break;
		case OTA_SCLAIM_STATUS: st = get_u32(d, UINT32_MAX, &s->status); break;
		case OTA_SCLAIM_PATH: st = get_u32(d, OTA_PATH_MAX, &s->path); break;
		case OTA_SCLAIM_SIG_SCHEME: st = get_u32(d, OTA_SCHEME_HYBRID, &s->sig_scheme); break;
		case OTA_SCLAIM_DEPTH: st = get_u32(d, OTA_MAX_DELEGATION_DEPTH, &s->depth); break;
		case OTA_SCLAIM_SVN: st = get_u32(d, OTA_SVN_LIMIT, &s->svn); break;
		case OTA_SCLAIM_TAG_KEY_VERSION: st = get_u32(d, UINT32_MAX, &s->tag_key_version); break;
		case OTA_SCLAIM_MEASUREMENT: st = get_fixed(d, s->measurement, OTA_SHA256_BYTES); break;
		case OTA_SCLAIM_KEY_IDS:
			if (ota_cbor_get_array(d, &n) != OTA_OK || n < 1 || n > OTA_MAX_CHAIN_KEYS) {
				st = BAD;
				break;
			}
			s->key_id_count = (uint32_t)n;
			for (uint64_t k = 0; k < n && st == OTA_OK; k++)
				st = get_fixed(d, s->key_ids[k], OTA_KEY_ID_BYTES);
			break;
		case OTA_SCLAIM_FLAGS:
			st = get_u32(d, OTA_STAGE_F_ALL, &s->flags);
			if (st == OTA_OK && (s->flags & ~OTA_STAGE_F_ALL))
				st = BAD;
			break;
		case OTA_SCLAIM_VERIFY_TIME_NS:
			if (ota_cbor_get_uint(d, &s->verify_time_ns) != OTA_OK)
				st = BAD;
			break;
		}
		if (st != OTA_OK)
			return why_fmt(why, why_len, "stage %u claim %llu is out of range", index,
				       (unsigned long long)key);
	}
	/* The chain holds the root plus one key per delegation. */
	if (s->key_id_count != s->depth + 1u)
		return why_fmt(why, why_len, "stage %u has %u key ids for delegation depth %u",
			       index, s->key_id_count, s->depth);
	return OTA_OK;
}

static int claim_index(int64_t key)
{
	switch (key) {
	case OTA_CLAIM_NONCE: return 0;
	case OTA_CLAIM_UEID: return 1;
	case OTA_CLAIM_EAT_PROFILE: return 2;
	}
	if (key <= OTA_CLAIM_RECORD_DIGEST && key >= OTA_CLAIM_STAGES)
		return 3 + (int)(OTA_CLAIM_RECORD_DIGEST - key);
	return -1;
}

ota_status_t ota_evidence_decode_claims(const uint8_t *buf, size_t len,
					struct ota_evidence_claims *c, char *why, size_t why_len)
{
	uint8_t ueid[OTA_UEID_BYTES];
	struct ota_cbor_dec d;
	uint64_t pairs, n, i;
	uint32_t seen = 0;
	const uint8_t *p;
	const char *txt;
	size_t plen;
	int64_t key;
	int idx;
	ota_status_t st;

	memset(c, 0, sizeof(*c));
	if (why && why_len)
		snprintf(why, why_len, "ok");
	st = ota_cbor_check(buf, len, &claims_limits);
	if (st != OTA_OK) {
		if (why && why_len)
			snprintf(why, why_len, "%s", ota_status_message(st));
		return st;
	}
	ota_cbor_dec_init(&d, buf, len);
	if (ota_cbor_get_map(&d, &pairs) != OTA_OK || pairs != OTA_CLAIM_COUNT)
		return why_fmt(why, why_len, "not a map of %lld claims", (long long)OTA_CLAIM_COUNT);
	for (i = 0; i < pairs; i++) {
		if (ota_cbor_get_int(&d, &key) != OTA_OK)
			return why_fmt(why, why_len, "claim key #%lld is not an integer",
				       (long long)i);
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
			if (get_fixed(&d, ueid, sizeof(ueid)) != OTA_OK || ueid[0] != OTA_UEID_TYPE_RAND) {
				st = BAD;
				break;
			}
			memcpy(c->device_id, ueid + 1, OTA_DEVICE_ID_BYTES);
			break;
		case OTA_CLAIM_EAT_PROFILE:
			if (ota_cbor_get_text(&d, &txt, &plen) != OTA_OK ||
			    plen != sizeof(OTA_EAT_PROFILE) - 1u || memcmp(txt, OTA_EAT_PROFILE, plen)) {
				st = BAD;
				break;
			}
			break;
		case OTA_CLAIM_RECORD_DIGEST: st = get_fixed(&d, c->record_digest, 32); break;
		case OTA_CLAIM_ROM_IDENTITY: st = get_fixed(&d, c->rom_identity, 32); break;
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
		case OTA_CLAIM_STAGES:
			if (ota_cbor_get_array(&d, &n) != OTA_OK || n > OTA_RECORD_MAX_STAGES) {
				st = BAD;
				break;
			}
			c->stage_count = (uint32_t)n;
			for (uint64_t k = 0; k < n && st == OTA_OK; k++)
				st = decode_stage(&d, &c->stage[k], (uint32_t)k, why, why_len);
			if (st != OTA_OK)
				return st; /* the stage said why */
			break;
		}
		if (st != OTA_OK)
			return why_fmt(why, why_len, "claim %lld is malformed or out of range",
				       (long long)key);
	}
	return OTA_OK;
}
