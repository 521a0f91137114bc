// SPDX-License-Identifier: MIT
/*
 * Trial attempts (docs/boot-flow.md, "Trial attempts"): which BL0 slot
 * this reset tries first, and the count that bounds a trial. An update
 * reset into a slot that is not the primary starts a trial; every later
 * reset that is not the COMMIT the trial's runtime asked for (a warm
 * reset, a watchdog bite, an update reset into the same slot) uses one of
 * its OTA_TRIAL_MAX_BOOTS boots, and the reset that finds them used up
 * boots the primary slot again and records why (record.h,
 * enum ota_revert_reason). MCUboot reverts a test image at its next
 * reboot; here a trial gets a few, so an agent can warm-reset it once or
 * twice before it commits.
 *
 * The count lives in the retention vault (handoff.h): ROM_EXT writes it
 * and locks the vault before the hand-off, and only a reset that enters
 * ROM unlocks it, so the runtime - hung, faulting or hostile - cannot
 * lower it. A power cut clears it, and with it the trial itself: a cold
 * boot always starts from the primary slot, so there is no count to roll
 * back to.
 */
#include "rom_ext.h"

/* The kind of reset this boot follows, as a revert reason. */
static uint32_t revert_reason_of(const struct boot_ctx *b)
{
	if (b->reset_reason == OTA_RESET_UPDATE)
		return OTA_REVERT_UPDATE_RESET;
	return hal_wdog_bitten() ? OTA_REVERT_WATCHDOG : OTA_REVERT_WARM_RESET;
}

/*
 * Whether this warm reset is the COMMIT of the slot on trial, as the
 * runtime asked for it: it costs no boot (boot_svc.c judges the request
 * itself once BL0 is verified).
 */
static bool commit_reset(const struct boot_ctx *b, uint32_t slot)
{
	return b->svc_req_valid && b->reset_reason == OTA_RESET_WARM && !hal_wdog_bitten() &&
	       (b->svc_req.services & OTA_SVC_COMMIT) && b->svc_req.commit_slot == slot;
}

static void revert(struct boot_ctx *b, uint32_t slot)
{
	b->ret_next.revert_reason = revert_reason_of(b);
	b->ret_next.reverted_slot = slot;
}

/* The slot to try first; b->trial_slot and ret_next's count for it. */
static uint32_t trial_first(struct boot_ctx *b)
{
	const struct ota_retention *r = &b->ret; /* zero when not valid */
	uint32_t primary = b->bd.primary_slot;
	bool on_trial = b->ret_valid && r->trial_boots != 0 && r->running_bl0_slot != primary;

	b->trial_slot = OTA_NEXT_SLOT_NONE;
	b->ret_next.trial_boots = 0;
	if (b->req_valid && b->reset_reason == OTA_RESET_UPDATE &&
	    b->req.next_bl0_slot != OTA_NEXT_SLOT_NONE) {
		uint32_t next = b->req.next_bl0_slot;

		if (on_trial && next == r->running_bl0_slot) {
			/* The slot already on trial: an update reset buys it no boots. */
			if (r->trial_boots >= OTA_TRIAL_MAX_BOOTS) {
				revert(b, next);
				return primary;
			}
			b->trial_slot = next;
			b->ret_next.trial_boots = r->trial_boots + 1u;
			return next;
		}
		/* A new trial (or the primary again): what an old one did is history. */
		b->ret_next.revert_reason = OTA_REVERT_NONE;
		b->ret_next.reverted_slot = 0;
		if (next != primary) {
			b->trial_slot = next;
			b->ret_next.trial_boots = 1;
		}
		return next;
	}
	if (on_trial) {
		uint32_t slot = r->running_bl0_slot;

		if (commit_reset(b, slot)) {
			b->trial_slot = slot;
			b->ret_next.trial_boots = r->trial_boots;
			return slot;
		}
		/* Any other reset uses a boot; an update reset naming no slot ends the trial. */
		if (b->reset_reason != OTA_RESET_WARM || r->trial_boots >= OTA_TRIAL_MAX_BOOTS) {
			revert(b, slot);
			return primary;
		}
		b->trial_slot = slot;
		b->ret_next.trial_boots = r->trial_boots + 1u;
		return slot;
	}
	if (b->ret_valid && b->reset_reason == OTA_RESET_WARM)
		return r->running_bl0_slot; /* the same image again */
	return primary;
}

void rom_ext_bl0_order(struct boot_ctx *b, uint32_t order[OTA_SLOT_COUNT])
{
	uint32_t first = trial_first(b);

	/*
	 * The primary, whatever the other slot claims: an update runs on
	 * trial until COMMIT makes its slot the primary, and a cold boot
	 * before that returns to the image committed last (MCUboot's
	 * test-then-confirm). The other slot is the fallback. An erased
	 * primary has nothing to try.
	 */
	if (first == b->bd.primary_slot && !boot_slot_present(b, OTA_STAGE_BL0, first))
		first ^= 1u;
	order[0] = first;
	order[1] = first ^ 1u;
}

void rom_ext_trial_end(struct boot_ctx *b)
{
	/* Counted only while the trial's slot is what runs and it is still not the primary. */
	if (b->bl0_out.status != OTA_OK || b->bl0_out.slot != b->trial_slot ||
	    b->bl0_out.slot == b->bd.primary_slot)
		b->ret_next.trial_boots = 0;
}
