// SPDX-License-Identifier: MIT
/*
 * The identity certificate next to the alias certificate in the evidence
 * (verify.h): which device it names and whether it is the one that issued
 * the alias certificate. The verifier ties the two: an identity key that
 * certifies an alias key in another device's name is refused, whatever
 * the chain to the CA says.
 */
#include <string.h>

#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "otattest/verify.h"

#include "cert_read.h"

ota_status_t ota_identity_cert_info(const uint8_t *der, size_t len, const uint8_t *alias_der,
				    size_t alias_len, struct ota_identity_info *out)
{
	X509 *id = ota_cert_from_der(der, len), *alias = ota_cert_from_der(alias_der, alias_len);
	ota_status_t st = OTA_X509_MALFORMED;

	memset(out, 0, sizeof(*out));
	if (id != NULL && alias != NULL)
		st = ota_identity_cert_info_x509(id, alias, false, out);
	X509_free(id);
	X509_free(alias);
	return st;
}

ota_status_t ota_identity_cert_info_x509(X509 *id, X509 *alias, bool alias_verified,
					 struct ota_identity_info *out)
{
	EVP_PKEY *key = X509_get0_pubkey(id);

	memset(out, 0, sizeof(*out));
	out->has_device_id = ota_cert_name_device_id(X509_get_subject_name(id), OTA_CERT_CN_IDENTITY,
						     out->device_id);
	/* Names chain (and key ids, when present) and the signature is this key's. */
	out->issued_alias = X509_check_issued(id, alias) == X509_V_OK && key != NULL &&
			    (alias_verified || X509_verify(alias, key) == 1);
	return OTA_OK;
}
