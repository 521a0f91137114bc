// SPDX-License-Identifier: MIT
/*
 * One boot's context, from reset to hand-off: read once by ROM, continued
 * by ROM_EXT, ended (and published) by whichever stage ends the boot.
 * See docs/boot-flow.md.
 */
#include <string.h>

#include "fwlib.h"

static struct boot_ctx boot;

struct boot_ctx *boot_scratch_ctx(void)
{
	return &boot;
}

static uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

/*
 * The floors are OTP's alone: revocations and ratchets program them there,
 * and boot_data_load takes a copy's floors into OTP before anything uses
 * them (docs/hal.md, "Monotonic state").
 */
uint32_t boot_effective_floor(const struct boot_ctx *b, uint32_t stage)
{
	if (stage == OTA_STAGE_ROM_EXT)
		return b->otp.floor_rom_ext;
	return b->otp.floor_bl0;
}

/*
 * The tag key version is OTP's too; only a copy older firmware rotated
 * past OTP's 256 bits holds more (boot_data_load fills the thermometer),
 * and that copy's version then stands.
 */
uint32_t boot_effective_tag_key_version(const struct boot_ctx *b)
{
	return max_u32(b->otp.tag_key_version, b->bd.tag_key_version);
}

ota_status_t boot_prepare(struct boot_ctx *b, uint32_t reset_reason)
{
	struct ota_record_header *h = &b->record.hdr;

	memset(b, 0, sizeof(*b));
	b->reset_reason = reset_reason;
	b->mode = BOOT_MODE_BOOT;
	b->bd_index = -1;
	b->tags_index = -1;
	b->chain_status = OTA_CHAIN_NOT_READY;
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
	b->ret_next = b->ret;
	b->tag_key_version = boot_effective_tag_key_version(b);
	h->tag_key_version = b->tag_key_version;
	h->boot_data_counter = b->bd.counter;
	h->floor_rom_ext = boot_effective_floor(b, OTA_STAGE_ROM_EXT);
	h->floor_bl0 = boot_effective_floor(b, OTA_STAGE_BL0);
	return OTA_OK;
}

void boot_requests_end(struct boot_ctx *b, ota_status_t st)
{
	struct ota_retention *r = &b->ret_next;

	if (r->chain_valid != OTA_HARDENED_TRUE)
		r->chain_valid = OTA_HARDENED_FALSE;
	if (b->ret_valid || st == OTA_OK)
		(void)boot_retention_store(r);
	/* From here to the next reset the runtime can read the vault, never write it. */
	(void)hal_retention_lock();
	if (b->req_valid)
		(void)boot_request_store(OTA_NEXT_SLOT_NONE, false);
	if (b->svc_req_valid)
		(void)boot_svc_clear();
	b->record.hdr.min_svn = r->min_svn;
}

void boot_fill_state(const struct boot_ctx *b, ota_status_t st)
{
	struct ota_boot_state *state = boot_state_mut();

	memset(state, 0, sizeof(*state));
	state->boot_status = st;
	state->reset_reason = b->reset_reason;
	state->otp = b->otp;
	state->rom_ext_slot = b->rom_ext_out.slot;
	state->rom_ext_svn = b->rom_ext_out.svn;
	state->bl0_slot = b->bl0_out.slot;
	state->bl0_svn = b->bl0_out.svn;
	state->min_svn = b->ret_next.min_svn;
	state->chain_status = b->chain_status;
	state->boot_data = b->bd;
	state->svc_served = b->svc.served;
	state->svc_status = b->svc.status;
	state->update_target = OTA_NEXT_SLOT_NONE;
	if (b->req_valid && b->reset_reason == OTA_RESET_UPDATE)
		state->update_target = b->req.next_bl0_slot;
	memcpy(state->rom_ext_measurement, b->rom_ext_out.measurement, OTA_SHA256_BYTES);
	memcpy(state->bl0_measurement, b->bl0_out.measurement, OTA_SHA256_BYTES);
	state->record = b->record;
	state->record_len = b->record.hdr.length;
}

void boot_record_close(struct boot_ctx *b, ota_status_t st)
{
	struct ota_record_header *h = &b->record.hdr;
	struct ota_record_update u;

	h->boot_status = st;
	h->flags |= OTA_RECORD_F_UPDATE_SECTION;
	h->length = ota_record_length(h->stage_count, h->flags);
	/* The update section follows the last stage record used (record.h). */
	boot_record_update_fill(b, st, &u);
	memcpy(boot_record_update_at(&b->record), &u, sizeof(u));
}

void boot_finish(struct boot_ctx *b, ota_status_t st)
{
	struct ota_record_header *h = &b->record.hdr;
	struct ota_boot_state *state = boot_state_mut();

	boot_record_close(b, st);
	h->boot_time_ns = hal_time_ns() - b->t0;
	boot_fill_state(b, st);
	(void)hal_host_publish_record(&state->record.hdr, state->record_len);
	boot_state_set_valid(true);
	hal_host_set_state(st == OTA_OK ? OTA_DEV_READY : OTA_DEV_FAILED, st);
}
