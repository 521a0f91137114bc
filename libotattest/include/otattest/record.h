/* SPDX-License-Identifier: MIT */
/*
 * The boot record: how the device booted, written by the firmware,
 * exported in shared memory, validated by the kernel driver and shown in
 * sysfs, D-Bus and evidence. Its SHA-256 (over exactly `length` bytes) is
 * the record digest bound into evidence.
 *
 * Layout: struct ota_record_header, then stage_count struct
 * ota_stage_record in the order the device tried them (a refused slot
 * followed by the fallback that booted, for instance).
 *
 * ota_record_validate() is header-only so that the kernel, the firmware
 * and userspace run the very same checks on it.
 */
#ifndef OTATTEST_RECORD_H
#define OTATTEST_RECORD_H

#include "common.h"
#include "revocation.h" /* the update section names the revocation applied */
#include "status.h"

#define OTA_RECORD_MAGIC OTA_FOURCC('O', 'T', 'B', 'R')
#define OTA_RECORD_VERSION 1u
#define OTA_RECORD_MAX_STAGES 4u /* two attempts for each of two stages */

#define OTA_RECORD_F_TAG_BOOT_ENABLED 0x1u
/*
 * The update section (struct ota_record_update) follows the stage
 * records. Firmware that predates it leaves the flag clear and the
 * record ends after the stages.
 */
#define OTA_RECORD_F_UPDATE_SECTION 0x2u
#define OTA_RECORD_F_ALL 0x3u

/* How a stage's check ended. */
enum ota_path {
	OTA_PATH_NONE = 0,               /* refused before a path was decided */
	OTA_PATH_TAG = 1,                /* boot tag matched: no asymmetric verify */
	OTA_PATH_SIGNATURE = 2,          /* signatures verified, no tag written */
	OTA_PATH_SIGNATURE_RETAGGED = 3, /* signatures verified, fresh tag written */
};
#define OTA_PATH_MAX 3u

/*
 * Why a stage that reached a path did not take the tag path: the reason
 * for every slow path, in the order stage_check.c decides it. NONE on the
 * tag path, for an attempt refused before a path was decided, and in
 * records of firmware that predates the field. TAG_MISMATCH is the one
 * that means tampering (a tag of the current key version, made for this
 * very image by its measurement hint, whose MAC does not match): the daemon
 * raises it as an event. A slot rewritten since it was tagged (an update
 * written to flash) is IMAGE_CHANGED, not a mismatch.
 */
enum ota_path_reason {
	OTA_REASON_NONE = 0,
	OTA_REASON_NO_TAG = 1,             /* the tag table holds no tag for the slot */
	OTA_REASON_STALE_KEY_VERSION = 2,  /* its tag was made under another key version */
	OTA_REASON_TAG_MISMATCH = 3,       /* a current tag that does not match the image */
	OTA_REASON_TAG_BOOT_OFF = 4,       /* OTP does not enable tag boot */
	OTA_REASON_NOT_TAG_CAPABLE = 5,    /* the image's usage lacks TAG_BOOT */
	OTA_REASON_KEY_VERSION_ABOVE_MAX = 6, /* tag key version past the image's max_key_version */
	OTA_REASON_ROTATION = 7,           /* tag rotation re-verifies every stage */
	OTA_REASON_TAG_KEY_UNAVAILABLE = 8, /* the key manager gave no tag key */
	OTA_REASON_CHECK_ONLY = 9,         /* the runtime's pre-check of an update: never tags */
	OTA_REASON_IMAGE_CHANGED = 10,     /* the slot was rewritten since its tag was made */
};
#define OTA_REASON_MAX 10u

#define OTA_STAGE_F_BOOTED 0x1u   /* this attempt is the image that runs */
#define OTA_STAGE_F_FALLBACK 0x2u /* tried after another slot was refused */
#define OTA_STAGE_F_ALL 0x3u

