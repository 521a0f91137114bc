// SPDX-License-Identifier: MIT
/*
 * An update trial the device gave up (docs/boot-flow.md, "Trial
 * attempts"): ROM_EXT booted the primary slot again because the trial's
 * boots were used up by warm resets, watchdog bites or update resets
 * without a COMMIT. The record's update section says so (revert_reason,
 * reverted_slot) from that boot until the next cold boot or new trial.
 * Operators and update agents must hear of it once: a journal entry with
 * its own MESSAGE_ID (explained in the journal catalog), a TrialReverted
 * signal and the device's TrialReverts counter, which `otattestctl
 * metrics` exports as otattest_trial_reverts_total (the RevertReason
 * property and `otattestctl status`'s "reverted-trial" finding say it for
 * as long as the record does).
 *
 * Once per revert: the same boot's record moving on is not reported
 * again, nor is a later boot whose record still carries the revert the
 * previous boot already carried (a warm reset after it), nor a record the
 * boot history held when otattestd (re)started (device_link.c).
 */
#include <stdio.h>

#include "log.h"
#include "manager.h"

static const struct ota_record_update *update_section(const struct ota_record *r)
{
	return (r->hdr.flags & OTA_RECORD_F_UPDATE_SECTION) ? ota_record_update_of(r) : NULL;
}

static const char *slot_name(uint32_t slot)
{
	return slot == OTA_SLOT_A ? "a" : "b"; /* validated < OTA_SLOT_COUNT */
}

/* Did the boot before (old) already carry this revert? */
static bool already_reverted(const struct ota_record_update *was, const struct ota_record_update *u)
{
	return was && was->update_state != OTA_UPDATE_TRIAL && was->revert_reason == u->revert_reason &&
	       was->reverted_slot == u->reverted_slot;
}

void device_report_trial_revert(struct device *d, const struct ota_record *old, bool had_old,
				const struct ota_record *rec)
{
	const struct ota_record_update *u = update_section(rec);
	char f_gen[48], f_slot[32], f_reason[48], f_primary[32];
	const char *fields[] = { f_gen, f_slot, f_reason, f_primary, NULL };

	if (!u || u->revert_reason == OTA_REVERT_NONE)
		return;
	if (had_old && (history_same_boot(old, rec) || already_reverted(update_section(old), u)))
		return;
	snprintf(f_gen, sizeof(f_gen), "OTATTEST_GENERATION=%u", rec->hdr.generation);
	snprintf(f_slot, sizeof(f_slot), "OTATTEST_SLOT=%s", slot_name(u->reverted_slot));
	snprintf(f_reason, sizeof(f_reason), "OTATTEST_REVERT_REASON=%s",
		 ota_revert_reason_name(u->revert_reason));
	snprintf(f_primary, sizeof(f_primary), "OTATTEST_PRIMARY_SLOT=%s", slot_name(u->primary_slot));
	log_event_fields(LOG_WARNING, MID_TRIAL_REVERTED, d->name, fields,
			 "update trial of BL0 slot %s reverted (%s): booted primary slot %s again",
			 slot_name(u->reverted_slot), ota_revert_reason_name(u->revert_reason),
			 slot_name(u->primary_slot));
	d->trial_reverts++;
	bus_emit_trial_reverted(d, rec->hdr.generation, slot_name(u->reverted_slot),
				ota_revert_reason_name(u->revert_reason));
	bus_emit_properties_changed(d);
}
