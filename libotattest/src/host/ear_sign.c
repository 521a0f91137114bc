// SPDX-License-Identifier: MIT
/*
 * The verifier's EAR signing key and the JWS it signs (RFC 7515 compact
 * serialization, RFC 7518 ES256): OpenSSL EVP signs SHA-256 with ECDSA
 * P-256 and gives a DER ECDSA-Sig-Value; JWS wants the two 32-byte
 * integers r and s side by side, so the DER is taken apart and padded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include "otattest/ear.h"

#include "b64url.h"
#include "fileio.h"

struct ota_ear_key {
	EVP_PKEY *pkey;
};

/* The one JOSE header every EAR carries. */
static const char jws_header[] = "{\"alg\":\"ES256\",\"typ\":\"JWT\"}";

/* An encrypted key would make OpenSSL ask on the terminal: refuse instead. */
static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
	(void)buf;
	(void)size;
	(void)rwflag;
	*(bool *)u = true;
	return -1;
}

static bool is_p256(EVP_PKEY *k)
{
	char group[32];

	return EVP_PKEY_is_a(k, "EC") &&
	       EVP_PKEY_get_utf8_string_param(k, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof(group),
					      NULL) == 1 &&
	       strcmp(group, "prime256v1") == 0;
}

ota_status_t ota_ear_key_load_pem(const void *pem, size_t len, struct ota_ear_key **out)
{
	bool asked = false;
	EVP_PKEY *k;
	BIO *bio;

	*out = NULL;
	if (len > INT32_MAX)
		return OTA_HOST_BAD_ARGUMENT;
	bio = BIO_new_mem_buf(pem, (int)len);
	if (bio == NULL)
		return OTA_HOST_INTERNAL;
	k = PEM_read_bio_PrivateKey(bio, NULL, no_passphrase, &asked);
	BIO_free(bio);
	ERR_clear_error();
	if (k == NULL)
		return asked ? OTA_TOOL_KEY_ENCRYPTED : OTA_TOOL_KEY_MALFORMED;
	if (!is_p256(k)) {
		EVP_PKEY_free(k);
		return OTA_TOOL_KEY_NOT_P256;
	}
	*out = calloc(1, sizeof(**out));
	if (*out == NULL) {
		EVP_PKEY_free(k);
		return OTA_HOST_INTERNAL;
	}
	(*out)->pkey = k;
	return OTA_OK;
}

static ota_status_t load_pem(void *out, const void *pem, size_t len)
{
	return ota_ear_key_load_pem(pem, len, out);
}

ota_status_t ota_ear_key_load_file(const char *path, struct ota_ear_key **out)
{
	*out = NULL;
	return ota_read_file_with(path, 64u * 1024u, load_pem, out);
}

void ota_ear_key_free(struct ota_ear_key *k)
{
	if (k == NULL)
		return;
	EVP_PKEY_free(k->pkey);
	free(k);
}

/* ES256 over msg: r || s, 32 bytes each. */
static bool es256(EVP_PKEY *k, const char *msg, size_t len, uint8_t rs[64])
{
	unsigned char der[80];
	const unsigned char *p = der;
	size_t der_len = sizeof(der);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	ECDSA_SIG *sig = NULL;
	bool ok;

	ok = md && EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, k) == 1 &&
	     EVP_DigestSign(md, der, &der_len, (const unsigned char *)msg, len) == 1 &&
	     (sig = d2i_ECDSA_SIG(NULL, &p, (long)der_len)) != NULL &&
	     BN_bn2binpad(ECDSA_SIG_get0_r(sig), rs, 32) == 32 &&
	     BN_bn2binpad(ECDSA_SIG_get0_s(sig), rs + 32, 32) == 32;
	ECDSA_SIG_free(sig);
	EVP_MD_CTX_free(md);
	ERR_clear_error();
	return ok;
}

ota_status_t ota_ear_sign(const struct ota_verdict *v, const struct ota_ear_options *o,
			  const struct ota_ear_key *k, char **jwt)
{
	char *claims = NULL, *head = NULL, *body = NULL, *sig = NULL, *input = NULL;
	uint8_t rs[64];
	ota_status_t st;
	size_t n;

	*jwt = NULL;
	if (k == NULL)
		return OTA_HOST_BAD_ARGUMENT;
	st = ota_ear_claims_json(v, o, &claims);
	if (st != OTA_OK)
		return st;
	st = OTA_HOST_INTERNAL;
	head = ota_b64url(jws_header, strlen(jws_header));
	body = ota_b64url(claims, strlen(claims));
	if (head == NULL || body == NULL)
		goto out;
	/* The signing input: BASE64URL(header) "." BASE64URL(payload). */
	n = strlen(head) + 1u + strlen(body);
	input = malloc(n + 1u);
	if (input == NULL)
		goto out;
	snprintf(input, n + 1u, "%s.%s", head, body);
	if (!es256(k->pkey, input, n, rs) || (sig = ota_b64url(rs, sizeof(rs))) == NULL)
		goto out;
	*jwt = malloc(n + 1u + strlen(sig) + 1u);
	if (*jwt == NULL)
		goto out;
	snprintf(*jwt, n + 1u + strlen(sig) + 1u, "%s.%s", input, sig);
	st = OTA_OK;
out:
	free(claims);
	free(head);
	free(body);
	free(sig);
	free(input);
	return st;
}
