// SPDX-License-Identifier: MIT
/*
 * The identity certificate blob in flash: just enough DER to know the
 * stated length is the certificate's own (one outer SEQUENCE), so the
 * runtime never hands out a truncated or padded certificate. Verifying
 * the certificate is the verifier's job.
 */
#include <string.h>

#include "otattest/flash.h"

/* Outer SEQUENCE header: tag 0x30, then a minimal definite length. */
static bool der_outer_length(const uint8_t *der, uint32_t avail, uint32_t *total)
{
	uint32_t len, hdr;

	if (avail < 2 || der[0] != 0x30)
		return false;
	if (der[1] < 0x80) {
		len = der[1];
		hdr = 2;
	} else if (der[1] == 0x81) {
		if (avail < 3 || der[2] < 0x80) /* DER: shortest form only */
			return false;
		len = der[2];
		hdr = 3;
	} else if (der[1] == 0x82) {
		if (avail < 4 || der[2] == 0)
			return false;
		len = ((uint32_t)der[2] << 8) | der[3];
		hdr = 4;
	} else {
		return false; /* longer than any blob can hold */
	}
	*total = hdr + len;
	return true;
}

ota_status_t ota_identity_cert_check(const struct ota_identity_cert_blob *c)
{
	uint32_t total;

	if (c->magic != OTA_IDCERT_MAGIC)
		return OTA_IDCERT_BAD_MAGIC;
	if (c->der_length == 0 || c->der_length > OTA_IDCERT_MAX_DER)
		return OTA_IDCERT_BAD_LENGTH;
	if (!der_outer_length(c->der, c->der_length, &total) || total != c->der_length)
		return OTA_IDCERT_BAD_DER;
	if (!ota_all_zero(c->der + c->der_length, OTA_IDCERT_MAX_DER - c->der_length))
		return OTA_IDCERT_RESERVED_NONZERO;
	return OTA_OK;
}

/*
 * SubjectPublicKeyInfo of a P-256 key up to the point's coordinates:
 * SEQUENCE { SEQUENCE { ecPublicKey, prime256v1 }, BIT STRING 00 04 ... }.
 * The whole 91-byte SPKI must appear, not just the point.
 */
static const uint8_t spki_prefix[] = {
	0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01,
	0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00, 0x04,
};

bool ota_identity_cert_certifies(const uint8_t *der, uint32_t der_len,
				 const uint8_t pubkey[OTA_P256_PUBKEY_BYTES])
{
	uint8_t spki[sizeof(spki_prefix) + OTA_P256_PUBKEY_BYTES];
	uint32_t i;

	memcpy(spki, spki_prefix, sizeof(spki_prefix));
	memcpy(spki + sizeof(spki_prefix), pubkey, OTA_P256_PUBKEY_BYTES);
	for (i = 0; i + sizeof(spki) <= der_len; i++)
		if (memcmp(der + i, spki, sizeof(spki)) == 0)
			return true;
	return false;
}
