// SPDX-License-Identifier: MIT
/*
 * Which slots the device refused to boot (RefusedSlots). An UpdateReset
 * checks the slot's image before the reset and refuses a bad one with
 * its verdict (a manifest that does not parse, a signature that does not
 * verify, an SVN below the floor); no boot happens, so the record still
 * carries the VERIFIED flag the install or the last boot gave the slot,
 * and an update agent reading the flags (RAUC's get-state) would call a
 * slot good that the device has just refused. The device's own verdict is
 * kept here, beside the record, until the slot changes: another image
 * installed through otattestd, the record showing the slot differently,
 * or a new boot (whose record judges every slot afresh).
 */
#include <string.h>

#include "history.h"
#include "manager.h"

/* The classes in which a device judges an image; the rest say nothing of it (busy, gone, denied). */
static bool is_verdict(const struct ota_err *e)
{
	uint32_t module = ((uint32_t)e->status >> 8) & 0xffu;

	if (module == OTA_MOD_HOST || module == OTA_MOD_SHM || module == OTA_MOD_DRIVER)
		return false;
	switch (e->cls) {
	case OTA_CLASS_MALFORMED:
	case OTA_CLASS_VERIFICATION:
	case OTA_CLASS_POLICY:
	case OTA_CLASS_ROLLBACK:
	case OTA_CLASS_REVOKED:
		return true;
	default:
		return false;
	}
}

static const struct ota_record_update *update_section(const struct ota_record *r)
{
	return r->hdr.flags & OTA_RECORD_F_UPDATE_SECTION ? ota_record_update_of(r) : NULL;
}

void device_note_refused_boot(struct device *d, uint32_t slot, const struct ota_err *e)
{
	const struct ota_record_update *u = d->have_record ? update_section(&d->record) : NULL;
	struct slot_refusal *f;

	if (!u || !is_verdict(e))
		return;
	if (slot == OTA_UPDATE_SLOT_OTHER) {
		if (u->running_bl0_slot >= OTA_SLOT_COUNT)
			return;
		slot = u->running_bl0_slot == OTA_SLOT_A ? OTA_SLOT_B : OTA_SLOT_A;
	}
	if (slot >= OTA_SLOT_COUNT)
		return;
	f = &d->refused[ota_tag_index(OTA_STAGE_BL0, slot)];
	f->set = true;
	f->status = e->status;
	f->seen = u->slot[ota_tag_index(OTA_STAGE_BL0, slot)];
	bus_emit_properties_changed(d);
}

void device_refusals_on_record(struct device *d, const struct ota_record *old, bool had_old,
			       const struct ota_record *rec)
{
	const struct ota_record_update *u = update_section(rec);
	bool new_boot = !had_old || !history_same_boot(old, rec);
	size_t i;

	for (i = 0; i < OTA_STAGE_COUNT * OTA_SLOT_COUNT; i++)
		if (d->refused[i].set &&
		    (new_boot || !u || memcmp(&u->slot[i], &d->refused[i].seen, sizeof(u->slot[i]))))
			d->refused[i].set = false;
}

void device_refusal_clear(struct device *d, uint32_t stage, uint32_t slot)
{
	if (stage < OTA_STAGE_ROM_EXT || stage > OTA_STAGE_BL0 || slot >= OTA_SLOT_COUNT)
		return;
	if (!d->refused[ota_tag_index(stage, slot)].set)
		return;
	d->refused[ota_tag_index(stage, slot)].set = false;
	bus_emit_properties_changed(d);
}
