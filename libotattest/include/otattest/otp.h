/* SPDX-License-Identifier: MIT */
/*
 * The OTP image: what is fused into the device at provisioning.
 *
 * OTP bits can only be set, never cleared. The image is split into
 * partitions the way OpenTitan's OTP controller splits its fuses:
 *  - HW_CFG: identity, lifecycle, features, owner config digest and the
 *    creator root keys; locked by a SHA-256 digest at provisioning.
 *  - SECRET: the device secret; locked by its own digest and readable only
 *    by the key manager (the HAL refuses firmware reads of this range).
 *  - COUNTERS: values that only grow after provisioning, so no digest:
 *    revocation words, thermometer-coded epoch and SVN floors (a value
 *    n is the n lowest bits set; anything else is corrupt), and the one
 *    lifecycle transition out of manufacturing.
 *
 * Lifecycle: HW_CFG holds the state the device was provisioned in. A
 * device provisioned in TEST_UNLOCKED (manufacturing: personalization
 * runs there, docs/mailbox.md) leaves it once, for DEV, PROD or PROD_END,
 * by programming that state's encoding into lifecycle_transition - a
 * zero word gaining bits, so the fuse programmer can do it after the
 * HW_CFG digest is locked, and nothing can do it twice or undo it. Like
 * OpenTitan's lifecycle controller it takes effect at the next reset.
 */
#ifndef OTATTEST_OTP_H
#define OTATTEST_OTP_H

#include "common.h"
#include "status.h"

#define OTA_OTP_MAGIC OTA_FOURCC('O', 'T', 'P', 'I')
#define OTA_OTP_VERSION 1u
#define OTA_OTP_CREATOR_KEYS 4u

/* Hardened lifecycle encodings in OTP (see enum ota_lifecycle). */
#define OTA_OTP_LC_TEST_UNLOCKED OTA_FOURCC('L', 'C', 'T', 'U')
#define OTA_OTP_LC_DEV OTA_FOURCC('L', 'C', 'D', 'V')
#define OTA_OTP_LC_PROD OTA_FOURCC('L', 'C', 'P', 'R')
#define OTA_OTP_LC_PROD_END OTA_FOURCC('L', 'C', 'P', 'E')
#define OTA_OTP_LC_RMA OTA_FOURCC('L', 'C', 'R', 'M')

/* Feature bits. */
#define OTA_OTP_F_TAG_BOOT 0x1u /* boot tags may replace signature checks */
#define OTA_OTP_F_ALL 0x1u

/* A revocation word: zero, or this value. Anything else counts as revoked. */
#define OTA_OTP_REVOKED OTA_FOURCC('R', 'E', 'V', 'K')

#define OTA_OTP_EPOCH_BITS 64u
#define OTA_OTP_FLOOR_BITS 256u
/*
 * The boot data anchor: spent once, by the device's first own boot data
 * copy (and by older firmware, once per rotation or ratchet); commits,
 * rotations and ratchets spend none (docs/hal.md, "Monotonic state").
 */
#define OTA_OTP_BOOT_DATA_ANCHOR_BITS 1024u
/*
 * The tag key version, in OTP: one bit per rotation, so 256 rotations in
 * a device's lifetime; a rotation past them is TAG_KEY_VERSION_OTP_FULL.
 */
#define OTA_OTP_TAG_KEY_VERSION_BITS 256u
#define OTA_CHAIN_DEFAULT_MAX_SVN 128u
/* Field revocation commands a device can apply in its lifetime, per series. */
#define OTA_OTP_REVOCATION_SEQ_BITS 256u
/* The identity version: one bit per identity hand-over (handover.h). */
#define OTA_OTP_IDENTITY_VERSION_BITS 32u

