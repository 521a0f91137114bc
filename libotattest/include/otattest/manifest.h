/* SPDX-License-Identifier: MIT */
/*
 * Boot image manifest and its extensions: the one definition used by the
 * firmware (ROM, ROM_EXT), otimage and the tests.
 *
 * An image is laid out as
 *
 *   [0, 64)                    ECDSA P-256 signature (r || s)
 *   [64, header_size)          rest of struct ota_manifest           \
 *   [payload_offset, +length)  payload (opaque code bytes)            | signed region
 *   [payload_end, signed_end)  signed extensions, contiguous          /
 *   [signed_end, image_length) unsigned extensions, contiguous: delegation
 *                              certificates, SLH-DSA companions and the
 *                              image SLH-DSA signature
 *
 * The measurement is SHA-256 over the signed region [64, signed_end). The
 * ECDSA signature is over that digest, and so is the SLH-DSA signature
 * (its message is the 32-byte measurement), so the image is hashed once on
 * every path. The "signature block" is every byte outside the signed
 * region: [0, 64) followed by [signed_end, image_length); a boot tag binds
 * its SHA-256 as well. Every byte of an image is therefore covered by the
 * measurement or by the signature-block digest.
 *
 * Extensions tile their region in table order with no gaps, so there is
 * no byte a parser skips and no two extensions overlap.
 */
#ifndef OTATTEST_MANIFEST_H
#define OTATTEST_MANIFEST_H

#include "common.h"
#include "status.h"

#define OTA_MANIFEST_MAGIC OTA_FOURCC('O', 'T', 'A', 'M')
#define OTA_MANIFEST_VERSION 1u
#define OTA_MANIFEST_MAX_EXT 8u
#define OTA_MANIFEST_SIGNED_START 64u /* the signed region begins after the signature */

/* Extension types. Each extension's bytes begin with struct ota_ext_header. */
#define OTA_EXT_SALT OTA_FOURCC('S', 'A', 'L', 'T') /* signed: tag key salt */
#define OTA_EXT_DLGC OTA_FOURCC('D', 'L', 'G', 'C') /* unsigned: delegation certificate */
#define OTA_EXT_DLGS OTA_FOURCC('D', 'L', 'G', 'S') /* unsigned: SLH-DSA companion of a DLGC */
#define OTA_EXT_SPXS OTA_FOURCC('S', 'P', 'X', 'S') /* unsigned: image SLH-DSA signature */
#define OTA_EXT_LOAD OTA_FOURCC('L', 'O', 'A', 'D') /* signed: where the payload's code runs */

/* Extension table entry flags. */
#define OTA_EXT_F_CRITICAL 0x1u /* refuse the image if the type is unknown */
#define OTA_EXT_F_ALL 0x1u

/* Extension table entry (in the signed header). 16 bytes. */
struct ota_ext_entry {
	uint32_t type;   /* OTA_EXT_* or an unknown type */
	uint32_t offset; /* from the start of the image */
	uint32_t length; /* bytes, header included */
	uint32_t flags;  /* OTA_EXT_F_* */
};
OTA_STATIC_ASSERT(sizeof(struct ota_ext_entry) == 16, "ota_ext_entry layout");

/* First bytes of every extension; repeats its table entry. 16 bytes. */
struct ota_ext_header {
	uint32_t type;
	uint16_t version; /* 1 for every type defined here */
	uint16_t reserved;
	uint32_t length;
	uint32_t reserved2;
};
OTA_STATIC_ASSERT(sizeof(struct ota_ext_header) == 16, "ota_ext_header layout");
#define OTA_EXT_VERSION 1u

/* Manifest flags. None are defined in version 1. */
#define OTA_MANIFEST_F_ALL 0x0u

