/* SPDX-License-Identifier: MIT */
/*
 * Fixed-width types for the wire formats, usable from the Linux kernel,
 * freestanding firmware and hosted userspace alike.
 *
 * Every wire format in otattest is little-endian with naturally aligned
 * fields and explicit padding, so the structs in these headers are the
 * byte layout: no packing attributes, no hidden holes (each header
 * asserts its sizes and offsets). The project targets little-endian
 * machines only (x86-64 host and guest, rv32 firmware) and refuses to
 * build elsewhere rather than silently mis-decoding.
 */
#ifndef OTATTEST_TYPES_H
#define OTATTEST_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/build_bug.h>
#define OTA_STATIC_ASSERT(expr, msg) static_assert(expr, msg)
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#define OTA_STATIC_ASSERT(expr, msg) _Static_assert(expr, msg)
#endif

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "otattest wire formats are little-endian and this build is not"
#endif

/* Four-character magic values, stored little-endian: bytes read "abcd". */
#define OTA_FOURCC(a, b, c, d)                                            \
	((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) |   \
	 ((uint32_t)(d) << 24))

#define OTA_SHA256_BYTES 32u
#define OTA_DEVICE_ID_BYTES 16u
#define OTA_KEY_ID_BYTES 32u
#define OTA_P256_PUBKEY_BYTES 64u /* X || Y, big-endian coordinates */
#define OTA_P256_SIG_BYTES 64u    /* r || s, big-endian */
#define OTA_SLHDSA_PK_BYTES 32u   /* SLH-DSA-SHA2-128s, FIPS 205 */
#define OTA_SLHDSA_SK_BYTES 64u
#define OTA_SLHDSA_SIG_BYTES 7856u
#define OTA_TAG_BYTES 32u         /* a tag entry's tag: MAC, then the hint */
/*
 * The tag entry's 32 bytes (docs/formats.md, "Tag table"): the first 24
 * bytes of the KMAC256 tag, then the first 8 bytes of the measurement it
 * was made for. The hint tells a slot rewritten since it was tagged
 * (another measurement) from a tag that was altered (the same one).
 */
#define OTA_TAG_MAC_BYTES 24u
#define OTA_TAG_HINT_BYTES (OTA_TAG_BYTES - OTA_TAG_MAC_BYTES)
/* A manifest's version string ("2.4.1"): printable ASCII, NUL padded. */
#define OTA_VERSION_STRING_BYTES 16u

/* True when [off, off + len) lies within [0, total), without overflow. */
static inline bool ota_range_ok(uint32_t off, uint32_t len, uint32_t total)
{
	return off <= total && len <= total - off;
}

#endif /* OTATTEST_TYPES_H */
