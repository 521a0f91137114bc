// SPDX-License-Identifier: MIT
/*
 * The device identity certificate, written to flash by otimage provision.
 * Flash is untrusted: the blob is bounded and checked by the shared
 * parser, and it is only served when it certifies this device's identity
 * key (its SubjectPublicKeyInfo must carry our point), so a certificate
 * copied from another device or left over from a reprovisioning is
 * refused rather than handed to verifiers.
 */
#include <string.h>

#include "runtime.h"

static bool contains(const uint8_t *hay, uint32_t hay_len, const uint8_t *needle,
		     uint32_t needle_len)
{
	uint32_t i;

	for (i = 0; i + needle_len <= hay_len; i++)
		if (memcmp(hay + i, needle, needle_len) == 0)
			return true;
	return false;
}

ota_status_t ota_identity_cert_load(const uint8_t identity_pubkey[OTA_P256_PUBKEY_BYTES],
				    uint8_t *der, uint32_t cap, uint32_t *der_len)
{
	static struct ota_identity_cert_blob blob; /* 1 KiB: not on the stack */
	struct ota_flash_layout layout;
	const struct ota_flash_region *r;
	uint8_t point[1u + OTA_P256_PUBKEY_BYTES];
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
	point[0] = 0x04;
	memcpy(point + 1, identity_pubkey, OTA_P256_PUBKEY_BYTES);
	if (!contains(blob.der, blob.der_length, point, sizeof(point)))
		return OTA_RUNTIME_IDCERT_MISMATCH;
	memcpy(der, blob.der, blob.der_length);
	*der_len = blob.der_length;
	return OTA_OK;
}
