// SPDX-License-Identifier: MIT
/*
 * Personalization, the factory's two mailbox commands (docs/mailbox.md),
 * served only while the device is in the manufacturing lifecycle state
 * (TEST_UNLOCKED):
 *
 *   GET_IDENTITY_CSR   the PKCS#10 request ROM_EXT signed with the
 *                      identity key at this boot (rom_ext/identity_csr.c)
 *   SET_IDENTITY_CERT  the certificate the manufacturer CA issued for it,
 *                      written to the identity certificate region
 *
 * The runtime holds no identity key and no CA, so it cannot check the
 * CA's signature; it checks what it can - the certificate is one DER
 * SEQUENCE of its stated length (the flash blob's own rule) and carries
 * this device's identity key - and stores nothing else. Every refusal
 * comes before the first flash write, so a refused request leaves flash
 * as it was. The certificate is served from the next boot on (ROM_EXT
 * loads it, identity_cert.c), which the lifecycle transition needs anyway.
 *
 * The region holds one copy: a power cut while it is written leaves no
 * valid certificate (GET_CERTS then answers why), and the station sends
 * it again - the device is still in manufacturing, the request and the
 * key are the same at every boot.
 */
#include <string.h>

#include "runtime.h"

OTA_STATIC_ASSERT(sizeof(((const struct ota_req_set_identity_cert *)0)->der) ==
			  sizeof(((const struct ota_identity_cert_blob *)0)->der),
		  "a SET_IDENTITY_CERT request carries exactly what the flash blob holds");
OTA_STATIC_ASSERT(sizeof(struct ota_identity_cert_blob) <= OTA_FLASH_PAGE_SIZE,
		  "the blob is written with one page erase");

static bool manufacturing(const struct ota_boot_state *bs)
{
	return bs->otp.lifecycle == OTA_LC_TEST_UNLOCKED;
}

ota_status_t ota_rt_get_identity_csr(const struct ota_boot_state *bs,
				     const struct ota_runtime *rt, uint8_t *resp,
				     uint32_t resp_cap, uint32_t *resp_len)
{
	if (!manufacturing(bs))
		return OTA_RUNTIME_NOT_MANUFACTURING;
	if (rt->identity_csr_len == 0 || rt->identity_csr_len > sizeof(rt->identity_csr))
		return rt->identity_csr_status != OTA_OK ? rt->identity_csr_status
							 : OTA_X509_BUFFER_FULL;
	if (rt->identity_csr_len > resp_cap)
		return OTA_MBOX_RESPONSE_TOO_LARGE;
	memcpy(resp, rt->identity_csr, rt->identity_csr_len);
	*resp_len = rt->identity_csr_len;
	return OTA_OK;
}

/* The identity certificate region, from a layout that passes its check. */
static ota_status_t idcert_region(struct ota_flash_region *out)
{
	struct ota_flash_layout layout;
	const struct ota_flash_region *r;

	OTA_TRY(hal_flash_read(0, &layout, sizeof(layout)));
	OTA_TRY(ota_flash_layout_check(&layout, hal_flash_size()));
	r = ota_flash_layout_region(&layout, OTA_REGION_IDENTITY_CERT);
	if (r == NULL || r->size < sizeof(struct ota_identity_cert_blob))
		return OTA_LAYOUT_REGION_OUT_OF_RANGE;
	*out = *r;
	return OTA_OK;
}

/* store()'s read-back copy , 1 KiB: not on the stack. */
static struct ota_identity_cert_blob store_readback;

/* Erase, program, read back: a copy that does not read back is a failed write. */
static ota_status_t store(uint32_t offset, const struct ota_identity_cert_blob *blob)
{
	OTA_TRY(hal_flash_erase_page(offset));
	OTA_TRY(hal_flash_program(offset, blob, sizeof(*blob)));
	OTA_TRY(hal_flash_read(offset, &store_readback, sizeof(store_readback)));
	return memcmp(&store_readback, blob, sizeof(store_readback)) == 0 ? OTA_OK
								    : OTA_HAL_FLASH_WRITE_FAILED;
}

/* The certificate blob being written , 1 KiB: not on the stack. */
static struct ota_identity_cert_blob cert_blob;

ota_status_t ota_rt_set_identity_cert(const struct ota_boot_state *bs,
				      const struct ota_runtime *rt,
				      const struct ota_req_set_identity_cert *req)
{
	struct ota_flash_region region;
	ota_status_t st;

	if (!manufacturing(bs))
		return OTA_RUNTIME_NOT_MANUFACTURING;
	/* The request was copied out and its length and padding checked (command.c). */
	memset(&cert_blob, 0, sizeof(cert_blob));
	cert_blob.magic = OTA_IDCERT_MAGIC;
	cert_blob.der_length = req->der_length;
	memcpy(cert_blob.der, req->der, sizeof(cert_blob.der));
	st = ota_identity_cert_check(&cert_blob);
	if (st != OTA_OK)
		return st;
	if (!ota_identity_cert_certifies(cert_blob.der, cert_blob.der_length, rt->identity_pubkey))
		return OTA_RUNTIME_IDCERT_NOT_OURS;
	OTA_TRY(idcert_region(&region));
	return store(region.offset, &cert_blob);
}
