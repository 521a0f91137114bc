// SPDX-License-Identifier: MIT
/*
 * ECDSA P-256 through OpenSSL 3's EVP interface, converted between
 * OpenSSL's DER signatures and the fixed r || s form the formats use.
 */
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/param_build.h>

#include "otimage.h"
#include "otimage_keys.h"

ota_status_t oti_ecdsa_sign(const struct oti_key *k, const uint8_t digest[OTA_SHA256_BYTES],
			    uint8_t sig[OTA_P256_SIG_BYTES])
{
	EVP_PKEY_CTX *ctx = NULL;
	ECDSA_SIG *es = NULL;
	uint8_t der[80];
	const uint8_t *p = der;
	size_t der_len = sizeof(der);
	const BIGNUM *r, *s;
	ota_status_t st = OTA_TOOL_CRYPTO;

	if (!k->has_private)
		return OTA_TOOL_KEY_NOT_PRIVATE;
	ctx = EVP_PKEY_CTX_new_from_pkey(NULL, k->pkey, NULL);
	if (!ctx || EVP_PKEY_sign_init(ctx) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) <= 0 ||
	    EVP_PKEY_sign(ctx, der, &der_len, digest, OTA_SHA256_BYTES) <= 0)
		goto out;
	es = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
	if (!es)
		goto out;
	ECDSA_SIG_get0(es, &r, &s);
	if (BN_bn2binpad(r, sig, 32) != 32 || BN_bn2binpad(s, sig + 32, 32) != 32)
		goto out;
	st = OTA_OK;
out:
	ECDSA_SIG_free(es);
	EVP_PKEY_CTX_free(ctx);
	return st;
}

ota_status_t oti_pkey_from_raw(const uint8_t pub[OTA_P256_PUBKEY_BYTES], EVP_PKEY **out)
{
	uint8_t point[1 + OTA_P256_PUBKEY_BYTES];
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	ota_status_t st = OTA_SIG_BAD_PUBKEY;

	*out = NULL;
	point[0] = POINT_CONVERSION_UNCOMPRESSED;
	memcpy(point + 1, pub, OTA_P256_PUBKEY_BYTES);
	bld = OSSL_PARAM_BLD_new();
	if (!bld ||
	    !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, SN_X9_62_prime256v1, 0) ||
	    !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof(point)) ||
	    !(params = OSSL_PARAM_BLD_to_param(bld))) {
		st = OTA_TOOL_CRYPTO;
		goto out;
	}
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (!ctx || EVP_PKEY_fromdata_init(ctx) <= 0) {
		st = OTA_TOOL_CRYPTO;
		goto out;
	}
	/* Decoding the point checks it lies on the curve. */
	if (EVP_PKEY_fromdata(ctx, out, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		goto out;
	st = OTA_OK;
out:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	return st;
}

ota_status_t oti_ecdsa_verify(const uint8_t pub[OTA_P256_PUBKEY_BYTES],
			      const uint8_t digest[OTA_SHA256_BYTES],
			      const uint8_t sig[OTA_P256_SIG_BYTES])
{
	EVP_PKEY *pkey = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	ECDSA_SIG *es = NULL;
	BIGNUM *r = NULL, *s = NULL;
	uint8_t *der = NULL;
	int der_len, rc;
	ota_status_t st;

	st = oti_pkey_from_raw(pub, &pkey);
	if (st != OTA_OK)
		return st;
	st = OTA_TOOL_CRYPTO;
	es = ECDSA_SIG_new();
	r = BN_bin2bn(sig, 32, NULL);
	s = BN_bin2bn(sig + 32, 32, NULL);
	if (!es || !r || !s || !ECDSA_SIG_set0(es, r, s))
		goto out;
	r = s = NULL; /* owned by es now */
	der_len = i2d_ECDSA_SIG(es, &der);
	if (der_len <= 0)
		goto out;
	ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
	if (!ctx || EVP_PKEY_verify_init(ctx) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) <= 0)
		goto out;
	rc = EVP_PKEY_verify(ctx, der, (size_t)der_len, digest, OTA_SHA256_BYTES);
	/* 0 is "does not verify"; below 0 includes r or s out of range: also invalid. */
	st = rc == 1 ? OTA_OK : OTA_SIG_ECDSA_INVALID;
out:
	OPENSSL_free(der);
	BN_free(r);
	BN_free(s);
	ECDSA_SIG_free(es);
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	return st;
}
