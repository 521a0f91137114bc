/* SPDX-License-Identifier: MIT */
/*
 * The shared checks every stage is built on: the stage check (manifest,
 * policy, tag fast path, delegation, signatures), the flash records, OTP
 * and retention, slot order, the trust anchors of each stage and the SVN
 * key chain's one-way step. ROM, ROM_EXT and the runtime's pre-checks all
 * use these and nothing of each other (firmware.h).
 */
#ifndef OTATTEST_FW_LIB_H
#define OTATTEST_FW_LIB_H

#include <otattest/deleg.h>
#include <otattest/flash.h>
#include <otattest/manifest.h>
#include <otattest/otp.h>
#include <otattest/record.h>
#include <otattest/stage_check.h>

#include "handoff.h"
#include "hal.h"

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
	/* install: as VERIFY, on the image staged in the RAM buffer (boot_ctx.staged_len bytes) */
	BOOT_MODE_VERIFY_STAGED = 4,
};

/* The outcome of a stage: which attempt booted. */
struct boot_stage_outcome {
	ota_status_t status;  /* OTA_OK or NO_BOOTABLE_SLOT */
	uint32_t slot;
	uint32_t svn;
	uint32_t max_key_version;
	uint8_t measurement[OTA_SHA256_BYTES];
	uint8_t root_key_id[OTA_KEY_ID_BYTES]; /* the root key that admitted it */
	uint32_t retagged;     /* slots re-tagged (rotation) */
	bool exhausted;        /* a valid image cannot take the rotation's key version */
	uint32_t entry;        /* rv32: where the placed code starts (boot_stage_place) */
	uint32_t code_lo, code_hi; /* rv32: the placed payload's bytes [lo, hi) */
};

/* What the boot services of this boot did (ROM_EXT, boot_svc.c). */
struct boot_svc_outcome {
	uint32_t served;       /* OTA_SVC_* requests this boot took up */
	ota_status_t status;   /* OTA_OK, or the first refusal */
	struct {
		uint32_t action, target, value; /* the revocation applied, action 0: none */
	} revoked;
};

/* Everything one boot reads once and every stage shares. */
struct boot_ctx {
	uint32_t reset_reason;
	uint64_t t0;                   /* hal_time_ns() at reset */
	uint32_t mode;                 /* enum boot_mode: BOOT, or RETAG for a rotation */
	struct ota_otp_info otp;
	struct ota_flash_layout layout;
	bool layout_ok;                /* layout read and checked */

	struct ota_boot_data bd;       /* in use (defaults when no copy is valid) */
	int bd_index;                  /* copy holding bd, -1 when none */
	hal_key_t bd_key;              /* boot data key: ROM derives it, ROM_EXT commits with it */

	struct ota_tag_table tags;     /* newest valid copy, or an empty table */
	int tags_index;                /* copy holding it, -1 when none */
	bool tags_dirty;               /* entries changed since the last flush */

	struct ota_retention ret;      /* the data vault as read at boot start */
	bool ret_valid;
	struct ota_reset_request req;  /* the runtime's request (NONE/FALSE when none) */
	bool req_valid;
	struct ota_boot_svc_request svc_req; /* the runtime's boot services request */
	bool svc_req_valid;

	struct ota_retention ret_next; /* what this boot leaves in retention RAM */
	uint32_t trial_slot;           /* ROM_EXT: the BL0 slot tried on trial, OTA_NEXT_SLOT_NONE when none */
	struct boot_stage_outcome rom_ext_out; /* ROM's check of ROM_EXT */
	struct boot_stage_outcome bl0_out;     /* ROM_EXT's check of BL0 */
	ota_status_t chain_status;     /* OTA_OK when the SVN key chain holds link(min_svn) */

