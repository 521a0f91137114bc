// SPDX-License-Identifier: MIT
/*
 * The alias key's X.509 v3 certificate (RFC 5280), issued by the device
 * identity key at boot. The identity certificate in flash (otimage
 * provision) names the same subject we write as issuer, so
 * `openssl verify -CAfile ca.pem -untrusted identity.pem alias.pem` holds.
 *
 *   serial     positive, from SHA-256 of the alias key (stable per boot state)
 *   validity   a fixed notBefore; notAfter 99991231235959Z (RFC 5280
 *              4.1.2.5: no well-defined expiry; the device has no clock)
 *   extensions basicConstraints CA:FALSE (critical), keyUsage
 *              digitalSignature (critical), SKI, AKI, and TCG DICE
 *              MultiTcbInfo with each booted stage's SVN and measurement
 */
#include <string.h>

#include <otattest/sha256.h>
#include <otattest/x509.h>

#include "rom_ext.h"

static const uint8_t oid_ec_public_key[] = { 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01 };
static const uint8_t oid_prime256v1[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
static const uint8_t oid_ecdsa_sha256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02 };
static const uint8_t oid_org[] = { 0x06, 0x03, 0x55, 0x04, 0x0a };
static const uint8_t oid_cn[] = { 0x06, 0x03, 0x55, 0x04, 0x03 };
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

static void put_alg_ecdsa_sha256(struct ota_der *d)
{
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put_raw(d, oid_ecdsa_sha256, sizeof(oid_ecdsa_sha256));
	ota_der_end(d);
}

static void put_name(struct ota_der *d, const char *cn_prefix, const uint8_t *device_id)
{
	static const char hex[] = "0123456789abcdef";
	char cn[32 + 2u * OTA_DEVICE_ID_BYTES];
	uint32_t n = (uint32_t)strlen(cn_prefix), i;

	/* Prefixes are compile-time constants; this only guards a future edit. */
	if (n > sizeof(cn) - 2u * OTA_DEVICE_ID_BYTES) {
		d->err = OTA_X509_BUFFER_FULL;
		return;
	}
	memcpy(cn, cn_prefix, n);
	for (i = 0; i < OTA_DEVICE_ID_BYTES; i++) {
		cn[n++] = hex[device_id[i] >> 4];
		cn[n++] = hex[device_id[i] & 0xfu];
	}
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_begin(d, OTA_DER_SET);
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put_raw(d, oid_org, sizeof(oid_org));
	ota_der_put(d, OTA_DER_UTF8_STRING, OTA_CERT_ORG, sizeof(OTA_CERT_ORG) - 1u);
	ota_der_end(d);
	ota_der_end(d);
	ota_der_begin(d, OTA_DER_SET);
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put_raw(d, oid_cn, sizeof(oid_cn));
	ota_der_put(d, OTA_DER_UTF8_STRING, cn, n);
	ota_der_end(d);
	ota_der_end(d);
	ota_der_end(d);
}

static void put_spki(struct ota_der *d, const uint8_t pubkey[OTA_P256_PUBKEY_BYTES])
{
	uint8_t point[1u + OTA_P256_PUBKEY_BYTES];

	point[0] = 0x04;
	memcpy(point + 1, pubkey, OTA_P256_PUBKEY_BYTES);
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put_raw(d, oid_ec_public_key, sizeof(oid_ec_public_key));
	ota_der_put_raw(d, oid_prime256v1, sizeof(oid_prime256v1));
	ota_der_end(d);
	ota_der_put_bits(d, point, sizeof(point));
	ota_der_end(d);
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

/*
 * DiceTcbInfo per booted stage: model [1] = stage name, svn [3],
 * layer [4] = stage number, fwids [6] = { sha256, measurement }.
 */
static void put_tcb_info(struct ota_der *d, const struct ota_alias_cert_params *p)
{
	uint32_t i;

	ota_der_begin(d, OTA_DER_SEQUENCE);
	for (i = 0; i < p->tcb_count && i < OTA_STAGE_COUNT; i++) {
		const struct ota_alias_tcb *s = &p->tcb[i];
		const char *model = ota_stage_name(s->stage);

		ota_der_begin(d, OTA_DER_SEQUENCE);
		ota_der_put(d, OTA_DER_CONTEXT_PRIM(1), model, (uint32_t)strlen(model));
		ota_der_put_uint_tagged(d, OTA_DER_CONTEXT_PRIM(3), s->svn);
		ota_der_put_uint_tagged(d, OTA_DER_CONTEXT_PRIM(4), s->stage);
		ota_der_begin(d, OTA_DER_CONTEXT(6));
		ota_der_begin(d, OTA_DER_SEQUENCE);
		ota_der_put_raw(d, oid_sha256, sizeof(oid_sha256));
		ota_der_put(d, OTA_DER_OCTET_STRING, s->measurement, OTA_SHA256_BYTES);
		ota_der_end(d);
		ota_der_end(d);
		ota_der_end(d);
	}
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
	put_alg_ecdsa_sha256(d);
	put_name(d, OTA_CERT_CN_IDENTITY, p->device_id);
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put(d, OTA_DER_UTC_TIME, not_before, sizeof(not_before) - 1u);
	ota_der_put(d, OTA_DER_GENERALIZED_TIME, not_after, sizeof(not_after) - 1u);
	ota_der_end(d);
	put_name(d, OTA_CERT_CN_ALIAS, p->device_id);
	put_spki(d, p->subject_pubkey);

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
	put_tcb_info(d, p);
	ext_end(d);
	ota_der_end(d);
	ota_der_end(d);

	ota_der_end(d); /* TBSCertificate */
}

ota_status_t ota_alias_cert_build(const struct ota_alias_cert_params *p, hal_key_t issuer,
				  uint8_t *out, uint32_t cap, uint32_t *out_len)
{
	uint8_t digest[OTA_SHA256_BYTES], sig[OTA_P256_SIG_BYTES];
	uint32_t tbs_start, tbs_len;
	struct ota_der d;
	ota_status_t st;

	ota_der_init(&d, out, cap);
	ota_der_begin(&d, OTA_DER_SEQUENCE);
	tbs_start = d.len;
	put_tbs(&d, p);
	if (d.err != OTA_OK)
		return d.err;
	tbs_len = d.len - tbs_start;

	st = hal_sha256_start();
	if (st == OTA_OK)
		st = hal_sha256_update(out + tbs_start, tbs_len);
	if (st == OTA_OK)
		st = hal_sha256_finish(digest);
	if (st == OTA_OK)
		st = hal_ecdsa_sign(issuer, digest, sig);
	if (st != OTA_OK)
		return st;

	put_alg_ecdsa_sha256(&d);
	ota_der_begin(&d, OTA_DER_BIT_STRING);
	ota_der_put_raw(&d, (const uint8_t[]){ 0 }, 1); /* no unused bits */
	ota_der_put_ecdsa_sig(&d, sig);
	ota_der_end(&d);
	ota_der_end(&d); /* Certificate */
	return ota_der_finish(&d, out_len);
}
