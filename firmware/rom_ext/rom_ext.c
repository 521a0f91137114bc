// SPDX-License-Identifier: MIT
/*
 * ROM_EXT: entered only from ROM's hand-off (the key manager is in the
 * ROM_EXT state). It verifies BL0 in the slot order this reset calls for,
 * commits a tag rotation, establishes the SVN key chain, prepares the
 * runtime's alias key and certificates, advances the key manager to
 * RUNTIME - after which the device root is out of reach - and publishes
 * the record of the whole boot. See docs/boot-flow.md.
 */
#include <string.h>

#include "firmware.h"
#include "rom_ext.h"

/* BL0's owner config (its anchors point into it). */
static struct ota_owner_config bl0_oc;

static ota_status_t verify_bl0(struct boot_ctx *b)
{
	uint32_t order[OTA_SLOT_COUNT];
	struct ota_anchors a;
	ota_status_t st;

	st = boot_anchors_bl0(b, &bl0_oc, &a);
	if (st != OTA_OK) {
		b->bl0_out.status = st;
		return st;
	}
	rom_ext_bl0_order(b, order);
	boot_run_stage(b, &a, OTA_STAGE_BL0, order, b->mode, &b->bl0_out);
	return b->bl0_out.status;
}

/*
 * Rotation's commit point: the boot data naming the new key version. Only
 * when both stages verified and no valid image is past its max key
 * version; otherwise the old version stays and the new tags written so
 * far simply never match (those stages take the slow path once more).
 */
static void rotation_commit(struct boot_ctx *b)
{
	struct boot_rotation *rot = boot_rotation_mut();
	struct ota_boot_data next = b->bd;

	rot->retagged = b->rom_ext_out.retagged + b->bl0_out.retagged;
	if (b->rom_ext_out.exhausted || b->bl0_out.exhausted) {
		rot->status = OTA_TAG_KEY_VERSION_EXHAUSTED;
		return;
	}
	next.tag_key_version = rot->new_version;
	rot->status = boot_data_commit(b, &next);
	/* The commit point is the version's OTP bit: a copy that failed after it is only a copy. */
	if (rot->status != OTA_OK && boot_data_held(b, &next))
		rot->status = OTA_OK;
	if (rot->status == OTA_OK) {
		rot->committed = true;
		b->record.hdr.tag_key_version = boot_effective_tag_key_version(b);
		b->record.hdr.boot_data_counter = b->bd.counter;
	}
}

ota_status_t ota_rom_ext_main(void)
{
	struct boot_ctx *b = boot_scratch_ctx();
	ota_status_t st;

	/* Only ROM's hand-off puts the key manager here: nothing else enters. */
	if (hal_keymgr_state() != HAL_KEYMGR_ROM_EXT)
		return OTA_HAL_KEYMGR_STATE;

	st = verify_bl0(b);
	if (b->mode == BOOT_MODE_RETAG) {
		if (st == OTA_OK)
			rotation_commit(b);
		else
			boot_rotation_mut()->status = st;
	}
	if (st == OTA_OK) {
		/* A chain that cannot be established costs the stable keys, not the boot. */
		b->chain_status = rom_ext_keychain_update(b, b->bl0_out.svn, &b->ret_next);
		b->ret_next.running_bl0_slot = b->bl0_out.slot;
		/* What the runtime asked for, once what runs is known; its outcome is recorded. */
		rom_ext_boot_services(b);
		/* Across a creator key change: the old identity hands over to this one. */
		rom_ext_identity_handover(b);
	}
	rom_ext_trial_end(b);
	boot_requests_end(b, st);
	if (st == OTA_OK) {
		/* The update section first: the certificate certifies the update state. */
		boot_record_close(b, OTA_OK);
		boot_fill_state(b, OTA_OK);
		/* The last use of the device root: the runtime's evidence key. */
		st = ota_runtime_prepare(boot_state_mut());
	}
	if (st == OTA_OK)
		st = rom_ext_lockdown(b); /* the last write the runtime could have made on its own */
	if (st == OTA_OK)
		st = hal_wdog_arm(ROM_EXT_WDOG_BITE_CYCLES); /* from here the runtime must pet it */
	if (st == OTA_OK) {
		struct hal_keymgr_binding bind;

		/* From here ROM_EXT's identity, tag and chain-top keys are out of reach. */
		boot_binding(OTA_STAGE_BL0, &b->bl0_out, &bind);
		st = hal_keymgr_advance(HAL_KEYMGR_RUNTIME, &bind);
	}
	if (st != OTA_OK)
		(void)hal_keymgr_advance(HAL_KEYMGR_DISABLED, NULL);
	boot_finish(b, st);
	return st;
}
