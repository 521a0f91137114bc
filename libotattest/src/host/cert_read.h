/* SPDX-License-Identifier: MIT */
/* Reading otattest certificates: whole DER, device ids in names (host internal). */
#ifndef OTATTEST_HOST_CERT_READ_H
#define OTATTEST_HOST_CERT_READ_H

#include <time.h>

#include <openssl/x509.h>

#include "otattest/evidence.h"
#include "otattest/verify.h"

/* ASN1_TIME as seconds since the epoch; false when it does not convert. */
bool ota_asn1_seconds(const ASN1_TIME *a, time_t *out);

/* One DER certificate with nothing after it; NULL otherwise. */
X509 *ota_cert_from_der(const uint8_t *der, size_t len);

/*
 * The device id in name's CN, which must be exactly cn_prefix (one of
 * evidence.h's OTA_CERT_CN_*) followed by 32 lower-case hex digits, as
 * the firmware and otimage write it. false for any other CN.
 */
bool ota_cert_name_device_id(const X509_NAME *name, const char *cn_prefix,
			     uint8_t out[OTA_DEVICE_ID_BYTES]);
/* The same rule on a CN's text (n bytes, not terminated). */
bool ota_cert_cn_device_id(const char *cn, size_t n, const char *cn_prefix,
			   uint8_t out[OTA_DEVICE_ID_BYTES]);

/*
 * ota_alias_cert_info and ota_identity_cert_info (verify.h) on certificates
 * already decoded, so a verifier that has them (trust.c, after path
 * validation) does not decode them again. alias_verified: path validation
 * has already checked the alias certificate's signature with id's key
 * (id was its issuer in the validated chain), so it is not checked again.
 */
ota_status_t ota_alias_cert_info_x509(X509 *x, struct ota_alias_info *out);
/*
 * ota_alias_cert_info from parts a caller has read itself (chain_fast.c):
 * the subject's and issuer's CN text (NULL: the name has none) and the
 * MultiTcbInfo extension's value (NULL: the certificate has none).
 */
ota_status_t ota_alias_info_from_parts(const char *subject_cn, size_t subject_cn_len,
				       const char *issuer_cn, size_t issuer_cn_len,
				       const uint8_t *tcb, size_t tcb_len, struct ota_alias_info *out);
ota_status_t ota_identity_cert_info_x509(X509 *id, X509 *alias, bool alias_verified,
					 struct ota_identity_info *out);

#endif
