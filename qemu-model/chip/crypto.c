// SPDX-License-Identifier: MIT
/*
 * The crypto engines of the emulated device over OpenSSL 3 EVP. Every
 * algorithm and context is fetched once (swhal_crypto_init) and reused:
 * the tag fast path calls SHA-256 and KMAC a few times per stage, and a
 * fetch or context allocation per call would cost as much as the work.
 *
 * Functions here see clear key bytes; they are given them by keymgr.c
 * for the duration of one operation and wipe their own copies.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>

#include "swhal_priv.h"

#define VERIFY_CACHE 4u

struct verify_entry {
	uint8_t pubkey[OTA_P256_PUBKEY_BYTES];
	EVP_PKEY_CTX *ctx; /* verify-initialised context for that key */
};

static struct {
	bool ready;
	EVP_MD *sha256;
	EVP_MD_CTX *sha_engine;
	EVP_MAC *kmac;
	EVP_MAC_CTX *kmac_engine; /* hal_kmac_* */
	EVP_MAC_CTX *kmac_kdf;    /* key derivation, independent of the engine */
	EC_GROUP *p256;
	BIGNUM *order_minus_1;
	BN_CTX *bn;
	struct verify_entry cache[VERIFY_CACHE];
	uint32_t cache_next;
	/* The cycle model's view of the running operations (clock.c). */
	uint64_t sha_bytes;
	uint64_t kmac_custom_len, kmac_msg_len;
} c;

void swhal_wipe(void *buf, size_t len)
{
	OPENSSL_cleanse(buf, len);
}

/*
 * Masks for the key shares come from a pool refilled 1 KiB at a time:
 * one RAND_bytes call costs about 0.7 us here, and a tag check re-masks
 * keys three or four times. Bytes are wiped from the pool as they are
 * handed out.
 */
#define RANDOM_POOL 1024u
static uint8_t random_pool[RANDOM_POOL];
static uint32_t random_used = RANDOM_POOL;

void swhal_random(void *buf, uint32_t len)
{
	uint8_t *out = buf;

	while (len) {
		uint32_t n;

		if (random_used == RANDOM_POOL) {
			/* The DRBG failing means the process cannot do crypto at all. */
			if (RAND_bytes(random_pool, (int)sizeof(random_pool)) != 1)
				abort();
			random_used = 0;
		}
		n = RANDOM_POOL - random_used < len ? RANDOM_POOL - random_used : len;
		memcpy(out, random_pool + random_used, n);
		swhal_wipe(random_pool + random_used, n);
		random_used += n;
		out += n;
		len -= n;
	}
}

int swhal_crypto_init(void)
{
	if (c.ready)
		return 0;
	c.sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
	c.kmac = EVP_MAC_fetch(NULL, "KMAC-256", NULL);
	if (!c.sha256 || !c.kmac)
		return -1;
	c.sha_engine = EVP_MD_CTX_new();
	c.kmac_engine = EVP_MAC_CTX_new(c.kmac);
	c.kmac_kdf = EVP_MAC_CTX_new(c.kmac);
	c.p256 = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	c.bn = BN_CTX_new();
	c.order_minus_1 = BN_new();
	if (!c.sha_engine || !c.kmac_engine || !c.kmac_kdf || !c.p256 || !c.bn ||
	    !c.order_minus_1 || !BN_copy(c.order_minus_1, EC_GROUP_get0_order(c.p256)) ||
	    !BN_sub_word(c.order_minus_1, 1))
		return -1;
	c.ready = true;
	return 0;
}

/* ---- KMAC256 ----------------------------------------------------------- */

static int kmac_init(EVP_MAC_CTX *ctx, const uint8_t *key, const uint8_t *custom,
		     size_t custom_len, size_t out_len)
{
	OSSL_PARAM p[3];

	/* An empty customization must be passed too: the context keeps the last one. */
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_CUSTOM,
						 (void *)(custom ? custom : (const uint8_t *)""),
						 custom_len);
	p[1] = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &out_len);
	p[2] = OSSL_PARAM_construct_end();
	return EVP_MAC_init(ctx, key, SWHAL_KEY_BYTES, p);
}

