/* SPDX-License-Identifier: MIT */
/*
 * A small freestanding DER writer (X.690) for the certificates the
 * device issues. Constructed items are opened and closed like brackets;
 * closing one fixes its length, moving the contents when the length
 * needs more than one byte, so no length is ever computed by hand.
 * Errors are sticky (X509_BUFFER_FULL, X509_MALFORMED for unbalanced
 * brackets) and reported once by ota_der_finish().
 */
#ifndef OTATTEST_X509_H
#define OTATTEST_X509_H

#include "status.h"

/*
 * Deepest nesting the writer tracks. The alias certificate goes deepest:
 * Certificate, TBSCertificate, [3], Extensions, Extension, extnValue,
 * MultiTcbInfo, DiceTcbInfo, vendorInfo [8], its SEQUENCE, and an INTEGER
 * that needs a leading zero byte (written as an open item) - 11.
 */
#define OTA_DER_MAX_DEPTH 12u

/* Tags used by the writer. */
#define OTA_DER_BOOLEAN 0x01u
#define OTA_DER_INTEGER 0x02u
#define OTA_DER_BIT_STRING 0x03u
#define OTA_DER_OCTET_STRING 0x04u
#define OTA_DER_OID 0x06u
#define OTA_DER_UTF8_STRING 0x0cu
#define OTA_DER_UTC_TIME 0x17u
#define OTA_DER_GENERALIZED_TIME 0x18u
#define OTA_DER_SEQUENCE 0x30u
#define OTA_DER_SET 0x31u
#define OTA_DER_CONTEXT(n) (0xa0u | (n))      /* [n] constructed */
#define OTA_DER_CONTEXT_PRIM(n) (0x80u | (n)) /* [n] primitive (IMPLICIT) */

struct ota_der {
	uint8_t *buf;
	uint32_t cap;
	uint32_t len;
	uint32_t open[OTA_DER_MAX_DEPTH]; /* offset of each open item's length byte */
	uint32_t depth;
	ota_status_t err;
};

void ota_der_init(struct ota_der *d, uint8_t *buf, uint32_t cap);
void ota_der_begin(struct ota_der *d, uint8_t tag);
void ota_der_end(struct ota_der *d);
/* A primitive item: tag, length, contents. */
void ota_der_put(struct ota_der *d, uint8_t tag, const void *p, uint32_t n);
/* Pre-encoded DER (a whole item). */
void ota_der_put_raw(struct ota_der *d, const void *p, uint32_t n);
/* INTEGER from an unsigned big-endian magnitude (minimal, non-negative). */
void ota_der_put_uint_be(struct ota_der *d, const uint8_t *be, uint32_t n);
void ota_der_put_uint(struct ota_der *d, uint32_t v);
/* The same INTEGER contents under another tag ([n] IMPLICIT INTEGER). */
void ota_der_put_uint_tagged(struct ota_der *d, uint8_t tag, uint32_t v);
/* BIT STRING with no unused bits. */
void ota_der_put_bits(struct ota_der *d, const void *p, uint32_t n);
ota_status_t ota_der_finish(const struct ota_der *d, uint32_t *len);

/* ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER } from r || s. */
void ota_der_put_ecdsa_sig(struct ota_der *d, const uint8_t sig[OTA_P256_SIG_BYTES]);

#endif /* OTATTEST_X509_H */
