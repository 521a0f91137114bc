// SPDX-License-Identifier: MIT
/*
 * ATTEST: fresh evidence for a verifier's nonce. The claims come from the
 * boot record as published (so its digest in the claims matches what the
 * host reads), the signature is ES256 by the retained alias key over the
 * COSE Sig_structure, hashed by the SHA-256 engine as prefix || payload
 * without ever assembling the structure in RAM.
 */
#include <string.h>

#include <otattest/cbor.h>

#include "runtime.h"

static uint8_t claims_buf[OTA_CLAIMS_MAX_BYTES];

static ota_status_t hash_record(const struct ota_boot_state *bs, uint8_t digest[OTA_SHA256_BYTES])
{
	ota_status_t st = hal_sha256_start();

	if (st == OTA_OK)
		st = hal_sha256_update(&bs->record, bs->record_len);
	if (st == OTA_OK)
		st = hal_sha256_finish(digest);
	return st;
}

static ota_status_t sign_sig1(const uint8_t *payload, uint32_t payload_len,
			      uint8_t sig[OTA_P256_SIG_BYTES])
{
	static const uint8_t prot[] = OTA_COSE_PROTECTED_ES256;
	uint8_t prefix[OTA_COSE_SIG1_PREFIX_MAX], digest[OTA_SHA256_BYTES];
	uint32_t prefix_len;
	hal_key_t alias;
	ota_status_t st;

	st = ota_cose_sig1_prefix(prot, sizeof(prot), payload_len, prefix, sizeof(prefix),
				  &prefix_len);
	if (st != OTA_OK)
		return st;
	st = hal_sha256_start();
	if (st == OTA_OK)
		st = hal_sha256_update(prefix, prefix_len);
	if (st == OTA_OK)
		st = hal_sha256_update(payload, payload_len);
	if (st == OTA_OK)
		st = hal_sha256_finish(digest);
	if (st != OTA_OK)
		return st;
	/* The vault hands out a fresh working handle each time: ours to destroy. */
	st = hal_key_retained(OTA_RETAINED_KEY_ALIAS, &alias);
	if (st != OTA_OK)
		return st;
	st = hal_ecdsa_sign(alias, digest, sig);
	hal_key_destroy(alias);
	return st;
}

ota_status_t ota_rt_attest(const struct ota_boot_state *bs, const struct ota_runtime *rt,
			   const uint8_t *nonce, uint32_t nonce_len,
			   uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len)
{
	uint8_t digest[OTA_SHA256_BYTES], sig[OTA_P256_SIG_BYTES];
	const uint8_t *certs[2];
	uint32_t cert_lens[2], ncerts = 1, claims_len, need;
	ota_status_t st;

	*resp_len = 0;
	if (bs->record_len > sizeof(bs->record))
		return OTA_RECORD_BAD_LENGTH;
	st = hash_record(bs, digest);
	if (st != OTA_OK)
		return st;
	st = ota_evidence_encode_claims(&bs->record, digest, nonce, nonce_len, claims_buf,
					sizeof(claims_buf), &claims_len);
	if (st != OTA_OK)
		return st;
	st = sign_sig1(claims_buf, claims_len, sig);
	if (st != OTA_OK)
		return st;

	certs[0] = rt->alias_cert;
	cert_lens[0] = rt->alias_cert_len;
	if (rt->identity_cert_len) {
		certs[1] = rt->identity_cert;
		cert_lens[1] = rt->identity_cert_len;
		ncerts = 2;
	}
	/* Measure first: a response that does not fit leaves the region untouched. */
	/* The hand-overs lead from the identity certificate to the alias certificate's issuer. */
	st = ota_evidence_encode_sign1_handovers(claims_buf, claims_len, certs, cert_lens, ncerts,
						 rt->handover, ncerts > 1 ? rt->handover_count : 0,
						 sig, NULL, 0, &need);
	if (st != OTA_OK)
		return st;
	if (need > resp_cap)
		return OTA_MBOX_RESPONSE_TOO_LARGE;
	return ota_evidence_encode_sign1_handovers(claims_buf, claims_len, certs, cert_lens, ncerts,
						   rt->handover, ncerts > 1 ? rt->handover_count : 0,
						   sig, resp, resp_cap, resp_len);
}
