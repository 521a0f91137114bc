/* SPDX-License-Identifier: MIT */
/*
 * The hardware abstraction the firmware runs on. This is the only way the
 * boot stages and the runtime touch hardware. There is exactly one
 * implementation on the host: qemu-model/chip/, the emulated device the
 * unit tests and the QEMU model both use. On silicon each group would be
 * a driver for the corresponding OpenTitan-like block.
 *
 * Rules the implementation enforces (and tests check):
 *  - Key material never crosses this interface. Keys are handles; the
 *    implementation holds them in two XOR shares and offers no call that
 *    returns key bytes. Only public keys, signatures and MACs come out.
 *  - The key manager only moves forward: ROM -> ROM_EXT -> RUNTIME ->
 *    DISABLED until the next reset, and a state's secrets are one-way
 *    derivations of the previous state's and the binding of the stage
 *    entered: the device root exists only in ROM, ROM_EXT's identity,
 *    tag and chain-top keys only in ROM_EXT.
 *  - Every key has a purpose and each engine refuses keys of another
 *    (HAL_KEY_PURPOSE).
 *  - The OTP secret partition is not readable through hal_otp_read.
 *  - Flash behaves like NOR flash: erase sets a page to 0xff, program can
 *    only clear bits.
 *  - Advancing to RUNTIME wipes every working key slot: the runtime starts
 *    with the retained vault only, and only the boot stages (before
 *    RUNTIME) may put keys into the vault.
 *  - Firmware programs only the OTP COUNTERS partition, and only until
 *    the boot stages lock it (hal_otp_lock_counters).
 *  - Flash the boot stages protect (hal_flash_protect) cannot be erased or
 *    programmed until the next reset.
 */
#ifndef OTATTEST_HAL_H
#define OTATTEST_HAL_H

#include <otattest/record.h>
#include <otattest/status.h>

/* ---- SHA-256 engine: one operation at a time, like the hardware block -- */

ota_status_t hal_sha256_start(void);
ota_status_t hal_sha256_update(const void *data, uint32_t len);
ota_status_t hal_sha256_finish(uint8_t digest[OTA_SHA256_BYTES]);

/* ---- key manager ------------------------------------------------------ */

typedef uint32_t hal_key_t;
#define HAL_KEY_INVALID 0u

/*
 * Every key carries its purpose, fixed when it is derived, and each engine
 * takes only keys of its own purpose (OpenTitan's sideload destinations):
 * a KDF parent can only be derived from - never fed to KMAC, where its
 * output would come out in the clear - a MAC key only into KMAC, a signing
 * key only into the ECDSA engine. The purpose is part of the derivation's
 * input, so keys of two purposes are never the same bytes.
 */
enum hal_key_purpose {
	HAL_KEY_PURPOSE_KDF = 1,  /* symmetric: a parent for hal_keymgr_derive only */
	HAL_KEY_PURPOSE_SIGN = 2, /* an ECDSA P-256 key pair: hal_ecdsa_sign and _pubkey */
	HAL_KEY_PURPOSE_MAC = 3,  /* symmetric: a KMAC key (boot tags, boot data) */
};

/*
 * The key manager is a one-way state machine: ROM -> ROM_EXT -> RUNTIME
 * (the owner's runtime) -> DISABLED; reset returns it to ROM. Each state
 * has two secrets (CDIs) no call reveals: in ROM both are the device
 * root, KMAC256(device secret, ROM identity, 256, "otattest-device-root");
 * every advance replaces them with one-way derivations that fold in the
 * binding of the stage being entered, so a state's keys are out of reach
 * of every later state:
 *   ATTEST' = KDF(ATTEST, "otattest-keymgr-attest", state || attest)
 *   SEAL'   = KDF(SEAL,   "otattest-keymgr-seal",   state || attest || seal)
 * The attest binding says what admitted the stage (it stays across the
 * stage's updates, so identities derived from it do); the seal binding
 * is the stage itself (its measurement). DISABLED has no secrets.
 */
enum hal_keymgr_state {
	HAL_KEYMGR_ROM = 0,
	HAL_KEYMGR_ROM_EXT = 1,
	HAL_KEYMGR_RUNTIME = 2,
	HAL_KEYMGR_DISABLED = 3,
};

struct hal_keymgr_binding {
	uint8_t attest[OTA_SHA256_BYTES]; /* what admitted the stage */
	uint8_t seal[OTA_SHA256_BYTES];   /* the stage itself */
};