	struct boot_svc_outcome svc;   /* commit, ratchet, revocation served by ROM_EXT */
	uint32_t staged_len;           /* BOOT_MODE_VERIFY_STAGED: the staged image's length */
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

/*
 * The accepted image's code to where it runs (stage_place.c): in a stage
 * image on the core, the payload of a stage with a LOAD extension is
 * copied from the verified RAM copy to its load address, which must lie
 * in the stage's window of SRAM (firmware/base/stage.ld), and its entry
 * point noted in out; a stage without LOAD, or a LOAD outside the
 * window, is EXT_BAD_LOAD and the slot is refused. The
 * host build runs the stages compiled into it, so there it places nothing
 * and succeeds.
 */
ota_status_t boot_stage_place(const struct boot_image *img, struct boot_stage_outcome *out);

/* ---- flash records (flash_store.c, boot_data.c, tag_store.c) ------------ */

ota_status_t boot_layout_load(struct boot_ctx *b);
const struct ota_flash_region *boot_region(const struct boot_ctx *b, uint32_t type);
/* Erase the page at offset, program len bytes, read back and compare. */
ota_status_t boot_flash_store(uint32_t offset, const void *data, uint32_t len);

ota_status_t boot_data_load(struct boot_ctx *b);
/* Write bd as the newest copy (counter advanced, MAC'd and anchored here). */
ota_status_t boot_data_commit(struct boot_ctx *b, struct ota_boot_data *bd);
/*
 * Whether everything bd changes against the copy in use is in force now:
 * only floors and the tag key version, and OTP holds them. A commit of a
 * rotation or a ratchet whose copy failed to write after its OTP program
 * has still done what it was for.
 */
bool boot_data_held(const struct boot_ctx *b, const struct ota_boot_data *bd);
/* The boot data key (ROM state only) and a copy's MAC under it. */
ota_status_t boot_data_key(hal_key_t *out);
ota_status_t boot_data_mac(hal_key_t key, const struct ota_boot_data *bd,
			   uint8_t mac[OTA_SHA256_BYTES]);

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
bool boot_request_read(struct ota_reset_request *out);
/* Write the runtime's one-shot request (outside the vault). */
ota_status_t boot_request_store(uint32_t next_bl0_slot, bool rotate);
/* The boot services request (handoff.h): read (false: none), store (sealed), clear. */
bool boot_svc_read(struct ota_boot_svc_request *out);
ota_status_t boot_svc_store(struct ota_boot_svc_request *q);
ota_status_t boot_svc_clear(void);

/* ---- the stage check (image_load.c, tag.c, stage_check.c; its policy,
 *      anchors and signature checks are libotattest core's, stage_check.h) */

/* Read the image in a slot into the RAM buffer, measuring as it lands. */
ota_status_t boot_image_load(const struct boot_ctx *b, uint32_t stage, uint32_t slot,
			     struct boot_image *img);
/*
 * An install's staging (image_load.c): the RAM buffer for the runtime to
 * fill, with the epoch that says whether anything loaded over it since;
 * and the two digests of the len bytes staged there, after the parser
 * (MANIFEST_BAD_LENGTH unless the image is exactly len bytes).
 */
uint8_t *boot_image_staging(uint32_t *epoch);
bool boot_image_staging_intact(uint32_t epoch);
ota_status_t boot_image_measure_staged(uint32_t stage, uint32_t slot, uint32_t len,
				       struct boot_image *img);

/* The SVN a slot's manifest claims (unverified), for ordering; false when none. */
bool boot_slot_peek(const struct boot_ctx *b, uint32_t stage, uint32_t slot, uint32_t *svn);

ota_status_t boot_tag_compute(uint32_t stage, const struct boot_image *img,
			      uint32_t key_version, uint8_t tag[OTA_TAG_BYTES]);

/*
 * Check one slot of one stage in the given mode and fill its stage
 * record. The loaded image stays in the RAM buffer until the next call.
 */
ota_status_t boot_stage_check(struct boot_ctx *b, const struct ota_anchors *a,
			      uint32_t stage, uint32_t slot, uint32_t mode,
			      struct ota_stage_record *rec, struct boot_image *img);

/* ---- slots (slot_select.c) --------------------------------------------- */

/* A slot whose first bytes are not erased (it holds something to check). */
bool boot_slot_present(const struct boot_ctx *b, uint32_t stage, uint32_t slot);
/* Order of slots to try: highest claimed SVN first, tie to `prefer`. */
void boot_slot_order(const struct boot_ctx *b, uint32_t stage, uint32_t prefer,
		     uint32_t order[OTA_SLOT_COUNT]);


/*
 * Run a stage over its slots: in BOOT mode try `order` until one passes;
 * in RETAG mode check every non-empty slot and boot the first in `order`
 * that passed. Appends a stage record per attempt.
 */
void boot_run_stage(struct boot_ctx *b, const struct ota_anchors *a, uint32_t stage,
		    const uint32_t order[OTA_SLOT_COUNT], uint32_t mode,
		    struct boot_stage_outcome *out);

/* ---- trust anchors (anchors.c) ------------------------------------------ */

/* ROM's anchors for ROM_EXT: the creator keys in OTP, no delegation. */
void boot_anchors_rom_ext(const struct boot_ctx *b, struct ota_anchors *a);
/*
 * ROM_EXT's anchors for BL0: the owner config in flash, authenticated by
 * its digest in OTP; a->keys points into *oc.
 */
ota_status_t boot_anchors_bl0(const struct boot_ctx *b, struct ota_owner_config *oc,
			      struct ota_anchors *a);

/* ---- key manager bindings (binding.c) ------------------------------------ */

/*
 * The binding the key manager folds in when a stage is entered (hal.h):
 * attest = SHA-256("otattest-binding-attest" || stage || root key id), what
 * admitted the stage, kept across its updates under the same root key;
 * seal = SHA-256("otattest-binding-seal" || stage || root key id ||
 * measurement || SVN), the stage itself.
 */
void boot_binding(uint32_t stage, const struct boot_stage_outcome *o,
		  struct hal_keymgr_binding *out);
/*
 * The identity hand-over log (identity_log.c, handover.h).
 * boot_identity_holder: who holds the identity at `version` (the header
 * or the last intact entry reaching it); false when the log does not say.
 * boot_identity_log_start: the header, once, when the region is erased.
 * boot_identity_log_append: one entry into the first erased slot, unless
 * the last one written is already this step (a power cut took the commit).
 */
bool boot_identity_holder(const struct boot_ctx *b, uint32_t version,
			  uint8_t holder[OTA_SHA256_BYTES]);
ota_status_t boot_identity_log_start(const struct boot_ctx *b, uint32_t version,
				     const uint8_t holder[OTA_SHA256_BYTES]);
ota_status_t boot_identity_log_append(const struct boot_ctx *b,
				      const struct ota_identity_handover *h,
				      const uint8_t holder[OTA_SHA256_BYTES]);
/*
 * The hand-overs that lead to `pubkey`, the identity at `version`: the
 * log's entries walked backwards from it, returned oldest first; 0 when
 * the log has none (or the layout no log).
 */
uint32_t boot_identity_chain(const struct ota_flash_layout *layout,
			     const uint8_t pubkey[OTA_P256_PUBKEY_BYTES], uint32_t version,
			     struct ota_identity_handover out[OTA_IDLOG_ENTRIES]);

/* The attest half alone, for a stage admitted by the root key `root_key_id`. */
void boot_binding_attest(uint32_t stage, const uint8_t root_key_id[OTA_KEY_ID_BYTES],
			 uint8_t out[OTA_SHA256_BYTES]);

/* ---- SVN key chain step (keychain_step.c) --------------------------------- */

/* Derive link(to) from link(from) (to <= from); consumes `link`. */
ota_status_t boot_keychain_crank(hal_key_t link, uint32_t from, uint32_t to, hal_key_t *out);

/* ---- one boot's context (boot_ctx.c) ---------------------------------------- */

/* Clear the context and read OTP, the layout, boot data, tags and retention. */
ota_status_t boot_prepare(struct boot_ctx *b, uint32_t reset_reason);
/* The floor and the tag key version in force: OTP's (docs/hal.md, "Monotonic state"). */
uint32_t boot_effective_floor(const struct boot_ctx *b, uint32_t stage);
uint32_t boot_effective_tag_key_version(const struct boot_ctx *b);
/*
 * The one boot context: ROM fills it, ROM_EXT continues with it, and once
 * a boot is over the runtime's pre-checks reuse it as scratch.
 */
struct boot_ctx *boot_scratch_ctx(void);
/*
 * End the record: boot status, length, the update section (so ROM_EXT
 * can certify the update state before the hand-off; boot_finish again).
 */
void boot_record_close(struct boot_ctx *b, ota_status_t st);
/*
 * End a boot with `st`: stamp the record's status and time (t0 from
 * boot_ctx.t0), hand it to the runtime's state, publish it and the
 * device state. The stage that ends the boot calls this once.
 */
void boot_finish(struct boot_ctx *b, ota_status_t st);
/* The runtime's view of this boot so far (ota_boot_state), with status st. */
void boot_fill_state(const struct boot_ctx *b, ota_status_t st);
/*
 * The last word of a boot on retention RAM: store ret_next in the vault
 * (when it was valid or the boot succeeded) and lock the vault until the
 * next reset; the one-shot request ends with the boot that served it,
 * whatever it did.
 */
void boot_requests_end(struct boot_ctx *b, ota_status_t st);

/* ---- field revocation (revoke_check.c) ---------------------------------- */

/*
 * ota_revocation_check against this device as b read it (OTP, creator
 * keys, the owner config authenticated by OTP) and what runs: each
 * stage's SVN and the id of the root key that admitted it, by stage - 1.
 */
ota_status_t boot_revocation_check(const struct boot_ctx *b, const struct ota_revocation *r,
				   const uint32_t svn[OTA_STAGE_COUNT],
				   const uint8_t *const root[OTA_STAGE_COUNT]);
/* The same for a hybrid command and its SLH-DSA signature (ota_revocation_check_hybrid). */
ota_status_t boot_revocation_check_hybrid(const struct boot_ctx *b, const struct ota_revocation *r,
					  const uint8_t spx[OTA_SLHDSA_SIG_BYTES],
					  const uint32_t svn[OTA_STAGE_COUNT],
					  const uint8_t *const root[OTA_STAGE_COUNT]);
/*
 * The layout's revocation staging region (flash.h, OTA_REGION_REVOCATION)
 * when it holds a hybrid command; REVOKE_NO_STAGING without one.
 */
ota_status_t boot_revocation_staging(const struct boot_ctx *b, const struct ota_flash_region **out);

/* ---- the record's update section (record_update.c) ---------------------- */

/* Fill the update section for the boot ending with st. */
void boot_record_update_fill(const struct boot_ctx *b, ota_status_t st,
			     struct ota_record_update *u);
/* Where a record's update section lies: right after its stage_count stage records. */
struct ota_record_update *boot_record_update_at(struct ota_record *r);

/* Little-endian u32 into 4 bytes. */
static inline void boot_le32(uint8_t out[4], uint32_t v)
{
	out[0] = (uint8_t)v;
	out[1] = (uint8_t)(v >> 8);
	out[2] = (uint8_t)(v >> 16);
	out[3] = (uint8_t)(v >> 24);
}

#endif /* OTATTEST_FW_LIB_H */