/* 128 bytes. */
struct ota_record_header {
	uint32_t magic;           /* 0 */
	uint16_t version;         /* 4 */
	uint16_t header_size;     /* 6: sizeof(struct ota_record_header) */
	uint32_t length;          /* 8: header + stage_count * stage size */
	uint32_t generation;      /* 12: moves on every change of the record */
	uint32_t reset_reason;    /* 16: enum ota_reset_reason */
	uint32_t lifecycle;       /* 20: enum ota_lifecycle */
	uint8_t device_id[OTA_DEVICE_ID_BYTES]; /* 24 */
	uint32_t epoch;           /* 40: identity epoch */
	uint32_t min_svn;         /* 44: min runtime SVN since cold boot */
	uint32_t floor_rom_ext;   /* 48: effective anti-rollback floors */
	uint32_t floor_bl0;       /* 52 */
	uint32_t flags;           /* 56: OTA_RECORD_F_* */
	uint32_t tag_key_version; /* 60 */
	uint32_t stage_count;     /* 64: 0..OTA_RECORD_MAX_STAGES */
	uint32_t boot_status;     /* 68: OTA_OK, or why no runtime booted */
	uint32_t boot_data_counter; /* 72: sequence number of the boot data in use */
	uint32_t chain_max_svn;   /* 76 */
	uint8_t rom_identity[OTA_SHA256_BYTES]; /* 80: measurement of the ROM */
	uint64_t boot_time_ns;    /* 112: ROM start to runtime start */
	uint32_t reserved[2];     /* 120: zero */
};
OTA_STATIC_ASSERT(sizeof(struct ota_record_header) == 128, "ota_record_header layout");

/* One verification attempt. 224 bytes. */
struct ota_stage_record {
	uint32_t stage;            /* 0: enum ota_stage */
	uint32_t slot;             /* 4: enum ota_slot */
	uint32_t status;           /* 8: OTA_OK or the refusal reason */
	uint32_t path;             /* 12: enum ota_path */
	uint32_t sig_scheme;       /* 16: enum ota_sig_scheme */
	uint32_t delegation_depth; /* 20: 0..OTA_MAX_DELEGATION_DEPTH */
	uint32_t security_version; /* 24 */
	uint32_t tag_key_version;  /* 28: key version of the tag checked/written */
	uint8_t measurement[OTA_SHA256_BYTES]; /* 32: zero if not measured */
	/* 64: root key id, then each delegate's, depth + 1 used, rest zero */
	uint8_t key_ids[OTA_MAX_CHAIN_KEYS][OTA_KEY_ID_BYTES];
	struct ota_constraints effective; /* 160: leaf SVN range, image usage */
	uint64_t verify_time_ns;   /* 200: time this check took */
	uint32_t flags;            /* 208: OTA_STAGE_F_* */
	uint16_t path_reason;      /* 212: enum ota_path_reason */
	uint16_t reserved;         /* 214: zero */
	uint64_t verify_cycles;    /* 216: device cycle counter delta */
};
OTA_STATIC_ASSERT(sizeof(struct ota_stage_record) == 224, "ota_stage_record layout");

/*
 * What an update agent reads (docs/formats.md "Update section"): after the
 * stage_count stage records, one struct ota_record_update, when the header
 * flags have OTA_RECORD_F_UPDATE_SECTION.
 */
enum ota_update_state {
	OTA_UPDATE_IDLE = 0,       /* the running BL0 is the primary, nothing installed since */
	OTA_UPDATE_INSTALLING = 1, /* an install session is open (runtime) */
	OTA_UPDATE_PENDING = 2,    /* an image was installed: an update reset (BL0) or a warm reset (ROM_EXT) activates it */
	OTA_UPDATE_TRIAL = 3,      /* the running BL0 is not the primary: a cold boot returns to the primary unless COMMIT */
};
#define OTA_UPDATE_STATE_MAX 3u

