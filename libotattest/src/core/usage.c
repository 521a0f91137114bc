// SPDX-License-Identifier: MIT
/*
 * Structural validity of usage blocks and constraints (manifest and
 * delegation certificates). Containment between them is in deleg.c.
 */
#include "otattest/manifest.h"

bool ota_usage_valid(const struct ota_usage *u)
{
	if (u->slot_mask == 0 || (u->slot_mask & ~OTA_SLOT_MASK_ALL))
		return false;
	if (u->lifecycle_mask == 0 || (u->lifecycle_mask & ~OTA_LC_MASK_ALL))
		return false;
	if (u->flags & ~OTA_CAP_ALL)
		return false;
	switch (u->device_binding) {
	case OTA_BINDING_ANY:
		/* A wildcard with a device id would read as bound to some readers. */
		return ota_all_zero(u->device_id, sizeof(u->device_id));
	case OTA_BINDING_DEVICE:
		return true;
	}
	return false;
}

bool ota_constraints_valid(const struct ota_constraints *c)
{
	return c->svn_min <= c->svn_max && c->svn_max <= OTA_SVN_LIMIT &&
	       ota_usage_valid(&c->usage);
}
