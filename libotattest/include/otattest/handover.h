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
 * The device's log of hand-overs, in flash (OTA_REGION_IDENTITY_LOG,
 * flash.h): a header naming who held the identity at `base_version`,
 * then entries appended one per hand-over, never rewritten. ROM reads it
 * to name the predecessor (the holder at the version OTP holds); ROM_EXT
 * appends; the runtime serves the entries that lead to the identity in
 * force. Nothing in it needs trust: a holder that is not the real one
 * only yields a hand-over from a key nobody certified, which no verifier
 * follows; a torn or erased entry is skipped. ROM_EXT locks it for the
 * runtime (boot_svc.c). The holder is the attest binding of the ROM_EXT
 * that holds the identity (hal/keymgr.h, boot_binding_attest).
 */
#define OTA_IDLOG_MAGIC OTA_FOURCC('O', 'T', 'I', 'L')
#define OTA_IDLOG_VERSION 1u

/* At offset 0 of the region. 96 bytes. */
struct ota_identity_log {
	uint32_t magic;        /* 0: OTA_IDLOG_MAGIC */
	uint16_t version;      /* 4: OTA_IDLOG_VERSION */
	uint16_t size;         /* 6: sizeof(struct ota_identity_log) */
	uint32_t base_version; /* 8: the identity version the log starts at */
	uint32_t reserved;     /* 12: zero */
	uint8_t holder[OTA_SHA256_BYTES];  /* 16: who held the identity at base_version */
	uint8_t reserved2[16];             /* 48: zero */
	uint8_t digest[OTA_SHA256_BYTES];  /* 64: SHA-256 of [0, 64) */
};
OTA_STATIC_ASSERT(sizeof(struct ota_identity_log) == 96, "ota_identity_log layout");

/* Entry i at OTA_IDLOG_ENTRY_OFFSET(i). 304 bytes. */
struct ota_identity_log_entry {
	struct ota_identity_handover handover;  /* 0 */
	uint8_t holder[OTA_SHA256_BYTES];      /* 240: who holds the identity at handover.to_version */
	uint8_t digest[OTA_SHA256_BYTES];      /* 272: SHA-256 of [0, 272) */
};
OTA_STATIC_ASSERT(sizeof(struct ota_identity_log_entry) == 304, "ota_identity_log_entry layout");
#define OTA_IDLOG_ENTRY_OFFSET(i) ((uint32_t)sizeof(struct ota_identity_log) + \
				   (uint32_t)(i) * (uint32_t)sizeof(struct ota_identity_log_entry))
/* Region bytes the log needs: two flash pages hold 13 entries. */
#define OTA_IDLOG_ENTRIES 13u
#define OTA_IDLOG_BYTES OTA_IDLOG_ENTRY_OFFSET(OTA_IDLOG_ENTRIES)

/* Whether a header or an entry is intact (digest, fields); false for erased or torn ones. */
bool ota_identity_log_check(const struct ota_identity_log *l);
bool ota_identity_log_entry_check(const struct ota_identity_log_entry *e);
/* Fill the digests before writing. */
void ota_identity_log_seal(struct ota_identity_log *l);
void ota_identity_log_entry_seal(struct ota_identity_log_entry *e);

/*
 * The fields a hand-over must have before any signature is looked at:
 * magic, version, size, zero reserved bytes, to_version = from_version + 1
 * below the thermometer's end. OTA_OK or VERIFY_HANDOVER_MALFORMED.
 */
ota_status_t ota_handover_check_fields(const struct ota_identity_handover *h);
/* SHA-256 of the signed bytes: what from_pubkey signs. */
void ota_handover_digest(const struct ota_identity_handover *h, uint8_t out[OTA_SHA256_BYTES]);

#endif /* OTATTEST_HANDOVER_H */
