// SPDX-License-Identifier: MIT
/*
 * Resets the runtime asks for: update (into another BL0 image), warm (the
 * same image again) and tag rotation. Each sets its one-shot request in
 * retention RAM, resets the chip through the HAL (key manager back to
 * ROM, retention kept) and runs the boot flow, as the ROM would after a
 * real reset.
 *
 * Pre-checks run here, at RUNTIME, on the slow path and without the key
 * manager (BOOT_MODE_VERIFY): an update target that fails is refused
 * before anything is reset, and so is a rotation some valid image could
 * not take. Bad requests change nothing.
 */
#include <string.h>

#include "../lib/fwlib.h"

static ota_status_t verify_slot(uint32_t stage, uint32_t slot, uint32_t *max_key_version)
{
	static struct ota_owner_config oc;
	struct boot_ctx *b = boot_scratch_ctx();
	struct ota_stage_record rec;
	struct boot_anchors a;
	static struct boot_image img;
	const struct ota_boot_state *bs = ota_boot_state();

	OTA_TRY(boot_prepare(b, bs->reset_reason));
	if (stage == OTA_STAGE_ROM_EXT)
		rom_anchors(b, &a);
	else
		OTA_TRY(rom_ext_anchors(b, &oc, &a));
	OTA_TRY(boot_stage_check(b, &a, stage, slot, BOOT_MODE_VERIFY, &rec, &img));
	*max_key_version = img.view.manifest.max_key_version;
	return OTA_OK;
}

static ota_status_t request(uint32_t next_slot, bool rotate)
{
	struct ota_retention r;

	/* Damaged retention carries no chain; the request still goes through. */
	if (!boot_retention_read(&r)) {
		memset(&r, 0, sizeof(r));
		r.chain_valid = OTA_HARDENED_FALSE;
		r.running_bl0_slot = ota_boot_state()->bl0_slot;
	}
	r.next_bl0_slot = next_slot;
	r.rotate_requested = rotate ? OTA_HARDENED_TRUE : OTA_HARDENED_FALSE;
	return boot_retention_store(&r);
}

static ota_status_t reset_and_boot(uint32_t reason, struct ota_resp_reset *out)
{
	const struct ota_boot_state *bs;
	ota_status_t st;

	hal_host_set_state(OTA_DEV_RESETTING, OTA_OK);
	OTA_TRY(hal_reset(reason));
	st = ota_fw_boot(reason);
	bs = ota_boot_state();
	if (out && bs) {
		out->boot_status = st;
		out->generation = bs->record.hdr.generation;
		out->booted_slot = bs->bl0_slot;
	}
	return st;
}

static ota_status_t runtime_ready(struct ota_resp_reset *out)
{
	const struct ota_boot_state *bs = ota_boot_state();

	if (!bs || bs->boot_status != OTA_OK)
		return OTA_MBOX_NOT_READY;
	if (out) {
		memset(out, 0, sizeof(*out));
		out->boot_status = bs->boot_status;
		out->generation = bs->record.hdr.generation;
		out->booted_slot = bs->bl0_slot;
	}
	return OTA_OK;
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

ota_status_t ota_fw_update_reset(uint32_t slot, struct ota_resp_reset *out)
{
	uint32_t target, max_kv;
	ota_status_t st;

	OTA_TRY(runtime_ready(out));
	if (slot == OTA_UPDATE_SLOT_OTHER)
		target = ota_boot_state()->bl0_slot ^ 1u;
	else if (slot < OTA_SLOT_COUNT)
		target = slot;
	else
		return OTA_MBOX_BAD_FIELD;
	/* Keep running what runs when the new image would not boot. */
	OTA_TRY(verify_slot(OTA_STAGE_BL0, target, &max_kv));
	OTA_TRY(request(target, false));
	st = reset_and_boot(OTA_RESET_UPDATE, out);
	if (st != OTA_OK)
		return st;
	/* Flash changed between the check and the reset: the fallback booted. */
	if (ota_boot_state()->bl0_slot != target)
		return attempt_status(target);
	return OTA_OK;
}

ota_status_t ota_fw_warm_reset(struct ota_resp_reset *out)
{
	OTA_TRY(runtime_ready(out));
	OTA_TRY(request(OTA_NEXT_SLOT_NONE, false));
	return reset_and_boot(OTA_RESET_WARM, out);
}

ota_status_t ota_fw_rotate_tags(struct ota_resp_rotate *out)
{
	const struct ota_boot_state *bs = ota_boot_state();
	const struct boot_rotation *rot;
	uint32_t old_version, stage, slot, max_kv;
	ota_status_t st;

	if (out)
		memset(out, 0, sizeof(*out));
	OTA_TRY(runtime_ready(NULL));
	old_version = bs->record.hdr.tag_key_version;
	if (out) {
		out->old_key_version = old_version;
		out->new_key_version = old_version;
	}
	if (!(bs->otp.features & OTA_OTP_F_TAG_BOOT))
		return OTA_TAG_BOOT_DISABLED;
	if (old_version == UINT32_MAX)
		return OTA_TAG_KEY_VERSION_EXHAUSTED;
	/* Every image that would boot must accept the new version, or nothing happens. */
	for (stage = OTA_STAGE_ROM_EXT; stage <= OTA_STAGE_BL0; stage++)
		for (slot = 0; slot < OTA_SLOT_COUNT; slot++)
			if (verify_slot(stage, slot, &max_kv) == OTA_OK &&
			    max_kv < old_version + 1u)
				return OTA_TAG_KEY_VERSION_EXHAUSTED;
	OTA_TRY(request(OTA_NEXT_SLOT_NONE, true));
	st = reset_and_boot(OTA_RESET_WARM, NULL);
	rot = boot_last_rotation();
	if (out) {
		out->new_key_version = rot->committed ? rot->new_version : old_version;
		out->stages_retagged = rot->retagged;
	}
	if (st != OTA_OK)
		return st;
	return rot->ran && rot->committed ? OTA_OK : (rot->ran ? rot->status : OTA_HAL_RETENTION_INVALID);
}
