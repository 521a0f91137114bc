/* SPDX-License-Identifier: MIT */
/*
 * The certificates of an otattest chain as the verifier's fast path reads
 * them (host internal, chain_fast.c). A view is taken only of a
 * certificate in the narrow profile otattest issues - the alias
 * certificate the firmware writes, the identity certificate otimage
 * issues - and only where every field's meaning to OpenSSL's path
 * validation is plain:
 *
 *   - strict DER throughout (single-byte tags, shortest definite lengths,
 *     no trailing bytes), version 3, a positive serial of at most 20 bytes
 *   - ecdsa-with-SHA256, the same in the TBS and outside, and an
 *     uncompressed P-256 key under the named curve
 *   - names of single-valued RDNs of known attribute types whose values
 *     are UTF8String or PrintableString in printable ASCII
 *   - UTCTime before 2050 and GeneralizedTime from 2050, in seconds, Z
 *   - no unique ids; extensions from a known set, each at most once, in
 *     their DER shape: basicConstraints (critical), keyUsage (critical,
 *     one byte), subject and authority key ids (not critical; the
 *     authority's as a key id only), TCG DICE MultiTcbInfo (not critical)
 *
 * Anything else is no view (false): the chain then goes to OpenSSL, which
 * judges it in full. A view refuses nothing on its own.
 */
#ifndef OTATTEST_HOST_CERT_VIEW_H
#define OTATTEST_HOST_CERT_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "otattest/common.h"

#include "der_read.h"

struct ota_cert_view {
	struct der tbs;          /* TBSCertificate, whole: what the signature covers */
	struct der serial;       /* INTEGER, whole */
	struct der issuer;       /* Name, whole */
	struct der subject;      /* Name, whole */
	struct der subject_cn;   /* the subject's CN text; p NULL: none */
	struct der issuer_cn;    /* the issuer's CN text; p NULL: none */
	time_t not_before, not_after;
	uint8_t pubkey[OTA_P256_PUBKEY_BYTES]; /* x || y */
	struct der sig;          /* ECDSA-Sig-Value, whole */
	bool ca;                 /* basicConstraints cA */
	int pathlen;             /* -1: none */
	uint8_t key_usage;       /* the first byte of keyUsage's bits (bit 7: digitalSignature) */
	struct der skid;         /* contents; p NULL: none */
	struct der akid;         /* keyIdentifier contents; p NULL: no extension */
	struct der tcb_info;     /* MultiTcbInfo's value; p NULL: none */
};

#define OTA_KU_DIGITAL_SIGNATURE 0x80u
#define OTA_KU_KEY_CERT_SIGN 0x04u
#define OTA_KU_CRL_SIGN 0x02u

/* A view of der (exactly one certificate, len bytes) in the profile, or false. */
bool ota_cert_view_parse(const uint8_t *der, size_t len, struct ota_cert_view *v);

/*
 * Two names (DER, whole) compared as OpenSSL's X509_NAME_cmp compares
 * them (case and white space folded): UNKNOWN when either is outside the
 * profile's names, so that a caller can stay on the safe side.
 */
enum ota_names_cmp { OTA_NAMES_EQUAL, OTA_NAMES_DIFFERENT, OTA_NAMES_UNKNOWN };
enum ota_names_cmp ota_cert_names_cmp(const uint8_t *a, size_t a_len, const uint8_t *b,
				      size_t b_len);

#endif /* OTATTEST_HOST_CERT_VIEW_H */
