// SPDX-License-Identifier: MIT
/*
 * The boot flow of every reset: ROM verifies ROM_EXT, ROM_EXT verifies
 * BL0, establishes the SVN key chain and hands over to the runtime, and
 * the record of all of it is published. See docs/boot-flow.md.
 */
#include <string.h>

#include "../lib/fwlib.h"

static struct boot_ctx boot;
static struct ota_boot_state state;
static bool state_valid;
static struct boot_rotation rotation;

const struct ota_boot_state *ota_boot_state(void)
{
	return state_valid ? &state : NULL;
}

const struct boot_rotation *boot_last_rotation(void)
{
	return &rotation;
}

struct boot_ctx *boot_scratch_ctx(void)
{
	return &boot;
}

static uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

uint32_t boot_effective_floor(const struct boot_ctx *b, uint32_t stage)
{
	if (stage == OTA_STAGE_ROM_EXT)
		return max_u32(b->otp.floor_rom_ext, b->bd.floor_rom_ext);
	return max_u32(b->otp.floor_bl0, b->bd.floor_bl0);
}

ota_status_t boot_prepare(struct boot_ctx *b, uint32_t reset_reason)
{
	struct ota_record_header *h = &b->record.hdr;

	memset(b, 0, sizeof(*b));
	b->reset_reason = reset_reason;
	b->bd_index = -1;
	b->tags_index = -1;
	h->magic = OTA_RECORD_MAGIC;
	h->version = OTA_RECORD_VERSION;
	h->header_size = sizeof(*h);
	h->reset_reason = reset_reason;
	hal_rom_identity(h->rom_identity);

	OTA_TRY(boot_otp_load(&b->otp));
	h->lifecycle = b->otp.lifecycle;
	memcpy(h->device_id, b->otp.device_id, OTA_DEVICE_ID_BYTES);
	h->epoch = b->otp.epoch;
	h->chain_max_svn = b->otp.chain_max_svn;
	if (b->otp.features & OTA_OTP_F_TAG_BOOT)
		h->flags |= OTA_RECORD_F_TAG_BOOT_ENABLED;

	OTA_TRY(boot_layout_load(b));
	OTA_TRY(boot_data_load(b));
	boot_tags_load(b);
	boot_retention_load(b);
	b->tag_key_version = b->bd.tag_key_version;
	h->tag_key_version = b->bd.tag_key_version;
	h->boot_data_counter = b->bd.counter;
	h->floor_rom_ext = boot_effective_floor(b, OTA_STAGE_ROM_EXT);
	h->floor_bl0 = boot_effective_floor(b, OTA_STAGE_BL0);
	return OTA_OK;
}

/* BL0 slot order for this reset (docs/boot-flow.md, "A/B"). */
static void bl0_order(const struct boot_ctx *b, uint32_t order[OTA_SLOT_COUNT])
{
	uint32_t first;

	if (b->ret_valid && b->reset_reason == OTA_RESET_UPDATE &&
	    b->ret.next_bl0_slot != OTA_NEXT_SLOT_NONE)
		first = b->ret.next_bl0_slot;   /* the update, then what ran before */
	else if (b->ret_valid && b->reset_reason == OTA_RESET_WARM)
		first = b->ret.running_bl0_slot; /* the same image again */
	else {
		boot_slot_order(b, OTA_STAGE_BL0, b->bd.primary_slot, order);
		return;
	}
	order[0] = first;
	order[1] = first ^ 1u;
}

static uint32_t count_present(const struct boot_ctx *b)
{
	uint32_t n = 0, stage, slot;

	for (stage = OTA_STAGE_ROM_EXT; stage <= OTA_STAGE_BL0; stage++)
		for (slot = 0; slot < OTA_SLOT_COUNT; slot++)
			n += boot_slot_present(b, stage, slot);
	return n;
}

/*
 * Rotation's commit point: the boot data naming the new key version. Only
 * when both stages verified and no valid image is past its max key
 * version; otherwise the old version stays and the new tags written so
 * far simply never match (those stages take the slow path once more).
 */
static void rotation_commit(struct boot_ctx *b, const struct boot_stage_outcome *rom,
			    const struct boot_stage_outcome *bl0)
{
	struct ota_boot_data next = b->bd;

	rotation.retagged = rom->retagged + bl0->retagged;
	if (rom->exhausted || bl0->exhausted) {
		rotation.status = OTA_TAG_KEY_VERSION_EXHAUSTED;
		return;
	}
	next.tag_key_version = rotation.new_version;
	rotation.status = boot_data_commit(b, &next);
	if (rotation.status == OTA_OK) {
		rotation.committed = true;
		b->record.hdr.tag_key_version = b->bd.tag_key_version;
		b->record.hdr.boot_data_counter = b->bd.counter;
	}
}

