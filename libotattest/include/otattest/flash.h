/* SPDX-License-Identifier: MIT */
/*
 * Flash contents: the layout header at offset 0 and the records the boot
 * stages keep in flash (boot data, tag table, owner config, identity
 * certificate). All are untrusted input to the firmware: every parser
 * bounds and checks before anything is used.
 *
 * Records that change after provisioning (boot data, tag table) are kept
 * as two copies in two separate pages, each with a sequence number and a
 * SHA-256 integrity digest. A writer erases and programs the copy that
 * does not hold the newest valid record, so a power cut at any point
 * leaves the other copy intact: readers take the valid copy with the
 * highest sequence number.
 */
#ifndef OTATTEST_FLASH_H
#define OTATTEST_FLASH_H

#include "common.h"
#include "status.h"

/* ---- layout ---------------------------------------------------------- */

#define OTA_FLASH_LAYOUT_MAGIC OTA_FOURCC('O', 'T', 'F', 'L')
#define OTA_FLASH_LAYOUT_VERSION 1u
#define OTA_FLASH_MAX_REGIONS 12u
#define OTA_FLASH_PAGE_SIZE 2048u /* the only page size version 1 supports */

enum ota_flash_region_type {
	OTA_REGION_ROM_EXT_A = 1,
	OTA_REGION_ROM_EXT_B = 2,
	OTA_REGION_BL0_A = 3,
	OTA_REGION_BL0_B = 4,
	OTA_REGION_BOOT_DATA_0 = 5,
	OTA_REGION_BOOT_DATA_1 = 6,
	OTA_REGION_TAG_TABLE_0 = 7,
	OTA_REGION_TAG_TABLE_1 = 8,
	OTA_REGION_OWNER_CONFIG = 9,
	OTA_REGION_IDENTITY_CERT = 10,
	/*
	 * Optional: where the runtime stages a hybrid revocation command for
	 * ROM_EXT (struct ota_revocation_hybrid, 8000 bytes: it does not fit
	 * retention RAM). Never locked; ROM_EXT checks what it finds there
	 * whole. A layout without it takes no hybrid revocation
	 * (REVOKE_NO_STAGING).
	 */
	OTA_REGION_REVOCATION = 11,
	/*
	 * Optional: the log of identity hand-overs (handover.h), at least
	 * OTA_IDLOG_BYTES. Locked by ROM_EXT. A layout without it never hands
	 * over: a new creator key gives a new, uncertified identity.
	 */
	OTA_REGION_IDENTITY_LOG = 12,
};
#define OTA_REGION_TYPE_MAX 10u /* every type 1..MAX appears exactly once */
#define OTA_REGION_OPTIONAL_MAX 12u /* every type above TYPE_MAX up to this at most once */

struct ota_flash_region {
	uint32_t type;   /* enum ota_flash_region_type */
	uint32_t offset; /* page aligned, >= one page (page 0 is the layout) */
	uint32_t size;   /* page multiple, non-zero */
	uint32_t reserved;
};
OTA_STATIC_ASSERT(sizeof(struct ota_flash_region) == 16, "ota_flash_region layout");

/* At flash offset 0, alone in page 0. 224 bytes. */
struct ota_flash_layout {
	uint32_t magic;        /* 0: OTA_FLASH_LAYOUT_MAGIC */
	uint16_t version;      /* 4 */
	uint16_t size;         /* 6: sizeof(struct ota_flash_layout) */
	uint32_t page_size;    /* 8: OTA_FLASH_PAGE_SIZE */
	uint32_t flash_size;   /* 12: bytes; page multiple; <= the device's flash */
	uint32_t region_count; /* 16: == OTA_REGION_TYPE_MAX */
	uint32_t reserved;     /* 20 */
	uint8_t reserved2[8];  /* 24 */
	struct ota_flash_region region[OTA_FLASH_MAX_REGIONS]; /* 32: unused zero */
};
OTA_STATIC_ASSERT(sizeof(struct ota_flash_layout) == 224, "ota_flash_layout layout");

/*
 * Check a layout read from flash against the device's real flash size.
 * On success region lookups by type are safe.
 */
ota_status_t ota_flash_layout_check(const struct ota_flash_layout *l,
				    uint32_t device_flash_size);
/* The region of a type in a checked layout (never NULL for a valid type). */
const struct ota_flash_region *
ota_flash_layout_region(const struct ota_flash_layout *l, uint32_t type);

/*
 * Write protection at hand-off. The flash controller protects at most
 * OTA_FLASH_PROTECT_RANGES ranges until the next reset (hal_flash_protect,
 * HAL_FLASH_PROTECT_REGIONS). Before the runtime runs, ROM_EXT protects
 * the layout page, the regions of ota_flash_locked_regions (the identity
 * certificate's outside the manufacturing lifecycle state, where the
 * factory still writes it) and the two running slots. Regions that touch
 * share one range, and a layout passes its check only when the layout page
 * and those regions need at most OTA_FLASH_LOCKED_RANGES_MAX ranges, so
 * the running slots always find theirs: when ranges run short the layout
 * changes, never the set of regions the runtime cannot write.
 */