/* The fixed manifest header at offset 0 of every image. 320 bytes. */
struct ota_manifest {
	uint8_t signature[OTA_P256_SIG_BYTES]; /* 0: ECDSA over the measurement */
	uint32_t magic;                        /* 64: OTA_MANIFEST_MAGIC */
	uint16_t version;                      /* 68: OTA_MANIFEST_VERSION */
	uint16_t header_size;                  /* 70: sizeof(struct ota_manifest) */
	uint32_t identifier;                   /* 72: OTA_ID_ROM_EXT or OTA_ID_BL0 */
	uint32_t flags;                        /* 76: OTA_MANIFEST_F_* */
	uint32_t image_length;                 /* 80: whole image, extensions included */
	uint32_t signed_end;                   /* 84: end of the signed region */
	uint32_t payload_offset;               /* 88: == header_size */
	uint32_t payload_length;               /* 92 */
	uint32_t security_version;             /* 96: <= OTA_SVN_LIMIT */
	uint32_t max_key_version;              /* 100: highest tag key version this image accepts */
	uint8_t signer_key_id[OTA_KEY_ID_BYTES]; /* 104: root key (direct) or leaf delegate */
	struct ota_usage usage;                /* 136: where this image may run */
	uint32_t ext_count;                    /* 168: entries used in ext[] */
	uint32_t reserved0;                    /* 172: zero */
	struct ota_ext_entry ext[OTA_MANIFEST_MAX_EXT]; /* 176: unused entries zero */
	/*
	 * 304: the version string the signer gives the image ("2.4.1"),
	 * printable ASCII then NUL padding, or all zero: none. Signed (in the
	 * measured region) and shown by the record and the install answer.
	 * Images from before it have zeros here (it was reserved), so they
	 * read as "no version string".
	 */
	char version_string[OTA_VERSION_STRING_BYTES];
};
OTA_STATIC_ASSERT(sizeof(struct ota_manifest) == 320, "ota_manifest layout");

/* SALT: 32 bytes mixed into the tag key derivation. 48 bytes. */
struct ota_ext_salt {
	struct ota_ext_header hdr;
	uint8_t salt[32];
};
OTA_STATIC_ASSERT(sizeof(struct ota_ext_salt) == 48, "ota_ext_salt layout");

/*
 * LOAD: the payload is the stage's code, to be copied to load_address and
 * entered at entry by the stage before it (docs/formats.md). 32 bytes.
 * The payload is [load_address, load_address + payload_length) as the
 * core sees it; entry lies inside it. An image without LOAD has no code
 * the device can run.
 */
struct ota_ext_load {
	struct ota_ext_header hdr;
	uint32_t load_address; /* 16: 4-byte aligned */
	uint32_t entry;        /* 20: 2-byte aligned, inside the payload */
	uint32_t reserved[2];  /* 24: zero */
};
OTA_STATIC_ASSERT(sizeof(struct ota_ext_load) == 32, "ota_ext_load layout");

/* Delegation certificate types; hardened values, signed. */
#define OTA_CERT_INTERMEDIATE OTA_FOURCC('I', 'N', 'T', 'R')
#define OTA_CERT_LEAF OTA_FOURCC('L', 'E', 'A', 'F')

/*
 * DLGC: a parent key delegates to a P-256 key within constraints. The
 * parent's ECDSA signature covers SHA-256 of bytes [0, 160). 224 bytes.
 */
struct ota_dlgc {
	struct ota_ext_header hdr;                         /* 0 */
	uint32_t cert_type;                                /* 16: OTA_CERT_* */
	uint32_t reserved;                                 /* 20: zero */
	uint8_t parent_key_id[OTA_KEY_ID_BYTES];           /* 24 */
	uint8_t delegate_pubkey[OTA_P256_PUBKEY_BYTES];    /* 56 */
	struct ota_constraints constraints;                /* 120 */
	uint8_t signature[OTA_P256_SIG_BYTES];             /* 160: parent's ECDSA */
};
OTA_STATIC_ASSERT(sizeof(struct ota_dlgc) == 224, "ota_dlgc layout");
#define OTA_DLGC_SIGNED_BYTES 160u

/*
 * DLGS: the SLH-DSA half of a hybrid delegation. The parent's SLH-DSA
 * signature covers DLGC bytes [0, 160) followed by delegate_spx_pubkey.
 * 7936 bytes.
 */
struct ota_dlgs {
	struct ota_ext_header hdr;                       /* 0 */
	uint8_t delegate_key_id[OTA_KEY_ID_BYTES];       /* 16: names its DLGC */
	uint8_t delegate_spx_pubkey[OTA_SLHDSA_PK_BYTES]; /* 48 */
	uint8_t signature[OTA_SLHDSA_SIG_BYTES];         /* 80: parent's SLH-DSA */
};
OTA_STATIC_ASSERT(sizeof(struct ota_dlgs) == 7936, "ota_dlgs layout");

