// SPDX-License-Identifier: MIT
/*
 * Reading the certificates of an evidence chain: DER that is exactly one
 * certificate, and the device ids in their names. Both the identity certificate (otimage,
 * for the manufacturer CA) and the alias certificate (the firmware) name
 * the device as "<prefix><32 lower-case hex digits>" (evidence.h); the
 * verifier reads them to tie the claims, the alias and the identity to
 * one device.
 */
#include <string.h>
#include <time.h>

#include <openssl/objects.h>

#include <otu/hex.h>

#include "cert_read.h"

X509 *ota_cert_from_der(const uint8_t *der, size_t len)
{
	const unsigned char *p = der;
	X509 *x;

	if (len > INT32_MAX)
		return NULL;
	x = d2i_X509(NULL, &p, (long)len);
	if (x && p != der + len) {
		X509_free(x);
		x = NULL;
	}
	return x;
}

bool ota_asn1_seconds(const ASN1_TIME *a, time_t *out)
{
	struct tm tm;

	if (a == NULL || ASN1_TIME_to_tm(a, &tm) != 1)
		return false;
	*out = timegm(&tm);
	return true;
}

bool ota_cert_cn_device_id(const char *cn, size_t n, const char *cn_prefix,
			   uint8_t out[OTA_DEVICE_ID_BYTES])
{
	char hex[2 * OTA_DEVICE_ID_BYTES + 1];
	size_t plen = strlen(cn_prefix), i;

	if (n != plen + 2 * OTA_DEVICE_ID_BYTES || memcmp(cn, cn_prefix, plen))
		return false;
	/* The firmware writes lower-case hex (OTA_CERT_CN_*): nothing else is its name. */
	for (i = plen; i < n; i++)
		if (cn[i] >= 'A' && cn[i] <= 'F')
			return false;
	memcpy(hex, cn + plen, 2 * OTA_DEVICE_ID_BYTES);
	hex[2 * OTA_DEVICE_ID_BYTES] = '\0'; /* a CN read from DER is not terminated */
	return otu_hex_decode(hex, out, OTA_DEVICE_ID_BYTES) == OTA_DEVICE_ID_BYTES;
}

bool ota_cert_name_device_id(const X509_NAME *name, const char *cn_prefix,
			     uint8_t out[OTA_DEVICE_ID_BYTES])
{
	char cn[128];
	int n;

	/* X509_NAME_get_text_by_NID takes a non-const name but only reads it. */
	n = X509_NAME_get_text_by_NID((X509_NAME *)name, NID_commonName, cn, sizeof(cn));
	return n > 0 && ota_cert_cn_device_id(cn, (size_t)n, cn_prefix, out);
}