#define OTA_FLASH_PROTECT_RANGES 8u
#define OTA_FLASH_LOCKED_RANGES_MAX (OTA_FLASH_PROTECT_RANGES - 2u)
#define OTA_FLASH_LOCKED_REGION_COUNT 6u
extern const uint32_t ota_flash_locked_regions[OTA_FLASH_LOCKED_REGION_COUNT];
/*
 * Locked with them when the layout has one (optional regions; not in the
 * array above, whose size is part of libotattest's ABI).
 */
#define OTA_FLASH_LOCKED_OPTIONAL OTA_REGION_IDENTITY_LOG

struct ota_flash_range {
	uint32_t offset;
	uint32_t size;
};

/*
 * The layout page and the regions of the n types (of a checked layout;
 * n <= OTA_FLASH_MAX_REGIONS), merged where they touch, in offset order,
 * into out (room for n + 1). Returns how many ranges out holds.
 */
uint32_t ota_flash_lock_ranges(const struct ota_flash_layout *l, const uint32_t *types,
			       uint32_t n, struct ota_flash_range *out);

/* Flash region holding slot s of a stage. */
static inline uint32_t ota_region_for_slot(uint32_t stage, uint32_t slot)
{
	if (stage == OTA_STAGE_ROM_EXT)
		return slot == OTA_SLOT_A ? OTA_REGION_ROM_EXT_A : OTA_REGION_ROM_EXT_B;
	return slot == OTA_SLOT_A ? OTA_REGION_BL0_A : OTA_REGION_BL0_B;
}

/* ---- boot data ------------------------------------------------------- */

#define OTA_BOOT_DATA_MAGIC OTA_FOURCC('O', 'T', 'B', 'D')
#define OTA_BOOT_DATA_VERSION 2u

/*
 * Two copies (BOOT_DATA_0/1). 96 bytes. Two seals: `mac`, KMAC256 under a
 * key only the device's ROM derives, makes a copy the device's own (a
 * copy anyone else wrote - with any counter - is refused, and a copy the
 * device wrote before is refused once OTP anchors a newer counter:
 * docs/boot-flow.md); `digest`, a plain SHA-256 over both, shows a torn
 * write to any tool. The factory's copies (otimage pack) carry an all-zero
 * mac: a device takes them only until it has written boot data of its own.
 */
struct ota_boot_data {
	uint32_t magic;           /* 0 */
	uint16_t version;         /* 4 */
	uint16_t size;            /* 6: sizeof(struct ota_boot_data) */
	uint32_t counter;         /* 8: sequence number; newest valid copy wins */
	uint32_t primary_slot;    /* 12: BL0 slot preferred when SVNs tie */
	uint32_t tag_key_version; /* 16: the authoritative tag key version */
	uint32_t floor_rom_ext;   /* 20: soft anti-rollback floors; the effective */
	uint32_t floor_bl0;       /* 24:   floor is max(this, OTP floor) */
	uint32_t anchor_counter;  /* 28: security changes so far (tag key version, floors); OTP anchors it */
	uint8_t mac[OTA_SHA256_BYTES];    /* 32: KMAC256 of bytes [0, 32); zero: the factory's */
	uint8_t digest[OTA_SHA256_BYTES]; /* 64: SHA-256 of bytes [0, 64) */
};
OTA_STATIC_ASSERT(sizeof(struct ota_boot_data) == 96, "ota_boot_data layout");
#define OTA_BOOT_DATA_MACED_BYTES 32u
#define OTA_BOOT_DATA_DIGESTED_BYTES 64u

/* A copy the factory wrote (no device MAC yet). */
static inline bool ota_boot_data_is_factory(const struct ota_boot_data *bd)
{
	uint32_t i;
	uint8_t acc = 0;

	for (i = 0; i < OTA_SHA256_BYTES; i++)
		acc |= bd->mac[i];
	return acc == 0;
}

/* ---- tag table ------------------------------------------------------- */

#define OTA_TAG_TABLE_MAGIC OTA_FOURCC('O', 'T', 'T', 'T')
#define OTA_TAG_TABLE_VERSION 1u
#define OTA_TAG_ENTRIES (OTA_STAGE_COUNT * OTA_SLOT_COUNT)
#define OTA_TAG_STATE_EMPTY 0u
#define OTA_TAG_STATE_VALID OTA_FOURCC('T', 'A', 'G', 'V')

/* One boot tag. 48 bytes. */
struct ota_tag_entry {
	uint32_t stage;       /* enum ota_stage, or 0 when empty */
	uint32_t slot;        /* enum ota_slot */
	uint32_t key_version; /* the tag key version the tag was made with */
	uint32_t state;       /* OTA_TAG_STATE_* */
	uint8_t tag[OTA_TAG_BYTES];
};
OTA_STATIC_ASSERT(sizeof(struct ota_tag_entry) == 48, "ota_tag_entry layout");

