// SPDX-License-Identifier: MIT
/*
 * Personalization for tests (tu_device.h, tu_identity_provision): apart
 * from tu_device.c, so only the tests that verify evidence link the
 * certificate tools.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/pem.h>
#include <otattest/verify.h>

#include "../../../libotattest/tools/otimage/idcert.h"
#include "swhal.h"
#include "tu_device.h"

struct ota_trust *tu_identity_provision(const struct tu_device *d)
{
	return tu_identity_provision_pem(d, NULL, NULL);
}

struct ota_trust *tu_identity_provision_pem(const struct tu_device *d, char **ca_pem,
					    size_t *ca_pem_len)
{
	struct ota_identity_cert_blob blob;
	const struct ota_flash_region *reg;
	uint8_t rom[32], attest[32], pub[64], *bytes;
	struct ota_trust *trust = NULL;
	EVP_PKEY *ca_key;
	X509 *ca, *id;
	BIO *bio;
	char *pem;
	long n;

	swhal_rom_identity(rom); /* the ROM the chip holds: rom.elf's digest on the core */
	tu_rom_ext_attest(attest);
	ck_assert_uint_eq(swhal_derive_rom_ext_pubkey(d->secret, rom, attest, OTA_IDENTITY_LABEL, NULL,
						      0, pub), OTA_OK);
	ck_assert_uint_eq(otimage_ca_create("test CA", &ca_key, &ca), OTA_OK);
	ck_assert_uint_eq(otimage_identity_cert_issue(ca_key, ca, d->device_id, pub, &id), OTA_OK);
	ck_assert_uint_eq(otimage_identity_cert_blob(id, &blob), OTA_OK);
	reg = tu_region(OTA_REGION_IDENTITY_CERT);
	bytes = calloc(1, reg->size);
	ck_assert_ptr_nonnull(bytes);
	memset(bytes, 0xff, reg->size);
	memcpy(bytes, &blob, sizeof(blob));
	ck_assert_int_eq(swhal_poke_flash(reg->offset, bytes, reg->size), 0);
	free(bytes);
	bio = BIO_new(BIO_s_mem());
	ck_assert_ptr_nonnull(bio);
	ck_assert_int_eq(PEM_write_bio_X509(bio, ca), 1);
	n = BIO_get_mem_data(bio, &pem);
	ck_assert_uint_eq(ota_trust_load_pem(pem, (size_t)n, &trust), OTA_OK);
	if (ca_pem != NULL) {
		*ca_pem = malloc((size_t)n);
		ck_assert_ptr_nonnull(*ca_pem);
		memcpy(*ca_pem, pem, (size_t)n);
		*ca_pem_len = (size_t)n;
	}
	BIO_free(bio);
	X509_free(id);
	X509_free(ca);
	EVP_PKEY_free(ca_key);
	return trust;
}
