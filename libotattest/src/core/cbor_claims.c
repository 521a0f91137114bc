// SPDX-License-Identifier: MIT
/*
 * The evidence claims set, profile v2 (evidence.h, docs/evidence.md), from
 * a boot record. Keys are emitted in deterministic order: the registered
 * unsigned keys ascending, then the private negative keys by n ascending
 * (their encoded arguments 0x6f7461nn ascend), so the output is RFC 8949
 * section 4.2.1 canonical.
 */
#include <string.h>

#include "evidence_internal.h"

/* The loops below rely on these keys being consecutive. */
OTA_STATIC_ASSERT(OTA_CLAIM_CHAIN_MAX_SVN == OTA_CLAIM_MIN_SVN - 6, "private scalar claims 2..8");
OTA_STATIC_ASSERT(OTA_ACLAIM_VERIFY_TIME_NS == OTA_ACLAIM_STAGE + OTA_ACLAIM_SCALARS - 1u,
		  "attempt keys 1..7");
OTA_STATIC_ASSERT(OTA_ACLAIM_COMPONENT < OTA_ACLAIM_PATH_REASON &&
			  OTA_ACLAIM_PATH_REASON < OTA_ACLAIM_USAGE_FLAGS,
		  "attempt keys in encoding order");

static void stage_component(const struct ota_stage_record *s, struct ota_component_src *c)
{
	c->name = ota_stage_name(s->stage);
	c->versioned = true;
	c->svn = s->security_version;
	c->measurement = s->measurement;
	c->key_id_count = s->delegation_depth + 1u;
	c->key_ids = (const uint8_t (*)[OTA_KEY_ID_BYTES])s->key_ids;
}

static bool booted(const struct ota_stage_record *s)
{
	return (s->flags & OTA_STAGE_F_BOOTED) != 0;
}

static void put_measurements(struct ota_cbor_enc *e, const struct ota_record *rec)
{
	const struct ota_record_header *h = &rec->hdr;
	struct ota_component_src c = {
		.name = OTA_MC_NAME_ROM, .measurement = h->rom_identity,
	};
	uint32_t i, n = 1;

	for (i = 0; i < h->stage_count; i++)
		n += booted(&rec->stage[i]) ? 1u : 0u;
	ota_cbor_put_array(e, n);
	ota_cbor_put_array(e, 2);
	ota_cbor_put_uint(e, OTA_CF_MEASURED_COMPONENT);
	ota_evidence_put_component(e, &c);
	for (i = 0; i < h->stage_count; i++) {
		if (!booted(&rec->stage[i]))
			continue;
		stage_component(&rec->stage[i], &c);
		ota_cbor_put_array(e, 2);
		ota_cbor_put_uint(e, OTA_CF_MEASURED_COMPONENT);
		ota_evidence_put_component(e, &c);
	}
}

/* [ "otattest-boot/<path>", [ [ "<stage>", result ] ] ] */
static void put_measres_group(struct ota_cbor_enc *e, const struct ota_stage_record *s)
{
	static const char prefix[] = OTA_MEASRES_SYSTEM_PREFIX;
	const char *path = ota_path_name(s->path), *stage = ota_stage_name(s->stage);
	uint32_t plen = sizeof(prefix) - 1u, path_len = (uint32_t)strlen(path);

	ota_cbor_put_array(e, 2);
	ota_cbor_put_head(e, OTA_CBOR_TSTR, plen + path_len);
	ota_cbor_put_raw(e, prefix, plen);
	ota_cbor_put_raw(e, path, path_len);
	ota_cbor_put_array(e, 1);
	ota_cbor_put_array(e, 2);
	ota_cbor_put_text(e, stage, (uint32_t)strlen(stage));
	ota_cbor_put_uint(e, ota_measres_result(s->status, s->path));
}

static void put_attempt(struct ota_cbor_enc *e, const struct ota_stage_record *s)
{
	/* Keys 1..OTA_ACLAIM_SCALARS, each an unsigned integer, in key order. */
	const uint64_t vals[OTA_ACLAIM_SCALARS] = {
		s->stage, s->slot, s->status, s->sig_scheme, s->tag_key_version, s->flags,
		s->verify_time_ns,
	};
	struct ota_component_src c;
	uint32_t k;

	ota_cbor_put_map(e, booted(s) ? OTA_ACLAIM_COUNT : OTA_ACLAIM_COUNT + 1u);
	for (k = 0; k < OTA_ACLAIM_SCALARS; k++) {
		ota_cbor_put_uint(e, OTA_ACLAIM_STAGE + k);
		ota_cbor_put_uint(e, vals[k]);
	}
	if (!booted(s)) {
		stage_component(s, &c);
		ota_cbor_put_uint(e, OTA_ACLAIM_COMPONENT);
		ota_evidence_put_component(e, &c);
	}
	ota_cbor_put_uint(e, OTA_ACLAIM_PATH_REASON);
	ota_cbor_put_uint(e, s->path_reason);
	ota_cbor_put_uint(e, OTA_ACLAIM_USAGE_FLAGS);
	ota_cbor_put_uint(e, s->effective.usage.flags);
}

static void put_pair(struct ota_cbor_enc *e, int64_t key, uint32_t a, uint32_t b)
{
	ota_cbor_put_int(e, key);
	ota_cbor_put_array(e, 2);
	ota_cbor_put_uint(e, a);
	ota_cbor_put_uint(e, b);
}

static void put_scalar(struct ota_cbor_enc *e, int64_t key, uint32_t v)
{
	ota_cbor_put_int(e, key);
	ota_cbor_put_uint(e, v);
}

