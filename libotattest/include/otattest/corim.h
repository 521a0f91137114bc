/* SPDX-License-Identifier: MIT */
/*
 * Reference values as CoRIM (draft-ietf-rats-corim): what otimage writes
 * when it signs a release and what the verifier reads beside its policy.
 * docs/corim.md is the profile: which CoRIM fields carry what, and why.
 *
 * A signed CoRIM is a COSE_Sign1 (tag 18, ES256) whose protected header
 * is {alg, content-type "application/rim+cbor", kid, corim-meta} and
 * whose payload is a tagged-unsigned-corim-map: an id and one CoMID per
 * stage, each with one reference triple: the stage's environment class
 * (class id, vendor "otattest", model = stage name, layer = enum
 * ota_stage) and one measurement (exact SVN, SHA-256 digest, signer key
 * ids as key thumbprints). The CBOR keys and tags below are the draft's.
 *
 * Host only (libotattest.so); OpenSSL inside, no OpenSSL type here.
 */
#ifndef OTATTEST_CORIM_H
#define OTATTEST_CORIM_H

#include "verify.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the wire format (draft-ietf-rats-corim) ---------------------------- */

/* CBOR tags */
#define OTA_CORIM_TAG_UNSIGNED 501u   /* tagged-unsigned-corim-map */
#define OTA_CORIM_TAG_COMID 506u      /* tagged-concise-mid-tag */
#define OTA_CORIM_TAG_UUID 37u        /* tagged-uuid-type (RFC 9562 via RFC 8949) */
#define OTA_CORIM_TAG_SVN 552u        /* tagged-svn: exactly this SVN */
#define OTA_CORIM_TAG_MIN_SVN 553u    /* tagged-min-svn: this SVN or above */
#define OTA_CORIM_TAG_THUMBPRINT 557u /* tagged-thumbprint-type: digest of a key */

/* COSE header labels (RFC 9052) and CoRIM's own */
#define OTA_COSE_HDR_CONTENT_TYPE 3
#define OTA_COSE_HDR_KID 4
#define OTA_CORIM_HDR_META 8
#define OTA_CORIM_CONTENT_TYPE "application/rim+cbor"

/* corim-map (unsigned-corim-map) */
#define OTA_CORIM_K_ID 0
#define OTA_CORIM_K_TAGS 1
#define OTA_CORIM_K_DEPENDENT_RIMS 2
#define OTA_CORIM_K_PROFILE 3
#define OTA_CORIM_K_VALIDITY 4
#define OTA_CORIM_K_ENTITIES 5
/* corim-meta-map, corim-signer-map */
#define OTA_CORIM_META_K_SIGNER 0
#define OTA_CORIM_SIGNER_K_NAME 0
/* concise-mid-tag */
#define OTA_COMID_K_LANGUAGE 0
#define OTA_COMID_K_TAG_IDENTITY 1
#define OTA_COMID_K_ENTITIES 2
#define OTA_COMID_K_LINKED_TAGS 3
#define OTA_COMID_K_TRIPLES 4
/* tag-identity-map */
#define OTA_COMID_TAGID_K_ID 0
#define OTA_COMID_TAGID_K_VERSION 1
/* triples-map */
#define OTA_COMID_TRIPLES_K_REFERENCE 0
/* environment-map, class-map */
#define OTA_COMID_ENV_K_CLASS 0
#define OTA_COMID_CLASS_K_ID 0
#define OTA_COMID_CLASS_K_VENDOR 1
#define OTA_COMID_CLASS_K_MODEL 2
#define OTA_COMID_CLASS_K_LAYER 3
/* measurement-map, measurement-values-map */
#define OTA_COMID_MEAS_K_MKEY 0
#define OTA_COMID_MEAS_K_MVAL 1
#define OTA_COMID_MVAL_K_SVN 1
#define OTA_COMID_MVAL_K_DIGESTS 2
#define OTA_COMID_MVAL_K_NAME 11
#define OTA_COMID_MVAL_K_CRYPTOKEYS 13
/* Named Information Hash Algorithm Registry: sha-256 */
#define OTA_CORIM_ALG_SHA256 1

