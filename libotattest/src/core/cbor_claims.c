// SPDX-License-Identifier: MIT
/*
 * The evidence claims set (evidence.h) from a boot record. Keys are
 * emitted in deterministic order: unsigned keys ascending, then the
 * private negative keys from -75001 downwards (their encoded arguments
 * ascend), so the output is RFC 8949 section 4.2.1 canonical.
 */
#include "otattest/cbor.h"
#include "otattest/evidence.h"

static void put_stage(struct ota_cbor_enc *e, const struct ota_stage_record *s)
{
	uint32_t k, nkeys = s->delegation_depth + 1u;

	ota_cbor_put_map(e, OTA_SCLAIM_COUNT);
	ota_cbor_put_uint(e, OTA_SCLAIM_STAGE);
	ota_cbor_put_uint(e, s->stage);
	ota_cbor_put_uint(e, OTA_SCLAIM_SLOT);
	ota_cbor_put_uint(e, s->slot);
	ota_cbor_put_uint(e, OTA_SCLAIM_STATUS);
	ota_cbor_put_uint(e, s->status);
	ota_cbor_put_uint(e, OTA_SCLAIM_PATH);
	ota_cbor_put_uint(e, s->path);
	ota_cbor_put_uint(e, OTA_SCLAIM_SIG_SCHEME);
	ota_cbor_put_uint(e, s->sig_scheme);
	ota_cbor_put_uint(e, OTA_SCLAIM_DEPTH);
	ota_cbor_put_uint(e, s->delegation_depth);
	ota_cbor_put_uint(e, OTA_SCLAIM_SVN);
	ota_cbor_put_uint(e, s->security_version);
	ota_cbor_put_uint(e, OTA_SCLAIM_TAG_KEY_VERSION);
	ota_cbor_put_uint(e, s->tag_key_version);
	ota_cbor_put_uint(e, OTA_SCLAIM_MEASUREMENT);
	ota_cbor_put_bytes(e, s->measurement, OTA_SHA256_BYTES);
	ota_cbor_put_uint(e, OTA_SCLAIM_KEY_IDS);
	ota_cbor_put_array(e, nkeys);
	for (k = 0; k < nkeys; k++)
		ota_cbor_put_bytes(e, s->key_ids[k], OTA_KEY_ID_BYTES);
	ota_cbor_put_uint(e, OTA_SCLAIM_FLAGS);
	ota_cbor_put_uint(e, s->flags);
	ota_cbor_put_uint(e, OTA_SCLAIM_VERIFY_TIME_NS);
	ota_cbor_put_uint(e, s->verify_time_ns);
}

ota_status_t ota_evidence_encode_claims(const struct ota_record *rec,
					const uint8_t record_digest[OTA_SHA256_BYTES],
					const uint8_t *nonce, uint32_t nonce_len,
					uint8_t *out, uint32_t cap, uint32_t *out_len)
{
	const struct ota_record_header *h = &rec->hdr;
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
	ota_cbor_put_int(&e, OTA_CLAIM_EAT_PROFILE);
	ota_cbor_put_text(&e, OTA_EAT_PROFILE, sizeof(OTA_EAT_PROFILE) - 1u);
	ota_cbor_put_int(&e, OTA_CLAIM_RECORD_DIGEST);
	ota_cbor_put_bytes(&e, record_digest, OTA_SHA256_BYTES);
	ota_cbor_put_int(&e, OTA_CLAIM_MIN_SVN);
	ota_cbor_put_uint(&e, h->min_svn);
	ota_cbor_put_int(&e, OTA_CLAIM_EPOCH);
	ota_cbor_put_uint(&e, h->epoch);
	ota_cbor_put_int(&e, OTA_CLAIM_LIFECYCLE);
	ota_cbor_put_uint(&e, h->lifecycle);
	ota_cbor_put_int(&e, OTA_CLAIM_TAG_KEY_VERSION);
	ota_cbor_put_uint(&e, h->tag_key_version);
	ota_cbor_put_int(&e, OTA_CLAIM_RESET_REASON);
	ota_cbor_put_uint(&e, h->reset_reason);
	ota_cbor_put_int(&e, OTA_CLAIM_RECORD_FLAGS);
	ota_cbor_put_uint(&e, h->flags);
	ota_cbor_put_int(&e, OTA_CLAIM_ROM_IDENTITY);
	ota_cbor_put_bytes(&e, h->rom_identity, OTA_SHA256_BYTES);
	ota_cbor_put_int(&e, OTA_CLAIM_CHAIN_MAX_SVN);
	ota_cbor_put_uint(&e, h->chain_max_svn);
	ota_cbor_put_int(&e, OTA_CLAIM_FLOORS);
	ota_cbor_put_array(&e, 2);
	ota_cbor_put_uint(&e, h->floor_rom_ext);
	ota_cbor_put_uint(&e, h->floor_bl0);
	ota_cbor_put_int(&e, OTA_CLAIM_GENERATION);
	ota_cbor_put_uint(&e, h->generation);
	ota_cbor_put_int(&e, OTA_CLAIM_STAGES);
	ota_cbor_put_array(&e, h->stage_count);
	for (i = 0; i < h->stage_count; i++)
		put_stage(&e, &rec->stage[i]);
	return ota_cbor_enc_finish(&e, out_len);
}
