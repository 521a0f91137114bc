/* SPDX-License-Identifier: MIT */
/*
 * Evidence verification (libotattest.so, host only; OpenSSL 3 inside, no
 * OpenSSL types in this interface). Used by otattest-verify, the daemon
 * and otattestctl; docs/verifier.md describes the API, the policy file
 * format and the verdict.
 *
 *   struct ota_trust *ca;  ota_trust_load_file("ca.pem", &ca);
 *   struct ota_policy pol; ota_policy_init(&pol); ota_policy_load_file(..)
 *   struct ota_verdict v;
 *   st = ota_verify_evidence(ev, ev_len, ca, nonce, nonce_len, &pol, NULL, 0, &v);
 *
 * st is OTA_OK only when every check holds; v lists every check that
 * failed, each with its own status (VERIFY_* or the CBOR/COSE reason).
 */
#ifndef OTATTEST_VERIFY_H
#define OTATTEST_VERIFY_H

#include "evidence.h"
#include "handover.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- decoded evidence -------------------------------------------------- */

struct ota_evidence_stage {
	uint32_t stage, slot, status, path, sig_scheme, depth, svn, tag_key_version, flags;
	uint32_t path_reason; /* enum ota_path_reason: why not the tag path */
	uint32_t usage_flags; /* the effective usage's OTA_CAP_* (OTA_CAP_DEBUG) */
	uint64_t verify_time_ns;
	uint8_t measurement[OTA_SHA256_BYTES];
	uint32_t key_id_count; /* depth + 1 */
	uint8_t key_ids[OTA_MAX_CHAIN_KEYS][OTA_KEY_ID_BYTES];
};

struct ota_evidence_claims {
	uint8_t nonce[OTA_NONCE_MAX];
	uint32_t nonce_len;
	uint8_t device_id[OTA_DEVICE_ID_BYTES];
	uint8_t record_digest[OTA_SHA256_BYTES];
	uint8_t rom_identity[OTA_SHA256_BYTES];
	uint32_t min_svn, epoch, lifecycle, tag_key_version, reset_reason, record_flags;
	uint32_t chain_max_svn, floor_rom_ext, floor_bl0, generation;
	bool oemboot;     /* RFC 9711 oemboot; the decoder holds it to the attempts */
	uint32_t dbgstat; /* RFC 9711 dbgstat; the decoder holds it to the lifecycle */
	uint32_t stage_count;
	struct ota_evidence_stage stage[OTA_RECORD_MAX_STAGES];
	/*
	 * Claims 12..18 and reset-reason (evidence.h); refused_count and
	 * refused_slots are counted from the attempts.
	 */
	struct ota_update_claims update;
};

/*
 * Decode and range-check a claims set (the COSE payload), profile v2
 * (docs/evidence.md): stage[] holds every attempt in record order, put
 * together from measurements, measres and the attempts claim. why (may be
 * NULL) names the claim at fault.
 */
ota_status_t ota_evidence_decode_claims(const uint8_t *buf, size_t len,
					struct ota_evidence_claims *out, char *why, size_t why_len);

/* The parts of a COSE_Sign1, pointing into the caller's buffer. */
#define OTA_COSE_MAX_CERTS 4u
struct ota_cose_sign1 {
	const uint8_t *protected_hdr;
	size_t protected_len;
	const uint8_t *payload;
	size_t payload_len;
	const uint8_t *signature;
	size_t signature_len;
	const uint8_t *certs[OTA_COSE_MAX_CERTS];
	size_t cert_lens[OTA_COSE_MAX_CERTS];
	uint32_t cert_count;
};

/* Strictly decode tagged COSE_Sign1 evidence (no crypto yet). */
ota_status_t ota_cose_sign1_decode(const uint8_t *buf, size_t len, struct ota_cose_sign1 *out);
/*
 * The identity hand-overs the evidence carries (OTA_COSE_HDR_HANDOVERS,
 * cbor.h): pointers into buf, oldest first, *count 0 when there are none.
 * Decodes as ota_cose_sign1_decode does and fails as it does.
 */
ota_status_t ota_cose_sign1_handovers(const uint8_t *buf, size_t len,
				      const uint8_t *handovers[OTA_HANDOVER_MAX],
				      size_t lens[OTA_HANDOVER_MAX], uint32_t *count);
