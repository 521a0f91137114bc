// SPDX-License-Identifier: MIT
/*
 * The alias key's X.509 v3 certificate (RFC 5280), issued by the device
 * identity key at boot. The identity certificate in flash (the
 * manufacturer CA's answer to this device's CSR, identity_csr.c) names
 * the same subject we write as issuer, so
 * `openssl verify -CAfile ca.pem -untrusted identity.pem alias.pem` holds.
 *
 *   serial     positive, from SHA-256 of the alias key (stable per boot state)
 *   validity   a fixed notBefore; notAfter 99991231235959Z (RFC 5280
 *              4.1.2.5: no well-defined expiry; the device has no clock)
 *   extensions basicConstraints CA:FALSE (critical), keyUsage
 *              digitalSignature (critical), SKI, AKI, and TCG DICE
 *              MultiTcbInfo: the ROM with the device state and the
 *              update state, then each
 *              booted stage with its SVN, measurement and the results of
 *              its check - everything the claims repeat and a verifier's
 *              policy judges, certified before the runtime (which holds
 *              the alias key and writes the claims) ever runs
 */
#include <string.h>

#include <otattest/sha256.h>
#include <otattest/x509.h>

#include "rom_ext.h"

static const uint8_t oid_basic_constraints[] = { 0x06, 0x03, 0x55, 0x1d, 0x13 };
static const uint8_t oid_key_usage[] = { 0x06, 0x03, 0x55, 0x1d, 0x0f };
static const uint8_t oid_ski[] = { 0x06, 0x03, 0x55, 0x1d, 0x0e };
static const uint8_t oid_aki[] = { 0x06, 0x03, 0x55, 0x1d, 0x23 };
/* tcg-dice-MultiTcbInfo, 2.23.133.5.4.5 (TCG DICE Attestation Architecture). */
static const uint8_t oid_multi_tcb_info[] = { 0x06, 0x06, 0x67, 0x81, 0x05, 0x05, 0x04, 0x05 };
static const uint8_t oid_sha256[] = { 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };
static const uint8_t der_true[] = { 0x01, 0x01, 0xff };
/* keyUsage BIT STRING: 7 unused bits, digitalSignature (bit 0) set. */
static const uint8_t key_usage_digital_signature[] = { 0x03, 0x02, 0x07, 0x80 };
static const char not_before[] = "250101000000Z";    /* UTCTime */
static const char not_after[] = "99991231235959Z";   /* GeneralizedTime */

void ota_cert_key_id(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
		     uint8_t out[OTA_CERT_KEY_ID_BYTES])
{
	static const uint8_t uncompressed = 0x04;
	struct ota_sha256 c;
	uint8_t h[OTA_SHA256_BYTES];

	ota_sha256_init(&c);
	ota_sha256_update(&c, &uncompressed, 1);
	ota_sha256_update(&c, pubkey, OTA_P256_PUBKEY_BYTES);
	ota_sha256_final(&c, h);
	memcpy(out, h, OTA_CERT_KEY_ID_BYTES);
}

/* Extension ::= SEQUENCE { extnID, critical DEFAULT FALSE, extnValue OCTET STRING } */
static void ext_begin(struct ota_der *d, const uint8_t *oid, uint32_t oid_len, bool critical)
{
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put_raw(d, oid, oid_len);
	if (critical)
		ota_der_put_raw(d, der_true, sizeof(der_true));
	ota_der_begin(d, OTA_DER_OCTET_STRING);
}

static void ext_end(struct ota_der *d)
{
	ota_der_end(d); /* OCTET STRING */
	ota_der_end(d); /* Extension */
}

/* fwids [6] IMPLICIT SEQUENCE OF FWID: the one FWID { sha256, digest }. */
static void put_fwids(struct ota_der *d, const uint8_t digest[OTA_SHA256_BYTES])
{
	ota_der_begin(d, OTA_DER_CONTEXT(6));
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put_raw(d, oid_sha256, sizeof(oid_sha256));
	ota_der_put(d, OTA_DER_OCTET_STRING, digest, OTA_SHA256_BYTES);
	ota_der_end(d);
	ota_der_end(d);
}

