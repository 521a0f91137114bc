// SPDX-License-Identifier: MIT
/*
 * INSTALL_BEGIN / INSTALL_CHUNK / INSTALL_FINISH (docs/mailbox.md): an
 * image streamed into the RAM image buffer, checked whole with the boot's
 * own stage check for the slot it goes to, and only then written to that
 * slot - never the running one (the runtime refuses it, and ROM_EXT's
 * flash protection refuses it again). A dry run stops after the check.
 *
 * The slot is written so that a power cut at any point leaves nothing a
 * boot would take: the manifest page is erased first and programmed last,
 * so until the last write the slot reads as empty. Then the slot is read
 * back and checked again from flash.
 */
#include <string.h>

#include <otattest/sha256.h>

#include "runtime.h"

static struct {
	bool open;
	uint32_t stage, slot, length, received, flags;
	uint32_t epoch;      /* the staging buffer's, at BEGIN */
	uint32_t generation; /* the record's: another boot since ends the session */
} session;

static ota_status_t ready(const struct ota_boot_state **bs)
{
	*bs = ota_boot_state();
	if (!*bs || (*bs)->boot_status != OTA_OK)
		return OTA_MBOX_NOT_READY;
	return OTA_OK;
}

static uint32_t running_slot(const struct ota_boot_state *bs, uint32_t stage)
{
	return stage == OTA_STAGE_ROM_EXT ? bs->rom_ext_slot : bs->bl0_slot;
}

/* The session as it stands: open, and nothing (a check, a reset) used the buffer since. */
static ota_status_t session_live(const struct ota_boot_state *bs)
{
	if (!session.open)
		return OTA_INSTALL_NOT_STARTED;
	if (!boot_image_staging_intact(session.epoch) ||
	    bs->record.hdr.generation != session.generation) {
		session.open = false;
		return OTA_INSTALL_ABORTED;
	}
	return OTA_OK;
}

static void answer(struct ota_resp_install *out)
{
	memset(out, 0, sizeof(*out));
	out->stage = session.stage;
	out->slot = session.slot;
	out->received = session.received;
	out->length = session.length;
}

/*
 * The record's update section for the install, published again: the
 * update agent reads the state from sysfs (docs/formats.md). The record
 * generation moves; the session follows it.
 */
static void publish_install(const struct boot_image *img, bool pending)
{
	struct ota_boot_state *st = boot_state_mut();
	struct ota_record_update *u = boot_record_update_at(&st->record);

	if (!(st->record.hdr.flags & OTA_RECORD_F_UPDATE_SECTION))
		return;
	if (pending) {
		struct ota_record_slot *s = &u->slot[ota_tag_index(session.stage, session.slot)];

		u->update_state = OTA_UPDATE_PENDING;
		u->pending_stage = session.stage;
		u->pending_slot = session.slot;
		s->stage = session.stage;
		s->slot = session.slot;
		s->flags = (s->flags & OTA_RECORD_SLOT_F_PRIMARY) | OTA_RECORD_SLOT_F_PRESENT |
			   OTA_RECORD_SLOT_F_VERIFIED | OTA_RECORD_SLOT_F_PENDING;
		s->security_version = img->view.manifest.security_version;
		memcpy(s->version, img->view.manifest.version_string, sizeof(s->version));
	} else {
		u->update_state = OTA_UPDATE_INSTALLING;
	}
	(void)hal_host_publish_record(&st->record.hdr, st->record_len);
	session.generation = st->record.hdr.generation;
}

ota_status_t ota_rt_install_begin(const struct ota_req_install_begin *req,
				  struct ota_resp_install *out)
{
	const struct ota_boot_state *bs;
	struct boot_ctx *b = boot_scratch_ctx();
	const struct ota_flash_region *r;
	uint32_t slot, cap;

	OTA_TRY(ready(&bs));
	session.open = false;
	slot = req->slot == OTA_UPDATE_SLOT_OTHER ? running_slot(bs, req->stage) ^ 1u : req->slot;
	if (slot == running_slot(bs, req->stage))
		return OTA_INSTALL_RUNNING_SLOT;
	if (req->length < sizeof(struct ota_manifest))
		return OTA_INSTALL_BAD_LENGTH;
	OTA_TRY(boot_prepare(b, bs->reset_reason));
	r = boot_region(b, ota_region_for_slot(req->stage, slot));
	cap = r->size < OTA_BOOT_IMAGE_MAX ? r->size : OTA_BOOT_IMAGE_MAX;
	if (req->length > cap)
		return OTA_IMAGE_TOO_LARGE;