/* Claims 12..18: the update state (evidence.h, ota_update_claims_of). */
static void put_update(struct ota_cbor_enc *e, const struct ota_record *rec)
{
	struct ota_update_claims u;

	ota_update_claims_of(rec, &u);
	put_scalar(e, OTA_CLAIM_UPDATE_STATE, u.state);
	put_scalar(e, OTA_CLAIM_PRIMARY_SLOT, u.primary_slot);
	put_scalar(e, OTA_CLAIM_BOOTED_SLOT, u.booted_slot);
	put_pair(e, OTA_CLAIM_PENDING_UPDATE, u.pending_stage, u.pending_slot);
	put_pair(e, OTA_CLAIM_REVOCATION_SEQ, u.revocation_seq, u.revocation_seq_device);
	put_scalar(e, OTA_CLAIM_TRIAL_BOOTS, u.trial_boots);
	put_pair(e, OTA_CLAIM_REVERT, u.revert_reason, u.reverted_slot);
}

/* RFC 9711 oemboot: each stage booted, its check passed against OTP-pinned keys. */
static bool oem_boot(const struct ota_record *rec)
{
	bool rom_ext = false, bl0 = false;
	uint32_t i;

	for (i = 0; i < rec->hdr.stage_count; i++) {
		const struct ota_stage_record *s = &rec->stage[i];

		if (!booted(s) || s->status != OTA_OK)
			continue;
		rom_ext |= s->stage == OTA_STAGE_ROM_EXT;
		bl0 |= s->stage == OTA_STAGE_BL0;
	}
	return rom_ext && bl0;
}

ota_status_t ota_evidence_encode_claims(const struct ota_record *rec,
					const uint8_t record_digest[OTA_SHA256_BYTES],
					const uint8_t *nonce, uint32_t nonce_len,
					uint8_t *out, uint32_t cap, uint32_t *out_len)
{
	static const uint8_t oemid[OTA_OEMID_BYTES] = OTA_OEMID_INIT;
	const struct ota_record_header *h = &rec->hdr;
	const uint32_t scalars[] = {
		h->min_svn, h->epoch, h->lifecycle, h->tag_key_version, h->reset_reason, h->flags,
		h->chain_max_svn,
	};
	uint8_t ueid[OTA_UEID_BYTES];
	struct ota_cbor_enc e;
	ota_status_t st;
	uint32_t i;

	/* The record is the device's own, but never trust a count for a loop bound. */
	st = ota_record_validate(rec, h->length);
	if (st != OTA_OK)
		return st;
	if (nonce_len < OTA_NONCE_MIN || nonce_len > OTA_NONCE_MAX)
		return OTA_MBOX_NONCE_LENGTH;

	ueid[0] = OTA_UEID_TYPE_RAND;
	for (i = 0; i < OTA_DEVICE_ID_BYTES; i++)
		ueid[1u + i] = h->device_id[i];

	ota_cbor_enc_init(&e, out, cap);
	ota_cbor_put_map(&e, OTA_CLAIM_COUNT);
	ota_cbor_put_int(&e, OTA_CLAIM_NONCE);
	ota_cbor_put_bytes(&e, nonce, nonce_len);
	ota_cbor_put_int(&e, OTA_CLAIM_UEID);
	ota_cbor_put_bytes(&e, ueid, sizeof(ueid));
	ota_cbor_put_int(&e, OTA_CLAIM_OEMID);
	ota_cbor_put_bytes(&e, oemid, sizeof(oemid));
	ota_cbor_put_int(&e, OTA_CLAIM_OEMBOOT);
	ota_cbor_put_bool(&e, oem_boot(rec));
	ota_cbor_put_int(&e, OTA_CLAIM_DBGSTAT);
	ota_cbor_put_uint(&e, ota_dbgstat(h->lifecycle));
	ota_cbor_put_int(&e, OTA_CLAIM_EAT_PROFILE);
	ota_cbor_put_text(&e, OTA_EAT_PROFILE, sizeof(OTA_EAT_PROFILE) - 1u);
	ota_cbor_put_int(&e, OTA_CLAIM_MEASUREMENTS);
	put_measurements(&e, rec);
	ota_cbor_put_int(&e, OTA_CLAIM_MEASRES);
	ota_cbor_put_array(&e, h->stage_count);
	for (i = 0; i < h->stage_count; i++)
		put_measres_group(&e, &rec->stage[i]);
	ota_cbor_put_int(&e, OTA_CLAIM_RECORD_DIGEST);
	ota_cbor_put_bytes(&e, record_digest, OTA_SHA256_BYTES);
	/* Private claims 2..8 are unsigned integers, in key order. */
	for (i = 0; i < sizeof(scalars) / sizeof(scalars[0]); i++) {
		ota_cbor_put_int(&e, OTA_CLAIM_MIN_SVN - (int64_t)i);
		ota_cbor_put_uint(&e, scalars[i]);
	}
	ota_cbor_put_int(&e, OTA_CLAIM_FLOORS);
	ota_cbor_put_array(&e, 2);
	ota_cbor_put_uint(&e, h->floor_rom_ext);
	ota_cbor_put_uint(&e, h->floor_bl0);
	ota_cbor_put_int(&e, OTA_CLAIM_GENERATION);
	ota_cbor_put_uint(&e, h->generation);
	ota_cbor_put_int(&e, OTA_CLAIM_ATTEMPTS);
	ota_cbor_put_array(&e, h->stage_count);
	for (i = 0; i < h->stage_count; i++)
		put_attempt(&e, &rec->stage[i]);
	put_update(&e, rec);
	return ota_cbor_enc_finish(&e, out_len);
}
