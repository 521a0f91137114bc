// SPDX-License-Identifier: MIT
/*
 * The identity hand-over record (handover.h): its fields and the digest
 * the old identity key signs. The key manager model fills and signs one;
 * verifiers check a chain of them (host/handover_verify.c).
 */
#include "otattest/handover.h"
#include "otattest/sha256.h"

ota_status_t ota_handover_check_fields(const struct ota_identity_handover *h)
{
	uint8_t acc = 0;
	uint32_t i;

	for (i = 0; i < sizeof(h->reserved); i++)
		acc |= h->reserved[i];
	if (h->magic != OTA_HANDOVER_MAGIC || h->version != OTA_HANDOVER_VERSION ||
	    h->size != sizeof(*h) || acc != 0 ||
	    h->from_version >= OTA_OTP_IDENTITY_VERSION_BITS ||
	    h->to_version != h->from_version + 1u)
		return OTA_VERIFY_HANDOVER_MALFORMED;
	return OTA_OK;
}

void ota_handover_digest(const struct ota_identity_handover *h, uint8_t out[OTA_SHA256_BYTES])
{
	ota_sha256(h, OTA_HANDOVER_SIGNED_BYTES, out);
}