#define OTA_RECORD_SLOT_F_PRESENT 0x1u  /* the slot's manifest header parses (fields below are its claims) */
#define OTA_RECORD_SLOT_F_VERIFIED 0x2u /* this boot or an install verified the whole image */
#define OTA_RECORD_SLOT_F_RUNNING 0x4u  /* the image that runs */
#define OTA_RECORD_SLOT_F_PRIMARY 0x8u  /* BL0: the boot data's primary slot */
#define OTA_RECORD_SLOT_F_PENDING 0x10u /* installed since this boot, not yet activated */
#define OTA_RECORD_SLOT_F_ALL 0x1fu

/* One flash slot. 32 bytes. */
struct ota_record_slot {
	uint32_t stage;            /* 0: enum ota_stage */
	uint32_t slot;             /* 4: enum ota_slot */
	uint32_t flags;            /* 8: OTA_RECORD_SLOT_F_* */
	uint32_t security_version; /* 12: the manifest's (0 when not PRESENT) */
	char version[OTA_VERSION_STRING_BYTES]; /* 16: the manifest's version string, NUL padded */
};
OTA_STATIC_ASSERT(sizeof(struct ota_record_slot) == 32, "ota_record_slot layout");

#define OTA_RECORD_NO_SLOT 0xffffffffu

/*
 * Trial revert (docs/boot-flow.md "Trial attempts"): an update runs on
 * trial for at most OTA_TRIAL_MAX_BOOTS boots - the update reset's and
 * every reset after it that is not a COMMIT - counted by ROM_EXT in the
 * retention vault. The reset that finds them used up boots the primary
 * slot again; its kind is the revert reason.
 */
#define OTA_TRIAL_MAX_BOOTS 3u
enum ota_revert_reason {
	OTA_REVERT_NONE = 0,
	OTA_REVERT_WARM_RESET = 1, /* a warm reset found the trial's boots used up */
	OTA_REVERT_WATCHDOG = 2,   /* the watchdog bit: the runtime stopped servicing it */
	OTA_REVERT_UPDATE_RESET = 3, /* an update reset that named no other slot (a rotation, or the trial's own slot once used up) */
};
#define OTA_REVERT_REASON_MAX 3u

/* Boot services this boot served (OTA_SVC_*), in service_mask. */
#define OTA_SVC_COMMIT 0x1u
#define OTA_SVC_RATCHET 0x2u
#define OTA_SVC_REVOKE 0x4u
#define OTA_SVC_ALL 0x7u

/*
 * 192 bytes. Entry i of slot[] is stage (i / 2 + 1), slot (i % 2), or all
 * zero when the device did not report it (a boot that failed before it
 * read the flash layout).
 */
struct ota_record_update {
	uint32_t update_state;         /* 0: enum ota_update_state */
	uint32_t primary_slot;         /* 4: BL0 primary slot (boot data) */
	uint32_t running_rom_ext_slot; /* 8: OTA_RECORD_NO_SLOT when none booted */
	uint32_t running_bl0_slot;     /* 12: OTA_RECORD_NO_SLOT when none booted */
	uint32_t pending_stage;        /* 16: stage of the installed image, 0 when none */
	uint32_t pending_slot;         /* 20: its slot; 0 when none */
	uint32_t revocation_sequence;  /* 24: highest fleet-wide revocation command applied (OTP), creator's or owner's series */
	uint32_t service_mask;         /* 28: OTA_SVC_* requests this boot served */
	uint32_t service_status;       /* 32: their outcome: OTA_OK or the first refusal; 0 when none */
	uint32_t revocation_action;    /* 36: the revocation this boot applied (enum ota_revocation_action), 0 none */
	uint32_t revocation_target;    /* 40 */
	uint32_t revocation_value;     /* 44 */
	uint32_t revocation_sequence_device; /* 48: highest device-bound revocation command applied (OTP), either signer's series */
	uint32_t trial_boots;          /* 52: boots of the running trial so far, 1..OTA_TRIAL_MAX_BOOTS; 0 off trial */
	uint32_t revert_reason;        /* 56: enum ota_revert_reason: a trial ROM_EXT abandoned since the last cold boot or update reset */
	uint32_t reverted_slot;        /* 60: that trial's BL0 slot; 0 when revert_reason is NONE */
	struct ota_record_slot slot[OTA_STAGE_COUNT * OTA_SLOT_COUNT]; /* 64 */
};
OTA_STATIC_ASSERT(sizeof(struct ota_record_update) == 192, "ota_record_update layout");

