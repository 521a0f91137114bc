// SPDX-License-Identifier: MIT
/*
 * The device identity certificate in flash: issued by the manufacturer CA
 * for this device's CSR and stored by SET_IDENTITY_CERT in manufacturing
 * (runtime/personalize.c), or packed by otimage pack.
 * Flash is untrusted: the blob is bounded and checked by the shared
 * parser, and it is only served when it certifies this device's identity
 * key (it must hold our whole SubjectPublicKeyInfo), so a certificate
 * copied from another device or left over from a reprovisioning is
 * refused rather than handed to verifiers.
 */
#include <string.h>

#include "rom_ext.h"

/* The certificate blob as read , 1 KiB: not on the stack. */
static struct ota_identity_cert_blob cert_blob;

ota_status_t ota_identity_cert_load(const uint8_t identity_pubkey[OTA_P256_PUBKEY_BYTES],
				    uint8_t *der, uint32_t cap, uint32_t *der_len)
{
	struct ota_flash_layout layout;
	const struct ota_flash_region *r;
	ota_status_t st;

	*der_len = 0;
	st = hal_flash_read(0, &layout, sizeof(layout));
	if (st != OTA_OK)
		return st;
	st = ota_flash_layout_check(&layout, hal_flash_size());
	if (st != OTA_OK)
		return st;
	r = ota_flash_layout_region(&layout, OTA_REGION_IDENTITY_CERT);
	if (r == NULL || r->size < sizeof(cert_blob))
		return OTA_RUNTIME_NO_CERTS;
	st = hal_flash_read(r->offset, &cert_blob, sizeof(cert_blob));
	if (st != OTA_OK)
		return st;
	if (cert_blob.magic != OTA_IDCERT_MAGIC)
		return OTA_RUNTIME_NO_CERTS; /* erased or never provisioned */
	st = ota_identity_cert_check(&cert_blob);
	if (st != OTA_OK)
		return st;
	if (cert_blob.der_length > cap)
		return OTA_X509_BUFFER_FULL;
	if (!ota_identity_cert_certifies(cert_blob.der, cert_blob.der_length, identity_pubkey))
		return OTA_RUNTIME_IDCERT_MISMATCH;
	memcpy(der, cert_blob.der, cert_blob.der_length);
	*der_len = cert_blob.der_length;
	return OTA_OK;
}