/*
 * Move to the next state (exactly state + 1, with its binding), or to
 * DISABLED from any state (binding NULL). Anything else is
 * HAL_KEYMGR_STATE. Every working key is wiped on the way to RUNTIME or
 * DISABLED: the runtime starts with the retained vault only.
 */
ota_status_t hal_keymgr_advance(uint32_t state, const struct hal_keymgr_binding *binding);
uint32_t hal_keymgr_state(void);

enum hal_keymgr_cdi {
	HAL_KEYMGR_CDI_ATTEST = 0,
	HAL_KEYMGR_CDI_SEAL = 1,
};

/*
 * A KDF-purpose handle on one of the current state's secrets, valid until
 * the next advance; HAL_KEY_INVALID in DISABLED or with no device secret.
 * The only parents that do not come from another key.
 */
hal_key_t hal_keymgr_cdi(uint32_t cdi);

/*
 * SP 800-108r1 KDF in KMAC mode: KMAC256(K_parent, context || key_version
 * || purpose, each u32 LE, L, label). For SIGN, 384 bits are derived and
 * reduced to a scalar in [1, n-1] (FIPS 186-5 A.2.1 style). The parent
 * must be a KDF key. key_version must be <= max_key_version
 * (HAL_KEYMGR_VERSION otherwise): the stage passes the max_key_version
 * from its manifest, as OpenTitan's ROM_EXT programs keymgr's maximum key
 * version. label is NUL-terminated.
 */
ota_status_t hal_keymgr_derive(hal_key_t parent, const char *label,
			       const uint8_t *context, uint32_t context_len,
			       uint32_t key_version, uint32_t max_key_version,
			       uint32_t purpose, hal_key_t *out);

void hal_key_destroy(hal_key_t key);

/*
 * Retained key vault: a key parked here survives warm and update resets
 * (it lives in retention RAM, in shares) and is lost at cold boot.
 */
#define HAL_RETAINED_KEY_SLOTS 4u
/* A copy of key into the vault; HAL_KEYMGR_STATE at RUNTIME. */
ota_status_t hal_key_retain(hal_key_t key, uint32_t slot);
/* A new working handle on a retained key (the caller destroys it); HAL_BAD_HANDLE when the slot is empty. */
ota_status_t hal_key_retained(uint32_t slot, hal_key_t *out);
void hal_key_retained_clear(uint32_t slot);

/* ---- KMAC256 with a sideloaded key (MAC purpose only) ---------------- */

ota_status_t hal_kmac_start(hal_key_t key, const uint8_t *custom, uint32_t custom_len);
ota_status_t hal_kmac_update(const void *data, uint32_t len);
ota_status_t hal_kmac_finish(uint8_t *out, uint32_t out_len);

/* ---- ECDSA P-256 (OTBN-like signer) ---------------------------------- */

/* OTA_OK, SIG_ECDSA_INVALID or SIG_BAD_PUBKEY. Digest is SHA-256 of the message. */
ota_status_t hal_ecdsa_verify(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
			      const uint8_t digest[OTA_SHA256_BYTES],
			      const uint8_t sig[OTA_P256_SIG_BYTES]);
ota_status_t hal_ecdsa_sign(hal_key_t key, const uint8_t digest[OTA_SHA256_BYTES],
			    uint8_t sig[OTA_P256_SIG_BYTES]);
ota_status_t hal_ecdsa_pubkey(hal_key_t key, uint8_t pubkey[OTA_P256_PUBKEY_BYTES]);

/* ---- OTP ------------------------------------------------------------- */

/* Offsets into struct ota_otp. The secret partition reads as an error. */
ota_status_t hal_otp_read(uint32_t offset, void *buf, uint32_t len);
/* OR-only programming: OTP_CLEARS_BITS if any set bit would be cleared. */
ota_status_t hal_otp_program(uint32_t offset, const void *buf, uint32_t len);
/*
 * Lock the COUNTERS partition until the next reset: hal_otp_program then
 * fails with HAL_OTP_COUNTERS_LOCKED. ROM_EXT locks it before the
 * hand-off, so floors, revocations, the epoch and the anchors move only
 * at a boot, as the boot stages decide.
 */
ota_status_t hal_otp_lock_counters(void);

/* ---- flash ------------------------------------------------------------ */

