/* SPDX-License-Identifier: MIT */
/*
 * Attestation evidence: the one definition of the claims set the device
 * signs and every verifier decodes (docs/evidence.md explains each claim).
 *
 * Evidence is a tagged COSE_Sign1 (RFC 9052) signed with ES256 by the
 * device's alias key:
 *
 *   18([ h'A10126',                      protected: {1: -7}
 *        {33: [alias_der, identity_der]}, unprotected: x5chain, leaf first
 *        payload: bstr(claims),
 *        signature: bstr(r || s) ])
 *
 * The claims set is an EAT (RFC 9711) CBOR map, profile v2 (OTA_EAT_PROFILE):
 * registered claims wherever one fits - nonce 10, ueid 256, oemid 258,
 * oemboot 262, dbgstat 263, eat_profile 265, measurements 273 (each running
 * component in the measured-component format of
 * draft-ietf-rats-eat-measured-component), measres 274 (each verification
 * attempt's result and path) - and the otattest-only rest under private-use
 * keys below -65536 whose CBOR argument reads "ota" (0x6f7461nn), a range no
 * published profile uses (docs/evidence.md says why it is free). It is
 * encoded deterministically (RFC 8949 section 4.2.1), so the keys appear in
 * the order listed here.
 */
#ifndef OTATTEST_EVIDENCE_H
#define OTATTEST_EVIDENCE_H

#include "record.h"
#include "shm.h" /* OTA_NONCE_MIN/MAX, the evidence size limit (mailbox.h) */

/* ---- claims set keys (docs/evidence.md, "Claims set") ---------------- */

/* Registered (IANA CWT Claims; RFC 9711 gives each one's type). */
#define OTA_CLAIM_NONCE 10          /* bstr 16..64: the verifier's nonce */
#define OTA_CLAIM_UEID 256          /* bstr 17: 0x01 (RAND type) || device id */
#define OTA_CLAIM_OEMID 258         /* bstr 16: OTA_OEMID_INIT (random-type OEM ID) */
#define OTA_CLAIM_OEMBOOT 262       /* bool: each stage booted, verified against OTP keys */
#define OTA_CLAIM_DBGSTAT 263       /* uint: ota_dbgstat(lifecycle) */
#define OTA_CLAIM_EAT_PROFILE 265   /* tstr: OTA_EAT_PROFILE */
#define OTA_CLAIM_MEASUREMENTS 273  /* [+ [OTA_CF_MEASURED_COMPONENT, bstr .cbor mc]] */
#define OTA_CLAIM_MEASRES 274       /* [+ [system, [[stage name, result]]]]: one per attempt */
#define OTA_CLAIM_REGISTERED_COUNT 8u

/*
 * Private use: key = -1 - (OTA_CLAIM_PRIVATE_BASE + n), so each encodes as
 * 3a 6f 74 61 nn ("ota", then n) and n ascending is the deterministic order.
 */
