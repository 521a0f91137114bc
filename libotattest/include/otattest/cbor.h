/* SPDX-License-Identifier: MIT */
/*
 * CBOR (RFC 8949) as otattest uses it: a freestanding encoder for the
 * firmware (deterministic encoding, RFC 8949 section 4.2.1: shortest
 * arguments, definite lengths; callers emit map keys in sorted order) and
 * the COSE_Sign1 (RFC 9052) framing shared by the device that signs and
 * the host that verifies.
 *
 * The encoder keeps a sticky error: every put after an overflow is a
 * no-op and ota_cbor_enc_finish() reports CBOR_BUFFER_FULL, so a long
 * sequence of puts needs one check at the end, not one per item.
 */
#ifndef OTATTEST_CBOR_H
#define OTATTEST_CBOR_H

#include "status.h"

enum ota_cbor_major {
	OTA_CBOR_UINT = 0,
	OTA_CBOR_NINT = 1,
	OTA_CBOR_BSTR = 2,
	OTA_CBOR_TSTR = 3,
	OTA_CBOR_ARRAY = 4,
	OTA_CBOR_MAP = 5,
	OTA_CBOR_TAG = 6,
	OTA_CBOR_SIMPLE = 7,
};

struct ota_cbor_enc {
	uint8_t *buf;
	uint32_t cap;
	uint32_t len;
	ota_status_t err; /* OTA_OK until something did not fit */
};

/* buf NULL: measure only (nothing is written; finish gives the length). */
void ota_cbor_enc_init(struct ota_cbor_enc *e, uint8_t *buf, uint32_t cap);
/* Major type + argument in its shortest form (the building block). */
void ota_cbor_put_head(struct ota_cbor_enc *e, uint32_t major, uint64_t arg);
void ota_cbor_put_uint(struct ota_cbor_enc *e, uint64_t v);
void ota_cbor_put_int(struct ota_cbor_enc *e, int64_t v);
void ota_cbor_put_bytes(struct ota_cbor_enc *e, const void *p, uint32_t n);
void ota_cbor_put_text(struct ota_cbor_enc *e, const char *s, uint32_t n);
void ota_cbor_put_array(struct ota_cbor_enc *e, uint32_t count);
void ota_cbor_put_map(struct ota_cbor_enc *e, uint32_t pairs);
void ota_cbor_put_tag(struct ota_cbor_enc *e, uint64_t tag);
void ota_cbor_put_bool(struct ota_cbor_enc *e, bool v);
/* Bytes already encoded as CBOR (a nested item built elsewhere). */
void ota_cbor_put_raw(struct ota_cbor_enc *e, const void *p, uint32_t n);
/* OTA_OK and the encoded length, or CBOR_BUFFER_FULL. */
ota_status_t ota_cbor_enc_finish(const struct ota_cbor_enc *e, uint32_t *len);

/* ---- strict decoder (libotattest host) -------------------------------- */

/*
 * What the decoder accepts. ota_cbor_check() validates one whole item
 * against these before anything reads it: well-formed, definite lengths,
 * shortest arguments, no duplicate map keys, nesting and sizes bounded,
 * text strings valid UTF-8,
 * nothing after the item, and only the types otattest uses (integers,
 * byte and text strings, arrays, maps keyed by integers or text, tag 18
 * (COSE_Sign1) and no other tag, false/true/null).
 */
#define OTA_CBOR_MAX_MAP_PAIRS 64u /* hard ceiling for max_count on maps */
struct ota_cbor_limits {
	uint32_t max_depth; /* nesting: 1 = a scalar or an empty container */
	uint32_t max_string; /* bytes in one byte or text string */
	uint32_t max_count; /* entries in one array or pairs in one map */
};
ota_status_t ota_cbor_check(const uint8_t *buf, size_t len, const struct ota_cbor_limits *lim);
/*
 * The same with the tags a format uses (a CoRIM's, corim.h) in place of
 * COSE_Sign1's alone: any other tag is CBOR_UNSUPPORTED. ota_cbor_skip
 * steps over any tag: it reads input checked already.
 */
ota_status_t ota_cbor_check_tags(const uint8_t *buf, size_t len, const struct ota_cbor_limits *lim,
				 const uint64_t *tags, size_t tag_count);

/*
 * A cursor over checked input. Each get_* reads one item of the expected
 * type (CBOR_TYPE otherwise) and moves past it; every read is bounds
 * checked again, so a reader on unchecked bytes fails safely too.
 */
struct ota_cbor_dec {
	const uint8_t *buf;
	size_t len;
	size_t pos;
};
void ota_cbor_dec_init(struct ota_cbor_dec *d, const uint8_t *buf, size_t len);
ota_status_t ota_cbor_peek(const struct ota_cbor_dec *d, uint32_t *major);
ota_status_t ota_cbor_get_uint(struct ota_cbor_dec *d, uint64_t *v);
ota_status_t ota_cbor_get_int(struct ota_cbor_dec *d, int64_t *v);
ota_status_t ota_cbor_get_bytes(struct ota_cbor_dec *d, const uint8_t **p, size_t *n);
ota_status_t ota_cbor_get_text(struct ota_cbor_dec *d, const char **p, size_t *n);
ota_status_t ota_cbor_get_array(struct ota_cbor_dec *d, uint64_t *count);
ota_status_t ota_cbor_get_map(struct ota_cbor_dec *d, uint64_t *pairs);
ota_status_t ota_cbor_get_tag(struct ota_cbor_dec *d, uint64_t *tag);
ota_status_t ota_cbor_skip(struct ota_cbor_dec *d);

/* ---- COSE_Sign1 (RFC 9052 section 4.2) -------------------------------- */

#define OTA_COSE_SIGN1_TAG 18u
#define OTA_COSE_HDR_ALG 1
#define OTA_COSE_HDR_X5CHAIN 33 /* RFC 9360 */
/*
 * Private use (RFC 9052: below -65536): the device's identity hand-overs
 * (handover.h), an array of 1..OTA_HANDOVER_MAX bstr of 240 bytes, oldest
 * first, leading from the identity the x5chain's identity certificate
 * certifies to the key that issued its alias certificate. Absent when the
 * identity never changed hands.
 */
#define OTA_COSE_HDR_HANDOVERS (-65537)
#define OTA_COSE_ALG_ES256 (-7)
#define OTA_COSE_SIG1_CONTEXT "Signature1"

/*
 * The protected header otattest evidence carries, exactly: the encoded
 * map {1: -7}. A verifier compares against these bytes rather than
 * decoding and re-encoding, so nothing else can hide in the header.
 */
#define OTA_COSE_PROTECTED_ES256 { 0xa1u, 0x01u, 0x26u }
#define OTA_COSE_PROTECTED_ES256_LEN 3u

/*
 * The bytes of Sig_structure = ["Signature1", protected, h'', payload]
 * that precede the payload contents, so a signer can hash the prefix and
 * then the payload without building the whole structure in RAM.
 * Returns OTA_OK and the prefix length, or CBOR_BUFFER_FULL.
 */
#define OTA_COSE_SIG1_PREFIX_MAX 64u
ota_status_t ota_cose_sig1_prefix(const uint8_t *protected_hdr, uint32_t protected_len,
				  uint32_t payload_len, uint8_t *out, uint32_t cap,
				  uint32_t *out_len);

#endif /* OTATTEST_CBOR_H */
