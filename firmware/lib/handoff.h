/* SPDX-License-Identifier: MIT */
/*
 * What one stage leaves for the next. ROM, ROM_EXT and BL0 are compiled
 * into one image, so a hand-off is RAM that the earlier stage writes and
 * the later one reads; it lives here, below all three, so that no stage
 * reaches into another's folder. What must survive a reset goes through
 * retention RAM and the retained key vault, never through these globals.
 */
#ifndef OTATTEST_FW_HANDOFF_H
#define OTATTEST_FW_HANDOFF_H

#include <otattest/evidence.h>
#include <otattest/flash.h>
#include <otattest/otp.h>
#include <otattest/record.h>
#include <otattest/revocation.h>
#include <otattest/shm.h>

#include "hal.h"

/* Retained key vault slots (hal_key_retain). */
enum ota_retained_key {
	OTA_RETAINED_KEY_CHAIN = 0, /* SVN key chain link for min_svn */
	OTA_RETAINED_KEY_ALIAS = 1, /* evidence signing (alias) key */
};

#define OTA_RETENTION_MAGIC OTA_FOURCC('O', 'T', 'R', 'R')
#define OTA_RETENTION_VERSION 2u
#define OTA_RESET_REQUEST_MAGIC OTA_FOURCC('O', 'T', 'R', 'Q')
#define OTA_RESET_REQUEST_VERSION 1u
#define OTA_HARDENED_TRUE 0x739u
#define OTA_HARDENED_FALSE 0x1d4u
#define OTA_NEXT_SLOT_NONE 0xffffffffu

/*
 * The data vault at retention RAM offset 0 (hal.h): what the boot stages
 * carry across warm and update resets and the runtime must not choose.
 * ROM_EXT writes it and locks it before the hand-off, so the runtime can
 * read it and never write it; zero after a cold boot. A bad magic, version
 * or digest (a torn write, a fault) is "no retained state": on a warm or
 * update reset no SVN key chain until the next cold boot (docs/keychain.md).
 */
struct ota_retention {
	uint32_t magic;            /* 0 */
	uint32_t version;          /* 4 */
	uint32_t min_svn;          /* 8: min runtime SVN since cold boot */
	uint32_t chain_valid;      /* 12: OTA_HARDENED_TRUE when the CHAIN slot holds link(min_svn) */
	uint32_t running_bl0_slot; /* 16 */
	/*
	 * 20: boots of the trial running in running_bl0_slot (record.h,
	 * OTA_TRIAL_MAX_BOOTS); 0 when the slot is not on trial. Here, and not
	 * in flash, because only a reset that enters ROM unlocks the vault, so
	 * the runtime cannot lower it; a power cut clears it, but a cold boot
	 * returns to the primary slot anyway, so losing it only ends the trial.
	 */
	uint32_t trial_boots;
	uint32_t revert_reason;    /* 24: enum ota_revert_reason since the last cold boot or update reset */
	uint32_t reverted_slot;    /* 28: the abandoned trial's slot; 0 when none */
	uint8_t digest[OTA_SHA256_BYTES]; /* 32: SHA-256 of bytes [0, 32) */
};
OTA_STATIC_ASSERT(sizeof(struct ota_retention) == 64, "ota_retention layout");
OTA_STATIC_ASSERT(sizeof(struct ota_retention) <= HAL_RETENTION_VAULT_BYTES, "vault holds it");

/*
 * The runtime's one-shot request, outside the vault at
 * OTA_RESET_REQUEST_OFFSET: the runtime can only ask - ROM and ROM_EXT
 * check what it asks for (an update target is verified, a rotation retags
 * only images that pass) and clear it at the boot that serves it. A bad
 * magic, version or digest is no request.
 */
#define OTA_RESET_REQUEST_OFFSET HAL_RETENTION_VAULT_BYTES
struct ota_reset_request {
	uint32_t magic;            /* 0 */
	uint32_t version;          /* 4 */
	uint32_t next_bl0_slot;    /* 8: slot for the next update reset, or OTA_NEXT_SLOT_NONE */
	uint32_t rotate_requested; /* 12: OTA_HARDENED_TRUE: the next boot rotates tag keys */
	uint32_t reserved[4];      /* 16 */
	uint8_t digest[OTA_SHA256_BYTES]; /* 32: SHA-256 of bytes [0, 32) */
};
OTA_STATIC_ASSERT(sizeof(struct ota_reset_request) == 64, "ota_reset_request layout");
OTA_STATIC_ASSERT(OTA_RESET_REQUEST_OFFSET + sizeof(struct ota_reset_request) <= HAL_RETENTION_BYTES,
		  "request fits");

/*
 * The runtime's boot services request (COMMIT, RATCHET, REVOKE), in
 * retention RAM outside the vault at OTA_BOOT_SVC_OFFSET: what it asks
 * ROM_EXT to do at the next (warm) boot, after that boot verified the BL0
 * that runs. ROM_EXT takes every field as hostile - the slot must be the
 * one it just booted, the floor at most that image's SVN, the revocation
 * command passes ota_revocation_check against the device's own keys - and
 * clears the request at the boot that reads it. A bad magic, version or
 * digest is no request. 208 bytes.
 */
