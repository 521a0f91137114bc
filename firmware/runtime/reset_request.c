// SPDX-License-Identifier: MIT
/*
 * Resets the runtime asks for: update (into another BL0 image), warm (the
 * same image again) and tag rotation. Each sets its one-shot request in
 * retention RAM and asks the reset manager for the reset; the board
 * performs it after the mailbox request returns and the ROM boots again,
 * as on silicon. The runtime that booted then answers (the *_done calls).
 *
 * Pre-checks run here, at RUNTIME, on the slow path and without the key
 * manager (BOOT_MODE_VERIFY), with the same anchors the boot stages use
 * (lib/anchors.c): an update target that fails is refused before anything
 * is reset, and so is a rotation some valid image could not take. Bad
 * requests change nothing.
 */
#include <string.h>

#include "runtime.h"

/* verify_slot()'s owner config (the anchors point into it). */
static struct ota_owner_config verify_oc;

/* verify_slot()'s image. */
static struct boot_image verify_img;

static ota_status_t verify_slot(uint32_t stage, uint32_t slot, uint32_t *max_key_version)
{
	struct boot_ctx *b = boot_scratch_ctx();
	struct ota_stage_record rec;
	struct ota_anchors a;
	const struct ota_boot_state *bs = ota_boot_state();

	OTA_TRY(boot_prepare(b, bs->reset_reason));
	if (stage == OTA_STAGE_ROM_EXT)
		boot_anchors_rom_ext(b, &a);
	else
		OTA_TRY(boot_anchors_bl0(b, &verify_oc, &a));
	OTA_TRY(boot_stage_check(b, &a, stage, slot, BOOT_MODE_VERIFY, &rec, &verify_img));
	*max_key_version = verify_img.view.manifest.max_key_version;
	return OTA_OK;
}

static ota_status_t request(uint32_t reason, uint32_t next_slot, bool rotate)
{
	/* The runtime only asks: the vault (min SVN, chain) is locked until the reset. */
	OTA_TRY(boot_request_store(next_slot, rotate));
	hal_host_set_state(OTA_DEV_RESETTING, OTA_OK);
	return hal_reset_request(reason);
}

static ota_status_t runtime_ready(void)
{
	const struct ota_boot_state *bs = ota_boot_state();

	if (!bs || bs->boot_status != OTA_OK)
		return OTA_MBOX_NOT_READY;
	return OTA_OK;
}

/* The boot that answers: its status, generation and BL0 slot. */
static ota_status_t reset_report(struct ota_resp_reset *out)
{
	const struct ota_boot_state *bs = ota_boot_state();

	memset(out, 0, sizeof(*out));
	if (!bs)
		return OTA_MBOX_NOT_READY;
	out->boot_status = bs->boot_status;
	out->generation = bs->record.hdr.generation;
	out->booted_slot = bs->bl0_slot;
	return bs->boot_status;
}

/* Status of the attempt on `slot` in the record of the boot just done. */
static ota_status_t attempt_status(uint32_t slot)
{
	const struct ota_boot_state *bs = ota_boot_state();
	uint32_t i;

	for (i = 0; i < bs->record.hdr.stage_count; i++)
		if (bs->record.stage[i].stage == OTA_STAGE_BL0 && bs->record.stage[i].slot == slot)
			return bs->record.stage[i].status;
	return OTA_RUNTIME_UPDATE_REJECTED;
}

ota_status_t ota_rt_update_request(uint32_t slot, struct ota_resp_reset *out)
{
	uint32_t target, max_kv;

	OTA_TRY(runtime_ready());
	/* A refused update still reports the boot that keeps running. */
	(void)reset_report(out);
	if (slot != OTA_UPDATE_SLOT_OTHER && slot >= OTA_SLOT_COUNT)
		return OTA_MBOX_BAD_FIELD;
	target = slot == OTA_UPDATE_SLOT_OTHER ? ota_boot_state()->bl0_slot ^ 1u : slot;
	/* Keep running what runs when the new image would not boot. */
	OTA_TRY(verify_slot(OTA_STAGE_BL0, target, &max_kv));
	return request(OTA_RESET_UPDATE, target, false);
}

