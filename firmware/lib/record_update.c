// SPDX-License-Identifier: MIT
/*
 * The boot record's update section (record.h): what an update agent reads
 * - each slot's SVN and version string, which BL0 slot is primary, which
 * slots run, what was installed since the boot and the update state - and
 * what the boot services this boot served did. The boot fills it when it
 * ends; the runtime changes only the install fields and republishes.
 */
#include <string.h>

#include "fwlib.h"

/* A slot's manifest claims, read from flash (unverified unless the flags say so). */
static void slot_claims(const struct boot_ctx *b, uint32_t stage, uint32_t slot,
			struct ota_record_slot *s)
{
	const struct ota_flash_region *r = boot_region(b, ota_region_for_slot(stage, slot));
	struct ota_manifest m;

	if (hal_flash_read(r->offset, &m, sizeof(m)) != OTA_OK || m.magic != OTA_MANIFEST_MAGIC ||
	    m.version != OTA_MANIFEST_VERSION ||
	    m.identifier != (stage == OTA_STAGE_ROM_EXT ? OTA_ID_ROM_EXT : OTA_ID_BL0) ||
	    m.security_version > OTA_SVN_LIMIT || !ota_version_string_ok(m.version_string))
		return;
	s->flags |= OTA_RECORD_SLOT_F_PRESENT;
	s->security_version = m.security_version;
	memcpy(s->version, m.version_string, sizeof(s->version));
}

/* Whether this boot's record holds a passing attempt for the slot. */
static bool verified_now(const struct boot_ctx *b, uint32_t stage, uint32_t slot)
{
	uint32_t i;

	for (i = 0; i < b->record.hdr.stage_count; i++)
		if (b->record.stage[i].stage == stage && b->record.stage[i].slot == slot &&
		    b->record.stage[i].status == OTA_OK)
			return true;
	return false;
}

void boot_record_update_fill(const struct boot_ctx *b, ota_status_t st,
			     struct ota_record_update *u)
{
	bool rom_ext_ran = b->rom_ext_out.status == OTA_OK;
	bool bl0_ran = st == OTA_OK && b->bl0_out.status == OTA_OK;
	uint32_t stage, slot;

	memset(u, 0, sizeof(*u));
	u->primary_slot = b->bd.primary_slot < OTA_SLOT_COUNT ? b->bd.primary_slot : OTA_SLOT_A;
	u->running_rom_ext_slot = rom_ext_ran ? b->rom_ext_out.slot : OTA_RECORD_NO_SLOT;
	u->running_bl0_slot = bl0_ran ? b->bl0_out.slot : OTA_RECORD_NO_SLOT;
	/* Each scope's highest of the two signers' series (OTP keeps them apart). */
	u->revocation_sequence = b->otp.revocation_seq > b->otp.revocation_seq_owner
					 ? b->otp.revocation_seq
					 : b->otp.revocation_seq_owner;
	u->revocation_sequence_device = b->otp.revocation_seq_device >
						b->otp.revocation_seq_owner_device
						? b->otp.revocation_seq_device
						: b->otp.revocation_seq_owner_device;
	u->service_mask = b->svc.served;
	u->service_status = b->svc.served ? b->svc.status : 0;
	u->revocation_action = b->svc.revoked.action;
	u->revocation_target = b->svc.revoked.target;
	u->revocation_value = b->svc.revoked.value;
	if (bl0_ran && b->bl0_out.slot != u->primary_slot)
		u->update_state = OTA_UPDATE_TRIAL;
	/* ROM_EXT's trial count and revert, as this boot leaves them in the vault (trial.c). */
	u->trial_boots = bl0_ran ? b->ret_next.trial_boots : 0;
	u->revert_reason = b->ret_next.revert_reason;
	u->reverted_slot = b->ret_next.reverted_slot;
	if (!b->layout_ok)
		return; /* no layout, no slots to describe */
	for (stage = OTA_STAGE_ROM_EXT; stage <= OTA_STAGE_BL0; stage++)
		for (slot = 0; slot < OTA_SLOT_COUNT; slot++) {
			struct ota_record_slot *s = &u->slot[ota_tag_index(stage, slot)];

			s->stage = stage;
			s->slot = slot;
			slot_claims(b, stage, slot, s);
			if (verified_now(b, stage, slot))
				s->flags |= OTA_RECORD_SLOT_F_VERIFIED;
			if ((stage == OTA_STAGE_ROM_EXT && slot == u->running_rom_ext_slot) ||
			    (stage == OTA_STAGE_BL0 && slot == u->running_bl0_slot))
				s->flags |= OTA_RECORD_SLOT_F_RUNNING;
			if (stage == OTA_STAGE_BL0 && slot == u->primary_slot)
				s->flags |= OTA_RECORD_SLOT_F_PRIMARY;
		}
}

struct ota_record_update *boot_record_update_at(struct ota_record *r)
{
	return (struct ota_record_update *)((uint8_t *)r + sizeof(r->hdr) +
					    r->hdr.stage_count * sizeof(struct ota_stage_record));
}
