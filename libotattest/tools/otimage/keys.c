// SPDX-License-Identifier: MIT
/*
 * Signing keys: P-256 as PEM through OpenSSL 3 (PKCS#8 for private keys,
 * SubjectPublicKeyInfo for public ones), plus an SLH-DSA key file beside
 * it for hybrid keys (spxkey.c).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/pem.h>

#include "otimage.h"
#include "otimage_internal.h"
#include "otimage_keys.h"

static ota_status_t crypto_fail(struct oti_diag *d, const char *what)
{
	unsigned long e = ERR_get_error();
	char buf[120];

	ERR_error_string_n(e, buf, sizeof(buf));
	ERR_clear_error();
	return oti_diag_set(d, OTA_TOOL_CRYPTO, NULL, NULL, "%s: %s", what, e ? buf : "failed");
}

/* Fill pub and key_id from k->pkey; refuse anything but P-256. */
static ota_status_t key_fill_public(struct oti_key *k)
{
	char group[64];
	BIGNUM *x = NULL, *y = NULL;
	ota_status_t st = OTA_TOOL_KEY_NOT_P256;

	if (!EVP_PKEY_is_a(k->pkey, "EC") ||
	    !EVP_PKEY_get_utf8_string_param(k->pkey, OSSL_PKEY_PARAM_GROUP_NAME, group,
					    sizeof(group), NULL) ||
	    OBJ_txt2nid(group) != NID_X9_62_prime256v1)
		return st;
	if (!EVP_PKEY_get_bn_param(k->pkey, OSSL_PKEY_PARAM_EC_PUB_X, &x) ||
	    !EVP_PKEY_get_bn_param(k->pkey, OSSL_PKEY_PARAM_EC_PUB_Y, &y) ||
	    BN_bn2binpad(x, k->pub, 32) != 32 || BN_bn2binpad(y, k->pub + 32, 32) != 32) {
		st = OTA_TOOL_CRYPTO;
		goto out;
	}
	ota_key_id(k->pub, k->key_id);
	st = OTA_OK;
out:
	BN_free(x);
	BN_free(y);
	return st;
}

ota_status_t oti_key_generate(uint32_t algorithm, struct oti_key *out, struct oti_diag *d)
{
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	if (algorithm != OTA_KEY_ALG_ECDSA_P256 && algorithm != OTA_KEY_ALG_HYBRID)
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--alg", NULL);
	out->pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	if (!out->pkey)
		return crypto_fail(d, "P-256 key generation");
	out->has_private = true;
	out->algorithm = algorithm;
	st = key_fill_public(out);
	if (st == OTA_OK && algorithm == OTA_KEY_ALG_HYBRID)
		st = oti_spx_generate(out);
	if (st != OTA_OK) {
		oti_key_free(out);
		return oti_diag_set(d, st, NULL, NULL, NULL);
	}
	return OTA_OK;
}

/* Never prompt: an encrypted key is refused, not unlocked. */
static int no_passphrase(char *buf, int size, int rwflag, void *u)
{
	(void)buf;
	(void)size;
	(void)rwflag;
	(void)u;
	return -1;
}

