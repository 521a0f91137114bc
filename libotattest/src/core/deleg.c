// SPDX-License-Identifier: MIT
/*
 * Delegation containment ("stricter-only") and the crypto-free part of a
 * chain check. The firmware's slow path and otimage both call these, so
 * a certificate otimage issues is one the device accepts and a child
 * wider than its parent is refused with the same code on both sides.
 */
#include <string.h>

#include "otattest/deleg.h"
#include "otattest/keys.h"

OTA_STATIC_ASSERT(OTA_DLGC_SIGNED_BYTES == offsetof(struct ota_dlgc, signature),
		  "a DLGC signature covers everything before it");

/* inner's device binding is at least as narrow as outer's. */
static bool binding_within(const struct ota_usage *outer, const struct ota_usage *inner)
{
	if (outer->device_binding == OTA_BINDING_ANY)
		return true;
	/* Anything but the wildcard binds: the inner one must name the same device. */
	return inner->device_binding == OTA_BINDING_DEVICE &&
	       outer->device_binding == OTA_BINDING_DEVICE &&
	       memcmp(inner->device_id, outer->device_id, OTA_DEVICE_ID_BYTES) == 0;
}

ota_status_t ota_constraints_contained(const struct ota_constraints *parent,
				       const struct ota_constraints *child)
{
	if (child->svn_min < parent->svn_min)
		return OTA_DELEG_WIDER_SVN_MIN;
	if (child->svn_max > parent->svn_max)
		return OTA_DELEG_WIDER_SVN_MAX;
	if (child->usage.slot_mask & ~parent->usage.slot_mask)
		return OTA_DELEG_WIDER_SLOTS;
	if (child->usage.lifecycle_mask & ~parent->usage.lifecycle_mask)
		return OTA_DELEG_WIDER_LIFECYCLE;
	if (!binding_within(&parent->usage, &child->usage))
		return OTA_DELEG_WIDER_DEVICE;
	if (child->usage.flags & ~parent->usage.flags)
		return OTA_DELEG_WIDER_FLAGS;
	return OTA_OK;
}

ota_status_t ota_image_within(const struct ota_constraints *leaf, uint32_t svn,
			      const struct ota_usage *usage)
{
	if (svn < leaf->svn_min)
		return OTA_IMAGE_SVN_BELOW_LEAF;
	if (svn > leaf->svn_max)
		return OTA_IMAGE_SVN_ABOVE_LEAF;
	if (usage->slot_mask & ~leaf->usage.slot_mask)
		return OTA_IMAGE_SLOTS_OUTSIDE_LEAF;
	if (usage->lifecycle_mask & ~leaf->usage.lifecycle_mask)
		return OTA_IMAGE_LIFECYCLE_OUTSIDE_LEAF;
	if (!binding_within(&leaf->usage, usage))
		return OTA_IMAGE_DEVICE_OUTSIDE_LEAF;
	if (usage->flags & ~leaf->usage.flags)
		return OTA_IMAGE_FLAGS_OUTSIDE_LEAF;
	return OTA_OK;
}

static bool chain_shape_ok(const struct ota_dlgc *certs, uint32_t count)
{
	switch (count) {
	case 0:
		return true;
	case 1:
		return certs[0].cert_type == OTA_CERT_LEAF;
	case 2:
		return certs[0].cert_type == OTA_CERT_INTERMEDIATE &&
		       certs[1].cert_type == OTA_CERT_LEAF;
	}
	return false;
}

ota_status_t ota_chain_check(const struct ota_manifest *m,
			     const uint8_t root_key_id[OTA_KEY_ID_BYTES],
			     const struct ota_dlgc *certs, uint32_t count,
			     struct ota_chain_info *out)
{
	struct ota_chain_info info;
	uint32_t i;

	memset(&info, 0, sizeof(info));
	if (count > OTA_MAX_DELEGATION_DEPTH)
		return OTA_DELEG_BAD_CHAIN_SHAPE;
	for (i = 0; i < count; i++)
		OTA_TRY(ota_dlgc_check(&certs[i]));
	if (!chain_shape_ok(certs, count))
		return OTA_DELEG_BAD_CHAIN_SHAPE;

	memcpy(info.key_ids[0], root_key_id, OTA_KEY_ID_BYTES);
	for (i = 0; i < count; i++) {
		if (memcmp(certs[i].parent_key_id, info.key_ids[i], OTA_KEY_ID_BYTES) != 0)
			return OTA_DELEG_PARENT_MISMATCH;
		ota_key_id(certs[i].delegate_pubkey, info.key_ids[i + 1]);
		if (i > 0)
			OTA_TRY(ota_constraints_contained(&certs[i - 1].constraints,
							  &certs[i].constraints));
	}
	if (memcmp(m->signer_key_id, info.key_ids[count], OTA_KEY_ID_BYTES) != 0)
		return OTA_DELEG_SIGNER_MISMATCH;

	info.depth = count;
	if (count > 0) {
		const struct ota_constraints *leaf = &certs[count - 1].constraints;

		OTA_TRY(ota_image_within(leaf, m->security_version, &m->usage));
		info.effective.svn_min = leaf->svn_min;
		info.effective.svn_max = leaf->svn_max;
	} else {
		/* A root key carries no SVN range of its own. */
		info.effective.svn_min = 0;
		info.effective.svn_max = OTA_SVN_LIMIT;
	}
	info.effective.usage = m->usage;
	if (out)
		*out = info;
	return OTA_OK;
}

ota_status_t ota_chain_floor_check(const struct ota_dlgc *certs, uint32_t count, uint32_t floor)
{
	uint32_t i;

	for (i = 0; i < count && i < OTA_MAX_DELEGATION_DEPTH; i++)
		if (certs[i].constraints.svn_max < floor)
			return OTA_DELEG_REVOKED_BY_FLOOR;
	return OTA_OK;
}