#define OTA_BOOT_SVC_MAGIC OTA_FOURCC('O', 'T', 'B', 'S')
#define OTA_BOOT_SVC_VERSION 1u
#define OTA_BOOT_SVC_OFFSET 256u
struct ota_boot_svc_request {
	uint32_t magic;         /* 0 */
	uint32_t version;       /* 4 */
	uint32_t services;      /* 8: OTA_SVC_* asked for */
	uint32_t commit_slot;   /* 12: COMMIT: the BL0 slot to make primary */
	uint32_t ratchet_stage; /* 16: RATCHET */
	uint32_t ratchet_floor; /* 20 */
	uint32_t ratchet_flags; /* 24: OTA_RATCHET_F_* (mailbox.h) */
	uint32_t reserved[1];   /* 28 */
	struct ota_revocation revocation;  /* 32: REVOKE */
	uint8_t digest[OTA_SHA256_BYTES];  /* 176: SHA-256 of bytes [0, 176) */
};
OTA_STATIC_ASSERT(sizeof(struct ota_boot_svc_request) == 208, "ota_boot_svc_request layout");
#define OTA_BOOT_SVC_DIGESTED_BYTES 176u
OTA_STATIC_ASSERT(OTA_RESET_REQUEST_OFFSET + sizeof(struct ota_reset_request) <= OTA_BOOT_SVC_OFFSET &&
			  OTA_BOOT_SVC_OFFSET + sizeof(struct ota_boot_svc_request) <= HAL_RETENTION_BYTES,
		  "boot services request fits after the reset request");

/* What the boot stages leave for the runtime. */
struct ota_boot_state {
	struct ota_record record; /* as published */
	uint32_t record_len;
	uint32_t boot_status;     /* OTA_OK when BL0 was accepted */
	uint32_t reset_reason;
	struct ota_otp_info otp;  /* decoded OTP; the secret is never here */
	uint32_t rom_ext_slot;
	uint32_t bl0_slot;
	uint32_t bl0_svn;
	uint32_t min_svn;         /* min runtime SVN since cold boot */
	uint8_t rom_ext_measurement[OTA_SHA256_BYTES];
	uint8_t bl0_measurement[OTA_SHA256_BYTES];
	uint32_t rom_ext_svn;
	uint32_t chain_status;    /* OTA_OK when the SVN key chain holds link(min_svn) */
	uint32_t update_target;   /* BL0 slot an update reset asked for, or OTA_NEXT_SLOT_NONE */
	struct ota_boot_data boot_data; /* as ROM verified it (and ROM_EXT's services wrote it) */
	uint32_t svc_served;      /* OTA_SVC_* this boot's ROM_EXT took up from the request */
	uint32_t svc_status;      /* their outcome: OTA_OK or the first refusal */
};

/* The state of the last boot; NULL before the first one. */
const struct ota_boot_state *ota_boot_state(void);
/* The stages' writable view (ROM clears it, ROM_EXT fills it). */
struct ota_boot_state *boot_state_mut(void);
void boot_state_set_valid(bool valid);

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
struct boot_rotation *boot_rotation_mut(void);

/*
 * What ROM_EXT prepares for the runtime with the device root before the
 * key manager moves to RUNTIME: the alias key (retained) and its
 * certificate, the identity certificate from flash and, in manufacturing,
 * the identity key's certificate request. `valid` is cleared
 * first at every boot, so a boot that fails half way never serves the
 * previous boot's certificate or key.
 */
struct ota_runtime {
	uint32_t valid; /* OTA_HARDENED_TRUE once prepared */
	/* The boot this state belongs to: checked against ota_boot_state(). */
	uint8_t rom_ext_measurement[OTA_SHA256_BYTES];
	uint8_t bl0_measurement[OTA_SHA256_BYTES];
	uint8_t alias_pubkey[OTA_P256_PUBKEY_BYTES];
	uint8_t identity_pubkey[OTA_P256_PUBKEY_BYTES];
	uint32_t alias_cert_len;
	uint8_t alias_cert[OTA_CERT_MAX_DER];
	/* Identity certificate from flash; 0 when absent or not ours. */
	uint32_t identity_cert_len;
	uint8_t identity_cert[OTA_IDCERT_MAX_DER];
	ota_status_t identity_cert_status; /* why it is absent */
	/*
	 * The identity hand-overs from the identity the certificate certifies
	 * to identity_pubkey (keychain.md), oldest first; 0 when none.
	 */
	uint32_t handover_count;
	struct ota_identity_handover handover[OTA_IDLOG_ENTRIES];
	/*
	 * The identity key's PKCS#10 request, made in the manufacturing
	 * lifecycle state only (rom_ext/identity_csr.c); 0 otherwise.
	 */
	uint32_t identity_csr_len;
	uint8_t identity_csr[OTA_IDENTITY_CSR_MAX_DER];
	ota_status_t identity_csr_status; /* why it is absent */
};

extern struct ota_runtime ota_rt;

/* The runtime state for the current boot, or NULL when it does not serve. */
const struct ota_runtime *ota_runtime_current(const struct ota_boot_state *bs);

#endif /* OTATTEST_FW_HANDOFF_H */
