/* SPDX-License-Identifier: MIT */
/*
 * hal.h, key manager (the keymgr block): handles, purposes, states, the retained vault:
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/keymgr.yaml (docs/registers.md). The rules all blocks
 * share are in hal.h.
 */
#ifndef OTATTEST_HAL_KEYMGR_H
#define OTATTEST_HAL_KEYMGR_H

#include <otattest/handover.h>
#include <otattest/record.h>
#include <otattest/status.h>

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

/*
 * The identity hand-over (handover.h, docs/keychain.md). The identity key
 * is hal_keymgr_derive(ATTEST, OTA_IDENTITY_LABEL, no context, key version
 * = the identity version OTP holds): the key manager reads that version
 * itself and refuses the label at any other (HAL_KEYMGR_VERSION), so once
 * the version rose the old identity is gone.
 *
 * hal_keymgr_set_predecessor (ROM state only, else HAL_KEYMGR_STATE):
 * the attest binding of the stage that held the identity before - the
 * ROM_EXT of the previous creator key. At the advance into ROM_EXT the key
 * manager also makes the ATTEST CDI that binding would have given, held
 * where no handle reaches it, gone at the next advance.
 *
 * hal_keymgr_handover (ROM_EXT state, with a predecessor, else
 * HAL_KEYMGR_STATE / HAL_KEYMGR_NO_PREDECESSOR): the key manager derives
 * the predecessor's identity at version v (OTP's) and this state's at
 * v + 1, fills `out` and signs it with the old key. The caller keeps it
 * and then programs OTP's identity version to v + 1. HAL_KEYMGR_VERSION
 * when the thermometer is full. No key and no handle leaves the call.
 */
ota_status_t hal_keymgr_set_predecessor(const uint8_t attest[OTA_SHA256_BYTES]);
ota_status_t hal_keymgr_handover(struct ota_identity_handover *out);

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

#endif /* OTATTEST_HAL_KEYMGR_H */
