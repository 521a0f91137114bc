// SPDX-License-Identifier: MIT
/*
 * COSE_Sign1 evidence: strict structural decoding and the ES256 check
 * (RFC 9052 section 4.4, RFC 8152's ES256 = ECDSA P-256 with SHA-256 and
 * a raw r || s signature) with OpenSSL 3 EVP.
 *
 * The protected header must be exactly {1: -7}, the unprotected header
 * exactly {33: x5chain}; anything else is refused rather than ignored, so
 * no unsigned header can change how the evidence is read.
 */
#include <pthread.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include "otattest/cbor.h"
#include "otattest/corim.h"
#include "otattest/handover.h"
#include "otattest/verify.h"

#include "cose_key.h"

static const struct ota_cbor_limits evidence_limits = {
	.max_depth = 6,
	.max_string = OTA_CLAIMS_MAX_BYTES > OTA_CERT_MAX_DER ? OTA_CLAIMS_MAX_BYTES : OTA_CERT_MAX_DER,
	.max_count = 8,
};

/* Why a protected header other than h'A10126' is wrong. */
static ota_status_t judge_protected(const uint8_t *p, size_t n)
{
	static const struct ota_cbor_limits lim = { 4, 64, 8 };
	struct ota_cbor_dec d;
	uint64_t pairs, i;
	int64_t key, val;

	if (ota_cbor_check(p, n, &lim) != OTA_OK)
		return OTA_COSE_BAD_HEADER;
	ota_cbor_dec_init(&d, p, n);
	if (ota_cbor_get_map(&d, &pairs) != OTA_OK)
		return OTA_COSE_BAD_HEADER;
	for (i = 0; i < pairs; i++) {
		if (ota_cbor_get_int(&d, &key) != OTA_OK)
			return OTA_COSE_BAD_HEADER;
		if (key == OTA_COSE_HDR_ALG) {
			if (ota_cbor_get_int(&d, &val) != OTA_OK || val != OTA_COSE_ALG_ES256)
				return OTA_COSE_BAD_ALG;
		} else if (ota_cbor_skip(&d) != OTA_OK) {
			return OTA_COSE_BAD_HEADER;
		}
	}
	return OTA_COSE_BAD_HEADER; /* ES256, but with something else beside it */
}

/* The hand-overs' array (OTA_COSE_HDR_HANDOVERS): 1..OTA_HANDOVER_MAX bstr of 240 bytes. */
static ota_status_t handovers_get(struct ota_cbor_dec *d, const uint8_t *ho[], size_t ho_lens[],
				  uint32_t *ho_count)
{
	const uint8_t *p;
	size_t l;
	uint64_t n, i;

	if (ota_cbor_get_array(d, &n) != OTA_OK || n < 1 || n > OTA_HANDOVER_MAX)
		return OTA_COSE_BAD_HEADER;
	for (i = 0; i < n; i++) {
		if (ota_cbor_get_bytes(d, &p, &l) != OTA_OK ||
		    l != sizeof(struct ota_identity_handover))
			return OTA_COSE_BAD_HEADER;
		if (ho != NULL) {
			ho[i] = p;
			ho_lens[i] = l;
		}
	}
	*ho_count = (uint32_t)n;
	return OTA_OK;
}

/* ho may be NULL (hand-overs checked, not returned); otherwise OTA_HANDOVER_MAX entries. */
static ota_status_t decode(const uint8_t *buf, size_t len, struct ota_cose_sign1 *out,
			   const uint8_t *ho[], size_t ho_lens[], uint32_t *ho_count)
{
	static const uint8_t prot[] = OTA_COSE_PROTECTED_ES256;
	struct ota_cbor_dec d;
	uint64_t v, n, i, hdrs;
	int64_t key;
	uint32_t major;
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	*ho_count = 0;
	st = ota_cbor_check(buf, len, &evidence_limits);
	if (st != OTA_OK)
		return st;
	ota_cbor_dec_init(&d, buf, len);
	if (ota_cbor_get_tag(&d, &v) != OTA_OK || v != OTA_COSE_SIGN1_TAG)
		return OTA_COSE_BAD_HEADER;
	if (ota_cbor_get_array(&d, &n) != OTA_OK || n != 4)
		return OTA_COSE_BAD_HEADER;
	if (ota_cbor_get_bytes(&d, &out->protected_hdr, &out->protected_len) != OTA_OK)
		return OTA_COSE_BAD_HEADER;
	if (out->protected_len != sizeof(prot) ||
	    memcmp(out->protected_hdr, prot, sizeof(prot)) != 0)
		return judge_protected(out->protected_hdr, out->protected_len);

	/* x5chain, then (canonical order) the hand-overs when there are any. */
	if (ota_cbor_get_map(&d, &hdrs) != OTA_OK || hdrs < 1 || hdrs > 2)
		return OTA_COSE_BAD_HEADER;
	if (ota_cbor_get_int(&d, &key) != OTA_OK || key != OTA_COSE_HDR_X5CHAIN)
		return OTA_COSE_BAD_HEADER;
	if (ota_cbor_peek(&d, &major) != OTA_OK)
		return OTA_COSE_BAD_HEADER;
	if (major == OTA_CBOR_BSTR) {
		if (ota_cbor_get_bytes(&d, &out->certs[0], &out->cert_lens[0]) != OTA_OK)
			return OTA_COSE_BAD_HEADER;
		out->cert_count = 1;
	} else {
		/* RFC 9360: an array holds two or more certificates. */
		if (ota_cbor_get_array(&d, &n) != OTA_OK || n < 2 || n > OTA_COSE_MAX_CERTS)
			return OTA_COSE_BAD_HEADER;
		for (i = 0; i < n; i++)
			if (ota_cbor_get_bytes(&d, &out->certs[i], &out->cert_lens[i]) != OTA_OK)
				return OTA_COSE_BAD_HEADER;
		out->cert_count = (uint32_t)n;
	}
	if (hdrs == 2 && (ota_cbor_get_int(&d, &key) != OTA_OK || key != OTA_COSE_HDR_HANDOVERS ||
			  handovers_get(&d, ho, ho_lens, ho_count) != OTA_OK))
		return OTA_COSE_BAD_HEADER;
	if (ota_cbor_get_bytes(&d, &out->payload, &out->payload_len) != OTA_OK)
		return OTA_COSE_BAD_HEADER; /* detached payloads are not used */
	if (ota_cbor_get_bytes(&d, &out->signature, &out->signature_len) != OTA_OK)
		return OTA_COSE_BAD_HEADER;
	if (out->signature_len != OTA_P256_SIG_BYTES)
		return OTA_COSE_SIG_INVALID;
	return OTA_OK;
}

