/* SPDX-License-Identifier: MIT */
/*
 * ROM_EXT internals: BL0's verification, the SVN key chain, and the keys
 * and certificates ROM_EXT prepares for the runtime while the device root
 * is still reachable.
 */
#ifndef OTATTEST_FW_ROM_EXT_H
#define OTATTEST_FW_ROM_EXT_H

#include <otattest/evidence.h>
#include <otattest/x509.h>

#include "../lib/fwlib.h"
#include "rv_timer_regs.h"

/*
 * Establish or extend the chain for a booted BL0 SVN (key manager before
 * RUNTIME): fills r->min_svn and r->chain_valid.
 */
ota_status_t rom_ext_keychain_update(const struct boot_ctx *b, uint32_t bl0_svn,
				     struct ota_retention *r);

/*
 * Derive the evidence (alias) key bound to the boot measurements, retain
 * it in OTA_RETAINED_KEY_ALIAS, and issue its X.509 certificate signed by
 * the device identity key (destroyed afterwards, so the runtime can never
 * certify another key); load the identity certificate from flash.
 */
ota_status_t ota_runtime_prepare(const struct ota_boot_state *bs);

/* Certificate of the alias key (alias_cert.c). */
struct ota_alias_cert_params {
	const uint8_t *device_id;      /* OTA_DEVICE_ID_BYTES */
	const uint8_t *subject_pubkey; /* the alias key, X || Y */
	const uint8_t *issuer_pubkey;  /* the identity key, X || Y */
	/*
	 * The certificate's TCB info, as ROM and ROM_EXT decided it: the
	 * device state (the record header: lifecycle, epoch, min SVN, floors,
	 * chain max SVN, tag key version, ROM identity) and the attempt that
	 * booted each stage, in boot order (SVN, measurement, path, scheme,
	 * depth, tag key version, key ids).
	 */
	const struct ota_record_header *device;
	/*
	 * The update state (ota_update_claims_of the record, its update
	 * section filled by ROM_EXT before the certificate): reset reason,
	 * committed or trial, slots, revocation sequences, trial boots, the
	 * reverted trial, the refused attempts.
	 */
	const struct ota_update_claims *update;
	const struct ota_stage_record *booted[OTA_STAGE_COUNT];
	uint32_t booted_count;
};
ota_status_t ota_alias_cert_build(const struct ota_alias_cert_params *p, hal_key_t issuer,
				  uint8_t *out, uint32_t cap, uint32_t *out_len);
/*
 * The MultiTcbInfo extension's value (its SEQUENCE) alone, for p's
 * device and booted stages: the layout docs/evidence.md gives byte for
 * byte. Part of ota_alias_cert_build; tests build certificates with it.
 */
void ota_alias_tcb_info_put(struct ota_der *d, const struct ota_alias_cert_params *p);
/*
 * The X.509 pieces the alias certificate and the identity CSR share
 * (cert_der.c): the ECDSA-with-SHA-256 AlgorithmIdentifier, an otattest
 * Name (O=OTA_CERT_ORG, CN=<prefix><device id in hex>), a P-256
 * SubjectPublicKeyInfo, and the signed envelope: the part written from
 * tbs_start on is hashed and signed with key, the algorithm and the
 * signature are appended, and the SEQUENCE opened before tbs_start closed.
 */
void ota_cert_put_alg_ecdsa_sha256(struct ota_der *d);
void ota_cert_put_name(struct ota_der *d, const char *cn_prefix, const uint8_t *device_id);
void ota_cert_put_spki(struct ota_der *d, const uint8_t pubkey[OTA_P256_PUBKEY_BYTES]);
ota_status_t ota_cert_sign_close(struct ota_der *d, uint32_t tbs_start, hal_key_t key,
				 uint32_t *out_len);

/*
 * The identity key's PKCS#10 request (identity_csr.c): subject named as
 * the identity certificate is, signed by the identity key.
 */
ota_status_t ota_identity_csr_build(const uint8_t device_id[OTA_DEVICE_ID_BYTES],
				    const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
				    hal_key_t identity, uint8_t *out, uint32_t cap,
				    uint32_t *out_len);
/*
 * In the manufacturing lifecycle state only, fill rt->identity_csr for
 * the runtime (GET_IDENTITY_CSR); otherwise, or when building fails,
 * leave it empty with the reason in rt->identity_csr_status.
 * rt->identity_pubkey must already hold the identity key's public key.
 */
void rom_ext_identity_csr_prepare(const struct ota_boot_state *bs, hal_key_t identity,
				  struct ota_runtime *rt);

/* SKI/AKI of a public key: truncated SHA-256 of 04 || X || Y. */
void ota_cert_key_id(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
		     uint8_t out[OTA_CERT_KEY_ID_BYTES]);

/* Identity certificate blob from flash (identity_cert.c). */
ota_status_t ota_identity_cert_load(const uint8_t identity_pubkey[OTA_P256_PUBKEY_BYTES],
				    uint8_t *der, uint32_t cap, uint32_t *der_len);

/*
 * Trial attempts (trial.c): the BL0 slot order for this reset - a trial's
 * slot while it has boots left, the primary again once they are used up
 * (the revert goes to b->ret_next) - and, once BL0 booted, the count the
 * vault keeps for the next reset.
 */
void rom_ext_bl0_order(struct boot_ctx *b, uint32_t order[OTA_SLOT_COUNT]);
/*
 * The watchdog ROM_EXT arms and locks before the hand-off (hal/aon_timer.h):
 * a runtime that does not pet it for 2 s of the nominal clock is reset,
 * and on trial the bite uses one of the trial's boots.
 */
#define ROM_EXT_WDOG_BITE_CYCLES (2u * RV_TIMER_FREQ_HZ_RESVAL)
void rom_ext_trial_end(struct boot_ctx *b);

/*
 * The boot services the runtime asked for (boot_svc.c): after BL0 was
 * verified on a warm reset, COMMIT, RATCHET and REVOKE, each judged again
 * and applied with the boot data key and the OTP counters; the outcome
 * goes to b->svc. Nothing is written for a refused request.
 */
void rom_ext_boot_services(struct boot_ctx *b);
/*
 * Before the hand-off: write-protect the layout, boot data, tag tables,
 * owner config and the running slots, and lock the OTP counters, until
 * the next reset (hal.h).
 */
ota_status_t rom_ext_lockdown(const struct boot_ctx *b);

/*
 * The identity hand-over (identity_handover.c): when ROM named a
 * predecessor, the key manager's hand-over appended to the identity log
 * and the OTP identity version raised (b->otp follows); otherwise, on a
 * blank log, its header naming this ROM_EXT. Before ota_runtime_prepare.
 */
void rom_ext_identity_handover(struct boot_ctx *b);

#endif /* OTATTEST_FW_ROM_EXT_H */