ota_status_t swhal_kmac256(const uint8_t key[SWHAL_KEY_BYTES], const char *custom,
			   const uint8_t *msg1, uint32_t len1,
			   const uint8_t *msg2, uint32_t len2,
			   uint8_t *out, uint32_t out_len)
{
	size_t got = 0;

	if (swhal_crypto_init() != 0)
		return OTA_HAL_CRYPTO_FAILED;
	swhal_clock_charge(SWHAL_COST_KMAC_BLOCK,
			   swhal_kmac_permutations(strlen(custom), (uint64_t)len1 + len2, out_len));
	if (kmac_init(c.kmac_kdf, key, (const uint8_t *)custom, strlen(custom), out_len) != 1 ||
	    (len1 && EVP_MAC_update(c.kmac_kdf, msg1, len1) != 1) ||
	    (len2 && EVP_MAC_update(c.kmac_kdf, msg2, len2) != 1) ||
	    EVP_MAC_final(c.kmac_kdf, out, &got, out_len) != 1 || got != out_len)
		return OTA_HAL_CRYPTO_FAILED;
	return OTA_OK;
}

/*
 * SP 800-108r1 section 4.4, KDF in KMAC mode:
 *   K_out = KMAC256(K_in, X = context || key_version (u32 LE), L, S = label)
 * For an ECDSA key, 384 bits are derived and reduced to d = (c mod (n-1)) + 1,
 * the FIPS 186-5 A.2.1 construction: uniform in [1, n-1] up to 2^-128.
 */
ota_status_t swhal_kdf(const uint8_t parent[SWHAL_KEY_BYTES], const char *label,
		       const uint8_t *context, uint32_t context_len,
		       uint32_t key_version, uint32_t purpose,
		       uint8_t out[SWHAL_KEY_BYTES])
{
	/* key_version then purpose, u32 LE: keys of two purposes are never the same bytes. */
	uint8_t version_le[8] = {
		(uint8_t)key_version, (uint8_t)(key_version >> 8),
		(uint8_t)(key_version >> 16), (uint8_t)(key_version >> 24),
		(uint8_t)purpose, (uint8_t)(purpose >> 8),
		(uint8_t)(purpose >> 16), (uint8_t)(purpose >> 24),
	};
	uint8_t wide[48];
	ota_status_t st;
	BIGNUM *d;

	/* The context and version are one message X; feed them as two updates. */
	if (purpose == HAL_KEY_PURPOSE_KDF || purpose == HAL_KEY_PURPOSE_MAC)
		return swhal_kmac256(parent, label, context, context_len, version_le,
				     sizeof(version_le), out, SWHAL_KEY_BYTES);
	if (purpose != HAL_KEY_PURPOSE_SIGN)
		return OTA_HAL_BAD_ARGUMENT;
	st = swhal_kmac256(parent, label, context, context_len, version_le, sizeof(version_le),
			   wide, sizeof(wide));
	if (st != OTA_OK)
		return st;
	st = OTA_HAL_CRYPTO_FAILED;
	BN_CTX_start(c.bn);
	d = BN_CTX_get(c.bn);
	if (d && BN_bin2bn(wide, sizeof(wide), d) &&
	    BN_mod(d, d, c.order_minus_1, c.bn) && BN_add_word(d, 1) &&
	    BN_bn2binpad(d, out, SWHAL_KEY_BYTES) == SWHAL_KEY_BYTES)
		st = OTA_OK;
	if (d)
		BN_clear(d);
	BN_CTX_end(c.bn);
	swhal_wipe(wide, sizeof(wide));
	return st;
}

/* The device root: KMAC256(device secret, ROM identity, 256, "otattest-device-root"). */
ota_status_t swhal_device_root(const uint8_t secret[32],
			       const uint8_t rom_identity[OTA_SHA256_BYTES],
			       uint8_t root[SWHAL_KEY_BYTES])
{
	return swhal_kmac256(secret, "otattest-device-root", rom_identity,
			     OTA_SHA256_BYTES, NULL, 0, root, SWHAL_KEY_BYTES);
}

/* ---- P-256 -------------------------------------------------------------- */

ota_status_t swhal_p256_pubkey(const uint8_t scalar[SWHAL_KEY_BYTES],
			       uint8_t pubkey[OTA_P256_PUBKEY_BYTES])
{
	uint8_t oct[1 + OTA_P256_PUBKEY_BYTES];
	ota_status_t st = OTA_HAL_CRYPTO_FAILED;
	EC_POINT *pt = NULL;
	BIGNUM *d;

	if (swhal_crypto_init() != 0)
		return st;
	BN_CTX_start(c.bn);
	d = BN_CTX_get(c.bn);
	pt = EC_POINT_new(c.p256);
	if (d && pt && BN_bin2bn(scalar, SWHAL_KEY_BYTES, d) &&
	    EC_POINT_mul(c.p256, pt, d, NULL, NULL, c.bn) &&
	    EC_POINT_point2oct(c.p256, pt, POINT_CONVERSION_UNCOMPRESSED, oct,
			       sizeof(oct), c.bn) == sizeof(oct)) {
		memcpy(pubkey, oct + 1, OTA_P256_PUBKEY_BYTES);
		st = OTA_OK;
	}
	if (d)
		BN_clear(d);
	BN_CTX_end(c.bn);
	EC_POINT_free(pt);
	return st;
}

