// SPDX-License-Identifier: MIT
/*
 * A chain of identity hand-overs (handover.h), from the identity the CA
 * certified to the key that issued the alias certificate (verify.h,
 * ota_handover_chain_check). Every step is judged in the same order, so
 * each fault has one name: its fields, its device, its version, whom it
 * hands over from, its signature.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "otattest/handover.h"
#include "otattest/verify.h"
#include "cose_key.h"

static ota_status_t fail(ota_status_t st, char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	if (why != NULL && why_len) {
		va_start(ap, fmt);
		vsnprintf(why, why_len, fmt, ap);
		va_end(ap);
	}
	return st;
}

/* ECDSA P-256 of r || s over a SHA-256 digest, with a raw public key. */
static bool signed_by(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
		      const uint8_t digest[OTA_SHA256_BYTES], const uint8_t sig[OTA_P256_SIG_BYTES])
{
	EVP_PKEY *pkey = ota_p256_public_key(pubkey);
	EVP_PKEY_CTX *ctx = NULL;
	uint8_t *der = NULL;
	int der_len = ota_p256_sig_to_der(sig, &der);
	bool ok = false;

	if (pkey != NULL && der_len > 0 && (ctx = EVP_PKEY_CTX_new(pkey, NULL)) != NULL &&
	    EVP_PKEY_verify_init(ctx) == 1)
		ok = EVP_PKEY_verify(ctx, der, (size_t)der_len, digest, OTA_SHA256_BYTES) == 1;
	EVP_PKEY_CTX_free(ctx);
	OPENSSL_free(der);
	EVP_PKEY_free(pkey);
	return ok;
}

ota_status_t ota_handover_chain_check(const uint8_t certified[OTA_P256_PUBKEY_BYTES],
				      const uint8_t issuer[OTA_P256_PUBKEY_BYTES],
				      const uint8_t device_id[OTA_DEVICE_ID_BYTES],
				      const uint8_t *const blobs[], const size_t lens[],
				      uint32_t count, uint32_t *version, char *why,
				      size_t why_len)
{
	uint8_t reached[OTA_P256_PUBKEY_BYTES], digest[OTA_SHA256_BYTES];
	struct ota_identity_handover copy;
	uint32_t i, at = 0;

	if (version != NULL)
		*version = 0;
	if (count > OTA_HANDOVER_MAX)
		return fail(OTA_VERIFY_HANDOVER_MALFORMED, why, why_len,
			    "%u identity hand-overs, at most %u", count, OTA_HANDOVER_MAX);
	memcpy(reached, certified, sizeof(reached));
	for (i = 0; i < count; i++) {
		const struct ota_identity_handover *h = &copy;

		/* Copied: the blobs sit anywhere in the evidence, unaligned. */
		if (lens[i] != sizeof(copy))
			return fail(OTA_VERIFY_HANDOVER_MALFORMED, why, why_len,
				    "identity hand-over %u is malformed", i + 1);
		memcpy(&copy, blobs[i], sizeof(copy));
		if (ota_handover_check_fields(h) != OTA_OK)
			return fail(OTA_VERIFY_HANDOVER_MALFORMED, why, why_len,
				    "identity hand-over %u is malformed", i + 1);
		if (memcmp(h->device_id, device_id, OTA_DEVICE_ID_BYTES))
			return fail(OTA_VERIFY_IDENTITY_MISMATCH, why, why_len,
				    "identity hand-over %u is another device's", i + 1);
		if (i > 0 && h->from_version != at)
			return fail(OTA_VERIFY_HANDOVER_OUT_OF_ORDER, why, why_len,
				    "identity hand-over %u goes from version %u, the one before "
				    "ended at %u", i + 1, h->from_version, at);
		if (memcmp(h->from_pubkey, reached, OTA_P256_PUBKEY_BYTES))
			return fail(OTA_VERIFY_HANDOVER_GAP, why, why_len,
				    "identity hand-over %u is not from the %s", i + 1,
				    i ? "key the hand-over before it handed over to"
				      : "identity the CA certified");
		ota_handover_digest(h, digest);
		if (!signed_by(h->from_pubkey, digest, h->signature))
			return fail(OTA_VERIFY_HANDOVER_FORGED, why, why_len,
				    "identity hand-over %u (version %u to %u) is not signed by "
				    "the key it hands over from", i + 1, h->from_version,
				    h->to_version);
		memcpy(reached, h->to_pubkey, sizeof(reached));
		at = h->to_version;
	}
	if (memcmp(reached, issuer, OTA_P256_PUBKEY_BYTES) && count)
		return fail(OTA_VERIFY_HANDOVER_GAP, why, why_len,
			    "the last identity hand-over (to version %u) is not to the key that "
			    "issued the alias certificate", at);
	if (memcmp(reached, issuer, OTA_P256_PUBKEY_BYTES))
		return fail(OTA_VERIFY_HANDOVER_GAP, why, why_len,
			    "the alias certificate was issued by another key than the identity the "
			    "CA certified, and no hand-over leads there");
	if (version != NULL)
		*version = at;
	return OTA_OK;
}