#define OTA_RECORD_MAX_BYTES                                                                      \
	(sizeof(struct ota_record_header) + OTA_RECORD_MAX_STAGES * sizeof(struct ota_stage_record) + \
	 sizeof(struct ota_record_update))

/*
 * A whole record as the firmware builds it and the driver copies it: the
 * update section sits right after the last stage record used, so in this
 * struct it is at ota_record_update_of(), not necessarily at `update`
 * (which holds it while the firmware builds the record).
 */
struct ota_record {
	struct ota_record_header hdr;
	struct ota_stage_record stage[OTA_RECORD_MAX_STAGES];
	struct ota_record_update update;
};

/* Length of a record with n stage records and the header flags `flags`. */
static inline uint32_t ota_record_length(uint32_t stage_count, uint32_t flags)
{
	return (uint32_t)(sizeof(struct ota_record_header) +
			  stage_count * sizeof(struct ota_stage_record) +
			  ((flags & OTA_RECORD_F_UPDATE_SECTION) ? sizeof(struct ota_record_update) : 0u));
}

/*
 * The update section of a validated record whose flags have
 * OTA_RECORD_F_UPDATE_SECTION (buf holds ota_record_length bytes).
 */
static inline const struct ota_record_update *ota_record_update_of(const void *buf)
{
	const struct ota_record_header *h = (const struct ota_record_header *)buf;

	return (const struct ota_record_update *)((const uint8_t *)buf + sizeof(*h) +
						  h->stage_count * sizeof(struct ota_stage_record));
}

static inline bool ota_record_enum_ok(uint32_t v, uint32_t lo, uint32_t hi)
{
	return v >= lo && v <= hi;
}

/* The update section's own rules: enums, slots, flags, reserved fields. */
static inline ota_status_t ota_record_update_validate(const struct ota_record_update *u)
{
	uint32_t i;

	if (u->trial_boots > OTA_TRIAL_MAX_BOOTS || u->revert_reason > OTA_REVERT_REASON_MAX ||
	    (u->revert_reason == OTA_REVERT_NONE ? u->reverted_slot != 0
						 : u->reverted_slot >= OTA_SLOT_COUNT))
		return OTA_RECORD_BAD_FIELD;
	if (u->update_state > OTA_UPDATE_STATE_MAX || u->primary_slot >= OTA_SLOT_COUNT ||
	    (u->running_rom_ext_slot >= OTA_SLOT_COUNT && u->running_rom_ext_slot != OTA_RECORD_NO_SLOT) ||
	    (u->running_bl0_slot >= OTA_SLOT_COUNT && u->running_bl0_slot != OTA_RECORD_NO_SLOT) ||
	    (u->service_mask & ~OTA_SVC_ALL) || u->revocation_sequence > OTA_REVOCATION_SEQ_MAX ||
	    u->revocation_sequence_device > OTA_REVOCATION_SEQ_MAX ||
	    u->revocation_action > OTA_REVOKE_ACTION_MAX)
		return OTA_RECORD_BAD_FIELD;
	if (u->pending_stage > OTA_STAGE_BL0 || u->pending_slot >= OTA_SLOT_COUNT ||
	    (u->pending_stage == 0 && u->pending_slot != 0))
		return OTA_RECORD_BAD_FIELD;
	for (i = 0; i < OTA_STAGE_COUNT * OTA_SLOT_COUNT; i++) {
		const struct ota_record_slot *s = &u->slot[i];

		/* An entry is the slot its index names, or all zero: not reported. */
		if (s->stage == 0 && s->flags == 0 && s->slot == 0 && s->security_version == 0 &&
		    ota_all_zero(s->version, OTA_VERSION_STRING_BYTES))
			continue;
		if (s->stage != i / OTA_SLOT_COUNT + 1u || s->slot != i % OTA_SLOT_COUNT ||
		    (s->flags & ~OTA_RECORD_SLOT_F_ALL) || s->security_version > OTA_SVN_LIMIT)
			return OTA_RECORD_BAD_FIELD;
		if (!ota_version_string_ok(s->version))
			return OTA_RECORD_BAD_FIELD;
	}
	return OTA_OK;
}

