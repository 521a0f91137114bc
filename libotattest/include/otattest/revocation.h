/* SPDX-License-Identifier: MIT */
/*
 * Field revocation commands: a creator or owner key orders a device - one
 * device, or the whole fleet - to raise an OTP anti-rollback floor, revoke
 * a root key or bump the identity epoch. Made by `otimage revocation`,
 * carried by the REVOKE mailbox command, verified by the device against
 * its own keys (the creator keys in OTP, the owner config that OTP
 * authenticates) and applied by ROM_EXT, never by the runtime
 * (docs/mailbox.md, docs/formats.md "Revocation commands").
 *
 * Replay: every command carries a sequence number; the device keeps the
 * highest it applied in OTP (a thermometer: it only grows) and refuses a
 * command whose number is not above it. Two series, each with its own
 * thermometer: fleet-wide commands (the same bytes on every device) and
 * device-bound ones, so the two kinds apply in either order - a signer of
 * one device's commands cannot know how far the fleet's series got, and
 * the other way round. Within a series a newer command still retires
 * every older one not yet applied.
 *
 * The signature is ECDSA P-256 by the root key's ECDSA half, over
 * SHA-256(OTA_REVOCATION_DOMAIN || bytes [0, OTA_REVOCATION_SIGNED_BYTES)).
 * A version-1 command carries no SLH-DSA signature: a device refuses it
 * (REVOKE_HYBRID_REQUIRED) when the signer's key is hybrid (every key of
 * an owner config that requires hybrid is) - the rule an image under that
 * key is held to. A hybrid key signs a version-2 command, which carries
 * both signatures (struct ota_revocation_hybrid).
 */
#ifndef OTATTEST_REVOCATION_H
#define OTATTEST_REVOCATION_H

#include "common.h"

#define OTA_REVOCATION_MAGIC OTA_FOURCC('O', 'T', 'R', 'V')
#define OTA_REVOCATION_VERSION 1u        /* ECDSA only: struct ota_revocation alone */
#define OTA_REVOCATION_VERSION_HYBRID 2u /* struct ota_revocation_hybrid */
#define OTA_REVOCATION_DOMAIN "OTATTEST-REVOKE-V1"

/* Actions. target and value per action; everything not listed is zero. */
enum ota_revocation_action {
	/* target: enum ota_stage; value: new OTP floor, above the OTP floor, <= the running SVN */
	OTA_REVOKE_RAISE_FLOOR = 1,
	/* target: creator key index 0..3; value 0. Creator-signed only. */
	OTA_REVOKE_CREATOR_KEY = 2,
	/* target: owner config key index 0..3; value 0 */
	OTA_REVOKE_OWNER_KEY = 3,
	/* target 0; value: new identity epoch, above the current one. Creator-signed only. */
	OTA_REVOKE_BUMP_EPOCH = 4,
};
#define OTA_REVOKE_ACTION_MAX 4u

/* The highest sequence number a device can take (its OTP thermometer). */
#define OTA_REVOCATION_SEQ_MAX 256u

/* 144 bytes; every integer little-endian. */
struct ota_revocation {
	uint32_t magic;        /* 0: OTA_REVOCATION_MAGIC */
	uint16_t version;      /* 4: OTA_REVOCATION_VERSION */
	uint16_t size;         /* 6: sizeof(struct ota_revocation) */
	uint32_t action;       /* 8: enum ota_revocation_action */
	uint32_t target;       /* 12 */
	uint32_t value;        /* 16 */
	uint32_t sequence;     /* 20: 1..OTA_REVOCATION_SEQ_MAX, above the device's in its series */
	uint8_t device_id[OTA_DEVICE_ID_BYTES]; /* 24: this device, or all zero: every device */
	uint8_t signer_key_id[OTA_KEY_ID_BYTES]; /* 40: the creator or owner root key that signs */
	uint8_t reserved[8];   /* 72: zero */
	uint8_t signature[OTA_P256_SIG_BYTES]; /* 80: r || s */
};
OTA_STATIC_ASSERT(sizeof(struct ota_revocation) == 144, "ota_revocation layout");
#define OTA_REVOCATION_SIGNED_BYTES 80u

/*
 * A hybrid command (issue 28, item 4): the 144 bytes above with version
 * OTA_REVOCATION_VERSION_HYBRID and size 8000 - so its ECDSA signature
 * says it is hybrid, and it cannot pass as a version-1 command with the
 * SLH-DSA part cut off - followed by the signer root key's SLH-DSA
 * signature over the same 32-byte digest. What a hybrid key must sign
 * with. Too large for retention RAM: the runtime stages it in flash (the
 * layout's OTA_REGION_REVOCATION) and leaves its first 144 bytes in the
 * boot services request; ROM_EXT checks the staged copy whole.
 */
struct ota_revocation_hybrid {
	struct ota_revocation cmd;                   /* 0: version 2, size 8000 */
	uint8_t spx_signature[OTA_SLHDSA_SIG_BYTES]; /* 144: SLH-DSA-SHA2-128s over the digest */
};
OTA_STATIC_ASSERT(sizeof(struct ota_revocation_hybrid) == 8000, "ota_revocation_hybrid layout");

/* What the signature is over: SHA-256(OTA_REVOCATION_DOMAIN || bytes [0, 80)). */
void ota_revocation_digest(const struct ota_revocation *r, uint8_t out[OTA_SHA256_BYTES]);

#endif /* OTATTEST_REVOCATION_H */
