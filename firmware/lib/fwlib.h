/* SPDX-License-Identifier: MIT */
/*
 * Internals of the boot stages, shared by firmware/lib (the stage check
 * and the boot flow), firmware/rom and firmware/rom_ext. Nothing outside
 * the boot stages includes this; the runtime sees fw_internal.h only.
 */
#ifndef OTATTEST_FW_BOOT_H
#define OTATTEST_FW_BOOT_H

#include <otattest/deleg.h>
#include <otattest/flash.h>
#include <otattest/manifest.h>
#include <otattest/otp.h>
#include <otattest/record.h>

#include "handoff.h"

/*
 * The one RAM buffer an image is loaded into: every check reads this
 * copy, never flash again. Large enough for a 1 MiB payload with two
 * hybrid delegates.
 */
#define OTA_BOOT_IMAGE_MAX (1088u * 1024u)

/* KDF labels and KMAC customization strings (docs/boot-flow.md, docs/keychain.md). */
#define OTA_TAG_KEY_LABEL "otattest-tag-key"
#define OTA_TAG_CUSTOM "otattest-boot-tag"
#define OTA_CHAIN_TOP_LABEL "otattest-svn-chain-top"
#define OTA_CHAIN_LINK_LABEL "otattest-svn-chain"
#define OTA_STABLE_KEY_LABEL "otattest-stable-key"

/* How a stage check may decide. */
enum boot_mode {
	BOOT_MODE_BOOT = 1,   /* tag fast path allowed; slow path writes a fresh tag */
	BOOT_MODE_RETAG = 2,  /* rotation: slow path only, tag with the new key version */
	BOOT_MODE_VERIFY = 3, /* runtime pre-check: slow path only, no key manager, no writes */
};

/* The keys and policy one stage is verified against. */
struct boot_anchors {
	const struct ota_root_key *keys;
	uint32_t count;
	uint8_t key_ids[OTA_OWNER_MAX_KEYS][OTA_KEY_ID_BYTES];
	bool revoked[OTA_OWNER_MAX_KEYS];
	uint32_t max_depth;
	bool direct_allowed;
	bool hybrid_required;
	uint32_t floor;   /* effective anti-rollback floor of the stage */
	uint32_t svn_max; /* highest SVN the stage accepts */
};

/* Everything one boot reads once and every stage shares. */
struct boot_ctx {
	uint32_t reset_reason;
	struct ota_otp_info otp;
	struct ota_flash_layout layout;

	struct ota_boot_data bd;       /* in use (defaults when no copy is valid) */
	int bd_index;                  /* copy holding bd, -1 when none */

	struct ota_tag_table tags;     /* newest valid copy, or an empty table */
	int tags_index;                /* copy holding it, -1 when none */
	bool tags_dirty;               /* entries changed since the last flush */

	struct ota_retention ret;      /* as read at boot start */
	bool ret_valid;

	uint32_t tag_key_version;      /* the version tags are checked and written with */
	uint32_t progress_done;        /* rotation: slots checked so far ... */
	uint32_t progress_total;       /* ... of this many non-empty slots */
	struct ota_record record;      /* being built */
};

/* One verified (or refused) image. */
struct boot_image {
	uint32_t stage, slot;
	ota_status_t status;
	struct ota_image_view view;    /* valid when the image parsed */
	uint8_t measurement[OTA_SHA256_BYTES];
	uint8_t sigblock[OTA_SHA256_BYTES];
};

/* ---- flash records (flash_store.c, boot_data.c, tag_store.c) ------------ */

ota_status_t boot_layout_load(struct boot_ctx *b);
const struct ota_flash_region *boot_region(const struct boot_ctx *b, uint32_t type);
/* Erase the page at offset, program len bytes, read back and compare. */
ota_status_t boot_flash_store(uint32_t offset, const void *data, uint32_t len);

ota_status_t boot_data_load(struct boot_ctx *b);
/* Write bd as the newest copy (counter advanced here). */
ota_status_t boot_data_commit(struct boot_ctx *b, struct ota_boot_data *bd);

void boot_tags_load(struct boot_ctx *b);
const struct ota_tag_entry *boot_tag_entry(const struct boot_ctx *b, uint32_t stage, uint32_t slot);
void boot_tag_set(struct boot_ctx *b, uint32_t stage, uint32_t slot, uint32_t key_version,
		  const uint8_t tag[OTA_TAG_BYTES]);
/* Write the table if it changed; OTA_OK when nothing needed writing. */
ota_status_t boot_tags_flush(struct boot_ctx *b);

/* ---- OTP and retention (otp_load.c, retention.c) ----------------------- */

ota_status_t boot_otp_load(struct ota_otp_info *out);
void boot_retention_load(struct boot_ctx *b);
ota_status_t boot_retention_store(struct ota_retention *r);
bool boot_retention_read(struct ota_retention *out);

/* ---- the stage check (image_load.c, policy.c, tag.c, deleg_verify.c,
 *      sig_verify.c, stage_check.c) ------------------------------------- */

/* Read the image in a slot into the RAM buffer, measuring as it lands. */
ota_status_t boot_image_load(const struct boot_ctx *b, uint32_t stage, uint32_t slot,
			     struct boot_image *img);
