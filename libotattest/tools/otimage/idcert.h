/* SPDX-License-Identifier: MIT */
/*
 * Manufacturer CA and device identity certificates (otimage ca,
 * otimage provision). The identity certificate is what lets one chain
 * run from the CA to the alias key the firmware certifies at every boot:
 *
 *   manufacturer CA (self-signed, otimage ca)
 *     -> device identity (CA:TRUE, pathlen 0; subject named as
 *        evidence.h says, so the firmware can name it as issuer)
 *       -> alias key (issued by the device, firmware/runtime/alias_cert.c)
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

/* The flash blob (OTA_REGION_IDENTITY_CERT contents) for a certificate. */
ota_status_t otimage_identity_cert_blob(X509 *cert, struct ota_identity_cert_blob *blob);

/* PEM files; HOST_IO when they cannot be written or read. */
ota_status_t otimage_write_pem_cert(const char *path, X509 *cert);
ota_status_t otimage_write_pem_key(const char *path, EVP_PKEY *key);
ota_status_t otimage_read_pem_cert(const char *path, X509 **cert);
ota_status_t otimage_read_pem_key(const char *path, EVP_PKEY **key);

/*
 * otimage provision's identity step (provision_idcert.c): the DER
 * identity certificate for the device an OTP image describes, signed by
 * the CA in ca_key_path/ca_cert_path. *der is malloc'd.
 */
struct oti_diag;
struct ota_otp;
ota_status_t oti_provision_identity_cert(const struct ota_otp *otp, const char *ca_key_path,
					 const char *ca_cert_path, uint8_t **der, size_t *der_len,
					 struct oti_diag *d);

/* otimage ca (cmd_ca.c); dispatched from main.c. */
int oti_cmd_ca(int argc, char **argv);

#endif /* OTATTEST_OTIMAGE_IDCERT_H */