ota_status_t ota_rt_update_done(uint32_t slot, struct ota_resp_reset *out)
{
	const struct ota_boot_state *bs;
	uint32_t target;

	OTA_TRY(reset_report(out));
	bs = ota_boot_state();
	/* ROM_EXT says which slot the update reset asked for; OTHER means nothing now. */
	target = bs->update_target != OTA_NEXT_SLOT_NONE ? bs->update_target : slot;
	if (target >= OTA_SLOT_COUNT)
		return OTA_RUNTIME_UPDATE_REJECTED;
	if (bs->bl0_slot != target) {
		const struct ota_record_update *u = boot_record_update_at((struct ota_record *)&bs->record);

		/* ROM_EXT reverted the trial this reset would have continued (rom_ext/trial.c). */
		if (u->revert_reason != OTA_REVERT_NONE && u->reverted_slot == target)
			return OTA_TRIAL_BOOTS_USED;
		/* Flash changed between the check and the reset: the fallback booted. */
		return attempt_status(target);
	}
	return OTA_OK;
}

ota_status_t ota_rt_warm_request(struct ota_resp_reset *out)
{
	OTA_TRY(runtime_ready());
	(void)reset_report(out);
	return request(OTA_RESET_WARM, OTA_NEXT_SLOT_NONE, false);
}

ota_status_t ota_rt_warm_done(struct ota_resp_reset *out)
{
	return reset_report(out);
}

ota_status_t ota_rt_rotate_request(struct ota_resp_rotate *out)
{
	const struct ota_boot_state *bs = ota_boot_state();
	uint32_t old_version, stage, slot, max_kv;

	memset(out, 0, sizeof(*out));
	OTA_TRY(runtime_ready());
	old_version = bs->record.hdr.tag_key_version;
	out->old_key_version = old_version;
	out->new_key_version = old_version;
	if (!(bs->otp.features & OTA_OTP_F_TAG_BOOT))
		return OTA_TAG_BOOT_DISABLED;
	if (old_version == UINT32_MAX)
		return OTA_TAG_KEY_VERSION_EXHAUSTED;
	/* The OTP thermometer holds OTA_OTP_TAG_KEY_VERSION_BITS versions (ROM checks again). */
	if (old_version >= OTA_OTP_TAG_KEY_VERSION_BITS)
		return OTA_TAG_KEY_VERSION_OTP_FULL;
	/* Every image that would boot must accept the new version, or nothing happens. */
	for (stage = OTA_STAGE_ROM_EXT; stage <= OTA_STAGE_BL0; stage++)
		for (slot = 0; slot < OTA_SLOT_COUNT; slot++)
			if (verify_slot(stage, slot, &max_kv) == OTA_OK &&
			    max_kv < old_version + 1u)
				return OTA_TAG_KEY_VERSION_EXHAUSTED;
	return request(OTA_RESET_WARM, OTA_NEXT_SLOT_NONE, true);
}

ota_status_t ota_rt_rotate_done(struct ota_resp_rotate *out)
{
	const struct ota_boot_state *bs = ota_boot_state();
	const struct boot_rotation *rot = boot_last_rotation();
	uint32_t old_version = rot->ran ? rot->old_version : (bs ? bs->record.hdr.tag_key_version : 0);

	memset(out, 0, sizeof(*out));
	out->old_key_version = old_version;
	out->new_key_version = rot->committed ? rot->new_version : old_version;
	out->stages_retagged = rot->retagged;
	if (!bs || bs->boot_status != OTA_OK)
		return bs ? bs->boot_status : OTA_MBOX_NOT_READY;
	return rot->ran && rot->committed ? OTA_OK : (rot->ran ? rot->status : OTA_HAL_RETENTION_INVALID);
}