ota_status_t oti_key_parse(const uint8_t *pem, size_t pem_len, const uint8_t *spx,
			   size_t spx_len, struct oti_key *out, struct oti_diag *d)
{
	BIO *bio;
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	if (pem_len > OTI_MAX_SMALL_FILE)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, NULL, NULL);
	bio = BIO_new_mem_buf(pem, (int)pem_len);
	if (!bio)
		return crypto_fail(d, "BIO_new_mem_buf");
	out->pkey = PEM_read_bio_PrivateKey_ex(bio, NULL, no_passphrase, NULL, NULL, NULL);
	if (out->pkey) {
		out->has_private = true;
	} else {
		ERR_clear_error();
		(void)BIO_reset(bio);
		out->pkey = PEM_read_bio_PUBKEY_ex(bio, NULL, no_passphrase, NULL, NULL, NULL);
	}
	BIO_free(bio);
	ERR_clear_error();
	if (!out->pkey) {
		bool encrypted = memmem(pem, pem_len, "ENCRYPTED", 9) != NULL;

		return oti_diag_set(d, encrypted ? OTA_TOOL_KEY_ENCRYPTED : OTA_TOOL_KEY_MALFORMED,
				    NULL, NULL, NULL);
	}
	st = key_fill_public(out);
	if (st != OTA_OK)
		goto fail;

	out->algorithm = OTA_KEY_ALG_ECDSA_P256;
	if (spx) {
		bool secret;

		st = oti_spx_parse(spx, spx_len, out, &secret);
		if (st != OTA_OK)
			goto fail;
		/* Both halves of a hybrid key are private, or both public. */
		if (secret != out->has_private) {
			st = oti_diag_set(d, OTA_TOOL_KEY_MISMATCH, NULL, "spx_key.kind",
					  "the PEM key is %s but the SLH-DSA key is %s",
					  out->has_private ? "private" : "public",
					  secret ? "secret" : "public");
			oti_key_free(out);
			return st;
		}
		out->algorithm = OTA_KEY_ALG_HYBRID;
	}
	return OTA_OK;
fail:
	oti_key_free(out);
	return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
}

ota_status_t oti_key_load(const char *path, bool need_private, struct oti_key *out,
			  struct oti_diag *d)
{
	uint8_t *pem = NULL, *spx = NULL;
	size_t pem_len = 0, spx_len = 0;
	struct oti_diag local;
	char spx_path[4096];
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	if (snprintf(spx_path, sizeof(spx_path), "%s%s", path, OTI_SPX_SUFFIX) >=
	    (int)sizeof(spx_path))
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, path, NULL, "path too long");
	st = oti_file_read(path, OTI_MAX_SMALL_FILE, &pem, &pem_len, d);
	if (st != OTA_OK)
		return st;
	if (access(spx_path, F_OK) == 0) {
		st = oti_file_read(spx_path, OTI_MAX_SMALL_FILE, &spx, &spx_len, d);
		if (st != OTA_OK)
			goto out;
	}
	oti_diag_clear(&local);
	st = oti_key_parse(pem, pem_len, spx, spx_len, out, &local);
	if (st != OTA_OK) {
		/* Blame the half that failed: the parser names SLH-DSA key file fields. */
		bool spx_fault = strncmp(local.field, "spx_key", 7) == 0;

		if (d)
			*d = local;
		oti_diag_set(d, st, spx_fault ? spx_path : path, NULL, NULL);
		goto out;
	}
	if (need_private && !out->has_private) {
		oti_key_free(out);
		st = oti_diag_set(d, OTA_TOOL_KEY_NOT_PRIVATE, path, NULL, NULL);
	}
out:
	if (pem)
		OPENSSL_cleanse(pem, pem_len);
	if (spx)
		OPENSSL_cleanse(spx, spx_len);
	free(pem);
	free(spx);
	return st;
}

ota_status_t oti_key_encode(const struct oti_key *k, bool public_only, uint8_t **pem,
			    size_t *pem_len, struct oti_spx_keyfile *spx)
{
	BIO *bio = BIO_new(BIO_s_mem());
	BUF_MEM *mem = NULL;
	int ok;

	*pem = NULL;
	*pem_len = 0;
	if (!bio)
		return OTA_TOOL_CRYPTO;
	if (public_only || !k->has_private)
		ok = PEM_write_bio_PUBKEY(bio, k->pkey);
	else
		ok = PEM_write_bio_PrivateKey(bio, k->pkey, NULL, NULL, 0, NULL, NULL);
	if (!ok || BIO_get_mem_ptr(bio, &mem) <= 0 || !mem) {
		BIO_free(bio);
		return OTA_TOOL_CRYPTO;
	}
	*pem = malloc(mem->length);
	if (!*pem) {
		BIO_free(bio);
		return OTA_HOST_INTERNAL;
	}
	memcpy(*pem, mem->data, mem->length);
	*pem_len = mem->length;
	OPENSSL_cleanse(mem->data, mem->length);
	BIO_free(bio);
	if (spx && k->algorithm == OTA_KEY_ALG_HYBRID)
		oti_spx_encode(k, public_only || !k->has_private, spx);
	return OTA_OK;
}