/* An EVP_PKEY for a public key (X || Y), or NULL when it is not on the curve. */
static EVP_PKEY *p256_pkey(const uint8_t *pubkey, const uint8_t *scalar)
{
	uint8_t oct[1 + OTA_P256_PUBKEY_BYTES];
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *fctx = NULL;
	EVP_PKEY *pkey = NULL;
	BIGNUM *d = NULL;

	oct[0] = POINT_CONVERSION_UNCOMPRESSED;
	memcpy(oct + 1, pubkey, OTA_P256_PUBKEY_BYTES);
	if (!bld ||
	    !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) ||
	    !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, oct, sizeof(oct)))
		goto out;
	if (scalar) {
		d = BN_secure_new();
		if (!d || !BN_bin2bn(scalar, SWHAL_KEY_BYTES, d) ||
		    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d))
			goto out;
	}
	params = OSSL_PARAM_BLD_to_param(bld);
	fctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	/* fromdata decodes the point and refuses one that is not on the curve. */
	if (!params || !fctx || EVP_PKEY_fromdata_init(fctx) != 1 ||
	    EVP_PKEY_fromdata(fctx, &pkey, scalar ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
			      params) != 1)
		pkey = NULL;
out:
	EVP_PKEY_CTX_free(fctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_clear_free(d);
	return pkey;
}

/* r || s to the DER ECDSA-Sig-Value OpenSSL verifies. */
static int sig_to_der(const uint8_t sig[OTA_P256_SIG_BYTES], uint8_t *der, int cap)
{
	ECDSA_SIG *s = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(sig, 32, NULL), *ss = BN_bin2bn(sig + 32, 32, NULL);
	int len = -1;

	if (s && r && ss && ECDSA_SIG_set0(s, r, ss)) {
		r = ss = NULL; /* owned by s now */
		if (i2d_ECDSA_SIG(s, NULL) <= cap)
			len = i2d_ECDSA_SIG(s, &der);
	}
	BN_free(r);
	BN_free(ss);
	ECDSA_SIG_free(s);
	return len;
}

/*
 * Verification keys repeat from boot to boot (the same root and delegate
 * keys), so decoded keys and their verify contexts are kept in a small
 * cache instead of being rebuilt for every signature.
 */
static EVP_PKEY_CTX *verify_ctx(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES])
{
	struct verify_entry *e;
	EVP_PKEY *pkey;
	uint32_t i;

	for (i = 0; i < VERIFY_CACHE; i++)
		if (c.cache[i].ctx && !memcmp(c.cache[i].pubkey, pubkey, OTA_P256_PUBKEY_BYTES))
			return c.cache[i].ctx;
	pkey = p256_pkey(pubkey, NULL);
	if (!pkey)
		return NULL;
	e = &c.cache[c.cache_next];
	c.cache_next = (c.cache_next + 1) % VERIFY_CACHE;
	EVP_PKEY_CTX_free(e->ctx);
	e->ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
	EVP_PKEY_free(pkey);
	if (!e->ctx || EVP_PKEY_verify_init(e->ctx) != 1) {
		EVP_PKEY_CTX_free(e->ctx);
		e->ctx = NULL;
		return NULL;
	}
	memcpy(e->pubkey, pubkey, OTA_P256_PUBKEY_BYTES);
	return e->ctx;
}

ota_status_t swhal_p256_verify(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
			       const uint8_t digest[OTA_SHA256_BYTES],
			       const uint8_t sig[OTA_P256_SIG_BYTES])
{
	uint8_t der[80];
	EVP_PKEY_CTX *ctx;
	int der_len, rc;

	if (swhal_crypto_init() != 0)
		return OTA_HAL_CRYPTO_FAILED;
	ctx = verify_ctx(pubkey);
	if (!ctx)
		return OTA_SIG_BAD_PUBKEY;
	der_len = sig_to_der(sig, der, (int)sizeof(der));
	if (der_len <= 0)
		return OTA_SIG_ECDSA_INVALID;
	rc = EVP_PKEY_verify(ctx, der, (size_t)der_len, digest, OTA_SHA256_BYTES);
	return rc == 1 ? OTA_OK : OTA_SIG_ECDSA_INVALID;
}