/*
 * Validate len bytes claimed to be a record. Checks everything a consumer
 * relies on: the length adds up, counts are bounded, every enum and every
 * SVN is in range (a policy compares SVNs), reserved fields are zero. It
 * does not judge the status codes beyond that (an unknown code is shown
 * as a number, not trusted).
 */
static inline ota_status_t ota_record_validate(const void *buf, uint32_t len)
{
	const struct ota_record_header *h = (const struct ota_record_header *)buf;
	uint32_t i, k;

	if (len < sizeof(*h))
		return OTA_RECORD_TRUNCATED;
	if (h->magic != OTA_RECORD_MAGIC)
		return OTA_RECORD_BAD_MAGIC;
	if (h->version != OTA_RECORD_VERSION)
		return OTA_RECORD_BAD_VERSION;
	if (h->header_size != sizeof(*h))
		return OTA_RECORD_BAD_LENGTH;
	if (h->stage_count > OTA_RECORD_MAX_STAGES)
		return OTA_RECORD_BAD_STAGE_COUNT;
	if (h->length != ota_record_length(h->stage_count, h->flags) || h->length != len)
		return OTA_RECORD_BAD_LENGTH;
	if (h->reserved[0] || h->reserved[1])
		return OTA_RECORD_RESERVED_NONZERO;
	if (!ota_record_enum_ok(h->reset_reason, OTA_RESET_COLD, OTA_RESET_UPDATE) ||
	    h->lifecycle >= OTA_LC_COUNT || (h->flags & ~OTA_RECORD_F_ALL) ||
	    h->min_svn > OTA_SVN_LIMIT || h->chain_max_svn > OTA_SVN_LIMIT)
		return OTA_RECORD_BAD_FIELD;

	for (i = 0; i < h->stage_count; i++) {
		const struct ota_stage_record *s =
			(const struct ota_stage_record *)((const uint8_t *)buf + sizeof(*h)) + i;

		if (s->reserved)
			return OTA_RECORD_RESERVED_NONZERO;
		if (!ota_record_enum_ok(s->stage, OTA_STAGE_ROM_EXT, OTA_STAGE_BL0) ||
		    s->slot >= OTA_SLOT_COUNT || s->path > OTA_PATH_MAX ||
		    s->sig_scheme > OTA_SCHEME_HYBRID ||
		    s->delegation_depth > OTA_MAX_DELEGATION_DEPTH ||
		    s->security_version > OTA_SVN_LIMIT || (s->flags & ~OTA_STAGE_F_ALL) ||
		    s->path_reason > OTA_REASON_MAX ||
		    (s->path == OTA_PATH_TAG && s->path_reason != OTA_REASON_NONE))
			return OTA_RECORD_BAD_FIELD;
		/* Key id slots past the chain must be empty. */
		for (k = s->delegation_depth + 1u; k < OTA_MAX_CHAIN_KEYS; k++)
			if (!ota_all_zero(s->key_ids[k], OTA_KEY_ID_BYTES))
				return OTA_RECORD_RESERVED_NONZERO;
	}
	if (h->flags & OTA_RECORD_F_UPDATE_SECTION)
		return ota_record_update_validate(ota_record_update_of(buf));
	return OTA_OK;
}

/* Printable names for sysfs, CLI and JSON. */
static inline const char *ota_path_name(uint32_t path)
{
	switch (path) {
	case OTA_PATH_NONE: return "none";
	case OTA_PATH_TAG: return "tag";
	case OTA_PATH_SIGNATURE: return "signature";
	case OTA_PATH_SIGNATURE_RETAGGED: return "signature-retagged";
	}
	return "unknown";
}