/* flags [7] IMPLICIT OperationalFlags: 32 bits (fixedWidth), no unused bits. */
static void put_flags(struct ota_der *d, uint32_t flags)
{
	const uint8_t bits[5] = { 0, (uint8_t)(flags >> 24), (uint8_t)(flags >> 16),
				  (uint8_t)(flags >> 8), (uint8_t)flags };

	ota_der_put(d, OTA_DER_CONTEXT_PRIM(7), bits, sizeof(bits));
}

/* vendorInfo [8] IMPLICIT OCTET STRING holding SEQUENCE { version, v[0..n) ... }. */
static void vendor_info_begin(struct ota_der *d, uint32_t version, const uint32_t *v, uint32_t n)
{
	uint32_t i;

	ota_der_begin(d, OTA_DER_CONTEXT_PRIM(8));
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put_uint(d, version);
	for (i = 0; i < n; i++)
		ota_der_put_uint(d, v[i]);
}

static void vendor_info_end(struct ota_der *d)
{
	ota_der_end(d); /* SEQUENCE */
	ota_der_end(d); /* [8] */
}

/* vendor [0], model [1]: the fields every entry starts with. */
static void entry_begin(struct ota_der *d, const char *model)
{
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put(d, OTA_DER_CONTEXT_PRIM(0), OTA_TCB_VENDOR, sizeof(OTA_TCB_VENDOR) - 1u);
	ota_der_put(d, OTA_DER_CONTEXT_PRIM(1), model, (uint32_t)strlen(model));
}

/*
 * The ROM's DiceTcbInfo: model "rom", layer 0, fwids = ROM identity, and
 * in vendorInfo the device state ROM and ROM_EXT decided.
 */
static void put_rom_entry(struct ota_der *d, const struct ota_record_header *h,
			  const struct ota_update_claims *u, uint32_t flags)
{
	/* DeviceState version 2: version 1's, then the update state (evidence.h). */
	const uint32_t state[] = { h->lifecycle,     h->epoch,         h->min_svn,
				   h->floor_rom_ext, h->floor_bl0,     h->chain_max_svn,
				   h->tag_key_version,
				   u->reset_reason,  u->state,         u->primary_slot,
				   u->booted_slot,   u->revocation_seq, u->revocation_seq_device,
				   u->trial_boots,   u->revert_reason, u->reverted_slot,
				   u->refused_count, u->refused_slots };

	entry_begin(d, OTA_TCB_MODEL_ROM);
	ota_der_put_uint_tagged(d, OTA_DER_CONTEXT_PRIM(4), OTA_TCB_LAYER_ROM);
	put_fwids(d, h->rom_identity);
	put_flags(d, flags);
	vendor_info_begin(d, OTA_TCB_INFO_VERSION, state, sizeof(state) / sizeof(state[0]));
	vendor_info_end(d);
	ota_der_end(d);
}

/*
 * A booted stage's DiceTcbInfo: model = stage name, svn, layer = stage,
 * fwids = measurement, and in vendorInfo the results of its check: path,
 * scheme, depth, tag key version, why not the tag path and the effective
 * usage flags (DEBUG: the runtime must not be the one to say whether it
 * may keep debug features), then the root key id and each delegate's
 * (depth + 1 OCTET STRINGs).
 */
static void put_stage_entry(struct ota_der *d, const struct ota_stage_record *s, uint32_t flags)
{
	const uint32_t results[] = { s->path, s->sig_scheme, s->delegation_depth,
				     s->tag_key_version, s->path_reason,
				     s->effective.usage.flags };
	uint32_t k;

	entry_begin(d, ota_stage_name(s->stage));
	ota_der_put_uint_tagged(d, OTA_DER_CONTEXT_PRIM(3), s->security_version);
	ota_der_put_uint_tagged(d, OTA_DER_CONTEXT_PRIM(4), s->stage);
	put_fwids(d, s->measurement);
	put_flags(d, flags);
	vendor_info_begin(d, OTA_TCB_RESULTS_VERSION, results, sizeof(results) / sizeof(results[0]));
	for (k = 0; k <= s->delegation_depth && k < OTA_MAX_CHAIN_KEYS; k++)
		ota_der_put(d, OTA_DER_OCTET_STRING, s->key_ids[k], OTA_KEY_ID_BYTES);
	vendor_info_end(d);
	ota_der_end(d);
}

