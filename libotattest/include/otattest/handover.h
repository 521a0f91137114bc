/* SPDX-License-Identifier: MIT */
/*
 * The identity hand-over: the device's old identity key certifies its new
 * one across a creator key change (docs/keychain.md, "Identity
 * hand-over").
 *
 * The identity key is KDF(ATTEST CDI of ROM_EXT's state, "otattest-identity",
 * key version = identity version). The ATTEST CDI binds the creator key
 * that admitted ROM_EXT, so a ROM_EXT signed by another creator key has
 * another identity; the identity version is an OTP thermometer the key
 * manager reads itself and derives the identity at, never another. In the
 * boot where a ROM_EXT of a new creator key first runs, the key manager -
 * not the firmware - derives the old identity (the predecessor binding ROM
 * set before the advance, at the current version) and the new one (this
 * ROM_EXT's binding, at the next version), fills this record and signs it
 * with the old key. Firmware never holds the old key and cannot choose
 * the new public key: a hand-over only ever certifies a key the key
 * manager itself derived for this device. Then the version is programmed
 * in OTP and the old identity can never be derived again.
 *
 * A verifier walks the hand-overs from the identity the CA certified to
 * the key that issued the alias certificate (ota_handover_chain_check,
 * verify.h): each signed by the key before it, each one version up.
 */
#ifndef OTATTEST_HANDOVER_H
#define OTATTEST_HANDOVER_H

#include "common.h"
#include "otp.h"
#include "status.h"

#define OTA_HANDOVER_MAGIC OTA_FOURCC('O', 'T', 'H', 'O')
#define OTA_HANDOVER_VERSION 1u
/* The longest chain a verifier walks (and the device keeps): every version of a lifetime. */
#define OTA_HANDOVER_MAX OTA_OTP_IDENTITY_VERSION_BITS

/* 240 bytes, little-endian integers. */
struct ota_identity_handover {
	uint32_t magic;        /* 0: OTA_HANDOVER_MAGIC */
	uint16_t version;      /* 4: OTA_HANDOVER_VERSION */
	uint16_t size;         /* 6: sizeof(struct ota_identity_handover) */
	uint32_t from_version; /* 8: the old identity's version */
	uint32_t to_version;   /* 12: from_version + 1 */
	uint8_t device_id[OTA_DEVICE_ID_BYTES];      /* 16 */
	uint8_t from_pubkey[OTA_P256_PUBKEY_BYTES];  /* 32: the old identity key */
	uint8_t to_pubkey[OTA_P256_PUBKEY_BYTES];    /* 96: the new identity key */
	uint8_t reserved[16];                        /* 160: zero */
	uint8_t signature[OTA_P256_SIG_BYTES];       /* 176: ECDSA P-256 by from_pubkey over SHA-256 of [0, 176) */
};
OTA_STATIC_ASSERT(sizeof(struct ota_identity_handover) == 240, "ota_identity_handover layout");
#define OTA_HANDOVER_SIGNED_BYTES 176u

/*
 * The fields a hand-over must have before any signature is looked at:
 * magic, version, size, zero reserved bytes, to_version = from_version + 1
 * below the thermometer's end. OTA_OK or VERIFY_HANDOVER_MALFORMED.
 */
ota_status_t ota_handover_check_fields(const struct ota_identity_handover *h);
/* SHA-256 of the signed bytes: what from_pubkey signs. */
void ota_handover_digest(const struct ota_identity_handover *h, uint8_t out[OTA_SHA256_BYTES]);

#endif /* OTATTEST_HANDOVER_H */
