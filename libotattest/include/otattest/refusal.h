/* SPDX-License-Identifier: MIT */
/*
 * Refusal reasons: every status a verdict (struct ota_verdict, verify.h)
 * can name, and what each tells a relying party in an attestation result.
 *
 * This is the one table of them. A reason's name, message and class - so
 * otattest-verify's text, its --json "check"/"message" and its exit code -
 * are its row in status.h; the row here adds the AR4SI trustworthiness
 * claim the refusal speaks to and the value it gives that claim in an EAR
 * (draft-ietf-rats-ar4si, draft-ietf-rats-ear; ear.c, docs/verifier.md
 * "Verdicts as EAR"). The value's tier (none, affirming, warning,
 * contraindicated) follows from the value alone, as AR4SI defines it, and
 * becomes the submodule's ear.status.
 *
 * Adding a reason: append its status to status.h's VERIFY block, add a row
 * here, and a row to docs/verifier.md's EAR table. tests/unit/test_ear.c
 * fails while a VERIFY_* status has no row here or the docs lack the row.
 * /work/notes/refusals.md says the same for the engineers of issue 15.
 */
#ifndef OTATTEST_REFUSAL_H
#define OTATTEST_REFUSAL_H

#include "status.h"

/* The AR4SI trustworthiness claims, in their EAR (JSON) names. */
#define OTA_AR4SI_CLAIM_LIST(X)                      \
	X(INSTANCE_IDENTITY, "instance-identity")    \
	X(CONFIGURATION, "configuration")            \
	X(EXECUTABLES, "executables")                \
	X(FILE_SYSTEM, "file-system")                \
	X(HARDWARE, "hardware")                      \
	X(RUNTIME_OPAQUE, "runtime-opaque")          \
	X(STORAGE_OPAQUE, "storage-opaque")          \
	X(SOURCED_DATA, "sourced-data")

enum ota_ar4si_claim {
#define OTA_X_AR4SI_ENUM(name, json) OTA_AR4SI_##name,
	OTA_AR4SI_CLAIM_LIST(OTA_X_AR4SI_ENUM)
#undef OTA_X_AR4SI_ENUM
	OTA_AR4SI_CLAIM_COUNT
};

/*
 * The AR4SI values otattest gives, named by what they mean (AR4SI gives
 * each claim its own words for the same number; docs/verifier.md has them).
 */
#define OTA_AR4SI_VERIFIER_MALFUNCTION (-1)
#define OTA_AR4SI_NO_CLAIM 0
#define OTA_AR4SI_UNEXPECTED_EVIDENCE 1 /* evidence the verifier cannot parse */
#define OTA_AR4SI_AFFIRMED 2            /* recognized instance, approved config, genuine hw */
#define OTA_AR4SI_APPROVED_BOOT 3       /* executables: only approved images booted */
#define OTA_AR4SI_UNSAFE 32             /* recognized, with known vulnerabilities */
#define OTA_AR4SI_UNRECOGNIZED 33       /* executables: not recognized */
#define OTA_AR4SI_CONTRAINDICATED 96    /* recognized and not to be trusted */
#define OTA_AR4SI_UNRECOGNIZED_INSTANCE 97
#define OTA_AR4SI_CRYPTO_FAILED 99      /* cryptographic validation failed */

/*
 * Columns: status (status.h name), AR4SI claim, value (the names above
 * without OTA_AR4SI_). docs/verifier.md says why each row is what it is.
 */