uint32_t hal_flash_size(void);
uint32_t hal_flash_page_size(void);
ota_status_t hal_flash_read(uint32_t addr, void *buf, uint32_t len);
ota_status_t hal_flash_erase_page(uint32_t addr);
/* HAL_FLASH_NOT_ERASED when a bit would go from 0 to 1. */
ota_status_t hal_flash_program(uint32_t addr, const void *buf, uint32_t len);

/*
 * Write-protect [addr, addr + len) (page aligned) until the next reset,
 * like OpenTitan's flash controller region protection that ROM_EXT locks
 * before the hand-off: from then on erase and program touching it fail
 * with HAL_FLASH_LOCKED, whoever asks. Up to HAL_FLASH_PROTECT_REGIONS
 * regions (HAL_BAD_ARGUMENT past that, or for a misaligned range). The
 * boot stages protect what the runtime must never write (the layout,
 * boot data, tag tables, owner config and the running slots), so that
 * holds even when the runtime is not what it should be.
 */
#define HAL_FLASH_PROTECT_REGIONS 8u
ota_status_t hal_flash_protect(uint32_t addr, uint32_t len);

/*
 * DMA from flash into RAM with inline hashing (like the SHA-2 inline
 * hashing of OpenTitan's DMA block): the len bytes at addr land in buf,
 * and the same bytes, as they were written to buf, go through the
 * running SHA-256 operation (hal_sha256_start before, hal_sha256_finish
 * after; plain hal_sha256_update calls may come between transfers). The
 * digest covers exactly what buf holds, never a later state of flash.
 * Checked first: HAL_FLASH_BAD_ADDRESS, HAL_BAD_ARGUMENT and
 * HAL_ENGINE_IDLE (no operation started) read, write and hash nothing
 * and leave a running operation as it was. A failure during the transfer
 * ends the operation, so a digest of part of the data never comes out.
 */
ota_status_t hal_flash_read_sha256(uint32_t addr, void *buf, uint32_t len);

/* ---- retention RAM: survives warm and update resets, not cold boot ---- */

#define HAL_RETENTION_BYTES 512u
ota_status_t hal_retention_read(uint32_t offset, void *buf, uint32_t len);
ota_status_t hal_retention_write(uint32_t offset, const void *buf, uint32_t len);

/*
 * The data vault, Caliptra's in miniature: retention RAM [0,
 * HAL_RETENTION_VAULT_BYTES) is writable until hal_retention_lock(), then
 * read-only (HAL_RETENTION_LOCKED) until the next reset. The boot stages
 * write what the runtime must not choose (min SVN, the chain's state) and
 * lock it before the hand-off; the rest of retention RAM stays writable
 * for the runtime's requests.
 */
#define HAL_RETENTION_VAULT_BYTES 128u
ota_status_t hal_retention_lock(void);

/* ---- time, randomness, ROM ------------------------------------------- */

uint64_t hal_cycles(void);  /* free-running cycle counter */
uint64_t hal_time_ns(void); /* monotonic nanoseconds */
ota_status_t hal_trng_fill(void *buf, uint32_t len);
/* SHA-256 measurement of the ROM: stable across every firmware update. */
void hal_rom_identity(uint8_t out[OTA_SHA256_BYTES]);

/* ---- reset manager ---------------------------------------------------- */

/*
 * Ask the reset manager for a reset (enum ota_reset_reason). Nothing
 * happens until the current mailbox request returns; then the chip resets
 * - the key manager back to ROM, every working key slot and engine
 * cleared, retention RAM and the retained key vault kept for WARM and
 * UPDATE - and execution restarts in ROM. The firmware never runs an
 * earlier stage itself. HAL_BAD_ARGUMENT for an unknown reason.
 */
ota_status_t hal_reset_request(uint32_t reason);

/* ---- the host interface (mailbox transport lives in the device) ------ */

/*
 * Publish a new boot record. The host interface keeps a generation counter
 * that only moves forward (across resets and power cycles too): it stamps
 * the next value into the record header's generation field, exports the
 * record and returns that value.
 */
uint32_t hal_host_publish_record(struct ota_record_header *record, uint32_t len);
/* Publish device state and the status explaining it. */
void hal_host_set_state(uint32_t state, uint32_t detail);
/* Publish progress of a long operation (tag rotation). */
void hal_host_progress(uint32_t done, uint32_t total);

#endif /* OTATTEST_HAL_H */
