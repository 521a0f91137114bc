// SPDX-License-Identifier: MIT
/*
 * otimage inspect of evidence, the device's answer to ATTEST (a tagged
 * COSE_Sign1, docs/evidence.md): decoded with the verifier's own strict
 * decoders (ota_cose_sign1_decode, ota_evidence_decode_claims), then the
 * nonce, the device state the claims carry, every attempt and each
 * certificate of the x5chain as inspect describes certificates. Described,
 * not verified: otattest-verify checks the signature, the chain and the
 * policy.
 */
#include <string.h>

#include <otattest/verify.h>

#include "inspect.h"

static const char *slot_name(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b" : "none";
}

ota_status_t oti_inspect_evidence(struct oti_out *o, const uint8_t *buf, size_t len,
				  struct oti_diag *d)
{
	struct ota_evidence_claims c;
	struct ota_cose_sign1 m;
	char why[160] = "";
	ota_status_t st;
	uint32_t i, k;

	st = ota_cose_sign1_decode(buf, len, &m);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, "COSE_Sign1", NULL);
	st = ota_evidence_decode_claims(m.payload, m.payload_len, &c, why, sizeof(why));
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, why[0] ? why : "claims", NULL);
	oti_out_str(o, "verified", "no (otattest-verify checks the signature, chain and policy)");
	oti_out_hex(o, "nonce", c.nonce, c.nonce_len);
	oti_out_hex(o, "device_id", c.device_id, sizeof(c.device_id));
	oti_out_u64(o, "generation", c.generation);
	oti_out_str(o, "lifecycle", ota_lifecycle_name(c.lifecycle));
	oti_out_str(o, "reset_reason", ota_reset_reason_name(c.reset_reason));
	oti_out_u64(o, "epoch", c.epoch);
	oti_out_u64(o, "min_svn", c.min_svn);
	oti_out_u64(o, "chain_max_svn", c.chain_max_svn);
	oti_out_u64(o, "floor_rom_ext", c.floor_rom_ext);
	oti_out_u64(o, "floor_bl0", c.floor_bl0);
	oti_out_u64(o, "tag_key_version", c.tag_key_version);
	oti_out_hex(o, "rom_identity", c.rom_identity, sizeof(c.rom_identity));
	oti_out_hex(o, "record_digest", c.record_digest, sizeof(c.record_digest));
	oti_out_bool(o, "oemboot", c.oemboot);
	oti_out_u64(o, "dbgstat", c.dbgstat);
	oti_out_array(o, "attempts");
	for (i = 0; i < c.stage_count && i < OTA_RECORD_MAX_STAGES; i++) {
		const struct ota_evidence_stage *s = &c.stage[i];

		oti_out_begin(o, NULL);
		oti_out_str(o, "stage", ota_stage_name(s->stage));
		oti_out_str(o, "slot", slot_name(s->slot));
		oti_out_str(o, "path", ota_path_name(s->path));
		oti_out_str(o, "path_reason", ota_path_reason_name(s->path_reason));
		oti_out_str(o, "status", ota_status_name(s->status) ?: "unknown");
		oti_out_u64(o, "svn", s->svn);
		oti_out_str(o, "scheme", ota_scheme_name(s->sig_scheme));
		oti_out_u64(o, "delegation_depth", s->depth);
		oti_out_u64(o, "tag_key_version", s->tag_key_version);
		oti_out_bool(o, "booted", s->flags & OTA_STAGE_F_BOOTED);
		oti_out_bool(o, "debug", s->usage_flags & OTA_CAP_DEBUG);
		oti_out_hex(o, "measurement", s->measurement, sizeof(s->measurement));
		oti_out_array(o, "key_ids");
		for (k = 0; k < s->key_id_count && k < OTA_MAX_CHAIN_KEYS; k++)
			oti_out_hex(o, NULL, s->key_ids[k], OTA_KEY_ID_BYTES);
		oti_out_array_end(o);
		oti_out_end(o);
	}
	oti_out_array_end(o);
	oti_out_u64(o, "signature_bytes", m.signature_len);
	/* The x5chain, leaf (the alias key's certificate) first, each as inspect describes it. */
	oti_out_array(o, "certificates");
	for (i = 0; i < m.cert_count; i++) {
		oti_out_begin(o, NULL);
		st = oti_inspect_x509(o, m.certs[i], m.cert_lens[i], d);
		oti_out_end(o);
		if (st != OTA_OK)
			return st;
	}
	oti_out_array_end(o);
	return OTA_OK;
}
