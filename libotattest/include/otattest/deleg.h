/* SPDX-License-Identifier: MIT */
/*
 * Delegation chains: the structural and containment rules shared by the
 * firmware (ROM_EXT's slow path) and otimage (which refuses to issue or
 * use a certificate the firmware would refuse). Nothing here verifies a
 * signature: callers check signatures with the parent keys these
 * functions name, after these checks pass.
 *
 * A chain is 0, 1 or 2 DLGC certificates in manifest table order:
 *   0: the manifest's signer_key_id is the root key (direct boot);
 *   1: root -> LEAF;
 *   2: root -> INTERMEDIATE -> LEAF.
 * Each certificate names its parent by key id, and each may only narrow
 * its parent's constraints ("stricter-only"); the image must sit inside
 * the leaf's constraints.
 */
#ifndef OTATTEST_DELEG_H
#define OTATTEST_DELEG_H

#include "manifest.h"

/*
 * Stricter-only containment of a child certificate in its parent. Checks
 * in this order and returns the first failure: DELEG_WIDER_SVN_MIN,
 * _SVN_MAX, _SLOTS, _LIFECYCLE, _DEVICE (a device-bound parent needs a
 * child bound to the same device), _FLAGS.
 */
ota_status_t ota_constraints_contained(const struct ota_constraints *parent,
				       const struct ota_constraints *child);

/*
 * The image's own SVN and usage inside its leaf's constraints:
 * IMAGE_SVN_BELOW_LEAF, _SVN_ABOVE_LEAF, IMAGE_SLOTS_OUTSIDE_LEAF,
 * _LIFECYCLE_, _DEVICE_, _FLAGS_ in that order.
 */
ota_status_t ota_image_within(const struct ota_constraints *leaf, uint32_t svn,
			      const struct ota_usage *usage);

/* What a checked chain resolves to (the boot record's view of it). */
struct ota_chain_info {
	uint32_t depth; /* number of certificates, 0..OTA_MAX_DELEGATION_DEPTH */
	/* root key id, then each delegate's; entries past depth are zero */
	uint8_t key_ids[OTA_MAX_CHAIN_KEYS][OTA_KEY_ID_BYTES];
	/* the leaf's SVN range ([0, OTA_SVN_LIMIT] when direct) and the image usage */
	struct ota_constraints effective;
};

/*
 * Check a chain without cryptography: count (DELEG_BAD_CHAIN_SHAPE above
 * 2), each certificate's structure (ota_dlgc_check), the type sequence
 * (DELEG_BAD_CHAIN_SHAPE), parent links (DELEG_PARENT_MISMATCH: the first
 * names root_key_id, later ones the previous delegate), containment
 * between consecutive certificates (DELEG_WIDER_*), the manifest signer
 * (DELEG_SIGNER_MISMATCH: the root when direct, else the leaf delegate)
 * and the image inside its leaf (IMAGE_*). root_key_id is the key the
 * caller looked up from ota_chain_root_id(). out may be NULL.
 */
ota_status_t ota_chain_check(const struct ota_manifest *m,
			     const uint8_t root_key_id[OTA_KEY_ID_BYTES],
			     const struct ota_dlgc *certs, uint32_t count,
			     struct ota_chain_info *out);

/* The root key id a chain claims: the first certificate's parent, or the signer. */
static inline const uint8_t *ota_chain_root_id(const struct ota_manifest *m,
					       const struct ota_dlgc *certs, uint32_t count)
{
	return count ? certs[0].parent_key_id : m->signer_key_id;
}

/*
 * Revocation through the anti-rollback floor: DELEG_REVOKED_BY_FLOOR when
 * the effective floor is above any certificate's svn_max (that delegate
 * and everything under it can never sign a bootable image again).
 */
ota_status_t ota_chain_floor_check(const struct ota_dlgc *certs, uint32_t count,
				   uint32_t floor);

/* What a parent's ECDSA signature in a DLGC covers: SHA-256 of bytes [0, 160). */
void ota_dlgc_digest(const struct ota_dlgc *c, uint8_t out[OTA_SHA256_BYTES]);

/*
 * What a parent's SLH-DSA signature in a DLGS covers: DLGC bytes
 * [0, 160) followed by the delegate's SLH-DSA public key.
 */
#define OTA_DLGS_MSG_BYTES (OTA_DLGC_SIGNED_BYTES + OTA_SLHDSA_PK_BYTES)
void ota_dlgs_message(const struct ota_dlgc *c,
		      const uint8_t delegate_spx_pubkey[OTA_SLHDSA_PK_BYTES],
		      uint8_t out[OTA_DLGS_MSG_BYTES]);

#endif /* OTATTEST_DELEG_H */