void ota_alias_tcb_info_put(struct ota_der *d, const struct ota_alias_cert_params *p)
{
	uint32_t flags = ota_dice_flags(p->device->lifecycle), i;

	ota_der_begin(d, OTA_DER_SEQUENCE);
	put_rom_entry(d, p->device, p->update, flags);
	for (i = 0; i < p->booted_count && i < OTA_STAGE_COUNT; i++)
		put_stage_entry(d, p->booted[i], flags);
	ota_der_end(d);
}

static void put_tbs(struct ota_der *d, const struct ota_alias_cert_params *p)
{
	uint8_t serial[16], h[OTA_SHA256_BYTES];
	uint8_t ski[OTA_CERT_KEY_ID_BYTES], aki[OTA_CERT_KEY_ID_BYTES];

	ota_cert_key_id(p->subject_pubkey, ski);
	ota_cert_key_id(p->issuer_pubkey, aki);
	ota_sha256(p->subject_pubkey, OTA_P256_PUBKEY_BYTES, h);
	memcpy(serial, h, sizeof(serial));
	serial[0] = (uint8_t)((serial[0] & 0x7fu) | 0x40u); /* positive, full length */

	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_begin(d, OTA_DER_CONTEXT(0));
	ota_der_put_uint(d, 2); /* v3 */
	ota_der_end(d);
	ota_der_put_uint_be(d, serial, sizeof(serial));
	ota_cert_put_alg_ecdsa_sha256(d);
	ota_cert_put_name(d, OTA_CERT_CN_IDENTITY, p->device_id);
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put(d, OTA_DER_UTC_TIME, not_before, sizeof(not_before) - 1u);
	ota_der_put(d, OTA_DER_GENERALIZED_TIME, not_after, sizeof(not_after) - 1u);
	ota_der_end(d);
	ota_cert_put_name(d, OTA_CERT_CN_ALIAS, p->device_id);
	ota_cert_put_spki(d, p->subject_pubkey);

	ota_der_begin(d, OTA_DER_CONTEXT(3));
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ext_begin(d, oid_basic_constraints, sizeof(oid_basic_constraints), true);
	ota_der_begin(d, OTA_DER_SEQUENCE); /* cA DEFAULT FALSE: empty */
	ota_der_end(d);
	ext_end(d);
	ext_begin(d, oid_key_usage, sizeof(oid_key_usage), true);
	ota_der_put_raw(d, key_usage_digital_signature, sizeof(key_usage_digital_signature));
	ext_end(d);
	ext_begin(d, oid_ski, sizeof(oid_ski), false);
	ota_der_put(d, OTA_DER_OCTET_STRING, ski, sizeof(ski));
	ext_end(d);
	ext_begin(d, oid_aki, sizeof(oid_aki), false);
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put(d, OTA_DER_CONTEXT_PRIM(0), aki, sizeof(aki)); /* keyIdentifier */
	ota_der_end(d);
	ext_end(d);
	ext_begin(d, oid_multi_tcb_info, sizeof(oid_multi_tcb_info), false);
	ota_alias_tcb_info_put(d, p);
	ext_end(d);
	ota_der_end(d);
	ota_der_end(d);

	ota_der_end(d); /* TBSCertificate */
}

ota_status_t ota_alias_cert_build(const struct ota_alias_cert_params *p, hal_key_t issuer,
				  uint8_t *out, uint32_t cap, uint32_t *out_len)
{
	uint32_t tbs_start;
	struct ota_der d;

	ota_der_init(&d, out, cap);
	ota_der_begin(&d, OTA_DER_SEQUENCE);
	tbs_start = d.len;
	put_tbs(&d, p);
	return ota_cert_sign_close(&d, tbs_start, issuer, out_len);
}