#define OTA_CLAIM_PRIVATE_BASE 0x6f746100LL
#define OTA_CLAIM_PRIVATE(n) (-1LL - (OTA_CLAIM_PRIVATE_BASE + (n)))
#define OTA_CLAIM_RECORD_DIGEST OTA_CLAIM_PRIVATE(1)   /* bstr 32: SHA-256 of the boot record */
#define OTA_CLAIM_MIN_SVN OTA_CLAIM_PRIVATE(2)         /* uint: min runtime SVN since cold boot */
#define OTA_CLAIM_EPOCH OTA_CLAIM_PRIVATE(3)           /* uint: identity epoch */
#define OTA_CLAIM_LIFECYCLE OTA_CLAIM_PRIVATE(4)       /* uint: enum ota_lifecycle */
#define OTA_CLAIM_TAG_KEY_VERSION OTA_CLAIM_PRIVATE(5) /* uint: the device's current key version */
#define OTA_CLAIM_RESET_REASON OTA_CLAIM_PRIVATE(6)    /* uint: enum ota_reset_reason */
#define OTA_CLAIM_RECORD_FLAGS OTA_CLAIM_PRIVATE(7)    /* uint: OTA_RECORD_F_* */
#define OTA_CLAIM_CHAIN_MAX_SVN OTA_CLAIM_PRIVATE(8)   /* uint */
#define OTA_CLAIM_FLOORS OTA_CLAIM_PRIVATE(9)          /* [uint rom_ext, uint bl0]: effective floors */
#define OTA_CLAIM_GENERATION OTA_CLAIM_PRIVATE(10)     /* uint: record generation */
#define OTA_CLAIM_ATTEMPTS OTA_CLAIM_PRIVATE(11)       /* [+ attempt map]: parallel to measres */
/* The update state (issue 28), ROM_EXT-certified but for pending-update. */
#define OTA_CLAIM_UPDATE_STATE OTA_CLAIM_PRIVATE(12)   /* uint: OTA_UPDATE_CLAIM_COMMITTED / _TRIAL */
#define OTA_CLAIM_PRIMARY_SLOT OTA_CLAIM_PRIVATE(13)   /* uint: BL0 primary slot (boot data) */
#define OTA_CLAIM_BOOTED_SLOT OTA_CLAIM_PRIVATE(14)    /* uint: the BL0 slot that runs */
#define OTA_CLAIM_PENDING_UPDATE OTA_CLAIM_PRIVATE(15) /* [stage 0..2, slot]: installed since the boot (runtime's word) */
#define OTA_CLAIM_REVOCATION_SEQ OTA_CLAIM_PRIVATE(16) /* [fleet-wide, device-bound]: highest applied */
#define OTA_CLAIM_TRIAL_BOOTS OTA_CLAIM_PRIVATE(17)    /* uint 0..OTA_TRIAL_MAX_BOOTS */
#define OTA_CLAIM_REVERT OTA_CLAIM_PRIVATE(18)         /* [enum ota_revert_reason, reverted slot] */
#define OTA_CLAIM_PRIVATE_COUNT 18u
#define OTA_CLAIM_COUNT (OTA_CLAIM_REGISTERED_COUNT + OTA_CLAIM_PRIVATE_COUNT)

/* Keys inside one attempt map, in encoding order. */
#define OTA_ACLAIM_STAGE 1            /* uint: enum ota_stage */
#define OTA_ACLAIM_SLOT 2             /* uint: enum ota_slot */
#define OTA_ACLAIM_STATUS 3           /* uint: OTA_OK or why the device refused it */
#define OTA_ACLAIM_SIG_SCHEME 4       /* uint: enum ota_sig_scheme */
#define OTA_ACLAIM_TAG_KEY_VERSION 5  /* uint: version of the tag checked or written */
#define OTA_ACLAIM_FLAGS 6            /* uint: OTA_STAGE_F_* */
#define OTA_ACLAIM_VERIFY_TIME_NS 7   /* uint */
#define OTA_ACLAIM_COMPONENT 8        /* bstr .cbor mc: present exactly when not booted */
#define OTA_ACLAIM_PATH_REASON 9      /* uint: enum ota_path_reason, why not the tag path */
#define OTA_ACLAIM_USAGE_FLAGS 10     /* uint: the effective usage's OTA_CAP_* (0x2 DEBUG) */
#define OTA_ACLAIM_SCALARS 7u         /* keys 1..7: unsigned integers in a row */
#define OTA_ACLAIM_COUNT 9u           /* keys of a booted attempt (1..7, 9, 10); a refused one adds 8 */

/*
 * measured-component (draft-ietf-rats-eat-measured-component) map keys.
 * This profile uses id, digested measurement and authorities; never raw
 * measurement (5) nor flags (4).
 */
#define OTA_MC_ID 1           /* [name tstr, ? [version tstr, version-scheme]] */
#define OTA_MC_DIGEST 2       /* [alg, bstr 32]: alg OTA_MC_ALG_SHA256 */
#define OTA_MC_AUTHORITIES 3  /* [+ bstr 32]: root key id, then each delegate's */
/* CoAP Content-Format of application/measured-component+cbor (IANA). */
#define OTA_CF_MEASURED_COMPONENT 295u
/* Named Information Hash Algorithm Registry ID of sha-256. */
#define OTA_MC_ALG_SHA256 1u
/* CoSWID version-scheme multipartnumeric (RFC 9393): an SVN is one part. */
#define OTA_MC_VERSION_SCHEME 1u
#define OTA_MC_NAME_ROM "rom"  /* the stages are named by ota_stage_name() */

/* measres (RFC 9711) result-type values this profile uses. */
#define OTA_MEASRES_SUCCESS 1u  /* status OK */
#define OTA_MEASRES_FAIL 2u     /* refused after its tag or signature check ran */
#define OTA_MEASRES_NOT_RUN 3u  /* refused before a path was decided */
/* An attempt's measurement-system: this prefix, then ota_path_name(path). */
#define OTA_MEASRES_SYSTEM_PREFIX "otattest-boot/"