ota_status_t ota_cose_sign1_decode(const uint8_t *buf, size_t len, struct ota_cose_sign1 *out)
{
	uint32_t n;

	return decode(buf, len, out, NULL, NULL, &n);
}

ota_status_t ota_cose_sign1_handovers(const uint8_t *buf, size_t len,
				      const uint8_t *handovers[OTA_HANDOVER_MAX],
				      size_t lens[OTA_HANDOVER_MAX], uint32_t *count)
{
	struct ota_cose_sign1 m;

	return decode(buf, len, &m, handovers, lens, count);
}

/*
 * The P-256 group as a key without a point: each public key is a copy of
 * its parameters with the point set, a third of EVP_PKEY_fromdata's cost
 * (the provider looks nothing up again). Made once, kept for the process.
 */
static EVP_PKEY *p256_params;
static pthread_once_t p256_once = PTHREAD_ONCE_INIT;

static void p256_params_make(void)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	OSSL_PARAM params[2];

	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
	params[1] = OSSL_PARAM_construct_end();
	if (ctx == NULL || EVP_PKEY_paramgen_init(ctx) <= 0 || EVP_PKEY_CTX_set_params(ctx, params) <= 0 ||
	    EVP_PKEY_paramgen(ctx, &p256_params) <= 0)
		p256_params = NULL;
	EVP_PKEY_CTX_free(ctx);
}

EVP_PKEY *ota_p256_public_key(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES])
{
	uint8_t point[1 + OTA_P256_PUBKEY_BYTES];
	EVP_PKEY *pkey;

	if (pthread_once(&p256_once, p256_params_make) != 0 || p256_params == NULL)
		return NULL;
	point[0] = POINT_CONVERSION_UNCOMPRESSED;
	memcpy(point + 1, pubkey, OTA_P256_PUBKEY_BYTES);
	pkey = EVP_PKEY_new();
	/* Setting the point checks that it is on the curve. */
	if (pkey == NULL || EVP_PKEY_copy_parameters(pkey, p256_params) != 1 ||
	    EVP_PKEY_set1_encoded_public_key(pkey, point, sizeof(point)) != 1) {
		EVP_PKEY_free(pkey);
		return NULL;
	}
	return pkey;
}

int ota_p256_sig_to_der(const uint8_t *raw, uint8_t **der)
{
	ECDSA_SIG *sig = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(raw, 32, NULL), *s = BN_bin2bn(raw + 32, 32, NULL);
	int len = -1;

	if (sig && r && s && ECDSA_SIG_set0(sig, r, s) == 1) {
		r = s = NULL; /* owned by sig now */
		len = i2d_ECDSA_SIG(sig, der);
	}
	BN_free(r);
	BN_free(s);
	ECDSA_SIG_free(sig);
	return len;
}

ota_status_t ota_cose_sign1_verify_pkey(const struct ota_cose_sign1 *m, EVP_PKEY *pkey)
{
	/* Room for a CoRIM's protected header too (corim.h), not only evidence's. */
	uint8_t prefix[OTA_COSE_SIG1_PREFIX_MAX + OTA_CORIM_MAX_PROTECTED];
	uint32_t prefix_len;
	uint8_t *der = NULL;
	EVP_MD_CTX *md = NULL;
	ota_status_t st;
	int der_len, ok = 0;

	if (m->signature_len != OTA_P256_SIG_BYTES || m->payload_len > UINT32_MAX)
		return OTA_COSE_SIG_INVALID;
	st = ota_cose_sig1_prefix(m->protected_hdr, (uint32_t)m->protected_len,
				  (uint32_t)m->payload_len, prefix, sizeof(prefix), &prefix_len);
	if (st != OTA_OK)
		return st;
	der_len = ota_p256_sig_to_der(m->signature, &der);
	md = EVP_MD_CTX_new();
	if (der_len > 0 && md && EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, pkey) == 1 &&
	    EVP_DigestVerifyUpdate(md, prefix, prefix_len) == 1 &&
	    EVP_DigestVerifyUpdate(md, m->payload, m->payload_len) == 1)
		ok = EVP_DigestVerifyFinal(md, der, (size_t)der_len) == 1;
	EVP_MD_CTX_free(md);
	OPENSSL_free(der);
	return ok ? OTA_OK : OTA_COSE_SIG_INVALID;
}

ota_status_t ota_cose_sign1_verify(const struct ota_cose_sign1 *m,
				   const uint8_t pubkey[OTA_P256_PUBKEY_BYTES])
{
	EVP_PKEY *pkey = ota_p256_public_key(pubkey);
	ota_status_t st;

	if (pkey == NULL)
		return OTA_SIG_BAD_PUBKEY;
	st = ota_cose_sign1_verify_pkey(m, pkey);
	EVP_PKEY_free(pkey);
	return st;
}