/* ES256 check of the signature with an uncompressed P-256 point X || Y. */
ota_status_t ota_cose_sign1_verify(const struct ota_cose_sign1 *m,
				   const uint8_t pubkey[OTA_P256_PUBKEY_BYTES]);

/* ---- identity hand-overs (handover.h) ------------------------------------ */

/*
 * Walk `count` hand-overs (`blobs`, each `lens[i]` bytes, oldest first)
 * from `certified` - the identity key the CA certified - to `issuer`, the
 * key that issued the alias certificate, for device `device_id`. Each
 * must be a well-formed record of this device (VERIFY_HANDOVER_MALFORMED,
 * VERIFY_IDENTITY_MISMATCH), start at the version the previous one ended
 * (VERIFY_HANDOVER_OUT_OF_ORDER: a replayed or reordered step), hand over
 * from the key the walk has reached (VERIFY_HANDOVER_GAP) and be signed by
 * it (VERIFY_HANDOVER_FORGED); the last must end at `issuer`
 * (VERIFY_HANDOVER_GAP). No hand-over: `certified` must be `issuer`.
 * `why` (may be NULL) gets one line naming the step. On OTA_OK,
 * `*version` (may be NULL) is the identity version reached, 0 with no
 * hand-over.
 */
ota_status_t ota_handover_chain_check(const uint8_t certified[OTA_P256_PUBKEY_BYTES],
				      const uint8_t issuer[OTA_P256_PUBKEY_BYTES],
				      const uint8_t device_id[OTA_DEVICE_ID_BYTES],
				      const uint8_t *const blobs[], const size_t lens[],
				      uint32_t count, uint32_t *version, char *why,
				      size_t why_len);

/* ---- trust anchors ----------------------------------------------------- */

struct ota_trust; /* opaque: an X509_STORE of CA certificates */
ota_status_t ota_trust_load_file(const char *path, struct ota_trust **out);
ota_status_t ota_trust_load_pem(const void *pem, size_t len, struct ota_trust **out);
void ota_trust_free(struct ota_trust *t);
/*
 * Revocation: add the CRLs of a PEM file (one or more X509 CRLs) to the
 * store. From then on every chain's identity certificate is checked
 * against its CA's CRL (X509_V_FLAG_CRL_CHECK): a revoked one is
 * VERIFY_IDENTITY_REVOKED, and a CA without a current CRL fails the
 * chain (VERIFY_CHAIN_UNTRUSTED) - revocation that cannot be checked is
 * not passed. Call before the store verifies evidence or is shared
 * between threads: chains remembered earlier are forgotten.
 * HOST_IO, HOST_BAD_ARGUMENT (too large), X509_MALFORMED (no CRL in it),
 * X509_CRL_UNSUPPORTED: a CRL of the file is a delta CRL, points at delta
 * CRLs (freshestCRL), has an issuing distribution point or indirect
 * entries - a scope the verifier does not implement, so refused rather
 * than half-read (OpenSSL would skip a delta and pass what it revokes).
 * A refused file adds nothing.
 */
ota_status_t ota_trust_add_crl_file(struct ota_trust *t, const char *path);
ota_status_t ota_trust_add_crl_pem(struct ota_trust *t, const void *pem, size_t len);
/* Number of CRLs added: a verifier's policy naming CRLs needs it non-zero. */
uint32_t ota_trust_crl_count(const struct ota_trust *t);

/*
 * Verify the DER chain (leaf first) to the anchors; on success the leaf's
 * P-256 public key is returned. VERIFY_CHAIN_UNTRUSTED with a reason in
 * why (OpenSSL's verify error text) otherwise.
 */
ota_status_t ota_chain_verify(const struct ota_trust *t, const uint8_t *const certs[],
			      const size_t lens[], uint32_t count,
			      uint8_t leaf_pubkey[OTA_P256_PUBKEY_BYTES], char *why,
			      size_t why_len);

/*
 * What the alias certificate itself certifies (it was issued by the
 * identity key in ROM_EXT, before BL0 ran, so BL0 cannot forge it): the
 * device id from its subject CN, the identity it was issued in the name
 * of (its issuer CN) and, from its TCG MultiTcbInfo extension
 * (docs/evidence.md, "Alias certificate profile"), the device state and
 * each booted stage's SVN, measurement and verification results. The
 * verifier holds the claims to these: a runtime signing claims about
 * other code, other keys or another device state is caught here.
 */
