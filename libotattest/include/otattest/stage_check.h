/* SPDX-License-Identifier: MIT */
/*
 * What a boot stage decides about a parsed image, apart from loading it
 * and its boot tag: the stage's trust anchors, the checks that never
 * depend on the path (docs/boot-flow.md step 3) and the slow path's
 * signature verification (step 5). The firmware's stage check
 * (firmware/lib/stage_check.c) and otimage run these very functions, so
 * what the tool says about an image is what the device decides.
 *
 * Freestanding: no heap, no HAL. The one primitive the core does not
 * have, ECDSA P-256 verification, is the caller's: hal_ecdsa_verify on
 * the device, OpenSSL in otimage (ota_ecdsa_verify_fn).
 */
#ifndef OTATTEST_STAGE_CHECK_H
#define OTATTEST_STAGE_CHECK_H

#include "deleg.h"
#include "flash.h"
#include "manifest.h"
#include "otp.h"
#include "revocation.h"

/*
 * The keys and rules one stage is verified against, and the device facts
 * its policy reads. Built by ota_anchors_rom_ext / ota_anchors_bl0.
 */
struct ota_anchors {
	const struct ota_root_key *keys;
	uint32_t count;
	uint8_t key_ids[OTA_OWNER_MAX_KEYS][OTA_KEY_ID_BYTES];
	bool revoked[OTA_OWNER_MAX_KEYS];
	uint32_t max_depth;
	bool direct_allowed;
	bool hybrid_required;
	uint32_t floor;     /* effective anti-rollback floor of the stage */
	uint32_t svn_max;   /* highest SVN the stage accepts */
	uint32_t lifecycle; /* the device's lifecycle state in effect (enum ota_lifecycle) */
	uint8_t device_id[OTA_DEVICE_ID_BYTES];
};

/*
 * ROM's anchors for ROM_EXT: the provisioned creator keys in OTP (copied
 * into keys[], which a->keys points to), their revocation words, no
 * delegation (depth 0), direct boot, hybrid only when the key is, SVN up
 * to OTA_SVN_LIMIT. floor is the effective floor, max(OTP, boot data).
 */
void ota_anchors_rom_ext(const struct ota_otp_info *otp, uint32_t floor,
			 struct ota_root_key keys[OTA_OTP_CREATOR_KEYS], struct ota_anchors *a);

/*
 * ROM_EXT's anchors for BL0: the owner config, authenticated by its
 * SHA-256 in OTP (OWNER_DIGEST_MISMATCH) and then checked
 * (ota_owner_config_check); its keys (a->keys points into *oc) less
 * those revoked in OTP, its depth, direct-boot and hybrid rules; SVN up
 * to the key chain's length (chain_max_svn).
 */
ota_status_t ota_anchors_bl0(const struct ota_otp_info *otp, const struct ota_owner_config *oc,
			     uint32_t floor, struct ota_anchors *a);

/* What the policy found: the root key that admits the image, and the chain. */
struct ota_policy_result {
	uint32_t root_index;         /* into a->keys */
	bool hybrid;                 /* every SLH-DSA part is required (and present) */
	struct ota_chain_info chain; /* depth, key ids, effective constraints */
};

/*
 * The checks that never depend on the path, in this order, first failure
 * returned: identifier for the stage, slot, lifecycle and device binding
 * the image allows; the root key, looked up by the key id the chain
 * claims (ota_chain_root_id) among the anchors (ROOT_KEY_UNKNOWN,
 * _REVOKED, _LIFECYCLE); depth, direct boot, the hybrid parts (present
 * when the root key is hybrid or hybrid is required) and each DLGS's
 * header; ota_chain_check; ota_chain_floor_check; the image SVN against
 * the floor and the stage's ceiling. certs are the image's certificates
 * as read by ota_dlgc_read.
 */
ota_status_t ota_policy_check(const struct ota_anchors *a, uint32_t stage, uint32_t slot,
			      const struct ota_image_view *v, const struct ota_dlgc *certs,
			      struct ota_policy_result *out);

/* OTA_OK, SIG_ECDSA_INVALID or SIG_BAD_PUBKEY, as hal_ecdsa_verify. */
typedef ota_status_t (*ota_ecdsa_verify_fn)(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
					    const uint8_t digest[OTA_SHA256_BYTES],
					    const uint8_t sig[OTA_P256_SIG_BYTES]);

/* The keys trusted so far on the way down a chain. */
struct ota_signer {
	uint8_t ecdsa[OTA_P256_PUBKEY_BYTES];
	uint8_t spx[OTA_SLHDSA_PK_BYTES];
	bool has_spx;   /* spx is trusted: the root's, or certified by a verified DLGS */
	uint32_t depth; /* certificates verified; on a certificate failure, its index */
};

