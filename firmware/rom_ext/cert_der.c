// SPDX-License-Identifier: MIT
/*
 * The X.509 pieces the device's own DER shares between the alias
 * certificate it issues (alias_cert.c) and the PKCS#10 request for its
 * identity key (identity_csr.c): the ECDSA-with-SHA-256 algorithm, the
 * otattest names (evidence.h), a P-256 SubjectPublicKeyInfo, and the
 * signed envelope both are - `SEQUENCE { tbs, algorithm, BIT STRING sig }`
 * (RFC 5280 4.1 and RFC 2986 4.2 have the same shape).
 */
#include <string.h>

#include <otattest/x509.h>

#include "rom_ext.h"

static const uint8_t oid_ec_public_key[] = { 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01 };
static const uint8_t oid_prime256v1[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
static const uint8_t oid_ecdsa_sha256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02 };
static const uint8_t oid_org[] = { 0x06, 0x03, 0x55, 0x04, 0x0a };
static const uint8_t oid_cn[] = { 0x06, 0x03, 0x55, 0x04, 0x03 };

void ota_cert_put_alg_ecdsa_sha256(struct ota_der *d)
{
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put_raw(d, oid_ecdsa_sha256, sizeof(oid_ecdsa_sha256));
	ota_der_end(d);
}

void ota_cert_put_name(struct ota_der *d, const char *cn_prefix, const uint8_t *device_id)
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

void ota_cert_put_spki(struct ota_der *d, const uint8_t pubkey[OTA_P256_PUBKEY_BYTES])
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

ota_status_t ota_cert_sign_close(struct ota_der *d, uint32_t tbs_start, hal_key_t key,
				 uint32_t *out_len)
{
	uint8_t digest[OTA_SHA256_BYTES], sig[OTA_P256_SIG_BYTES];
	ota_status_t st;

	if (d->err != OTA_OK)
		return d->err;
	/* The signed part is final: only the outer length before it can still move. */
	st = hal_sha256_start();
	if (st == OTA_OK)
		st = hal_sha256_update(d->buf + tbs_start, d->len - tbs_start);
	if (st == OTA_OK)
		st = hal_sha256_finish(digest);
	if (st == OTA_OK)
		st = hal_ecdsa_sign(key, digest, sig);
	if (st != OTA_OK)
		return st;

	ota_cert_put_alg_ecdsa_sha256(d);
	ota_der_begin(d, OTA_DER_BIT_STRING);
	ota_der_put_raw(d, (const uint8_t[]){ 0 }, 1); /* no unused bits */
	ota_der_put_ecdsa_sig(d, sig);
	ota_der_end(d);
	ota_der_end(d); /* the outer SEQUENCE */
	return ota_der_finish(d, out_len);
}