/* 1024 bytes. */
struct ota_otp {
	/* header */
	uint32_t magic;   /* 0 */
	uint16_t version; /* 4 */
	uint16_t size;    /* 6 */
	/* HW_CFG partition: bytes [8, 520), digest at 520 */
	uint8_t device_id[OTA_DEVICE_ID_BYTES];     /* 8 */
	uint32_t lifecycle;                          /* 24: OTA_OTP_LC_* */
	uint32_t features;                           /* 28: OTA_OTP_F_* */
	uint32_t chain_max_svn;                      /* 32: SVN key chain length, 1..OTA_SVN_LIMIT */
	uint32_t reserved0;                          /* 36 */
	uint8_t owner_config_digest[OTA_SHA256_BYTES]; /* 40 */
	struct ota_root_key creator_keys[OTA_OTP_CREATOR_KEYS]; /* 72 */
	uint8_t hw_cfg_digest[OTA_SHA256_BYTES];     /* 520: SHA-256 of [8, 520) */
	/* SECRET partition: bytes [552, 584), digest at 584 */
	uint8_t device_secret[32];                   /* 552 */
	uint8_t secret_digest[OTA_SHA256_BYTES];     /* 584: SHA-256 of [552, 584) */
	/* COUNTERS partition: OR-only */
	uint32_t creator_key_revoked[OTA_OTP_CREATOR_KEYS]; /* 616 */
	uint32_t owner_key_revoked[4];               /* 632: by owner config key index */
	uint8_t epoch[OTA_OTP_EPOCH_BITS / 8];       /* 648: thermometer */
	uint8_t floor_rom_ext[OTA_OTP_FLOOR_BITS / 8]; /* 656: thermometer */
	uint8_t floor_bl0[OTA_OTP_FLOOR_BITS / 8];   /* 688: thermometer */
	uint32_t lifecycle_transition;               /* 720: 0, or OTA_OTP_LC_* it left TEST_UNLOCKED for */
	uint8_t boot_data_anchor[OTA_OTP_BOOT_DATA_ANCHOR_BITS / 8]; /* 724: thermometer: lowest boot data anchor_counter still valid */
	/*
	 * Thermometers: the highest revocation command sequence applied, one
	 * series per signer (the silicon creator's, the owner's) and scope
	 * (fleet-wide, device-bound), so no signer spends another's
	 * (revocation.h).
	 */
	uint8_t revocation_seq[OTA_OTP_REVOCATION_SEQ_BITS / 8];              /* 852: creator, fleet-wide */
	uint8_t revocation_seq_device[OTA_OTP_REVOCATION_SEQ_BITS / 8];       /* 884: creator, device-bound */
	uint8_t revocation_seq_owner[OTA_OTP_REVOCATION_SEQ_BITS / 8];        /* 916: owner, fleet-wide */
	uint8_t revocation_seq_owner_device[OTA_OTP_REVOCATION_SEQ_BITS / 8]; /* 948: owner, device-bound */
	/*
	 * Thermometer: the tag key version (boot_data.c). A rotation programs
	 * it before anything else is written, and no boot data copy can
	 * lower it.
	 */
	uint8_t tag_key_version[OTA_OTP_TAG_KEY_VERSION_BITS / 8]; /* 980 */
	/*
	 * Thermometer: the identity version (handover.h). The key manager
	 * derives the identity key at this version only; a hand-over raises
	 * it, and the old identity can never be derived again.
	 */
	uint8_t identity_version[OTA_OTP_IDENTITY_VERSION_BITS / 8]; /* 1012 */
	uint8_t reserved[8];                         /* 1016: zero */
};
OTA_STATIC_ASSERT(sizeof(struct ota_otp) == 1024, "ota_otp layout");

#define OTA_OTP_HW_CFG_START 8u
#define OTA_OTP_HW_CFG_END 520u
#define OTA_OTP_SECRET_START 552u
#define OTA_OTP_SECRET_END 584u
#define OTA_OTP_SECRET_DIGEST_END 616u
#define OTA_OTP_COUNTERS_START 616u

/*
 * Decoded, checked OTP contents the boot stages use. The device secret is
 * never part of it: only the key manager sees that.
 */
struct ota_otp_info {
	uint32_t lifecycle; /* enum ota_lifecycle, in effect (after a transition) */
	uint32_t features;
	uint32_t chain_max_svn;
	uint32_t epoch;
	uint32_t floor_rom_ext;
	uint32_t floor_bl0;
	uint32_t boot_data_anchor; /* boot data whose anchor_counter is below this is a replay */
	uint32_t tag_key_version;  /* the lowest tag key version this device may use */
	uint32_t revocation_seq;   /* highest fleet-wide revocation command sequence the creator's keys signed */
	uint32_t revocation_seq_device; /* highest device-bound one the creator's keys signed */
	uint32_t revocation_seq_owner;  /* highest fleet-wide one the owner's keys signed */
	uint32_t revocation_seq_owner_device; /* highest device-bound one the owner's keys signed */
	uint8_t device_id[OTA_DEVICE_ID_BYTES];
	uint8_t owner_config_digest[OTA_SHA256_BYTES];
	struct ota_root_key creator_keys[OTA_OTP_CREATOR_KEYS];
	bool creator_key_revoked[OTA_OTP_CREATOR_KEYS];
	bool owner_key_revoked[4];
	uint32_t identity_version; /* the version the key manager derives the identity at (handover.h) */
};

/*
 * Check and decode an OTP image (secret partition excluded: the digest of
 * the secret partition is checked by the key manager, which alone may
 * read it). `otp` may be the firmware's copy with the secret range zeroed.
 */
ota_status_t ota_otp_decode(const struct ota_otp *otp, struct ota_otp_info *out);

/*
 * The SECRET partition's digest: OTA_OK or OTP_DIGEST_MISMATCH. For the
 * key manager (the HAL) and for tools holding a whole OTP image; never
 * reveals the secret.
 */
ota_status_t ota_otp_secret_check(const struct ota_otp *otp);

/* Thermometer codes: n lowest bits set. decode fails on a gap. */
ota_status_t ota_thermometer_decode(const uint8_t *bits, uint32_t nbytes, uint32_t *value);
void ota_thermometer_encode(uint8_t *bits, uint32_t nbytes, uint32_t value);

/* Lifecycle encoding <-> index; returns false for an unknown encoding. */
bool ota_otp_lifecycle_index(uint32_t encoding, uint32_t *index);
uint32_t ota_otp_lifecycle_encoding(uint32_t index);

/*
 * Moving the lifecycle to state `to` (enum ota_lifecycle), given the two
 * OTP words that say where it is (lifecycle, lifecycle_transition): OTA_OK
 * with the transition word to program (unchanged when the device is
 * already in `to`), or OTP_LIFECYCLE_TRANSITION - only TEST_UNLOCKED is
 * left, only once, and only for DEV, PROD or PROD_END. OTP_BAD_LIFECYCLE
 * when the words themselves are not a valid state.
 */
ota_status_t ota_otp_lifecycle_move(uint32_t lifecycle, uint32_t transition, uint32_t to,
				    uint32_t *transition_out);

#endif /* OTATTEST_OTP_H */
