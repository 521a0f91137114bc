/* SPDX-License-Identifier: MIT */
/*
 * Verdicts as EAR (libotattest.so, host only): an attestation result in
 * the EAT Attestation Results format (draft-ietf-rats-ear), signed by the
 * verifier as a JWT with ES256, that a relying party reads with any JOSE
 * library. One appraisal (submodule) per boot stage, each with ear.status
 * and an AR4SI trustworthiness vector worked out from the verdict by the
 * refusal table (refusal.h). docs/verifier.md, "Verdicts as EAR".
 *
 *   struct ota_ear_key *k;  ota_ear_key_load_file("verifier.pem", &k);
 *   struct ota_ear_options o = { .nonce = nonce, .nonce_len = nonce_len };
 *   char *jwt;
 *   st = ota_ear_sign(&v, &o, k, &jwt);   ... free(jwt); ota_ear_key_free(k);
 */
#ifndef OTATTEST_EAR_H
#define OTATTEST_EAR_H

#include "refusal.h"
#include "verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The EAT profile every EAR names (eat_profile). */
#define OTA_EAR_PROFILE "tag:github.com,2023:veraison/ear"
/* ear.appraisal-policy-id of otattest's rules: the one Veraison gives the scheme's EAR. */
#define OTA_EAR_POLICY_ID "policy:OTATTEST"

/*
 * One stage's appraisal: the value of each AR4SI claim (by enum
 * ota_ar4si_claim; OTA_AR4SI_NO_CLAIM for those not appraised) and the
 * tier that becomes ear.status.
 */
struct ota_ear_appraisal {
	int vector[OTA_AR4SI_CLAIM_COUNT];
	enum ota_ear_tier status;
};

/*
 * Appraise stage (OTA_STAGE_ROM_EXT or OTA_STAGE_BL0) from a verdict:
 * authentic evidence with valid claims starts from what its checks
 * affirm (a recognized instance, genuine hardware, an approved boot and
 * configuration); then every failure for this stage, or for no stage,
 * sets its claim to the refusal table's value where that is worse. Any
 * failure leaves the stage no better than its worst failure's tier.
 */
void ota_ear_appraise(const struct ota_verdict *v, uint32_t stage, struct ota_ear_appraisal *out);

struct ota_ear_key; /* opaque: the verifier's EC P-256 signing key */
/* A PEM EC P-256 private key (unencrypted). HOST_IO, TOOL_KEY_* reasons. */
ota_status_t ota_ear_key_load_file(const char *path, struct ota_ear_key **out);
ota_status_t ota_ear_key_load_pem(const void *pem, size_t len, struct ota_ear_key **out);
void ota_ear_key_free(struct ota_ear_key *k);

struct ota_ear_options {
	const char *developer;        /* ear.verifier-id developer; NULL: "otattest" */
	const char *build;            /* ear.verifier-id build; NULL: "libotattest" */
	int64_t iat;                  /* issued at (seconds since the epoch); 0: now */
	const uint8_t *nonce;         /* the nonce the verifier sent: eat_nonce; NULL: none */
	size_t nonce_len;
	const uint8_t *raw_evidence;  /* ear.raw-evidence (top level); NULL: none */
	size_t raw_evidence_len;
	const char *policy_id;        /* ear.appraisal-policy-id; NULL: none */
};

/*
 * The EAR claims set as JSON text (malloc'd, NUL-terminated): what
 * ota_ear_sign signs. HOST_INTERNAL when memory runs out.
 */
ota_status_t ota_ear_claims_json(const struct ota_verdict *v, const struct ota_ear_options *o,
				 char **json);

/*
 * The EAR as a compact JWS (header.payload.signature, base64url, ES256
 * with the 64-byte r || s signature JWS wants), malloc'd and NUL-terminated.
 */
ota_status_t ota_ear_sign(const struct ota_verdict *v, const struct ota_ear_options *o,
			  const struct ota_ear_key *k, char **jwt);

#ifdef __cplusplus
}
#endif

#endif /* OTATTEST_EAR_H */
