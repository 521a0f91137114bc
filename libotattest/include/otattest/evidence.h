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
 * The claims set is an EAT (RFC 9711) CBOR map: standard claims keep their
 * registered keys (nonce 10, ueid 256, eat_profile 265) and everything
 * otattest adds uses private-use keys below -65536, as RFC 9711 asks. It
 * is encoded deterministically (RFC 8949 section 4.2.1), so the keys
 * appear in the order listed here: 10, 256, 265, then -75001, -75002, ...
 */
#ifndef OTATTEST_EVIDENCE_H
#define OTATTEST_EVIDENCE_H

#include "record.h"
#include "shm.h" /* OTA_NONCE_MIN/MAX, the evidence size limit (mailbox.h) */

/* ---- claims set keys -------------------------------------------------- */

#define OTA_CLAIM_NONCE 10          /* bstr 16..64: the verifier's nonce */
#define OTA_CLAIM_UEID 256          /* bstr: 0x01 (RAND type) || device id */
#define OTA_CLAIM_EAT_PROFILE 265   /* tstr: OTA_EAT_PROFILE */

#define OTA_CLAIM_RECORD_DIGEST (-75001)   /* bstr 32: SHA-256 of the boot record bytes */
#define OTA_CLAIM_MIN_SVN (-75002)         /* uint: min runtime SVN since cold boot */
#define OTA_CLAIM_EPOCH (-75003)           /* uint: identity epoch */
#define OTA_CLAIM_LIFECYCLE (-75004)       /* uint: enum ota_lifecycle */
#define OTA_CLAIM_TAG_KEY_VERSION (-75005) /* uint */
#define OTA_CLAIM_RESET_REASON (-75006)    /* uint: enum ota_reset_reason */
#define OTA_CLAIM_RECORD_FLAGS (-75007)    /* uint: OTA_RECORD_F_* */
#define OTA_CLAIM_ROM_IDENTITY (-75008)    /* bstr 32: measurement of the ROM */
#define OTA_CLAIM_CHAIN_MAX_SVN (-75009)   /* uint */
#define OTA_CLAIM_FLOORS (-75010)          /* [uint rom_ext, uint bl0]: effective floors */
#define OTA_CLAIM_GENERATION (-75011)      /* uint: record generation */
#define OTA_CLAIM_STAGES (-75012)          /* [+ stage map]: every attempt, in record order */
#define OTA_CLAIM_COUNT 15u                /* entries in the claims map */

/* Keys inside one stage map, in encoding order. */
#define OTA_SCLAIM_STAGE 1            /* uint: enum ota_stage */
#define OTA_SCLAIM_SLOT 2             /* uint: enum ota_slot */
#define OTA_SCLAIM_STATUS 3           /* uint: OTA_OK or why the device refused it */
#define OTA_SCLAIM_PATH 4             /* uint: enum ota_path */
#define OTA_SCLAIM_SIG_SCHEME 5       /* uint: enum ota_sig_scheme */
#define OTA_SCLAIM_DEPTH 6            /* uint: delegation depth 0..2 */
#define OTA_SCLAIM_SVN 7              /* uint: the image's security version */
#define OTA_SCLAIM_TAG_KEY_VERSION 8  /* uint */
#define OTA_SCLAIM_MEASUREMENT 9      /* bstr 32 */
#define OTA_SCLAIM_KEY_IDS 10         /* [+ bstr 32]: root key id, then each delegate's */
#define OTA_SCLAIM_FLAGS 11           /* uint: OTA_STAGE_F_* */
#define OTA_SCLAIM_VERIFY_TIME_NS 12  /* uint */
#define OTA_SCLAIM_COUNT 12u

#define OTA_EAT_PROFILE "tag:otattest.org,2025:evidence-v1"
#define OTA_UEID_TYPE_RAND 0x01u
#define OTA_UEID_BYTES (1u + OTA_DEVICE_ID_BYTES)

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
 * OCTET STRINGs) that starts with OTA_TCB_INFO_VERSION.
 */
#define OTA_TCB_VENDOR "otattest"
#define OTA_TCB_MODEL_ROM "rom"
#define OTA_TCB_LAYER_ROM 0u
#define OTA_TCB_INFO_VERSION 1u

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

#endif /* OTATTEST_EVIDENCE_H */
