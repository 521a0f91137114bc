// SPDX-License-Identifier: MIT
/*
 * The reference-value rule (docs/corim.md): a booted stage's measurement,
 * SVN and signer key ids must be one of the references the CoRIMs list
 * for its stage; and the key an operator names for the CoRIMs' signer.
 */
#include <stdio.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <otu/hex.h>

#include "otattest/corim.h"

#include "fileio.h"
#include "verdict.h"

static bool digest_listed(const struct ota_refval *rv, const uint8_t d[OTA_SHA256_BYTES])
{
	for (uint32_t i = 0; i < rv->digest_count; i++)
		if (memcmp(rv->digests[i], d, OTA_SHA256_BYTES) == 0)
			return true;
	return false;
}

static bool svn_ok(const struct ota_refval *rv, uint32_t svn)
{
	return rv->svn_is_min ? svn >= rv->svn : svn == rv->svn;
}

/* No key ids listed: the reference does not constrain the signers. */
static bool keys_ok(const struct ota_refval *rv, const struct ota_evidence_stage *s)
{
	return rv->key_id_count == 0 ||
	       (rv->key_id_count == s->key_id_count &&
		memcmp(rv->key_ids, s->key_ids, (size_t)s->key_id_count * OTA_KEY_ID_BYTES) == 0);
}

void ota_refvals_check(const struct ota_refvals *r, const struct ota_evidence_stage *s,
		       struct ota_verdict *v)
{
	const char *name = ota_stage_name(s->stage);
	const struct ota_refval *same_digest = NULL;
	char hex[2 * OTA_SHA256_BYTES + 1];
	uint32_t i, listed = 0;

	for (i = 0; i < r->count; i++) {
		const struct ota_refval *rv = &r->rv[i];

		if (rv->stage != s->stage)
			continue;
		listed++;
		if (!digest_listed(rv, s->measurement))
			continue;
		if (svn_ok(rv, s->svn) && keys_ok(rv, s))
			return;
		same_digest = rv;
	}
	/* Say which part differs: an operator fixes a CoRIM by it. */
	otu_hex_encode(hex, s->measurement, 16); /* the first half names it well enough */
	if (listed == 0)
		ota_verdict_add(v, OTA_VERIFY_REFERENCE_MISMATCH, s->stage,
				"the reference values list no %s measurement", name);
	else if (same_digest == NULL)
		ota_verdict_add(v, OTA_VERIFY_REFERENCE_MISMATCH, s->stage,
				"%s measurement %s... is not in the reference values", name, hex);
	else if (!svn_ok(same_digest, s->svn))
		ota_verdict_add(v, OTA_VERIFY_REFERENCE_MISMATCH, s->stage,
				"%s measurement %s... is listed with SVN %s%u, the evidence shows %u",
				name, hex, same_digest->svn_is_min ? ">= " : "", same_digest->svn,
				s->svn);
	else
		ota_verdict_add(v, OTA_VERIFY_REFERENCE_MISMATCH, s->stage,
				"%s measurement %s... is listed with other signer key ids", name,
				hex);
}

ota_status_t ota_p256_pubkey_load_file(const char *path, uint8_t out[OTA_P256_PUBKEY_BYTES])
{
	unsigned char *buf = NULL;
	size_t len = 0;
	char group[32];
	BIO *bio;
	EVP_PKEY *pkey = NULL;
	BIGNUM *x = NULL, *y = NULL;
	ota_status_t st;
	bool ok;

	st = ota_read_file(path, 16384, &buf, &len);
	if (st != OTA_OK)
		return st;
	bio = BIO_new_mem_buf(buf, (int)len);
	if (bio)
		pkey = PEM_read_bio_PUBKEY_ex(bio, NULL, NULL, NULL, NULL, NULL);
	ok = pkey && EVP_PKEY_is_a(pkey, "EC") &&
	     EVP_PKEY_get_utf8_string_param(pkey, OSSL_PKEY_PARAM_GROUP_NAME, group,
					    sizeof(group), NULL) == 1 &&
	     strcmp(group, "prime256v1") == 0 &&
	     EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_EC_PUB_X, &x) == 1 &&
	     EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_EC_PUB_Y, &y) == 1 &&
	     BN_bn2binpad(x, out, 32) == 32 && BN_bn2binpad(y, out + 32, 32) == 32;
	BN_free(x);
	BN_free(y);
	EVP_PKEY_free(pkey);
	BIO_free(bio);
	free(buf);
	return ok ? OTA_OK : OTA_X509_MALFORMED;
}