#define OTA_REFUSAL_LIST(X)                                                    \
	/* checks 1-2: the COSE_Sign1 does not decode */                       \
	X(CBOR_TRUNCATED, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)              \
	X(CBOR_TRAILING, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)               \
	X(CBOR_INDEFINITE, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)             \
	X(CBOR_DUPLICATE_KEY, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)          \
	X(CBOR_OVERSIZE, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)               \
	X(CBOR_TYPE, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)                   \
	X(CBOR_NONCANONICAL, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)           \
	X(CBOR_DEPTH, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)                  \
	X(CBOR_UNSUPPORTED, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)            \
	X(CBOR_BAD_UTF8, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)               \
	X(COSE_BAD_HEADER, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)             \
	X(COSE_BAD_ALG, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)                \
	X(COSE_SIG_INVALID, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)            \
	/* checks 3-4: authenticity */                                         \
	X(VERIFY_CHAIN_UNTRUSTED, INSTANCE_IDENTITY, UNRECOGNIZED_INSTANCE)    \
	X(VERIFY_IDENTITY_REVOKED, INSTANCE_IDENTITY, CONTRAINDICATED)         \
	X(VERIFY_SIGNATURE_INVALID, INSTANCE_IDENTITY, CRYPTO_FAILED)          \
	X(VERIFY_HANDOVER_MALFORMED, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)   \
	X(VERIFY_HANDOVER_GAP, INSTANCE_IDENTITY, UNRECOGNIZED_INSTANCE)       \
	X(VERIFY_HANDOVER_FORGED, INSTANCE_IDENTITY, CRYPTO_FAILED)            \
	X(VERIFY_HANDOVER_OUT_OF_ORDER, INSTANCE_IDENTITY, CONTRAINDICATED)    \
	/* check 5: the claims */                                              \
	X(VERIFY_CLAIMS_INVALID, INSTANCE_IDENTITY, UNEXPECTED_EVIDENCE)       \
	/* check 5b: the claims against the alias certificate */               \
	X(VERIFY_DEVICE_MISMATCH, INSTANCE_IDENTITY, CONTRAINDICATED)          \
	X(VERIFY_IDENTITY_MISMATCH, INSTANCE_IDENTITY, CONTRAINDICATED)        \
	X(VERIFY_NOT_CERTIFIED, EXECUTABLES, UNSAFE)                           \
	X(VERIFY_TCB_MISMATCH, EXECUTABLES, CONTRAINDICATED)                   \
	X(VERIFY_RESULT_MISMATCH, EXECUTABLES, CONTRAINDICATED)                \
	X(VERIFY_STATE_MISMATCH, EXECUTABLES, CONTRAINDICATED)                 \
	/* checks 6-7: freshness, the host's record */                         \
	X(VERIFY_NONCE_MISMATCH, INSTANCE_IDENTITY, CRYPTO_FAILED)             \
	X(VERIFY_RECORD_MISMATCH, SOURCED_DATA, CONTRAINDICATED)               \
	/* check 8: policy */                                                  \
	X(VERIFY_STAGE_REFUSED, EXECUTABLES, CONTRAINDICATED)                  \
	X(VERIFY_LIFECYCLE_NOT_ALLOWED, HARDWARE, CONTRAINDICATED)             \
	X(VERIFY_EPOCH_BELOW_POLICY, INSTANCE_IDENTITY, CONTRAINDICATED)       \
	X(VERIFY_SVN_BELOW_POLICY, EXECUTABLES, UNSAFE)                        \
	X(VERIFY_ROOT_KEY_NOT_ALLOWED, EXECUTABLES, UNRECOGNIZED)              \
	X(VERIFY_REFERENCE_MISMATCH, EXECUTABLES, UNRECOGNIZED)                \
	X(VERIFY_DELEGATE_DENIED, EXECUTABLES, CONTRAINDICATED)                \
	X(VERIFY_DEPTH_EXCEEDED, CONFIGURATION, UNSAFE)                        \
	X(VERIFY_TAG_PATH_FORBIDDEN, CONFIGURATION, UNSAFE)                    \
	X(VERIFY_HYBRID_MISSING, CONFIGURATION, UNSAFE)                        \
	X(VERIFY_DEBUG_IMAGE, CONFIGURATION, CONTRAINDICATED)                  \
	X(VERIFY_NOT_COMMITTED, CONFIGURATION, UNSAFE)                         \
	X(VERIFY_TRIAL_REVERTED, CONFIGURATION, UNSAFE)                        \
	X(VERIFY_REVOCATION_BELOW_POLICY, EXECUTABLES, UNSAFE)

/* The EAR name of a claim ("instance-identity"), or NULL. */
static inline const char *ota_ar4si_claim_name(uint32_t claim)
{
	switch (claim) {
#define OTA_X_AR4SI_NAME(name, json) \
	case OTA_AR4SI_##name:        \
		return json;
		OTA_AR4SI_CLAIM_LIST(OTA_X_AR4SI_NAME)
#undef OTA_X_AR4SI_NAME
	}
	return (const char *)0;
}

/*
 * The claim and value a refusal gives: 1 when st has a row, 0 when not
 * (a status no verdict should hold; ear.c reports a verifier malfunction).
 */
static inline int ota_refusal_ar4si(ota_status_t st, uint32_t *claim, int *value)
{
	switch (st) {
#define OTA_X_REFUSAL(name, cl, val)                     \
	case OTA_##name:                                  \
		*claim = (uint32_t)OTA_AR4SI_##cl;        \
		*value = OTA_AR4SI_##val;                 \
		return 1;
		OTA_REFUSAL_LIST(OTA_X_REFUSAL)
#undef OTA_X_REFUSAL
	}
	return 0;
}

/* AR4SI's tiers, worst last: the order ear.status compares them in. */
enum ota_ear_tier {
	OTA_EAR_AFFIRMING,
	OTA_EAR_NONE,
	OTA_EAR_WARNING,
	OTA_EAR_CONTRAINDICATED,
};

/*
 * A value's tier (AR4SI: -1..1 none, 2..31 affirming, 32..95 warning,
 * 96..127 contraindicated). "none" sorts after affirming: a refusal that
 * affirms nothing must never leave an appraisal affirming.
 */
static inline enum ota_ear_tier ota_ar4si_tier(int value)
{
	if (value >= 96)
		return OTA_EAR_CONTRAINDICATED;
	if (value >= 32)
		return OTA_EAR_WARNING;
	if (value >= 2)
		return OTA_EAR_AFFIRMING;
	return OTA_EAR_NONE;
}

/* ear.status's text for a tier. */
static inline const char *ota_ear_tier_name(enum ota_ear_tier t)
{
	switch (t) {
	case OTA_EAR_AFFIRMING: return "affirming";
	case OTA_EAR_NONE: return "none";
	case OTA_EAR_WARNING: return "warning";
	case OTA_EAR_CONTRAINDICATED: return "contraindicated";
	}
	return "none";
}

#endif /* OTATTEST_REFUSAL_H */
