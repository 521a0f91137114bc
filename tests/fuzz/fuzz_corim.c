// SPDX-License-Identifier: MIT
/*
 * Reference values as CoRIM (ota_corim_load) on hostile bytes. The
 * payload is read only behind a valid signature, so most inputs are
 * signed here first: a P-256 key made at start-up signs the input (after
 * its first byte) as a CoRIM payload under a fixed protected header, and
 * the loader is given that key. A first byte of 0 hands the rest over as
 * a whole signed CoRIM instead (the envelope, its headers and meta).
 *
 * Seeds (tests/fuzz/corpus/fuzz_corim/): signed-release is 0 and a CoRIM
 * `otimage corim` wrote for a ROM_EXT and a BL0 image, payload-release is 1
 * and that CoRIM's payload.
 *
 * Properties beyond "no crash": a CoRIM loads whole or not at all (the
 * table grows only on success, never past its bound), and what loads is
 * in range: a stage, 1 to 4 SHA-256 digests, at most a chain's key ids.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>

#include "otattest/cbor.h"
#include "otattest/corim.h"
#include "otattest/sha256.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static EVP_PKEY *key;
static uint8_t pub[OTA_P256_PUBKEY_BYTES];
static struct ota_refvals refvals;
/* {1: -7, 3: "application/rim+cbor", 8: << {0: {0: "f"}} >>} */
static const uint8_t protected_hdr[] = { 0xa3, 0x01, 0x26, 0x03, 0x74, 'a', 'p', 'p', 'l', 'i',
					 'c',  'a',  't',  'i',  'o',  'n', '/', 'r', 'i', 'm',
					 '+',  'c',  'b',  'o',  'r',  0x08, 0x46, 0xa1, 0x00, 0xa1,
					 0x00, 0x61, 'f' };

static void make_key(void)
{
	BIGNUM *x = NULL, *y = NULL;

	key = EVP_EC_gen("P-256");
	if (!key || EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_EC_PUB_X, &x) != 1 ||
	    EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_EC_PUB_Y, &y) != 1 ||
	    BN_bn2binpad(x, pub, 32) != 32 || BN_bn2binpad(y, pub + 32, 32) != 32)
		abort();
	BN_free(x);
	BN_free(y);
}

/* ES256 over the Sig_structure, r || s. */
static void sign(const uint8_t *payload, size_t len, uint8_t sig[OTA_P256_SIG_BYTES])
{
	uint8_t prefix[OTA_COSE_SIG1_PREFIX_MAX], der[80];
	uint32_t prefix_len;
	size_t der_len = sizeof(der);
	const uint8_t *p = der;
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	ECDSA_SIG *es;
	const BIGNUM *r, *s;

	if (ota_cose_sig1_prefix(protected_hdr, sizeof(protected_hdr), (uint32_t)len, prefix,
				 sizeof(prefix), &prefix_len) != OTA_OK ||
	    !md || EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key) != 1 ||
	    EVP_DigestSignUpdate(md, prefix, prefix_len) != 1 ||
	    EVP_DigestSignUpdate(md, payload, len) != 1 ||
	    EVP_DigestSignFinal(md, der, &der_len) != 1)
		abort();
	EVP_MD_CTX_free(md);
	es = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
	if (!es)
		abort();
	ECDSA_SIG_get0(es, &r, &s);
	if (BN_bn2binpad(r, sig, 32) != 32 || BN_bn2binpad(s, sig + 32, 32) != 32)
		abort();
	ECDSA_SIG_free(es);
}

/* The COSE_Sign1 around a payload; its length, 0 when it does not fit. */
static uint32_t wrap(const uint8_t *payload, size_t len, uint8_t *out, uint32_t cap)
{
	uint8_t sig[OTA_P256_SIG_BYTES];
	struct ota_cbor_enc e;
	uint32_t n;

	sign(payload, len, sig);
	ota_cbor_enc_init(&e, out, cap);
	ota_cbor_put_tag(&e, OTA_COSE_SIGN1_TAG);
	ota_cbor_put_array(&e, 4);
	ota_cbor_put_bytes(&e, protected_hdr, sizeof(protected_hdr));
	ota_cbor_put_map(&e, 0);
	ota_cbor_put_bytes(&e, payload, (uint32_t)len);
	ota_cbor_put_bytes(&e, sig, sizeof(sig));
	return ota_cbor_enc_finish(&e, &n) == OTA_OK ? n : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t signed_corim[OTA_CORIM_MAX_BYTES];
	uint32_t before, i, len;
	ota_status_t st;
	char why[200];

	if (!key)
		make_key();
	if (size < 1 || size > OTA_CORIM_MAX_BYTES)
		return 0;
	if (data[0] == 0) {
		/* the envelope as given: a copy, so nothing points into libFuzzer's buffer */
		len = (uint32_t)(size - 1);
		memcpy(signed_corim, data + 1, len);
	} else {
		len = wrap(data + 1, size - 1, signed_corim, sizeof(signed_corim));
		if (len == 0)
			return 0;
	}
	/* Start again when full, so loads keep being tried against a table with room. */
	if (refvals.count > OTA_REFVALS_MAX - 8u)
		ota_refvals_init(&refvals);
	before = refvals.count;
	st = ota_corim_load(signed_corim, len, pub, &refvals, why, sizeof(why));
	if (st != OTA_OK) {
		if (refvals.count != before)
			abort(); /* all of a CoRIM or nothing */
		return 0;
	}
	if (refvals.count <= before || refvals.count > OTA_REFVALS_MAX)
		abort();
	for (i = before; i < refvals.count; i++) {
		const struct ota_refval *rv = &refvals.rv[i];

		if ((rv->stage != OTA_STAGE_ROM_EXT && rv->stage != OTA_STAGE_BL0) ||
		    rv->digest_count == 0 || rv->digest_count > OTA_CORIM_MAX_DIGESTS ||
		    rv->key_id_count > OTA_MAX_CHAIN_KEYS)
			abort();
	}
	return 0;
}