/* SPXS: the image's SLH-DSA signature over the measurement. 7904 bytes. */
struct ota_spxs {
	struct ota_ext_header hdr;                 /* 0 */
	uint8_t signer_key_id[OTA_KEY_ID_BYTES];   /* 16: == manifest signer_key_id */
	uint8_t signature[OTA_SLHDSA_SIG_BYTES];   /* 48 */
};
OTA_STATIC_ASSERT(sizeof(struct ota_spxs) == 7904, "ota_spxs layout");

/*
 * A parsed image: a copy of the header and where each known extension
 * lies. Offsets point into the caller's buffer, which the parser has
 * bounded; nothing here is re-read from flash. Extensions are read with
 * memcpy (they need not be aligned).
 */
struct ota_image_view {
	const uint8_t *image; /* the caller's buffer (one RAM copy) */
	uint32_t length;      /* == manifest.image_length */
	struct ota_manifest manifest;
	uint32_t cert_count;                               /* DLGC extensions, in order */
	uint32_t cert_offset[OTA_MAX_DELEGATION_DEPTH];
	uint32_t cert_spx_offset[OTA_MAX_DELEGATION_DEPTH]; /* 0: no DLGS for that cert */
	uint32_t spxs_offset;                               /* 0: no image SLH-DSA signature */
	uint32_t salt_offset;                               /* 0: no SALT */
	uint32_t load_offset;                               /* 0: no LOAD */
	/*
	 * When ota_image_parse fails on one extension: its table index, so a
	 * tool can name the field. OTA_MANIFEST_MAX_EXT when the failure is
	 * not about one extension.
	 */
	uint32_t bad_ext;
};

/*
 * Parse and bound an image held in buf[0, buf_len). The image may be
 * shorter than the buffer (a slot); image_length must fit. Checks every
 * structural rule of this header; does no cryptography and no policy.
 */
ota_status_t ota_image_parse(const uint8_t *buf, uint32_t buf_len,
			     struct ota_image_view *out);

/*
 * Copy out and check a DLGC / DLGS found by ota_image_parse.
 * EXT_NO_SUCH_CERT for an index past cert_count; ota_dlgs_header_check
 * returns DELEG_CERT_SPX_MISSING when that certificate has no DLGS.
 */
ota_status_t ota_dlgc_read(const struct ota_image_view *v, uint32_t index,
			   struct ota_dlgc *out);
ota_status_t ota_dlgs_header_check(const struct ota_image_view *v, uint32_t index);

/*
 * The same checks on a certificate on its own (a certificate file, or a
 * copy): header (CERT_BAD_MAGIC/_VERSION/_SIZE, CERT_RESERVED_NONZERO),
 * type (CERT_BAD_TYPE), constraints (CERT_BAD_CONSTRAINTS); and a DLGS
 * against its DLGC (header, then CERT_SPX_MISMATCH unless its
 * delegate_key_id is the DLGC delegate's key id). Only the DLGS header
 * and key id are read: the signature is the verifier's business.
 */
ota_status_t ota_dlgc_check(const struct ota_dlgc *c);
ota_status_t ota_dlgs_check(const struct ota_dlgc *c, const uint8_t *dlgs, uint32_t len);

/*
 * The two digests every stage check needs, over a parsed image: the
 * measurement, SHA-256 of [64, signed_end); and the signature-block
 * digest, SHA-256 of [0, 64) || [signed_end, image_length). Computed with
 * the freestanding SHA-256; firmware may feed the same ranges to the HAL
 * engine instead (the ranges, not the code, are the definition).
 */
void ota_image_measure(const struct ota_image_view *v, uint8_t out[OTA_SHA256_BYTES]);
void ota_image_sigblock_digest(const struct ota_image_view *v, uint8_t out[OTA_SHA256_BYTES]);

/*
 * Structural validity of a usage block (non-empty masks of known bits, a
 * known binding, a zero device id with the wildcard) and of constraints
 * (that, plus svn_min <= svn_max <= OTA_SVN_LIMIT).
 */
bool ota_usage_valid(const struct ota_usage *u);
bool ota_constraints_valid(const struct ota_constraints *c);

#endif /* OTATTEST_MANIFEST_H */