/* dbgstat (RFC 9711) values this profile uses. */
#define OTA_DBGSTAT_ENABLED 0u
#define OTA_DBGSTAT_DISABLED_PERMANENTLY 3u
#define OTA_DBGSTAT_DISABLED_FULLY_AND_PERMANENTLY 4u

/*
 * What a lifecycle state leaves open: manufacturing, dev and rma have
 * debug open; prod closes it for all but the manufacturer (who may take a
 * prod part to rma on the silicon this models); prod_end closes it for
 * good. Anything else (never recorded) counts as open.
 */
static inline uint32_t ota_dbgstat(uint32_t lifecycle)
{
	switch (lifecycle) {
	case OTA_LC_PROD:
		return OTA_DBGSTAT_DISABLED_PERMANENTLY;
	case OTA_LC_PROD_END:
		return OTA_DBGSTAT_DISABLED_FULLY_AND_PERMANENTLY;
	}
	return OTA_DBGSTAT_ENABLED;
}

/* RFC 9711's name of a dbgstat value, for people and JSON. */
static inline const char *ota_dbgstat_name(uint32_t dbgstat)
{
	switch (dbgstat) {
	case OTA_DBGSTAT_ENABLED: return "enabled";
	case 1: return "disabled";
	case 2: return "disabled-since-boot";
	case OTA_DBGSTAT_DISABLED_PERMANENTLY: return "disabled-permanently";
	case OTA_DBGSTAT_DISABLED_FULLY_AND_PERMANENTLY: return "disabled-fully-and-permanently";
	}
	return "unknown";
}

/*
 * What an attempt's path, status, path reason, usage flags and the
 * record's tag-boot flag must say of each other (docs/evidence.md,
 * "Consistency of an attempt"), as firmware/lib/stage_check.c decides
 * them: the reasons are tried in order (check-only, tag-boot-off,
 * not-tag-capable, key-version-above-max, then the tag's own), a refused
 * attempt always has path none, the tag path has no reason, and only an
 * image the tag path was open to (TAG_BOOT, tag boot enabled, not past
 * its max key version) is retagged. Each mask has bit r set for the path
 * reasons r the path allows; check-only is the runtime's pre-check of an
 * update, never published, so no evidence carries it.
 */
#define OTA_PATH_REASONS_NONE 0x5ffu      /* refused: none (before a path was decided) or the one it had */
#define OTA_PATH_REASONS_TAG 0x001u       /* none */
#define OTA_PATH_REASONS_SIGNATURE 0x5feu /* any but none and check-only */
#define OTA_PATH_REASONS_RETAGGED 0x58eu  /* no-tag, stale-key-version, tag-mismatch, rotation, tag-key-unavailable, image-changed */
/* Reasons that say the tag path was open to the image: TAG_BOOT in its usage, tag boot enabled. */
#define OTA_REASONS_TAG_OPEN 0x5ceu       /* no-tag .. tag-mismatch, key-version-above-max .. tag-key-unavailable, image-changed */

enum ota_attempt_rule {
	OTA_ATTEMPT_CONSISTENT = 0,
	OTA_ATTEMPT_STATUS_PATH,   /* accepted on no path, or refused on one */
	OTA_ATTEMPT_PATH_REASON,   /* a reason the path does not allow */
	OTA_ATTEMPT_TAG_BOOT_FLAG, /* the reason or path and the record's tag-boot flag disagree */
	OTA_ATTEMPT_USAGE_TAG_BOOT, /* the reason or path and the image's TAG_BOOT usage disagree */
};

static inline uint32_t ota_path_reasons(uint32_t path)
{
	switch (path) {
	case OTA_PATH_NONE: return OTA_PATH_REASONS_NONE;
	case OTA_PATH_TAG: return OTA_PATH_REASONS_TAG;
	case OTA_PATH_SIGNATURE: return OTA_PATH_REASONS_SIGNATURE;
	case OTA_PATH_SIGNATURE_RETAGGED: return OTA_PATH_REASONS_RETAGGED;
	}
	return 0;
}

