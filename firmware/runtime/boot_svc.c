// SPDX-License-Identifier: MIT
/*
 * COMMIT, RATCHET, REVOKE and REVOKE_HYBRID from the runtime's side (docs/mailbox.md):
 * the runtime holds neither the boot data key nor the OTP counters (the
 * key manager and ROM_EXT's lockdown see to that), so it only checks the
 * request - a refusal is answered at once and changes nothing - leaves it
 * for ROM_EXT in retention RAM and asks for a warm reset. The runtime that
 * boots next answers with what ROM_EXT did (ota_boot_state: svc_served,
 * svc_status). A request with nothing to do (the slot is already the
 * primary, the floor already as high) is answered at once too. A hybrid
 * revocation does not fit retention RAM: the runtime writes it whole into
 * the layout's staging region and leaves its first 144 bytes in the
 * request; ROM_EXT checks the staged copy.
 */
#include <string.h>

#include "runtime.h"

static ota_status_t ready(const struct ota_boot_state **bs)
{
	*bs = ota_boot_state();
	if (!*bs || (*bs)->boot_status != OTA_OK)
		return OTA_MBOX_NOT_READY;
	return OTA_OK;
}

static void report(const struct ota_boot_state *bs, struct ota_resp_boot_svc *out)
{
	memset(out, 0, sizeof(*out));
	out->boot_status = bs->boot_status;
	out->generation = bs->record.hdr.generation;
	out->booted_slot = bs->bl0_slot;
	out->primary_slot = bs->boot_data.primary_slot;
	out->floor_rom_ext = bs->record.hdr.floor_rom_ext;
	out->floor_bl0 = bs->record.hdr.floor_bl0;
	out->revocation_sequence = bs->otp.revocation_seq > bs->otp.revocation_seq_owner
					   ? bs->otp.revocation_seq
					   : bs->otp.revocation_seq_owner;
}

static ota_status_t ask(struct ota_boot_svc_request *q)
{
	OTA_TRY(boot_svc_store(q));
	hal_host_set_state(OTA_DEV_RESETTING, OTA_OK);
	return hal_reset_request(OTA_RESET_WARM);
}

/* The booted attempt of a stage: its root key id (the first in its chain). */
static const uint8_t *booted_root(const struct ota_boot_state *bs, uint32_t stage)
{
	uint32_t i;

	for (i = 0; i < bs->record.hdr.stage_count; i++)
		if (bs->record.stage[i].stage == stage &&
		    (bs->record.stage[i].flags & OTA_STAGE_F_BOOTED))
			return bs->record.stage[i].key_ids[0];
	return bs->record.stage[0].key_ids[0]; /* not reached: a runtime means both booted */
}

/* The hybrid command into the staging region, page by page; ROM_EXT judges what lands. */
static ota_status_t stage_hybrid(const struct ota_flash_region *reg,
				 const struct ota_revocation_hybrid *h)
{
	const uint8_t *p = (const uint8_t *)h;
	uint32_t page = hal_flash_page_size(), off, n;

	for (off = 0; off < sizeof(*h); off += page) {
		n = sizeof(*h) - off < page ? (uint32_t)sizeof(*h) - off : page;
		OTA_TRY(hal_flash_erase_page(reg->offset + off));
		OTA_TRY(hal_flash_program(reg->offset + off, p + off, n));
	}
	return OTA_OK;
}

ota_status_t ota_rt_svc_request(uint32_t command, const struct ota_req_commit *commit,
				const struct ota_req_ratchet *ratchet,
				const struct ota_revocation *rev,
				const struct ota_revocation_hybrid *hybrid,
				struct ota_resp_boot_svc *out, bool *answered)
{
	struct ota_boot_svc_request q;
	const struct ota_boot_state *bs;

	*answered = true; /* until the request is left for ROM_EXT */
	OTA_TRY(ready(&bs));
	report(bs, out);
	memset(&q, 0, sizeof(q));
	switch (command) {
	case OTA_CMD_COMMIT:
		if (commit->slot != bs->bl0_slot)
			return OTA_COMMIT_NOT_RUNNING;
		if (commit->slot == bs->boot_data.primary_slot)
			return OTA_OK; /* answered now: already the primary */
		q.services = OTA_SVC_COMMIT;
		q.commit_slot = commit->slot;
		break;
	case OTA_CMD_RATCHET: {
		uint32_t svn = ratchet->stage == OTA_STAGE_ROM_EXT ? bs->rom_ext_svn : bs->bl0_svn;
		uint32_t now = ratchet->stage == OTA_STAGE_ROM_EXT ? bs->record.hdr.floor_rom_ext
								   : bs->record.hdr.floor_bl0;

		if (ratchet->floor > svn)
			return OTA_RATCHET_ABOVE_RUNNING;
		if (ratchet->floor <= now)
			return OTA_OK; /* answered now: the floor is already that high */
		q.services = OTA_SVC_RATCHET;
		q.ratchet_stage = ratchet->stage;
		q.ratchet_floor = ratchet->floor;
		q.ratchet_flags = ratchet->flags;
		break;
	}
	case OTA_CMD_REVOKE:
	case OTA_CMD_REVOKE_HYBRID: {
		struct boot_ctx *b = boot_scratch_ctx();
		const uint32_t svn[OTA_STAGE_COUNT] = { bs->rom_ext_svn, bs->bl0_svn };
		const uint8_t *root[OTA_STAGE_COUNT] = { booted_root(bs, OTA_STAGE_ROM_EXT),
							 booted_root(bs, OTA_STAGE_BL0) };
		const struct ota_flash_region *reg;

		OTA_TRY(boot_prepare(b, bs->reset_reason));
		if (command == OTA_CMD_REVOKE_HYBRID) {
			rev = &hybrid->cmd;
			OTA_TRY(boot_revocation_staging(b, &reg));
			OTA_TRY(boot_revocation_check_hybrid(b, rev, hybrid->spx_signature, svn, root));
			OTA_TRY(stage_hybrid(reg, hybrid));
		} else {
			OTA_TRY(boot_revocation_check(b, rev, svn, root));
		}
		q.services = OTA_SVC_REVOKE;
		q.revocation = *rev;
		break;
	}
	default:
		return OTA_MBOX_UNKNOWN_COMMAND;
	}
	*answered = false;
	return ask(&q);
}

ota_status_t ota_rt_svc_done(uint32_t command, struct ota_resp_boot_svc *out)
{
	const struct ota_boot_state *bs = ota_boot_state();
	uint32_t want = command == OTA_CMD_COMMIT    ? OTA_SVC_COMMIT
			: command == OTA_CMD_RATCHET ? OTA_SVC_RATCHET
						     : OTA_SVC_REVOKE;

	memset(out, 0, sizeof(*out));
	if (!bs)
		return OTA_MBOX_NOT_READY;
	report(bs, out);
	if (bs->boot_status != OTA_OK)
		return bs->boot_status;
	if (!(bs->svc_served & want))
		return OTA_BOOT_SVC_NOT_SERVED;
	return bs->svc_status;
}