static void fill_state(const struct boot_ctx *b, const struct boot_stage_outcome *rom,
		       const struct boot_stage_outcome *bl0, const struct ota_retention *r,
		       ota_status_t chain_status)
{
	memset(&state, 0, sizeof(state));
	state.reset_reason = b->reset_reason;
	state.otp = b->otp;
	state.rom_ext_slot = rom->slot;
	state.rom_ext_svn = rom->svn;
	state.bl0_slot = bl0->slot;
	state.bl0_svn = bl0->svn;
	state.min_svn = r->min_svn;
	state.chain_status = chain_status;
	memcpy(state.rom_ext_measurement, rom->measurement, OTA_SHA256_BYTES);
	memcpy(state.bl0_measurement, bl0->measurement, OTA_SHA256_BYTES);
}

static void finish_record(struct boot_ctx *b, ota_status_t boot_status, uint64_t t0)
{
	struct ota_record_header *h = &b->record.hdr;

	h->boot_status = boot_status;
	h->length = (uint32_t)(sizeof(*h) + h->stage_count * sizeof(struct ota_stage_record));
	h->boot_time_ns = hal_time_ns() - t0;
}

ota_status_t ota_fw_boot(uint32_t reset_reason)
{
	struct boot_ctx *b = &boot;
	struct boot_stage_outcome rom, bl0;
	struct ota_retention r;
	uint32_t order[OTA_SLOT_COUNT], mode = BOOT_MODE_BOOT;
	uint64_t t0 = hal_time_ns();
	ota_status_t st, chain_status = OTA_CHAIN_NOT_READY;

	state_valid = false;
	memset(&rotation, 0, sizeof(rotation));
	memset(&rom, 0, sizeof(rom));
	memset(&bl0, 0, sizeof(bl0));
	hal_host_set_state(OTA_DEV_BOOTING, OTA_OK);

	st = boot_prepare(b, reset_reason);
	r = b->ret;
	if (st == OTA_OK && b->ret_valid && reset_reason != OTA_RESET_COLD &&
	    b->ret.rotate_requested == OTA_HARDENED_TRUE) {
		rotation.ran = true;
		rotation.old_version = b->tag_key_version;
		rotation.new_version = b->tag_key_version + 1u;
		rotation.status = OTA_TAG_KEY_VERSION_EXHAUSTED;
		if (rotation.new_version != 0) {
			rotation.status = OTA_OK;
			mode = BOOT_MODE_RETAG;
			b->tag_key_version = rotation.new_version;
			b->progress_total = count_present(b);
			hal_host_set_state(OTA_DEV_ROTATING, OTA_OK);
			hal_host_progress(0, b->progress_total);
		}
	}

	if (st == OTA_OK)
		st = rom_verify_rom_ext(b, mode, &rom);
	if (st == OTA_OK)
		st = hal_keymgr_advance(HAL_KEYMGR_ROM_EXT);
	if (st == OTA_OK) {
		bl0_order(b, order);
		st = rom_ext_verify_bl0(b, mode, order, &bl0);
	}
	if (st == OTA_OK && mode == BOOT_MODE_RETAG)
		rotation_commit(b, &rom, &bl0);
	else if (mode == BOOT_MODE_RETAG)
		rotation.status = st;
	if (st == OTA_OK) {
		/* A chain that cannot be established costs the stable keys, not the boot. */
		chain_status = boot_keychain_update(b, bl0.svn, &r);
		r.running_bl0_slot = bl0.slot;
	}

	/* One-shot requests end with the boot that served them, whatever it did. */
	r.next_bl0_slot = OTA_NEXT_SLOT_NONE;
	r.rotate_requested = OTA_HARDENED_FALSE;
	if (r.chain_valid != OTA_HARDENED_TRUE)
		r.chain_valid = OTA_HARDENED_FALSE;
	if (b->ret_valid || st == OTA_OK)
		(void)boot_retention_store(&r);

	b->record.hdr.min_svn = r.min_svn;
	if (st == OTA_OK) {
		fill_state(b, &rom, &bl0, &r, chain_status);
		state.boot_status = OTA_OK;
		finish_record(b, OTA_OK, t0);
		state.record = b->record;
		state.record_len = b->record.hdr.length;
		state_valid = true;
		/* The last use of the device root: the runtime's evidence key. */
		st = ota_runtime_prepare(&state);
	}
	(void)hal_keymgr_advance(HAL_KEYMGR_RUNTIME);

	finish_record(b, st, t0);
	if (st != OTA_OK) {
		if (!state_valid)
			fill_state(b, &rom, &bl0, &r, chain_status);
		state.boot_status = st;
	}
	state.reset_reason = reset_reason;
	state.record = b->record;
	state.record_len = b->record.hdr.length;
	(void)hal_host_publish_record(&state.record.hdr, state.record_len);
	state_valid = true;
	hal_host_set_state(st == OTA_OK ? OTA_DEV_READY : OTA_DEV_FAILED, st);
	return st;
}