/*
 * The slow path's delegation part, after ota_policy_check passed: each
 * certificate's ECDSA signature by its parent (DELEG_CERT_SIG_INVALID)
 * and, where it carries a DLGS, the parent's SLH-DSA signature
 * (DELEG_CERT_SPX_INVALID, also when the parent has no trusted SLH-DSA
 * key). Starts from root and leaves in *s the image signer's keys.
 */
ota_status_t ota_deleg_verify(const struct ota_image_view *v, const struct ota_dlgc *certs,
			      const struct ota_root_key *root, ota_ecdsa_verify_fn ecdsa,
			      struct ota_signer *s);

/*
 * The image's own signatures over its measurement: ECDSA P-256
 * (SIG_ECDSA_INVALID, or SIG_BAD_PUBKEY when the signer's key is not a
 * P-256 point) and, when the image carries an SPXS, SLH-DSA under the
 * signer's trusted SLH-DSA key (SIG_SPX_INVALID, also when there is none).
 */
ota_status_t ota_image_sig_verify(const struct ota_image_view *v,
				  const uint8_t measurement[OTA_SHA256_BYTES],
				  const struct ota_signer *s, ota_ecdsa_verify_fn ecdsa);

/*
 * What a field revocation command is checked against (revocation.h): the
 * device's OTP, its creator keys and (when the owner config
 * authenticates) its owner keys as the stages use them, and what runs -
 * each stage's SVN and the root key that admitted it, so that no command
 * leaves the device without a bootable image.
 */
struct ota_revocation_facts {
	const struct ota_otp_info *otp;
	const struct ota_anchors *creator; /* ota_anchors_rom_ext */
	const struct ota_anchors *owner;   /* ota_anchors_bl0, NULL when it did not authenticate */
	uint32_t running_svn[OTA_STAGE_COUNT];                  /* by stage - 1 */
	uint8_t running_root[OTA_STAGE_COUNT][OTA_KEY_ID_BYTES]; /* by stage - 1 */
};

/*
 * The whole check of a revocation command, in the order docs/mailbox.md
 * gives: header and fields (REVOKE_MALFORMED, MBOX_RESERVED_NONZERO),
 * device (REVOKE_WRONG_DEVICE), sequence range (REVOKE_SEQUENCE_EXHAUSTED),
 * signer (REVOKE_UNKNOWN_SIGNER), replay in the signer's series
 * (REVOKE_REPLAYED), authority
 * (REVOKE_NOT_AUTHORIZED), strength (REVOKE_HYBRID_REQUIRED: a hybrid
 * signer key, or an owner key under an owner config that requires
 * hybrid), signature (REVOKE_SIG_INVALID), effect
 * (REVOKE_NOT_RAISED) and what it leaves bootable
 * (REVOKE_FLOOR_ABOVE_RUNNING, REVOKE_KEY_IN_USE). The runtime runs it
 * before it asks for the reset, ROM_EXT again before it applies.
 */
/*
 * The highest sequence applied in the command's series: each signer (the
 * silicon creator's keys, the owner's) numbers its commands apart, and
 * within a signer fleet-wide (no device id) and device-bound commands are
 * numbered apart (revocation.h). creator: the command's signer is one of
 * the creator keys (ota_revocation_by_creator).
 */
uint32_t ota_revocation_series(const struct ota_revocation *r, const struct ota_otp_info *otp,
			       bool creator);

/* Whether the key the command names is a usable creator key (its series is the creator's). */
bool ota_revocation_by_creator(const struct ota_revocation *r, const struct ota_anchors *creator);

ota_status_t ota_revocation_check(const struct ota_revocation *r,
				  const struct ota_revocation_facts *f, ota_ecdsa_verify_fn ecdsa);

/*
 * The same check of a command and, for a version-2 (hybrid) one, its
 * SLH-DSA signature spx (OTA_SLHDSA_SIG_BYTES; NULL for version 1, which
 * ota_revocation_check passes): a version that does not match what came
 * (REVOKE_MALFORMED); after the ECDSA signature, the SLH-DSA one under the
 * signer's SLH-DSA key (REVOKE_SPX_INVALID, also when the key has none).
 */
ota_status_t ota_revocation_check_hybrid(const struct ota_revocation *r, const uint8_t *spx,
					 const struct ota_revocation_facts *f,
					 ota_ecdsa_verify_fn ecdsa);

#endif /* OTATTEST_STAGE_CHECK_H */