/* The first rule of the table an attempt breaks, or OTA_ATTEMPT_CONSISTENT. */
static inline enum ota_attempt_rule ota_attempt_check(uint32_t status, uint32_t path,
						      uint32_t reason, uint32_t usage,
						      uint32_t record_flags)
{
	bool open = path == OTA_PATH_TAG || (reason <= OTA_REASON_MAX &&
					     (OTA_REASONS_TAG_OPEN >> reason) & 1u);
	bool tag_boot = (record_flags & OTA_RECORD_F_TAG_BOOT_ENABLED) != 0;

	if ((status == OTA_OK) != (path != OTA_PATH_NONE))
		return OTA_ATTEMPT_STATUS_PATH;
	if (reason > OTA_REASON_MAX || !((ota_path_reasons(path) >> reason) & 1u))
		return OTA_ATTEMPT_PATH_REASON;
	if ((open || reason == OTA_REASON_NOT_TAG_CAPABLE) != tag_boot &&
	    (open || reason == OTA_REASON_NOT_TAG_CAPABLE || reason == OTA_REASON_TAG_BOOT_OFF))
		return OTA_ATTEMPT_TAG_BOOT_FLAG;
	if ((open && !(usage & OTA_CAP_TAG_BOOT)) ||
	    (reason == OTA_REASON_NOT_TAG_CAPABLE && (usage & OTA_CAP_TAG_BOOT)))
		return OTA_ATTEMPT_USAGE_TAG_BOOT;
	return OTA_ATTEMPT_CONSISTENT;
}

/* What a verifier says of a broken rule (its detail), shared with the Veraison scheme. */
static inline const char *ota_attempt_rule_text(enum ota_attempt_rule r)
{
	switch (r) {
	case OTA_ATTEMPT_CONSISTENT: return "consistent";
	case OTA_ATTEMPT_STATUS_PATH: return "its status and path disagree (accepted on no path, or refused on one)";
	case OTA_ATTEMPT_PATH_REASON: return "its path reason is not one its path allows";
	case OTA_ATTEMPT_TAG_BOOT_FLAG: return "its path reason or path disagrees with the record's tag-boot flag";
	case OTA_ATTEMPT_USAGE_TAG_BOOT: return "its path reason or path disagrees with its image's TAG_BOOT usage";
	}
	return "unknown rule";
}

/* The measres result an attempt's status and path call for. */
static inline uint32_t ota_measres_result(uint32_t status, uint32_t path)
{
	if (status == OTA_OK)
		return OTA_MEASRES_SUCCESS;
	return path == OTA_PATH_NONE ? OTA_MEASRES_NOT_RUN : OTA_MEASRES_FAIL;
}

#define OTA_EAT_PROFILE "tag:otattest.org,2025:evidence-v2"
/* Retired (docs/evidence.md): verifiers name it when they refuse it. */
#define OTA_EAT_PROFILE_V1 "tag:otattest.org,2025:evidence-v1"
#define OTA_UEID_TYPE_RAND 0x01u
#define OTA_UEID_BYTES (1u + OTA_DEVICE_ID_BYTES)
/* The otattest chip's OEM ID: a random-type oemid, drawn once. */
#define OTA_OEMID_BYTES 16u
#define OTA_OEMID_INIT                                                          \
	{ 0x00, 0x66, 0x57, 0x68, 0x00, 0xdb, 0xde, 0xdb,                       \
	  0x39, 0xfe, 0x77, 0x80, 0xec, 0x8f, 0x5b, 0xc0 }

/*
 * The update state the claims 12..18 and reset-reason show and ROM_EXT
 * certifies (DeviceState version 2), from a validated record: the
 * booted BL0 slot is its booted attempt's; the rest is the update section
 * (a record without one, from older firmware, reads as committed on that
 * slot with nothing applied or reverted). Refused attempts (those without
 * the booted flag) are counted, and their stage and slot kept as bit
 * (stage - 1) * 2 + slot, so a runtime that hides one is caught.
 * pending_* is what the runtime installed after the certificate was
 * issued: the runtime's word, never certified.
 */
#define OTA_UPDATE_CLAIM_COMMITTED 0u /* the running BL0 is the primary slot */
#define OTA_UPDATE_CLAIM_TRIAL 1u     /* it is not: a trial, until COMMIT or revert */
struct ota_update_claims {
	uint32_t reset_reason, state, primary_slot, booted_slot;
	uint32_t revocation_seq, revocation_seq_device;
	uint32_t trial_boots, revert_reason, reverted_slot;
	uint32_t refused_count, refused_slots;
	uint32_t pending_stage, pending_slot;
};