/* The SVN a slot's manifest claims (unverified), for ordering; false when none. */
bool boot_slot_peek(const struct boot_ctx *b, uint32_t stage, uint32_t slot, uint32_t *svn);

ota_status_t boot_policy_check(const struct boot_ctx *b, const struct boot_anchors *a,
			       const struct boot_image *img, const struct ota_dlgc *certs,
			       uint32_t *root_index, struct ota_chain_info *chain,
			       bool *hybrid);

ota_status_t boot_tag_compute(uint32_t stage, const struct boot_image *img,
			      uint32_t key_version, uint8_t tag[OTA_TAG_BYTES]);

/*
 * The slow path's delegation part: each certificate's ECDSA signature by
 * its parent and, where a DLGS is present, its SLH-DSA signature. Leaves
 * the signer's keys (the leaf delegate's, or the root's) for the image.
 */
struct boot_signer {
	uint8_t ecdsa[OTA_P256_PUBKEY_BYTES];
	uint8_t spx[OTA_SLHDSA_PK_BYTES];
	bool has_spx;
};
ota_status_t boot_deleg_verify(const struct ota_image_view *v, const struct ota_dlgc *certs,
			       const struct ota_root_key *root, struct boot_signer *signer);
ota_status_t boot_image_sig_verify(const struct boot_image *img, const struct boot_signer *s);

/*
 * Check one slot of one stage in the given mode and fill its stage
 * record. The loaded image stays in the RAM buffer until the next call.
 */
ota_status_t boot_stage_check(struct boot_ctx *b, const struct boot_anchors *a,
			      uint32_t stage, uint32_t slot, uint32_t mode,
			      struct ota_stage_record *rec, struct boot_image *img);

/* ---- slots (slot_select.c) --------------------------------------------- */

/* A slot whose first bytes are not erased (it holds something to check). */
bool boot_slot_present(const struct boot_ctx *b, uint32_t stage, uint32_t slot);
/* Order of slots to try: highest claimed SVN first, tie to `prefer`. */
void boot_slot_order(const struct boot_ctx *b, uint32_t stage, uint32_t prefer,
		     uint32_t order[OTA_SLOT_COUNT]);

/* The outcome of a stage: which attempt booted. */
struct boot_stage_outcome {
	ota_status_t status;  /* OTA_OK or NO_BOOTABLE_SLOT */
	uint32_t slot;
	uint32_t svn;
	uint32_t max_key_version;
	uint8_t measurement[OTA_SHA256_BYTES];
	uint32_t retagged;     /* slots re-tagged (rotation) */
	bool exhausted;        /* a valid image cannot take the rotation's key version */
};

/*
 * Run a stage over its slots: in BOOT mode try `order` until one passes;
 * in RETAG mode check every non-empty slot and boot the first in `order`
 * that passed. Appends a stage record per attempt.
 */
void boot_run_stage(struct boot_ctx *b, const struct boot_anchors *a, uint32_t stage,
		    const uint32_t order[OTA_SLOT_COUNT], uint32_t mode,
		    struct boot_stage_outcome *out);

/* ---- the stages (rom/, rom_ext/) ------------------------------------------ */

void rom_anchors(const struct boot_ctx *b, struct boot_anchors *a);
ota_status_t rom_verify_rom_ext(struct boot_ctx *b, uint32_t mode, struct boot_stage_outcome *out);
ota_status_t rom_ext_anchors(const struct boot_ctx *b, struct ota_owner_config *oc,
			     struct boot_anchors *a);
ota_status_t rom_ext_verify_bl0(struct boot_ctx *b, uint32_t mode,
				const uint32_t order[OTA_SLOT_COUNT],
				struct boot_stage_outcome *out);

/* ---- SVN key chain (keychain.c) -------------------------------------------- */

/*
 * Establish or extend the chain for a booted BL0 SVN (key manager before
 * RUNTIME): fills r->min_svn and r->chain_valid.
 */
ota_status_t boot_keychain_update(const struct boot_ctx *b, uint32_t bl0_svn,
				  struct ota_retention *r);
/* Derive link(to) from link(from) (to <= from); consumes `link`. */
ota_status_t boot_keychain_crank(hal_key_t link, uint32_t from, uint32_t to, hal_key_t *out);

/* ---- the boot flow (boot.c) ---------------------------------------------- */

ota_status_t boot_prepare(struct boot_ctx *b, uint32_t reset_reason);
uint32_t boot_effective_floor(const struct boot_ctx *b, uint32_t stage);
/* The boot context, free for the runtime's pre-checks once a boot is over. */
struct boot_ctx *boot_scratch_ctx(void);

/* What the last boot's tag rotation did (ran false when it did none). */
struct boot_rotation {
	bool ran;
	bool committed;
	ota_status_t status;
	uint32_t old_version;
	uint32_t new_version;
	uint32_t retagged;
};
const struct boot_rotation *boot_last_rotation(void);

/* Little-endian u32 into 4 bytes. */
static inline void boot_le32(uint8_t out[4], uint32_t v)
{
	out[0] = (uint8_t)v;
	out[1] = (uint8_t)(v >> 8);
	out[2] = (uint8_t)(v >> 16);
	out[3] = (uint8_t)(v >> 24);
}

#endif /* OTATTEST_FW_BOOT_H */