struct ota_cert_tcb {
	uint32_t stage; /* DiceTcbInfo layer */
	uint32_t svn;
	uint8_t measurement[OTA_SHA256_BYTES];
	/* The results of the stage's check (vendorInfo; certifies_results only). */
	uint32_t path, sig_scheme, depth, tag_key_version;
	uint32_t path_reason; /* enum ota_path_reason */
	uint32_t usage_flags; /* the effective usage's OTA_CAP_* (OTA_CAP_DEBUG) */
	uint32_t key_id_count; /* depth + 1: the root key id, then each delegate's */
	uint8_t key_ids[OTA_MAX_CHAIN_KEYS][OTA_KEY_ID_BYTES];
};
/* The ROM's entry: the device state ROM and ROM_EXT decided (certifies_results only). */
struct ota_cert_device {
	uint8_t rom_identity[OTA_SHA256_BYTES];
	uint32_t lifecycle, epoch, min_svn, floor_rom_ext, floor_bl0, chain_max_svn;
	uint32_t tag_key_version;
	uint32_t flags; /* DICE OperationalFlags of every entry: ota_dice_flags(lifecycle) */
	/* DeviceState version 2: the update state (pending_* never certified: 0). */
	struct ota_update_claims update;
};
struct ota_alias_info {
	bool has_device_id;
	uint8_t device_id[OTA_DEVICE_ID_BYTES];
	bool has_issuer_device_id; /* the identity certificate's subject, as the issuer names it */
	uint8_t issuer_device_id[OTA_DEVICE_ID_BYTES];
	/*
	 * true: the profile with the device state and the stage results.
	 * false: an older certificate (measurements and SVNs only, or no TCB
	 * info at all) - it does not certify what a policy judges.
	 */
	bool certifies_results;
	struct ota_cert_device device;
	uint32_t tcb_count;
	struct ota_cert_tcb tcb[OTA_STAGE_COUNT];
	/*
	 * Kept when the TCB info does not parse: the version of a DeviceState
	 * or StageResults other than the one read here (1: StageResults
	 * before pathReason and usageFlags), 0 when none was met.
	 */
	uint32_t other_version;
	bool other_is_device_state; /* other_version is the ROM entry's DeviceState's */
};
/*
 * X509_MALFORMED when the certificate or its TCB info does not parse
 * (other_version then tells a profile this library does not read).
 */
ota_status_t ota_alias_cert_info(const uint8_t *der, size_t len, struct ota_alias_info *out);

/*
 * The device an identity certificate (DER) names in its subject CN, and
 * whether it issued the alias certificate: its subject is the alias's
 * issuer and its key verifies the alias's signature. X509_MALFORMED when
 * either does not parse as a certificate.
 */
struct ota_identity_info {
	bool has_device_id;
	uint8_t device_id[OTA_DEVICE_ID_BYTES];
	bool issued_alias;
};
ota_status_t ota_identity_cert_info(const uint8_t *der, size_t len, const uint8_t *alias_der,
				    size_t alias_len, struct ota_identity_info *out);

/* ---- policy ------------------------------------------------------------ */

struct ota_refvals; /* corim.h */

