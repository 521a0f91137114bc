/* SPDX-License-Identifier: MIT */
/*
 * Vocabulary shared by every otattest format: boot stages, slots,
 * lifecycle states, capability flags, usage constraints and root keys.
 * Byte layouts are documented in docs/formats.md.
 */
#ifndef OTATTEST_COMMON_H
#define OTATTEST_COMMON_H

#include "types.h"

/* Boot stages verified by the device (the ROM itself is trusted). */
enum ota_stage {
	OTA_STAGE_ROM_EXT = 1, /* verified by ROM with creator keys from OTP */
	OTA_STAGE_BL0 = 2,     /* verified by ROM_EXT with owner keys + delegation */
};
#define OTA_STAGE_COUNT 2u

/* Manifest identifiers, one per stage. */
#define OTA_ID_ROM_EXT OTA_FOURCC('O', 'T', 'R', 'E')
#define OTA_ID_BL0 OTA_FOURCC('O', 'T', 'B', '0')

/* Flash slots. Masks use bit (1 << slot). */
enum ota_slot {
	OTA_SLOT_A = 0,
	OTA_SLOT_B = 1,
};
#define OTA_SLOT_COUNT 2u
#define OTA_SLOT_MASK_ALL 0x3u

/*
 * Lifecycle states as small indices; masks use bit (1 << state). OTP
 * stores the state in a hardened encoding (see otp.h), everything else
 * uses these indices.
 */
enum ota_lifecycle {
	OTA_LC_TEST_UNLOCKED = 0,
	OTA_LC_DEV = 1,
	OTA_LC_PROD = 2,
	OTA_LC_PROD_END = 3,
	OTA_LC_RMA = 4,
};
#define OTA_LC_COUNT 5u
#define OTA_LC_MASK_ALL 0x1fu

/*
 * Capability flags a delegation grants and an image claims. A child may
 * only hold flags its parent holds; an image may only claim flags its
 * leaf grants.
 */
#define OTA_CAP_TAG_BOOT 0x1u /* may be accepted by boot tag on later boots */
#define OTA_CAP_DEBUG 0x2u    /* may keep debug features enabled (recorded only) */
#define OTA_CAP_ALL 0x3u

/* Device binding: a wildcard, or one device id. */
#define OTA_BINDING_ANY 0u
#define OTA_BINDING_DEVICE 1u

/* Where and how an image may run. 32 bytes. */
struct ota_usage {
	uint32_t slot_mask;      /* non-empty subset of OTA_SLOT_MASK_ALL */
	uint32_t lifecycle_mask; /* non-empty subset of OTA_LC_MASK_ALL */
	uint32_t flags;          /* subset of OTA_CAP_ALL */
	uint32_t device_binding; /* OTA_BINDING_*; with ANY, device_id is zero */
	uint8_t device_id[OTA_DEVICE_ID_BYTES];
};
OTA_STATIC_ASSERT(sizeof(struct ota_usage) == 32, "ota_usage layout");

/* What a delegation certificate allows: an SVN range plus usage. 40 bytes. */
struct ota_constraints {
	uint32_t svn_min;
	uint32_t svn_max; /* inclusive; svn_min <= svn_max */
	struct ota_usage usage;
};
OTA_STATIC_ASSERT(sizeof(struct ota_constraints) == 40, "ota_constraints layout");

/* Signature algorithms a key (and so everything under it) uses. */
enum ota_key_alg {
	OTA_KEY_ALG_ECDSA_P256 = OTA_FOURCC('E', 'C', '2', '5'), /* ECDSA P-256 only */
	OTA_KEY_ALG_HYBRID = OTA_FOURCC('H', 'Y', 'B', '1'),     /* ECDSA P-256 + SLH-DSA-SHA2-128s */
};

/* Signature scheme a stage was verified with (boot record). */
enum ota_sig_scheme {
	OTA_SCHEME_NONE = 0,
	OTA_SCHEME_ECDSA_P256 = 1,
	OTA_SCHEME_HYBRID = 2,
};

#define OTA_KEY_STATE_EMPTY 0u
#define OTA_KEY_STATE_PROVISIONED OTA_FOURCC('P', 'R', 'O', 'V')

/*
 * A root key as provisioned (creator keys in OTP, owner keys in the owner
 * config). Its key id is SHA-256 over ecdsa_pubkey. 112 bytes.
 */
struct ota_root_key {
	uint32_t state;          /* OTA_KEY_STATE_* */
	uint32_t algorithm;      /* enum ota_key_alg */
	uint32_t lifecycle_mask; /* lifecycle states in which the key is accepted */
	uint32_t reserved;       /* zero */
	uint8_t ecdsa_pubkey[OTA_P256_PUBKEY_BYTES];
	uint8_t spx_pubkey[OTA_SLHDSA_PK_BYTES]; /* zero unless algorithm is HYBRID */
};
OTA_STATIC_ASSERT(sizeof(struct ota_root_key) == 112, "ota_root_key layout");

/* Maximum delegation depth the format supports (root -> intermediate -> leaf). */
#define OTA_MAX_DELEGATION_DEPTH 2u
/* Keys in a chain: the root plus one per delegate. */
#define OTA_MAX_CHAIN_KEYS (OTA_MAX_DELEGATION_DEPTH + 1u)

/* Reset reasons. */
enum ota_reset_reason {
	OTA_RESET_COLD = 1,   /* power-on: retention RAM lost */
	OTA_RESET_WARM = 2,   /* same image again, retention RAM kept */
	OTA_RESET_UPDATE = 3, /* re-verify flash, maybe another image, retention kept */
};

/* Largest security version any format accepts. */
#define OTA_SVN_LIMIT 255u

/* True when every byte of buf is zero (for reserved-field checks). */
static inline bool ota_all_zero(const void *buf, uint32_t len)
{
	const uint8_t *p = (const uint8_t *)buf;
	uint8_t acc = 0;
	uint32_t i;

	for (i = 0; i < len; i++)
		acc |= p[i];
	return acc == 0;
}

/*
 * A version string field (OTA_VERSION_STRING_BYTES): printable ASCII
 * (0x20..0x7e), then only NULs; all NULs is "none". Checked wherever one
 * is read, so a tool can print it as it is.
 */
static inline bool ota_version_string_ok(const char *v)
{
	uint32_t i = 0;

	while (i < OTA_VERSION_STRING_BYTES && v[i] >= 0x20 && v[i] <= 0x7e)
		i++;
	for (; i < OTA_VERSION_STRING_BYTES; i++)
		if (v[i] != 0)
			return false;
	return true;
}

#endif /* OTATTEST_COMMON_H */