static inline const char *ota_path_reason_name(uint32_t reason)
{
	switch (reason) {
	case OTA_REASON_NONE: return "none";
	case OTA_REASON_NO_TAG: return "no-tag";
	case OTA_REASON_STALE_KEY_VERSION: return "stale-key-version";
	case OTA_REASON_TAG_MISMATCH: return "tag-mismatch";
	case OTA_REASON_TAG_BOOT_OFF: return "tag-boot-off";
	case OTA_REASON_NOT_TAG_CAPABLE: return "not-tag-capable";
	case OTA_REASON_KEY_VERSION_ABOVE_MAX: return "key-version-above-max";
	case OTA_REASON_ROTATION: return "rotation";
	case OTA_REASON_TAG_KEY_UNAVAILABLE: return "tag-key-unavailable";
	case OTA_REASON_CHECK_ONLY: return "check-only";
	case OTA_REASON_IMAGE_CHANGED: return "image-changed";
	}
	return "unknown";
}

/* The update section's state (sysfs update/state, D-Bus UpdateState). */
static inline const char *ota_update_state_name(uint32_t state)
{
	switch (state) {
	case OTA_UPDATE_IDLE: return "idle";
	case OTA_UPDATE_INSTALLING: return "installing";
	case OTA_UPDATE_PENDING: return "pending";
	case OTA_UPDATE_TRIAL: return "trial";
	}
	return "unknown";
}

static inline const char *ota_revert_reason_name(uint32_t reason)
{
	switch (reason) {
	case OTA_REVERT_NONE: return "none";
	case OTA_REVERT_WARM_RESET: return "warm-reset";
	case OTA_REVERT_WATCHDOG: return "watchdog";
	case OTA_REVERT_UPDATE_RESET: return "update-reset";
	}
	return "unknown";
}

/* One OTA_RECORD_SLOT_F_* bit's name ("present"), or NULL for a bit that is none. */
static inline const char *ota_record_slot_flag_name(uint32_t bit)
{
	switch (bit) {
	case OTA_RECORD_SLOT_F_PRESENT: return "present";
	case OTA_RECORD_SLOT_F_VERIFIED: return "verified";
	case OTA_RECORD_SLOT_F_RUNNING: return "running";
	case OTA_RECORD_SLOT_F_PRIMARY: return "primary";
	case OTA_RECORD_SLOT_F_PENDING: return "pending";
	}
	return (const char *)0;
}

static inline const char *ota_lifecycle_name(uint32_t lc)
{
	switch (lc) {
	case OTA_LC_TEST_UNLOCKED: return "test_unlocked";
	case OTA_LC_DEV: return "dev";
	case OTA_LC_PROD: return "prod";
	case OTA_LC_PROD_END: return "prod_end";
	case OTA_LC_RMA: return "rma";
	}
	return "unknown";
}

static inline const char *ota_reset_reason_name(uint32_t r)
{
	switch (r) {
	case OTA_RESET_COLD: return "cold";
	case OTA_RESET_WARM: return "warm";
	case OTA_RESET_UPDATE: return "update";
	}
	return "unknown";
}

static inline const char *ota_stage_name(uint32_t stage)
{
	switch (stage) {
	case OTA_STAGE_ROM_EXT: return "rom_ext";
	case OTA_STAGE_BL0: return "bl0";
	}
	return "unknown";
}

static inline const char *ota_scheme_name(uint32_t scheme)
{
	switch (scheme) {
	case OTA_SCHEME_NONE: return "none";
	case OTA_SCHEME_ECDSA_P256: return "ecdsa-p256";
	case OTA_SCHEME_HYBRID: return "ecdsa-p256+slh-dsa-sha2-128s";
	}
	return "unknown";
}

#endif /* OTATTEST_RECORD_H */
