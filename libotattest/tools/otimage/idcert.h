/* SPDX-License-Identifier: MIT */
/*
 * Manufacturer CA and device identity certificates (otimage ca,
 * otimage ca-sign). The identity certificate is what lets one chain
 * run from the CA to the alias key the firmware certifies at every boot:
 *
 *   manufacturer CA (self-signed, otimage ca)
 *     -> device identity (CA:TRUE, pathlen 0; subject named as
 *        evidence.h says, so the firmware can name it as issuer;
 *        issued for the CSR the device signs with the identity key)
 *       -> alias key (issued by the device, firmware/rom_ext/alias_cert.c)
 */
#ifndef OTATTEST_OTIMAGE_IDCERT_H
#define OTATTEST_OTIMAGE_IDCERT_H

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <otattest/flash.h>
#include <otattest/status.h>

/* A new P-256 CA key and its self-signed certificate (CN = common_name). */
ota_status_t otimage_ca_create(const char *common_name, EVP_PKEY **key, X509 **cert);

/*
 * Issue the identity certificate for a device: identity_pub is the public
 * key the device derives (evidence.h: OTA_IDENTITY_LABEL), X || Y.
 */
ota_status_t otimage_identity_cert_issue(EVP_PKEY *ca_key, X509 *ca_cert,
					 const uint8_t device_id[OTA_DEVICE_ID_BYTES],
					 const uint8_t identity_pub[OTA_P256_PUBKEY_BYTES],
					 X509 **out);

/*
 * A device's certificate request (csr.c; DER, or one PEM block) checked
 * the way the CA must before it issues: version 1, a P-256 key, an
 * ECDSA-with-SHA-256 signature that verifies under that key, subject
 * exactly the device identity name (evidence.h). On success the device id
 * from the subject and the key (X || Y). TOOL_CSR_MALFORMED,
 * TOOL_KEY_NOT_P256, TOOL_CSR_SIGNATURE or TOOL_CSR_SUBJECT otherwise.
 */
struct oti_diag;
ota_status_t otimage_csr_check(const uint8_t *buf, size_t len,
			       uint8_t device_id[OTA_DEVICE_ID_BYTES],
			       uint8_t pub[OTA_P256_PUBKEY_BYTES], struct oti_diag *d);

/* The flash blob (OTA_REGION_IDENTITY_CERT contents) for a certificate. */
ota_status_t otimage_identity_cert_blob(X509 *cert, struct ota_identity_cert_blob *blob);

/* PEM files; HOST_IO when they cannot be written or read. */
ota_status_t otimage_write_pem_cert(const char *path, X509 *cert);
ota_status_t otimage_write_pem_key(const char *path, EVP_PKEY *key);
ota_status_t otimage_read_pem_cert(const char *path, X509 **cert);
ota_status_t otimage_read_pem_key(const char *path, EVP_PKEY **key);

/* otimage ca (cmd_ca.c) and otimage ca-sign (cmd_ca_sign.c); dispatched from main.c. */
int oti_cmd_ca(int argc, char **argv);
int oti_cmd_ca_sign(int argc, char **argv);

#endif /* OTATTEST_OTIMAGE_IDCERT_H */