	(void)boot_image_staging(&session.epoch);
	session.stage = req->stage;
	session.slot = slot;
	session.length = req->length;
	session.received = 0;
	session.flags = req->flags;
	session.generation = bs->record.hdr.generation;
	session.open = true;
	/* A check changes nothing the device shows; an install does. */
	if (!(req->flags & OTA_INSTALL_F_DRY_RUN))
		publish_install(NULL, false);
	answer(out);
	return OTA_OK;
}

ota_status_t ota_rt_install_chunk(const struct ota_req_install_chunk *req,
				  struct ota_resp_install *out)
{
	const struct ota_boot_state *bs;
	uint32_t epoch;
	uint8_t *buf;

	OTA_TRY(ready(&bs));
	OTA_TRY(session_live(bs));
	if (req->offset != session.received)
		return OTA_INSTALL_BAD_OFFSET;
	if (req->length > session.length - session.received)
		return OTA_INSTALL_OVERRUN;
	/* The staging is this session's (session_live): write into it without moving the epoch. */
	buf = boot_image_staging(&epoch);
	session.epoch = epoch;
	memcpy(buf + session.received, req->data, req->length);
	session.received += req->length;
	answer(out);
	return OTA_OK;
}

/* Erase the first page first and program it last: a cut leaves an empty slot. */
static ota_status_t write_slot(uint32_t base, const uint8_t *image, uint32_t len)
{
	uint32_t page = hal_flash_page_size(), off;

	OTA_TRY(hal_flash_erase_page(base));
	for (off = page; off < len; off += page) {
		OTA_TRY(hal_flash_erase_page(base + off));
		OTA_TRY(hal_flash_program(base + off, image + off, len - off < page ? len - off : page));
	}
	return hal_flash_program(base, image, len < page ? len : page);
}

/* The owner config anchors_for() reads BL0's anchors from (they point into it). */
static struct ota_owner_config anchors_oc;

static ota_status_t anchors_for(struct boot_ctx *b, uint32_t stage, struct ota_anchors *a)
{
	if (stage == OTA_STAGE_ROM_EXT) {
		boot_anchors_rom_ext(b, a);
		return OTA_OK;
	}
	return boot_anchors_bl0(b, &anchors_oc, a);
}

/* The image ota_rt_install_finish() checks. */
static struct boot_image finish_img;

ota_status_t ota_rt_install_finish(struct ota_resp_install_finish *out)
{
	struct boot_ctx *b = boot_scratch_ctx();
	const struct ota_boot_state *bs;
	struct ota_stage_record rec;
	struct ota_anchors a;
	uint8_t measurement[OTA_SHA256_BYTES];
	uint32_t epoch;
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	OTA_TRY(ready(&bs));
	OTA_TRY(session_live(bs));
	session.open = false; /* whatever happens now, the next install starts again */
	if (session.received != session.length)
		return OTA_INSTALL_INCOMPLETE;

	/* The boot's own check, for the slot the image goes to, on what arrived. */
	OTA_TRY(boot_prepare(b, bs->reset_reason));
	OTA_TRY(anchors_for(b, session.stage, &a));
	b->staged_len = session.length;
	OTA_TRY(boot_stage_check(b, &a, session.stage, session.slot, BOOT_MODE_VERIFY_STAGED, &rec,
				 &finish_img));
	out->stage = session.stage;
	out->slot = session.slot;
	out->length = session.length;
	out->security_version = finish_img.view.manifest.security_version;
	memcpy(out->measurement, finish_img.measurement, OTA_SHA256_BYTES);
	memcpy(out->version, finish_img.view.manifest.version_string, sizeof(out->version));
	if (session.flags & OTA_INSTALL_F_DRY_RUN) {
		out->flags = OTA_INSTALL_RESULT_F_DRY_RUN;
		return OTA_OK;
	}

	st = write_slot(boot_region(b, ota_region_for_slot(session.stage, session.slot))->offset,
			boot_image_staging(&epoch), session.length);
	if (st != OTA_OK)
		return st;
	/* What flash holds now, checked as a boot would check it. */
	memcpy(measurement, finish_img.measurement, sizeof(measurement));
	st = boot_stage_check(b, &a, session.stage, session.slot, BOOT_MODE_VERIFY, &rec, &finish_img);
	if (st != OTA_OK || !ota_ct_equal(measurement, finish_img.measurement, sizeof(measurement)))
		return OTA_HAL_FLASH_WRITE_FAILED;
	out->flags = OTA_INSTALL_RESULT_F_WRITTEN;
	publish_install(&finish_img, true);
	return OTA_OK;
}