static inline void ota_update_claims_of(const struct ota_record *r, struct ota_update_claims *c)
{
	const struct ota_record_update *u = ota_record_update_of(r);
	bool has_update = (r->hdr.flags & OTA_RECORD_F_UPDATE_SECTION) != 0;
	uint32_t i;

	c->reset_reason = r->hdr.reset_reason;
	c->booted_slot = 0;
	c->refused_count = 0;
	c->refused_slots = 0;
	for (i = 0; i < r->hdr.stage_count && i < OTA_RECORD_MAX_STAGES; i++) {
		const struct ota_stage_record *s = &r->stage[i];

		if (s->flags & OTA_STAGE_F_BOOTED) {
			if (s->stage == OTA_STAGE_BL0)
				c->booted_slot = s->slot;
			continue;
		}
		c->refused_count++;
		if (s->stage >= OTA_STAGE_ROM_EXT && s->stage <= OTA_STAGE_BL0 && s->slot < OTA_SLOT_COUNT)
			c->refused_slots |= 1u << ((s->stage - 1u) * OTA_SLOT_COUNT + s->slot);
	}
	c->primary_slot = has_update ? u->primary_slot : c->booted_slot;
	c->state = c->booted_slot == c->primary_slot ? OTA_UPDATE_CLAIM_COMMITTED
						     : OTA_UPDATE_CLAIM_TRIAL;
	c->revocation_seq = has_update ? u->revocation_sequence : 0u;
	c->revocation_seq_device = has_update ? u->revocation_sequence_device : 0u;
	c->trial_boots = has_update ? u->trial_boots : 0u;
	c->revert_reason = has_update ? u->revert_reason : OTA_REVERT_NONE;
	c->reverted_slot = has_update ? u->reverted_slot : 0u;
	c->pending_stage = has_update ? u->pending_stage : 0u;
	c->pending_slot = has_update ? u->pending_slot : 0u;
}

/* ---- sizes ------------------------------------------------------------- */

/*
 * OTA_CLAIMS_MAX_BYTES, OTA_CERT_MAX_DER and the evidence size limit
 * OTA_EVIDENCE_MAX_BYTES are in mailbox.h (included through shm.h): the
 * limit bounds the mailbox's ATTEST response, so it is defined once there,
 * beside the command table that carries it.
 */

/* ---- key hierarchy (docs/evidence.md) --------------------------------- */

/*
 * Device identity key: hal_keymgr_derive(hal_keymgr_root(),
 * OTA_IDENTITY_LABEL, no context, key version 0, max 0, ECDSA_P256).
 * The root depends only on the device secret and the ROM, so the identity
 * survives every firmware update; it exists only until the runtime starts.
 */
#define OTA_IDENTITY_LABEL "otattest-identity"

/*
 * Alias (evidence) key, DICE style: derived from the same root with
 * context = ROM_EXT measurement || BL0 measurement, so other boot code
 * gets another key and cannot speak for this one.
 */
#define OTA_ALIAS_LABEL "otattest-alias"
#define OTA_ALIAS_CONTEXT_BYTES (2u * OTA_SHA256_BYTES)

/*
 * Certificate names, fixed so the firmware can name the identity
 * certificate's subject as its alias certificate's issuer without
 * parsing X.509: O=OTA_CERT_ORG, CN=<prefix><device id as 32 lower-case
 * hex digits>, both UTF8String, in that order. otimage provision uses the
 * very same names.
 */
#define OTA_CERT_ORG "otattest"
#define OTA_CERT_CN_IDENTITY "otattest identity "
#define OTA_CERT_CN_ALIAS "otattest alias "
/* Key identifiers (SKI/AKI): the first 20 bytes of SHA-256 of the
 * uncompressed point 04 || X || Y (RFC 7093 section 2 method 1). */
#define OTA_CERT_KEY_ID_BYTES 20u