#define OTA_POLICY_MAX_ROOT_KEYS 16u
#define OTA_POLICY_MAX_DENIED_KEYS 64u
#define OTA_POLICY_MAX_CRLS 8u
#define OTA_POLICY_CRL_PATH_MAX 512u
struct ota_policy {
	uint32_t min_svn[OTA_STAGE_COUNT + 1u]; /* by enum ota_stage; 0 = no minimum */
	uint32_t allowed_root_key_count;        /* 0 = any root key */
	uint8_t allowed_root_keys[OTA_POLICY_MAX_ROOT_KEYS][OTA_KEY_ID_BYTES];
	uint32_t max_delegation_depth;          /* OTA_MAX_DELEGATION_DEPTH = no limit */
	bool hybrid_required;
	bool tag_path_allowed;
	/* false: a booted image whose usage has OTA_CAP_DEBUG is VERIFY_DEBUG_IMAGE. */
	bool debug_images_allowed;
	uint32_t min_epoch;
	/* Bit (1 << enum ota_lifecycle) per lifecycle state allowed; 0 = any. */
	uint32_t allowed_lifecycles;
	/*
	 * The update state (docs/verifier.md): require_committed refuses BL0
	 * on trial (VERIFY_NOT_COMMITTED); a reverted trial is
	 * VERIFY_TRIAL_REVERTED unless allowed - allow_reverted when the
	 * policy gave it (allow_reverted_given), else !require_committed;
	 * the fleet-wide revocation sequence must be at least
	 * min_revocation_sequence (VERIFY_REVOCATION_BELOW_POLICY).
	 */
	bool require_committed;
	bool allow_reverted;
	bool allow_reverted_given;
	uint32_t min_revocation_sequence;
	/* Delegate key ids (key_ids[1..depth] of a booted stage) refused wherever they appear. */
	uint32_t denied_delegate_key_count;
	uint8_t denied_delegate_keys[OTA_POLICY_MAX_DENIED_KEYS][OTA_KEY_ID_BYTES];
	/*
	 * CRL files (PEM) for the identity chain. The policy names them; the
	 * caller loads them into the trust store (ota_trust_add_policy_crls)
	 * and ota_verify_evidence refuses the chain while they are not.
	 */
	uint32_t crl_count;
	char crl_files[OTA_POLICY_MAX_CRLS][OTA_POLICY_CRL_PATH_MAX];
	/*
	 * Reference values (corim.h, ota_corim_load): when set, each booted
	 * stage must show a measurement they list (VERIFY_REFERENCE_MISMATCH).
	 * Not owned; NULL (ota_policy_init) = no reference values.
	 */
	const struct ota_refvals *refvals;
};

/* Everything allowed: no minimums, any key, tag path allowed. */
void ota_policy_init(struct ota_policy *p);
/*
 * Parse a policy file (docs/verifier.md): "key = value" lines, # comments.
 * VERIFY_POLICY_MALFORMED with "line N: ..." in why on any error.
 */
ota_status_t ota_policy_parse(const char *text, size_t len, struct ota_policy *p, char *why,
			      size_t why_len);
ota_status_t ota_policy_load_file(const char *path, struct ota_policy *p, char *why,
				  size_t why_len);
/*
 * Load the CRL files the policy names into the trust store. The first
 * failure's status, with the file in why.
 */
ota_status_t ota_trust_add_policy_crls(struct ota_trust *t, const struct ota_policy *p,
				       char *why, size_t why_len);

/* ---- verdict ----------------------------------------------------------- */

#define OTA_VERDICT_MAX_FAILURES 32u
#define OTA_VERDICT_NO_STAGE 0u

struct ota_verdict_failure {
	ota_status_t status; /* VERIFY_* or the decoding reason */
	uint32_t stage;      /* enum ota_stage it concerns, or OTA_VERDICT_NO_STAGE */
	char detail[160];    /* what exactly, for a person */
};

struct ota_verdict {
	bool authentic;    /* signature valid and chain trusted */
	bool claims_valid; /* claims below are decoded */
	struct ota_evidence_claims claims;
	uint32_t failure_count;
	bool failures_truncated;
	struct ota_verdict_failure failures[OTA_VERDICT_MAX_FAILURES];
};

/*
 * Run every check: COSE structure, certificate chain to the anchors,
 * signature, claims, nonce (when nonce is non-NULL), record digest (when
 * record is non-NULL: the boot record bytes the host read), and policy.
 * Returns OTA_OK, or the first failure's status; v holds them all.
 */
ota_status_t ota_verify_evidence(const uint8_t *evidence, size_t len,
				 const struct ota_trust *anchors, const uint8_t *nonce,
				 size_t nonce_len, const struct ota_policy *policy,
				 const uint8_t *record, size_t record_len, struct ota_verdict *v);

/* Policy checks alone, on decoded claims (appends to v). */
void ota_policy_evaluate(const struct ota_policy *p, const struct ota_evidence_claims *c,
			 struct ota_verdict *v);

#ifdef __cplusplus
}
#endif

#endif /* OTATTEST_VERIFY_H */
