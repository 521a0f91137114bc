// SPDX-License-Identifier: MIT
/*
 * The SLH-DSA half of a hybrid key, and its key file (struct
 * oti_spx_keyfile, documented in docs/formats.md). SLH-DSA itself is
 * libotattest's FIPS 205 implementation; OpenSSL 3.0 has none.
 */
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <otattest/slhdsa.h>

#include "otimage.h"
#include "otimage_keys.h"

ota_status_t oti_spx_generate(struct oti_key *k)
{
	uint8_t seeds[48];

	if (RAND_priv_bytes(seeds, sizeof(seeds)) != 1)
		return OTA_TOOL_CRYPTO;
	ota_slhdsa_keygen(seeds, seeds + 16, seeds + 32, k->spx_pk, k->spx_sk);
	OPENSSL_cleanse(seeds, sizeof(seeds));
	return OTA_OK;
}

ota_status_t oti_spx_sign(const struct oti_key *k, const uint8_t *msg, size_t len,
			  uint8_t sig[OTA_SLHDSA_SIG_BYTES])
{
	uint8_t addrnd[16];

	if (k->algorithm != OTA_KEY_ALG_HYBRID || !k->has_private)
		return OTA_TOOL_KEY_NOT_PRIVATE;
	/* Hedged signing (FIPS 205 section 9.2): fresh randomness per signature. */
	if (RAND_bytes(addrnd, sizeof(addrnd)) != 1)
		return OTA_TOOL_CRYPTO;
	ota_slhdsa_sign(k->spx_sk, msg, len, addrnd, sig);
	return OTA_OK;
}

ota_status_t oti_spx_parse(const uint8_t *buf, size_t len, struct oti_key *k, bool *secret)
{
	struct oti_spx_keyfile f;
	uint8_t pk[OTA_SLHDSA_PK_BYTES], sk[OTA_SLHDSA_SK_BYTES];
	ota_status_t st = OTA_OK;

	memset(&f, 0, sizeof(f));
	if (len < 8) /* too short to say what it is */
		return OTA_TOOL_SPXKEY_BAD_SIZE;
	memcpy(&f, buf, len < sizeof(f) ? len : sizeof(f));
	if (f.magic != OTI_SPXKEY_MAGIC)
		return OTA_TOOL_SPXKEY_BAD_MAGIC;
	if (f.version != OTI_SPXKEY_VERSION)
		return OTA_TOOL_SPXKEY_BAD_VERSION;
	if (f.size != sizeof(f) || len != sizeof(f))
		return OTA_TOOL_SPXKEY_BAD_SIZE;
	if (f.algorithm != OTI_SPXKEY_ALG_SLHDSA_SHA2_128S) {
		st = OTA_TOOL_SPXKEY_BAD_ALG;
		goto out;
	}
	switch (f.kind) {
	case OTI_SPXKEY_KIND_PUBLIC:
		if (!ota_all_zero(f.sk, sizeof(f.sk))) {
			st = OTA_TOOL_SPXKEY_RESERVED_NONZERO;
			goto out;
		}
		*secret = false;
		break;
	case OTI_SPXKEY_KIND_SECRET:
		/*
		 * The secret key embeds PK.seed || PK.root; recompute the root
		 * from the seeds so a damaged key is caught now, not as a
		 * signature every device refuses.
		 */
		ota_slhdsa_keygen(f.sk, f.sk + 16, f.sk + 32, pk, sk);
		if (memcmp(pk, f.pk, sizeof(pk)) != 0 || memcmp(sk, f.sk, sizeof(sk)) != 0) {
			st = OTA_TOOL_SPXKEY_MISMATCH;
			goto out;
		}
		memcpy(k->spx_sk, f.sk, sizeof(k->spx_sk));
		*secret = true;
		break;
	default:
		st = OTA_TOOL_SPXKEY_BAD_KIND;
		goto out;
	}
	memcpy(k->spx_pk, f.pk, sizeof(k->spx_pk));
out:
	OPENSSL_cleanse(&f, sizeof(f));
	OPENSSL_cleanse(sk, sizeof(sk));
	return st;
}

void oti_spx_encode(const struct oti_key *k, bool public_only, struct oti_spx_keyfile *out)
{
	memset(out, 0, sizeof(*out));
	out->magic = OTI_SPXKEY_MAGIC;
	out->version = OTI_SPXKEY_VERSION;
	out->size = sizeof(*out);
	out->algorithm = OTI_SPXKEY_ALG_SLHDSA_SHA2_128S;
	out->kind = public_only ? OTI_SPXKEY_KIND_PUBLIC : OTI_SPXKEY_KIND_SECRET;
	if (!public_only)
		memcpy(out->sk, k->spx_sk, sizeof(out->sk));
	memcpy(out->pk, k->spx_pk, sizeof(out->pk));
}