/*
 * The alias certificate's TCG DICE MultiTcbInfo (docs/evidence.md,
 * "Alias certificate profile"): ROM_EXT certifies there what the claims
 * repeat and a verifier's policy judges. One DiceTcbInfo for the ROM
 * (layer 0, model "rom") whose vendorInfo is the device state, then one
 * per booted stage (layer = enum ota_stage, model = its name) whose
 * vendorInfo is that stage's verification results; every entry has
 * vendor "otattest" and the flags of the lifecycle state. vendorInfo
 * holds one DER SEQUENCE of INTEGERs (and, for a stage, its key ids as
 * OCTET STRINGs) that starts with its version: OTA_TCB_INFO_VERSION for
 * the ROM's DeviceState, OTA_TCB_RESULTS_VERSION for a stage's
 * StageResults. Version 2 of StageResults added the path reason and the
 * effective usage flags (issue 19's attempt claims 9 and 10); verifiers
 * read one version only, so a version-1 certificate, which leaves both
 * to the runtime's word, does not parse. Version 2 of DeviceState added
 * the update state (struct ota_update_claims but pending: reset reason,
 * committed or trial, primary and booted slot, both revocation
 * sequences, trial boots, the reverted trial and its reason, the refused
 * attempts' count and slots); version 1 does not parse either.
 */
#define OTA_TCB_VENDOR "otattest"
#define OTA_TCB_MODEL_ROM "rom"
#define OTA_TCB_LAYER_ROM 0u
#define OTA_TCB_INFO_VERSION 2u
#define OTA_TCB_RESULTS_VERSION 2u

/*
 * DiceTcbInfo flags [7]: a TCG OperationalFlags BIT STRING, always 32
 * bits wide (fixedWidth, bit 31, set - otherwise DER would drop trailing
 * zero bits). Here as the four content bytes big-endian, so BIT STRING
 * bit n is (1u << (31 - n)).
 */
#define OTA_DICE_FLAG_NOT_SECURE (1u << 30)  /* bit 1, notSecure */
#define OTA_DICE_FLAG_DEBUG (1u << 28)       /* bit 3, debug */
#define OTA_DICE_FLAG_FIXED_WIDTH (1u << 0)  /* bit 31, fixedWidth */

/*
 * The flags a lifecycle state certifies: prod and prod_end are secure
 * configurations with debug closed; dev has debug open; test_unlocked
 * (manufacturing) and rma have debug open and are not a secure
 * configuration. Anything else (never certified) is treated like rma.
 */
static inline uint32_t ota_dice_flags(uint32_t lifecycle)
{
	switch (lifecycle) {
	case OTA_LC_PROD:
	case OTA_LC_PROD_END:
		return OTA_DICE_FLAG_FIXED_WIDTH;
	case OTA_LC_DEV:
		return OTA_DICE_FLAG_FIXED_WIDTH | OTA_DICE_FLAG_DEBUG;
	}
	return OTA_DICE_FLAG_FIXED_WIDTH | OTA_DICE_FLAG_DEBUG | OTA_DICE_FLAG_NOT_SECURE;
}

/* ---- encoder (libotattest core, used by the firmware) ------------------ */

/*
 * Encode the claims set for a validated record. record_digest is SHA-256
 * of the record's bytes (the firmware computes it with its SHA engine).
 */
ota_status_t ota_evidence_encode_claims(const struct ota_record *rec,
					const uint8_t record_digest[OTA_SHA256_BYTES],
					const uint8_t *nonce, uint32_t nonce_len,
					uint8_t *out, uint32_t cap, uint32_t *out_len);

/*
 * Frame a signed COSE_Sign1: tag, protected {1: -7}, x5chain of
 * cert_count DER certificates (a bare bstr for one, an array for more,
 * RFC 9360), payload, signature.
 */
ota_status_t ota_evidence_encode_sign1(const uint8_t *payload, uint32_t payload_len,
				       const uint8_t *const certs[], const uint32_t cert_lens[],
				       uint32_t cert_count,
				       const uint8_t signature[OTA_P256_SIG_BYTES],
				       uint8_t *out, uint32_t cap, uint32_t *out_len);
/*
 * The same with the identity hand-overs (handover.h) in the unprotected
 * header after the x5chain (OTA_COSE_HDR_HANDOVERS); handover_count 0 is
 * ota_evidence_encode_sign1.
 */
struct ota_identity_handover;
ota_status_t ota_evidence_encode_sign1_handovers(const uint8_t *payload, uint32_t payload_len,
						 const uint8_t *const certs[],
						 const uint32_t cert_lens[], uint32_t cert_count,
						 const struct ota_identity_handover *handovers,
						 uint32_t handover_count,
						 const uint8_t signature[OTA_P256_SIG_BYTES],
						 uint8_t *out, uint32_t cap, uint32_t *out_len);

#endif /* OTATTEST_EVIDENCE_H */
