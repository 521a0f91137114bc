// SPDX-License-Identifier: MIT
/*
 * COSE_Sign1 framing (RFC 9052 section 4): the Sig_structure prefix the
 * signer hashes and the final tagged message. Freestanding; the hashing
 * and signing themselves happen in the caller (the firmware uses the HAL).
 */
#include "otattest/cbor.h"
#include "otattest/evidence.h"
#include "otattest/handover.h"

ota_status_t ota_cose_sig1_prefix(const uint8_t *protected_hdr, uint32_t protected_len,
				  uint32_t payload_len, uint8_t *out, uint32_t cap,
				  uint32_t *out_len)
{
	struct ota_cbor_enc e;

	ota_cbor_enc_init(&e, out, cap);
	ota_cbor_put_array(&e, 4);
	ota_cbor_put_text(&e, OTA_COSE_SIG1_CONTEXT, sizeof(OTA_COSE_SIG1_CONTEXT) - 1u);
	ota_cbor_put_bytes(&e, protected_hdr, protected_len);
	ota_cbor_put_bytes(&e, (const uint8_t *)0, 0); /* external_aad: none */
	ota_cbor_put_head(&e, OTA_CBOR_BSTR, payload_len); /* payload follows */
	return ota_cbor_enc_finish(&e, out_len);
}

ota_status_t ota_evidence_encode_sign1_handovers(const uint8_t *payload, uint32_t payload_len,
						 const uint8_t *const certs[],
						 const uint32_t cert_lens[], uint32_t cert_count,
						 const struct ota_identity_handover *handovers,
						 uint32_t handover_count,
						 const uint8_t signature[OTA_P256_SIG_BYTES],
						 uint8_t *out, uint32_t cap, uint32_t *out_len)
{
	static const uint8_t prot[] = OTA_COSE_PROTECTED_ES256;
	struct ota_cbor_enc e;
	uint32_t i;

	if (cert_count == 0 || handover_count > OTA_HANDOVER_MAX ||
	    (handover_count && handovers == (const struct ota_identity_handover *)0))
		return OTA_COSE_BAD_HEADER;
	ota_cbor_enc_init(&e, out, cap);
	ota_cbor_put_tag(&e, OTA_COSE_SIGN1_TAG);
	ota_cbor_put_array(&e, 4);
	ota_cbor_put_bytes(&e, prot, sizeof(prot));
	/* Deterministic order: 33 (0x18 0x21) before -65537 (0x3a ...). */
	ota_cbor_put_map(&e, handover_count ? 2u : 1u);
	ota_cbor_put_int(&e, OTA_COSE_HDR_X5CHAIN);
	/* RFC 9360: a single certificate is a bare bstr, several an array. */
	if (cert_count > 1)
		ota_cbor_put_array(&e, cert_count);
	for (i = 0; i < cert_count; i++)
		ota_cbor_put_bytes(&e, certs[i], cert_lens[i]);
	if (handover_count) {
		ota_cbor_put_int(&e, OTA_COSE_HDR_HANDOVERS);
		ota_cbor_put_array(&e, handover_count);
		for (i = 0; i < handover_count; i++)
			ota_cbor_put_bytes(&e, (const uint8_t *)&handovers[i], sizeof(handovers[i]));
	}
	ota_cbor_put_bytes(&e, payload, payload_len);
	ota_cbor_put_bytes(&e, signature, OTA_P256_SIG_BYTES);
	return ota_cbor_enc_finish(&e, out_len);
}

ota_status_t ota_evidence_encode_sign1(const uint8_t *payload, uint32_t payload_len,
				       const uint8_t *const certs[], const uint32_t cert_lens[],
				       uint32_t cert_count,
				       const uint8_t signature[OTA_P256_SIG_BYTES],
				       uint8_t *out, uint32_t cap, uint32_t *out_len)
{
	return ota_evidence_encode_sign1_handovers(payload, payload_len, certs, cert_lens,
						   cert_count, (const struct ota_identity_handover *)0,
						   0, signature, out, cap, out_len);
}
