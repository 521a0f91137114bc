/* SPDX-License-Identifier: MIT */
/*
 * ROM_EXT internals: BL0's verification, the SVN key chain, and the keys
 * and certificates ROM_EXT prepares for the runtime while the device root
 * is still reachable.
 */
#ifndef OTATTEST_FW_ROM_EXT_H
#define OTATTEST_FW_ROM_EXT_H

#include <otattest/evidence.h>

#include "../lib/fwlib.h"

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
	/* The booted stages, in boot order: the certificate's TCB info. */
	struct ota_alias_tcb {
		uint32_t stage;
		uint32_t svn;
		const uint8_t *measurement;
	} tcb[OTA_STAGE_COUNT];
	uint32_t tcb_count;
};
ota_status_t ota_alias_cert_build(const struct ota_alias_cert_params *p, hal_key_t issuer,
				  uint8_t *out, uint32_t cap, uint32_t *out_len);
/* SKI/AKI of a public key: truncated SHA-256 of 04 || X || Y. */
void ota_cert_key_id(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
		     uint8_t out[OTA_CERT_KEY_ID_BYTES]);

/* Identity certificate blob from flash (identity_cert.c). */
ota_status_t ota_identity_cert_load(const uint8_t identity_pubkey[OTA_P256_PUBKEY_BYTES],
				    uint8_t *der, uint32_t cap, uint32_t *der_len);

#endif /* OTATTEST_FW_ROM_EXT_H */
