// SPDX-License-Identifier: MIT
/*
 * The checks that never depend on the path (DESIGN step 3). Both the tag
 * fast path and the signature slow path run all of them first, so a tag
 * can skip only the asymmetric verification: a revoked root key, a floor
 * raised above a delegate's ceiling or an owner config that changed its
 * mind refuse an image whatever tag it carries. otimage runs them too,
 * on the device it is told about (docs/otimage.md).
 *
 * Order: the image's own claims (identifier, slot, lifecycle, device),
 * then its chain's root key, then the owner's rules (depth, direct boot,
 * hybrid), then the delegation structure and containment, revocation by
 * floor, and last the image SVN against floor and ceiling - so a
 * delegate revoked by the floor is reported as that, not as the image
 * SVN below the floor it also is.
 */
#include <string.h>

#include "otattest/stage_check.h"

static ota_status_t image_claims(const struct ota_anchors *a, uint32_t stage, uint32_t slot,
				 const struct ota_manifest *m)
{
	uint32_t want = stage == OTA_STAGE_ROM_EXT ? OTA_ID_ROM_EXT : OTA_ID_BL0;

	if (m->identifier != want)
		return OTA_MANIFEST_WRONG_IDENTIFIER;
	if (!((m->usage.slot_mask >> slot) & 1u))
		return OTA_SLOT_NOT_ALLOWED;
	if (!((m->usage.lifecycle_mask >> a->lifecycle) & 1u))
		return OTA_LIFECYCLE_NOT_ALLOWED;
	if (m->usage.device_binding == OTA_BINDING_DEVICE &&
	    memcmp(m->usage.device_id, a->device_id, OTA_DEVICE_ID_BYTES) != 0)
		return OTA_DEVICE_NOT_ALLOWED;
	return OTA_OK;
}

static ota_status_t root_key(const struct ota_anchors *a, const uint8_t *id, uint32_t *index)
{
	uint32_t i;

	for (i = 0; i < a->count; i++) {
		if (memcmp(a->key_ids[i], id, OTA_KEY_ID_BYTES) != 0)
			continue;
		if (a->revoked[i])
			return OTA_ROOT_KEY_REVOKED;
		if (!((a->keys[i].lifecycle_mask >> a->lifecycle) & 1u))
			return OTA_ROOT_KEY_LIFECYCLE;
		*index = i;
		return OTA_OK;
	}
	return OTA_ROOT_KEY_UNKNOWN;
}

/* Every SLH-DSA part hybrid needs is present (verified later, on the slow path). */
static ota_status_t hybrid_parts(const struct ota_image_view *v, const struct ota_root_key *root)
{
	uint32_t i;

	if (root->algorithm != OTA_KEY_ALG_HYBRID)
		return OTA_SIG_SPX_KEY_MISSING;
	for (i = 0; i < v->cert_count; i++)
		if (v->cert_spx_offset[i] == 0)
			return OTA_DELEG_CERT_SPX_MISSING;
	if (v->spxs_offset == 0)
		return OTA_SIG_SPX_MISSING;
	return OTA_OK;
}

ota_status_t ota_policy_check(const struct ota_anchors *a, uint32_t stage, uint32_t slot,
			      const struct ota_image_view *v, const struct ota_dlgc *certs,
			      struct ota_policy_result *out)
{
	const struct ota_manifest *m = &v->manifest;
	const struct ota_root_key *root;
	const uint8_t *root_id;
	uint32_t i;

	OTA_TRY(image_claims(a, stage, slot, m));

	root_id = ota_chain_root_id(m, certs, v->cert_count);
	OTA_TRY(root_key(a, root_id, &out->root_index));
	root = &a->keys[out->root_index];

	if (v->cert_count > a->max_depth)
		return OTA_DELEG_DEPTH_EXCEEDED;
	if (v->cert_count == 0 && !a->direct_allowed)
		return OTA_DELEG_DIRECT_BOOT_FORBIDDEN;
	out->hybrid = a->hybrid_required || root->algorithm == OTA_KEY_ALG_HYBRID;
	if (out->hybrid)
		OTA_TRY(hybrid_parts(v, root));
	for (i = 0; i < v->cert_count; i++)
		if (v->cert_spx_offset[i])
			OTA_TRY(ota_dlgs_header_check(v, i));

	OTA_TRY(ota_chain_check(m, root_id, certs, v->cert_count, &out->chain));
	OTA_TRY(ota_chain_floor_check(certs, v->cert_count, a->floor));

	if (m->security_version < a->floor)
		return OTA_SVN_BELOW_FLOOR;
	if (m->security_version > a->svn_max)
		return OTA_SVN_ABOVE_MAX;
	return OTA_OK;
}
