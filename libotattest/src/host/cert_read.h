/* SPDX-License-Identifier: MIT */
/* Reading otattest certificates: whole DER, device ids in names (host internal). */
#ifndef OTATTEST_HOST_CERT_READ_H
#define OTATTEST_HOST_CERT_READ_H

#include <openssl/x509.h>

#include "otattest/evidence.h"

/* One DER certificate with nothing after it; NULL otherwise. */
X509 *ota_cert_from_der(const uint8_t *der, size_t len);

/*
 * The device id in name's CN, which must be exactly cn_prefix (one of
 * evidence.h's OTA_CERT_CN_*) followed by 32 lower-case hex digits, as
 * the firmware and otimage write it. false for any other CN.
 */
bool ota_cert_name_device_id(const X509_NAME *name, const char *cn_prefix,
			     uint8_t out[OTA_DEVICE_ID_BYTES]);

#endif
