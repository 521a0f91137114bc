// SPDX-License-Identifier: MIT
/*
 * The identity hand-over record (handover.h): its fields and the digest
 * the old identity key signs. The key manager model fills and signs one;
 * verifiers check a chain of them (host/handover_verify.c).
 */
#include <stddef.h>

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

static bool zero(const uint8_t *p, uint32_t n)
{
	uint8_t acc = 0;

	while (n--)
		acc |= *p++;
	return acc == 0;
}

bool ota_identity_log_check(const struct ota_identity_log *l)
{
	uint8_t d[OTA_SHA256_BYTES];

	ota_sha256(l, offsetof(struct ota_identity_log, digest), d);
	return l->magic == OTA_IDLOG_MAGIC && l->version == OTA_IDLOG_VERSION &&
	       l->size == sizeof(*l) && l->reserved == 0 &&
	       zero(l->reserved2, sizeof(l->reserved2)) &&
	       l->base_version <= OTA_OTP_IDENTITY_VERSION_BITS &&
	       ota_ct_equal(d, l->digest, sizeof(d));
}

bool ota_identity_log_entry_check(const struct ota_identity_log_entry *e)
{
	uint8_t d[OTA_SHA256_BYTES];

	ota_sha256(e, offsetof(struct ota_identity_log_entry, digest), d);
	return ota_ct_equal(d, e->digest, sizeof(d)) &&
	       ota_handover_check_fields(&e->handover) == OTA_OK;
}

void ota_identity_log_seal(struct ota_identity_log *l)
{
	ota_sha256(l, offsetof(struct ota_identity_log, digest), l->digest);
}

void ota_identity_log_entry_seal(struct ota_identity_log_entry *e)
{
	ota_sha256(e, offsetof(struct ota_identity_log_entry, digest), e->digest);
}