/* Two copies (TAG_TABLE_0/1). Entry i is stage (i / 2 + 1), slot (i % 2). 240 bytes. */
struct ota_tag_table {
	uint32_t magic;    /* 0 */
	uint16_t version;  /* 4 */
	uint16_t size;     /* 6 */
	uint32_t sequence; /* 8: newest valid copy wins */
	uint32_t reserved; /* 12 */
	struct ota_tag_entry entry[OTA_TAG_ENTRIES]; /* 16 */
	uint8_t digest[OTA_SHA256_BYTES]; /* 208: SHA-256 of bytes [0, 208) */
};
OTA_STATIC_ASSERT(sizeof(struct ota_tag_table) == 240, "ota_tag_table layout");
#define OTA_TAG_TABLE_DIGESTED_BYTES 208u

static inline uint32_t ota_tag_index(uint32_t stage, uint32_t slot)
{
	return (stage - 1u) * OTA_SLOT_COUNT + slot;
}

/* ---- owner config ---------------------------------------------------- */

#define OTA_OWNER_MAGIC OTA_FOURCC('O', 'T', 'O', 'C')
#define OTA_OWNER_VERSION 1u
#define OTA_OWNER_MAX_KEYS 4u

#define OTA_OWNER_F_DIRECT_BOOT 0x1u     /* images may be signed by an owner root key directly */
#define OTA_OWNER_F_HYBRID_REQUIRED 0x2u /* every signature must be ECDSA + SLH-DSA */
#define OTA_OWNER_F_ALL 0x3u

/*
 * The owner's keys and policy for BL0. Authenticated by its SHA-256,
 * provisioned in OTP (owner_config_digest). 480 bytes.
 */
struct ota_owner_config {
	uint32_t magic;                /* 0 */
	uint16_t version;              /* 4 */
	uint16_t size;                 /* 6 */
	uint32_t max_delegation_depth; /* 8: 0..OTA_MAX_DELEGATION_DEPTH */
	uint32_t flags;                /* 12: OTA_OWNER_F_* */
	uint32_t key_count;            /* 16: 1..OTA_OWNER_MAX_KEYS */
	uint32_t reserved;             /* 20 */
	uint8_t reserved2[8];          /* 24 */
	struct ota_root_key keys[OTA_OWNER_MAX_KEYS]; /* 32: unused entries zero */
};
OTA_STATIC_ASSERT(sizeof(struct ota_owner_config) == 480, "ota_owner_config layout");

/* ---- identity certificate -------------------------------------------- */

#define OTA_IDCERT_MAGIC OTA_FOURCC('O', 'T', 'I', 'C')
#define OTA_IDCERT_MAX_DER 1024u

/* The device identity certificate (DER X.509) issued at provisioning. */
struct ota_identity_cert_blob {
	uint32_t magic;      /* OTA_IDCERT_MAGIC */
	uint32_t der_length; /* 1..OTA_IDCERT_MAX_DER */
	uint8_t der[OTA_IDCERT_MAX_DER];
};

/* ---- parsers ---------------------------------------------------------- */

/*
 * Check one copy: magic, version, size, reserved fields, value ranges and
 * the integrity digest (computed with libotattest's freestanding SHA-256;
 * these records are small).
 */
ota_status_t ota_boot_data_check(const struct ota_boot_data *bd);
ota_status_t ota_tag_table_check(const struct ota_tag_table *tt);
/* Seal a record before it is written: fill in its digest. */
void ota_boot_data_seal(struct ota_boot_data *bd);
void ota_tag_table_seal(struct ota_tag_table *tt);

/*
 * Pick the newest valid of two copies. Returns 0 or 1, or -1 when neither
 * copy is valid (*why says why the newer-looking one failed).
 */
int ota_boot_data_pick(const struct ota_boot_data copy[2], ota_status_t *why);

/*
 * Pick the newest valid of two copies of a sequence-numbered record (boot
 * data, tag table), for checks beyond the record's own (the device's MAC). st0/st1 are each copy's check result, seq0/seq1 their
 * sequence numbers as stored (meaningful only when the copy is valid).
 * Returns 0 or 1, or -1 when neither is valid. *why (may be NULL) gets
 * OTA_OK when both are valid, the other copy's failure when one is, and
 * the newer-looking copy's failure when neither is.
 */
int ota_pick_newest(ota_status_t st0, ota_status_t st1, uint32_t seq0, uint32_t seq1,
		    ota_status_t *why);

int ota_tag_table_pick(const struct ota_tag_table copy[2], ota_status_t *why);

ota_status_t ota_owner_config_check(const struct ota_owner_config *oc);
ota_status_t ota_identity_cert_check(const struct ota_identity_cert_blob *c);
/*
 * Whether a certificate's DER holds the whole SubjectPublicKeyInfo of the
 * P-256 key X || Y (the SPKI encoding is fixed, 91 bytes). The device
 * cannot verify the CA's signature (it holds no CA); it only refuses to
 * store or serve a certificate for a key that is not its identity key.
 */
bool ota_identity_cert_certifies(const uint8_t *der, uint32_t der_len,
				 const uint8_t pubkey[OTA_P256_PUBKEY_BYTES]);

/* Serial-number comparison: true when a is newer than b (RFC 1982 style). */
static inline bool ota_seq_newer(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) > 0;
}

#endif /* OTATTEST_FLASH_H */
