// SPDX-License-Identifier: MIT
/*
 * ROM: the immutable first stage and the reset entry. It reads OTP and
 * the flash records once, decides whether this reset serves a tag
 * rotation, verifies ROM_EXT with the creator keys fused into OTP (no
 * delegation; see lib/anchors.c), and advances the key manager to ROM_EXT
 * - after which the ROM's keys are out of reach - before handing off.
 * A boot it cannot hand off ends here, published as failed.
 */
#include <string.h>

#include "firmware.h"
#include "../lib/fwlib.h"

static uint32_t count_present(const struct boot_ctx *b)
{
	uint32_t n = 0, stage, slot;

	for (stage = OTA_STAGE_ROM_EXT; stage <= OTA_STAGE_BL0; stage++)
		for (slot = 0; slot < OTA_SLOT_COUNT; slot++)
			n += boot_slot_present(b, stage, slot);
	return n;
}

/* A rotation the runtime asked for: this boot retags with the next key version. */
static void rotation_start(struct boot_ctx *b)
{
	struct boot_rotation *rot = boot_rotation_mut();

	if (!b->req_valid || b->reset_reason == OTA_RESET_COLD ||
	    b->req.rotate_requested != OTA_HARDENED_TRUE)
		return;
	rot->ran = true;
	rot->old_version = b->tag_key_version;
	rot->new_version = b->tag_key_version + 1u;
	rot->status = OTA_TAG_KEY_VERSION_EXHAUSTED;
	if (rot->new_version == 0)
		return;
	/* Each key version is a bit of OTP (boot_data.c): none left, no rotation. */
	rot->status = OTA_TAG_KEY_VERSION_OTP_FULL;
	if (rot->new_version > OTA_OTP_TAG_KEY_VERSION_BITS)
		return;
	rot->status = OTA_OK;
	b->mode = BOOT_MODE_RETAG;
	b->tag_key_version = rot->new_version;
	b->progress_total = count_present(b);
	hal_host_set_state(OTA_DEV_ROTATING, OTA_OK);
	hal_host_progress(0, b->progress_total);
}

/* Pick and verify a ROM_EXT slot (A breaks SVN ties). */
static ota_status_t verify_rom_ext(struct boot_ctx *b)
{
	struct ota_anchors a;
	uint32_t order[OTA_SLOT_COUNT];

	boot_anchors_rom_ext(b, &a);
	boot_slot_order(b, OTA_STAGE_ROM_EXT, OTA_SLOT_A, order);
	boot_run_stage(b, &a, OTA_STAGE_ROM_EXT, order, b->mode, &b->rom_ext_out);
	return b->rom_ext_out.status;
}

ota_status_t ota_rom_main(uint32_t reset_reason)
{
	struct boot_ctx *b = boot_scratch_ctx();
	uint64_t t0 = hal_time_ns();
	ota_status_t st;

	boot_state_set_valid(false);
	memset(boot_rotation_mut(), 0, sizeof(struct boot_rotation));
	hal_host_set_state(OTA_DEV_BOOTING, OTA_OK);

	st = boot_prepare(b, reset_reason);
	b->t0 = t0;
	if (st == OTA_OK) {
		rotation_start(b);
		st = verify_rom_ext(b);
	}
	if (st == OTA_OK) {
		struct hal_keymgr_binding bind;
		uint8_t holder[OTA_SHA256_BYTES];

		boot_binding(OTA_STAGE_ROM_EXT, &b->rom_ext_out, &bind);
		/*
		 * Another creator key admitted this ROM_EXT than the one holding
		 * the identity: name the holder, so ROM_EXT can have the key
		 * manager hand the identity over (keychain.md).
		 */
		if (boot_identity_holder(b, b->otp.identity_version, holder) &&
		    memcmp(holder, bind.attest, sizeof(holder)) != 0)
			(void)hal_keymgr_set_predecessor(holder);
		/* From here the device root and ROM's tag keys are out of reach. */
		st = hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &bind);
	}
	if (st == OTA_OK)
		return OTA_OK; /* hand off to ROM_EXT */

	if (b->mode == BOOT_MODE_RETAG)
		boot_rotation_mut()->status = st;
	boot_requests_end(b, st);
	(void)hal_keymgr_advance(HAL_KEYMGR_DISABLED, NULL);
	boot_finish(b, st);
	return st;
}