ota_status_t swhal_p256_sign(const uint8_t scalar[SWHAL_KEY_BYTES],
			     const uint8_t digest[OTA_SHA256_BYTES],
			     uint8_t sig[OTA_P256_SIG_BYTES])
{
	uint8_t pub[OTA_P256_PUBKEY_BYTES], der[80];
	const uint8_t *p = der;
	ota_status_t st = OTA_HAL_CRYPTO_FAILED;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *pkey = NULL;
	ECDSA_SIG *s = NULL;
	size_t der_len = sizeof(der);

	if (swhal_p256_pubkey(scalar, pub) != OTA_OK)
		return st;
	pkey = p256_pkey(pub, scalar);
	if (!pkey)
		return st;
	ctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
	if (ctx && EVP_PKEY_sign_init(ctx) == 1 &&
	    EVP_PKEY_sign(ctx, der, &der_len, digest, OTA_SHA256_BYTES) == 1 &&
	    (s = d2i_ECDSA_SIG(NULL, &p, (long)der_len)) != NULL &&
	    BN_bn2binpad(ECDSA_SIG_get0_r(s), sig, 32) == 32 &&
	    BN_bn2binpad(ECDSA_SIG_get0_s(s), sig + 32, 32) == 32)
		st = OTA_OK;
	ECDSA_SIG_free(s);
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	return st;
}

/* ---- the SHA-256 and KMAC engines --------------------------------------- */

ota_status_t swhal_sha_engine_start(void)
{
	c.sha_bytes = 0;
	if (swhal_crypto_init() != 0 || EVP_DigestInit_ex2(c.sha_engine, c.sha256, NULL) != 1)
		return OTA_HAL_CRYPTO_FAILED;
	return OTA_OK;
}

/* The engine compresses each 64-byte block as it fills. */
ota_status_t swhal_sha_engine_update(const void *data, uint32_t len)
{
	uint64_t before = c.sha_bytes / 64u;

	c.sha_bytes += len;
	swhal_clock_charge(SWHAL_COST_SHA256_BLOCK, c.sha_bytes / 64u - before);
	return EVP_DigestUpdate(c.sha_engine, data, len) == 1 ? OTA_OK : OTA_HAL_CRYPTO_FAILED;
}

ota_status_t swhal_sha_engine_finish(uint8_t digest[OTA_SHA256_BYTES])
{
	unsigned int len = 0;

	/* The padding: 0x80 and the 8-byte length close the last block, or need one more. */
	swhal_clock_charge(SWHAL_COST_SHA256_BLOCK, (c.sha_bytes + 8u) / 64u + 1u - c.sha_bytes / 64u);

	if (EVP_DigestFinal_ex(c.sha_engine, digest, &len) != 1 || len != OTA_SHA256_BYTES)
		return OTA_HAL_CRYPTO_FAILED;
	return OTA_OK;
}

ota_status_t swhal_kmac_engine_start(const uint8_t key[SWHAL_KEY_BYTES],
				     const uint8_t *custom, uint32_t custom_len)
{
	c.kmac_custom_len = custom_len;
	c.kmac_msg_len = 0;
	if (swhal_crypto_init() != 0 ||
	    kmac_init(c.kmac_engine, key, custom, custom_len, OTA_TAG_BYTES) != 1)
		return OTA_HAL_CRYPTO_FAILED;
	return OTA_OK;
}

ota_status_t swhal_kmac_engine_update(const void *data, uint32_t len)
{
	c.kmac_msg_len += len;
	return EVP_MAC_update(c.kmac_engine, data, len) == 1 ? OTA_OK : OTA_HAL_CRYPTO_FAILED;
}

ota_status_t swhal_kmac_engine_finish(uint8_t *out, uint32_t out_len)
{
	size_t want = out_len, got = 0;
	OSSL_PARAM p[2];

	swhal_clock_charge(SWHAL_COST_KMAC_BLOCK,
			   swhal_kmac_permutations(c.kmac_custom_len, c.kmac_msg_len, out_len));
	/* KMAC encodes the output length at the end: it may be set just before. */
	p[0] = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &want);
	p[1] = OSSL_PARAM_construct_end();
	if (EVP_MAC_CTX_set_params(c.kmac_engine, p) != 1 ||
	    EVP_MAC_final(c.kmac_engine, out, &got, out_len) != 1 || got != out_len)
		return OTA_HAL_CRYPTO_FAILED;
	return OTA_OK;
}
