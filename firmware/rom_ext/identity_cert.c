// SPDX-License-Identifier: MIT
/*
 * The device identity certificate, written to flash by otimage provision.
 * Flash is untrusted: the blob is bounded and checked by the shared
 * parser, and it is only served when it certifies this device's identity
 * key (it must hold our whole SubjectPublicKeyInfo), so a certificate
 * copied from another device or left over from a reprovisioning is
 * refused rather than handed to verifiers.
 */
#include <string.h>

#include "rom_ext.h"

static bool contains(const uint8_t *hay, uint32_t hay_len, const uint8_t *needle,
		     uint32_t needle_len)
{
	uint32_t i;

	for (i = 0; i + needle_len <= hay_len; i++)
		if (memcmp(hay + i, needle, needle_len) == 0)
			return true;
	return false;
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

ota_status_t ota_identity_cert_load(const uint8_t identity_pubkey[OTA_P256_PUBKEY_BYTES],
				    uint8_t *der, uint32_t cap, uint32_t *der_len)
{
	static struct ota_identity_cert_blob blob; /* 1 KiB: not on the stack */
	struct ota_flash_layout layout;
	const struct ota_flash_region *r;
	uint8_t spki[sizeof(spki_prefix) + OTA_P256_PUBKEY_BYTES];
	ota_status_t st;

	*der_len = 0;
	st = hal_flash_read(0, &layout, sizeof(layout));
	if (st != OTA_OK)
		return st;
	st = ota_flash_layout_check(&layout, hal_flash_size());
	if (st != OTA_OK)
		return st;
	r = ota_flash_layout_region(&layout, OTA_REGION_IDENTITY_CERT);
	if (r == NULL || r->size < sizeof(blob))
		return OTA_RUNTIME_NO_CERTS;
	st = hal_flash_read(r->offset, &blob, sizeof(blob));
	if (st != OTA_OK)
		return st;
	if (blob.magic != OTA_IDCERT_MAGIC)
		return OTA_RUNTIME_NO_CERTS; /* erased or never provisioned */
	st = ota_identity_cert_check(&blob);
	if (st != OTA_OK)
		return st;
	if (blob.der_length > cap)
		return OTA_X509_BUFFER_FULL;
	memcpy(spki, spki_prefix, sizeof(spki_prefix));
	memcpy(spki + sizeof(spki_prefix), identity_pubkey, OTA_P256_PUBKEY_BYTES);
	if (!contains(blob.der, blob.der_length, spki, sizeof(spki)))
		return OTA_RUNTIME_IDCERT_MISMATCH;
	memcpy(der, blob.der, blob.der_length);
	*der_len = blob.der_length;
	return OTA_OK;
}
