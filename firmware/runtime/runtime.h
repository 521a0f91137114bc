/* SPDX-License-Identifier: MIT */
/*
 * Runtime (BL0) internals: what ota_runtime_prepare() leaves for the
 * command handlers, and the handlers themselves. One instance in RAM,
 * rebuilt at every boot; `valid` is cleared first, so a boot that fails
 * half way never serves the previous boot's certificate or key.
 */
#ifndef OTATTEST_FW_RUNTIME_H
#define OTATTEST_FW_RUNTIME_H

#include <otattest/evidence.h>
#include <otattest/flash.h>

#include "../lib/handoff.h"

struct ota_runtime {
	uint32_t valid; /* OTA_HARDENED_TRUE once prepare completed */
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
};

extern struct ota_runtime ota_rt;

/* The runtime state for the current boot, or NULL when it does not serve. */
const struct ota_runtime *ota_runtime_current(const struct ota_boot_state *bs);

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

/* Command handlers: request already copied out and validated. */
ota_status_t ota_rt_attest(const struct ota_boot_state *bs, const struct ota_runtime *rt,
			   const uint8_t *nonce, uint32_t nonce_len,
			   uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len);
ota_status_t ota_rt_get_certs(const struct ota_runtime *rt, uint8_t *resp, uint32_t resp_cap,
			      uint32_t *resp_len);
ota_status_t ota_rt_stable_sign(const struct ota_req_stable_sign *req, uint8_t *resp,
				uint32_t resp_cap, uint32_t *resp_len);

#endif /* OTATTEST_FW_RUNTIME_H */