#define OTA_CORIM_VENDOR "otattest"
#define OTA_CORIM_UUID_BYTES 16u
/*
 * The class id of each stage: UUIDv5 in the URL namespace of
 * "tag:otattest.org,2025:class/<stage name>" (anyone can recompute it).
 */
#define OTA_CORIM_CLASS_ROM_EXT                                                                  \
	{ 0xbcu, 0xd6u, 0xffu, 0xbfu, 0xcdu, 0x11u, 0x57u, 0x84u,                                \
	  0xb1u, 0x9bu, 0x6au, 0x5eu, 0xf0u, 0x7bu, 0x87u, 0x6cu }
#define OTA_CORIM_CLASS_BL0                                                                      \
	{ 0xcbu, 0x32u, 0x5fu, 0x08u, 0x37u, 0x4du, 0x52u, 0x5bu,                                \
	  0xa7u, 0xd4u, 0xefu, 0x52u, 0x24u, 0x72u, 0xe4u, 0x89u }

/* Bounds: a CoRIM is operator input that may come from anywhere. */
#define OTA_CORIM_MAX_BYTES 16384u  /* one signed CoRIM file */
#define OTA_CORIM_MAX_TEXT 128u     /* ids, names, content type */
#define OTA_CORIM_MAX_PROTECTED 256u /* the encoded protected header */
#define OTA_CORIM_MAX_DIGESTS 4u    /* SHA-256 digests one measurement lists */
#define OTA_REFVALS_MAX 64u         /* reference measurements over all CoRIMs loaded */

/* ---- reference values, decoded ------------------------------------------ */

/* One measurement a stage may have. */
struct ota_refval {
	uint32_t stage; /* enum ota_stage */
	uint32_t svn;
	bool svn_is_min; /* tagged-min-svn: svn or above */
	uint32_t digest_count;
	uint8_t digests[OTA_CORIM_MAX_DIGESTS][OTA_SHA256_BYTES];
	/* 0: the CoRIM names no signer keys; else root key id, then each delegate's */
	uint32_t key_id_count;
	uint8_t key_ids[OTA_MAX_CHAIN_KEYS][OTA_KEY_ID_BYTES];
};

/* Everything the CoRIMs loaded allow, by stage. */
struct ota_refvals {
	uint32_t count;
	struct ota_refval rv[OTA_REFVALS_MAX];
};

void ota_refvals_init(struct ota_refvals *r);

/*
 * Check a signed CoRIM (strict CBOR, the profile of docs/corim.md) and
 * its ES256 signature with the P-256 key the operator names (X || Y),
 * then add its reference values to r. Nothing is added unless all of it
 * holds. CORIM_MALFORMED (why names the field), CORIM_SIG_INVALID,
 * CORIM_TOO_MANY (r is full), CBOR_* for CBOR that is not well formed.
 */
ota_status_t ota_corim_load(const uint8_t *buf, size_t len,
			    const uint8_t signer_pub[OTA_P256_PUBKEY_BYTES], struct ota_refvals *r,
			    char *why, size_t why_len);
ota_status_t ota_corim_load_file(const char *path,
				 const uint8_t signer_pub[OTA_P256_PUBKEY_BYTES],
				 struct ota_refvals *r, char *why, size_t why_len);

/*
 * The P-256 public key of a PEM file (SubjectPublicKeyInfo, as otimage
 * keygen --pub writes it) as X || Y. HOST_IO, X509_MALFORMED (not a
 * P-256 public key).
 */
ota_status_t ota_p256_pubkey_load_file(const char *path, uint8_t out[OTA_P256_PUBKEY_BYTES]);

/*
 * The reference-value rule on one booted stage: its measurement, SVN and
 * signer key ids must be one of the references of its stage, else
 * VERIFY_REFERENCE_MISMATCH is added to v. ota_policy_evaluate runs it
 * for each booted stage when the policy names reference values.
 */
void ota_refvals_check(const struct ota_refvals *r, const struct ota_evidence_stage *s,
		       struct ota_verdict *v);

#ifdef __cplusplus
}
#endif

#endif /* OTATTEST_CORIM_H */
