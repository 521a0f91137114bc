// SPDX-License-Identifier: MIT
/*
 * The identity-certificate step of otimage provision: from the OTP image
 * just built, compute the identity public key the device will derive
 * (swhal_derive_root_pubkey: the key manager's own code, fed the device
 * secret and the ROM identity, label OTA_IDENTITY_LABEL) and have the
 * manufacturer CA certify it. The device never exports a key: this works
 * because the factory holds the secret it is about to fuse.
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/x509.h>

#include <otattest/evidence.h>

#include "idcert.h"
#include "otimage_internal.h"
#include "swhal.h"

ota_status_t oti_provision_identity_cert(const struct ota_otp *otp, const char *ca_key_path,
					 const char *ca_cert_path, uint8_t **der, size_t *der_len,
					 struct oti_diag *d)
{
	uint8_t rom[OTA_SHA256_BYTES], pub[OTA_P256_PUBKEY_BYTES];
	EVP_PKEY *ca_key = NULL;
	X509 *ca = NULL, *cert = NULL;
	unsigned char *p = NULL;
	ota_status_t st;
	int n;

	*der = NULL;
	*der_len = 0;
	st = otimage_read_pem_key(ca_key_path, &ca_key);
	if (st != OTA_OK)
		return oti_diag_set(d, st, ca_key_path, "--ca-key", "cannot read a PEM private key");
	st = otimage_read_pem_cert(ca_cert_path, &ca);
	if (st != OTA_OK) {
		oti_diag_set(d, st, ca_cert_path, "--ca-cert", "cannot read a PEM certificate");
		goto out;
	}
	if (X509_check_private_key(ca, ca_key) != 1) {
		st = oti_diag_set(d, OTA_TOOL_KEY_MISMATCH, ca_key_path, "--ca-key",
				  "not the key of %s", ca_cert_path);
		goto out;
	}
	swhal_default_rom_identity(rom);
	st = swhal_derive_root_pubkey(otp->device_secret, rom, OTA_IDENTITY_LABEL, NULL, 0, pub);
	if (st != OTA_OK) {
		oti_diag_set(d, st, NULL, "identity", "deriving the identity public key failed");
		goto out;
	}
	st = otimage_identity_cert_issue(ca_key, ca, otp->device_id, pub, &cert);
	if (st != OTA_OK) {
		oti_diag_set(d, st, ca_cert_path, "identity", "issuing the certificate failed");
		goto out;
	}
	n = i2d_X509(cert, &p);
	if (n <= 0 || (size_t)n > OTA_IDCERT_MAX_DER) {
		st = oti_diag_set(d, n <= 0 ? OTA_TOOL_CRYPTO : OTA_TOOL_TOO_LARGE, NULL, "identity",
				  "DER encoding failed or is over %u bytes", OTA_IDCERT_MAX_DER);
		goto out;
	}
	*der = malloc((size_t)n);
	if (*der == NULL) {
		st = OTA_HOST_INTERNAL;
		goto out;
	}
	memcpy(*der, p, (size_t)n);
	*der_len = (size_t)n;
out:
	OPENSSL_free(p);
	X509_free(cert);
	X509_free(ca);
	EVP_PKEY_free(ca_key);
	return st;
}