ota_status_t oti_key_save(const struct oti_key *k, const char *priv_path, const char *pub_path,
			  bool force, struct oti_diag *d)
{
	const char *paths[2] = { priv_path, pub_path };
	struct oti_spx_keyfile spx[2];
	char spx_path[2][4096];
	uint8_t *pem[2] = { NULL, NULL };
	size_t pem_len[2] = { 0, 0 };
	struct oti_output outs[4];
	size_t n = 0, i;
	ota_status_t st = OTA_OK;

	if (priv_path && !k->has_private)
		return oti_diag_set(d, OTA_TOOL_KEY_NOT_PRIVATE, priv_path, NULL, NULL);
	for (i = 0; i < 2 && st == OTA_OK; i++) {
		bool secret = i == 0;

		if (!paths[i])
			continue;
		if (snprintf(spx_path[i], sizeof(spx_path[i]), "%s%s", paths[i], OTI_SPX_SUFFIX) >=
		    (int)sizeof(spx_path[i])) {
			st = oti_diag_set(d, OTA_TOOL_BAD_VALUE, paths[i], NULL, "path too long");
			break;
		}
		st = oti_key_encode(k, !secret, &pem[i], &pem_len[i], &spx[i]);
		if (st != OTA_OK) {
			oti_diag_set(d, st, paths[i], NULL, NULL);
			break;
		}
		outs[n++] = (struct oti_output){ paths[i], pem[i], pem_len[i], secret ? 0600 : 0644 };
		if (k->algorithm == OTA_KEY_ALG_HYBRID)
			outs[n++] = (struct oti_output){ spx_path[i], &spx[i], sizeof(spx[i]),
							 secret ? 0600 : 0644 };
	}
	if (st == OTA_OK)
		st = oti_files_write(outs, n, force, d);
	for (i = 0; i < 2; i++) {
		if (pem[i])
			OPENSSL_cleanse(pem[i], pem_len[i]);
		free(pem[i]);
	}
	OPENSSL_cleanse(spx, sizeof(spx));
	return st;
}

ota_status_t oti_key_public(const struct oti_key *k, struct oti_key *out)
{
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	st = oti_pkey_from_raw(k->pub, &out->pkey);
	if (st != OTA_OK)
		return st;
	out->algorithm = k->algorithm;
	memcpy(out->pub, k->pub, sizeof(out->pub));
	memcpy(out->key_id, k->key_id, sizeof(out->key_id));
	memcpy(out->spx_pk, k->spx_pk, sizeof(out->spx_pk));
	return OTA_OK;
}

void oti_key_free(struct oti_key *k)
{
	if (!k)
		return;
	EVP_PKEY_free(k->pkey);
	OPENSSL_cleanse(k, sizeof(*k));
}

void oti_key_root_entry(const struct oti_key *k, uint32_t lifecycle_mask, struct ota_root_key *out)
{
	memset(out, 0, sizeof(*out));
	out->state = OTA_KEY_STATE_PROVISIONED;
	out->algorithm = k->algorithm;
	out->lifecycle_mask = lifecycle_mask;
	memcpy(out->ecdsa_pubkey, k->pub, sizeof(out->ecdsa_pubkey));
	if (k->algorithm == OTA_KEY_ALG_HYBRID)
		memcpy(out->spx_pubkey, k->spx_pk, sizeof(out->spx_pubkey));
}
