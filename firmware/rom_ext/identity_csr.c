// SPDX-License-Identifier: MIT
/*
 * The device's request for its identity certificate: a PKCS#10
 * CertificationRequest (RFC 2986) for the identity key, signed by that
 * key with ECDSA P-256 / SHA-256, as a manufacturer's personalization
 * station collects it. The device never exports a key; what leaves it is
 * the public key and proof it holds the private one.
 *
 *   CertificationRequestInfo ::= SEQUENCE {
 *       version       INTEGER v1 (0),
 *       subject       O=otattest, CN=otattest identity <device id>
 *                     (evidence.h: the name the identity certificate
 *                     carries and the alias certificate names as issuer),
 *       subjectPKInfo id-ecPublicKey prime256v1,
 *       attributes    [0] { } - none: the certificate's profile is the CA's }
 *
 * Made only in the manufacturing lifecycle state (TEST_UNLOCKED), at the
 * one point where the identity key exists: ROM_EXT, before the key
 * manager moves to RUNTIME. The runtime serves the bytes
 * (GET_IDENTITY_CSR, docs/mailbox.md) and can never sign another.
 */
#include <otattest/x509.h>

#include "rom_ext.h"

ota_status_t ota_identity_csr_build(const uint8_t device_id[OTA_DEVICE_ID_BYTES],
				    const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
				    hal_key_t identity, uint8_t *out, uint32_t cap,
				    uint32_t *out_len)
{
	uint32_t info_start;
	struct ota_der d;

	*out_len = 0;
	ota_der_init(&d, out, cap);
	ota_der_begin(&d, OTA_DER_SEQUENCE); /* CertificationRequest */
	info_start = d.len;
	ota_der_begin(&d, OTA_DER_SEQUENCE); /* CertificationRequestInfo */
	ota_der_put_uint(&d, 0);              /* v1 */
	ota_cert_put_name(&d, OTA_CERT_CN_IDENTITY, device_id);
	ota_cert_put_spki(&d, pubkey);
	ota_der_begin(&d, OTA_DER_CONTEXT(0)); /* attributes: an empty SET */
	ota_der_end(&d);
	ota_der_end(&d);
	return ota_cert_sign_close(&d, info_start, identity, out_len);
}

void rom_ext_identity_csr_prepare(const struct ota_boot_state *bs, hal_key_t identity,
				  struct ota_runtime *rt)
{
	rt->identity_csr_len = 0;
	if (bs->otp.lifecycle != OTA_LC_TEST_UNLOCKED) {
		/* Personalization is over: no request exists to be handed out. */
		rt->identity_csr_status = OTA_RUNTIME_NOT_MANUFACTURING;
		return;
	}
	rt->identity_csr_status = ota_identity_csr_build(bs->otp.device_id, rt->identity_pubkey,
							 identity, rt->identity_csr,
							 sizeof(rt->identity_csr),
							 &rt->identity_csr_len);
	if (rt->identity_csr_status != OTA_OK)
		rt->identity_csr_len = 0;
}
