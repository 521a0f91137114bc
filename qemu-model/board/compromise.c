// SPDX-License-Identifier: MIT
/*
 * A compromised runtime played by the board, for the host build only
 * (docs/model.md, "compromise"). BL0 code that an attacker controls runs
 * at RUNTIME with the runtime's RAM and the retained alias key: it can
 * rewrite its own copy of the boot record before it answers GET_RECORD
 * and ATTEST, and every claim it signs then says what it wants. What it
 * cannot change is what ROM_EXT certified before it ran (the alias
 * certificate) - which is what the verifier must hold the claims to.
 * With --core=host the runtime is the firmware compiled into the model,
 * which no attacker code reaches, so the board edits that firmware's RAM
 * exactly as such code would; nothing here touches the chip, the keys or
 * flash. With --core=rv32 the runtime is a BL0 image, and a lying one is
 * attacker code signed like any BL0 (tests/rv32/hostile/, issue 27): the
 * board refuses to play it there.
 */
#include <string.h>

#include <otattest/record.h>
#include <otu/num.h>

#include "handoff.h"
#include "model.h"

/* The booted record of `stage` in the runtime's copy, or NULL. */
static struct ota_stage_record *booted(struct ota_record *r, uint32_t stage)
{
	uint32_t i;

	for (i = 0; i < r->hdr.stage_count && i < OTA_RECORD_MAX_STAGES; i++)
		if (r->stage[i].stage == stage && (r->stage[i].flags & OTA_STAGE_F_BOOTED))
			return &r->stage[i];
	return NULL;
}

static bool name_to(const char *s, const char *(*name)(uint32_t), uint32_t max, uint32_t *out)
{
	uint32_t i;

	for (i = 0; i <= max; i++)
		if (strcmp(s, name(i)) == 0) {
			*out = i;
			return true;
		}
	return false;
}

static ota_status_t edit(struct ota_boot_state *bs, bool valid, const char *what, const char *value)
{
	struct ota_record *r = &bs->record;
	struct ota_stage_record *bl0;
	uint32_t v;

	if (!valid || bs->boot_status != OTA_OK)
		return OTA_MBOX_NOT_READY;
	bl0 = booted(r, OTA_STAGE_BL0);
	if (!bl0)
		return OTA_MBOX_NOT_READY;
	if (strcmp(what, "bl0-path") == 0 && name_to(value, ota_path_name, OTA_PATH_MAX, &v)) {
		/* A consistent lie: the tag path has no slow-path reason. */
		bl0->path = v;
		if (v == OTA_PATH_TAG)
			bl0->path_reason = OTA_REASON_NONE;
	}
	else if (strcmp(what, "bl0-scheme") == 0 &&
		 name_to(value, ota_scheme_name, OTA_SCHEME_HYBRID, &v))
		bl0->sig_scheme = v;
	else if (strcmp(what, "bl0-depth") == 0 &&
		 otu_parse_u32(value, OTU_DEC_OR_HEX, 0, OTA_MAX_DELEGATION_DEPTH, &v) == 0) {
		/* A consistent lie: the delegates' key ids go with the depth. */
		bl0->delegation_depth = v;
		memset(bl0->key_ids[v + 1u], 0, sizeof(bl0->key_ids) - (v + 1u) * OTA_KEY_ID_BYTES);
	}
	else if (strcmp(what, "bl0-root-key") == 0 && strcmp(value, "flip") == 0)
		bl0->key_ids[0][0] ^= 1;
	else if (strcmp(what, "bl0-usage-flags") == 0 &&
		 otu_parse_u32(value, OTU_DEC_OR_HEX, 0, OTA_CAP_ALL, &v) == 0)
		bl0->effective.usage.flags = v; /* e.g. DEBUG hidden from debug_images_allowed */
	else if (strcmp(what, "min-svn") == 0 &&
		 otu_parse_u32(value, OTU_DEC_OR_HEX, 0, OTA_SVN_LIMIT, &v) == 0)
		r->hdr.min_svn = v;
	else if (strcmp(what, "epoch") == 0 &&
		 otu_parse_u32(value, OTU_DEC_OR_HEX, 0, OTA_OTP_EPOCH_BITS, &v) == 0)
		r->hdr.epoch = v;
	else if (strcmp(what, "floor-bl0") == 0 &&
		 otu_parse_u32(value, OTU_DEC_OR_HEX, 0, OTA_SVN_LIMIT, &v) == 0)
		r->hdr.floor_bl0 = v;
	else if (strcmp(what, "lifecycle") == 0 &&
		 name_to(value, ota_lifecycle_name, OTA_LC_RMA, &v))
		r->hdr.lifecycle = v;
	/* The update section (issue 28): revocations not applied, a revert hidden or made up. */
	else if (strcmp(what, "revocation-sequence") == 0 && (r->hdr.flags & OTA_RECORD_F_UPDATE_SECTION) &&
		 otu_parse_u32(value, OTU_DEC_OR_HEX, 0, OTA_REVOCATION_SEQ_MAX, &v) == 0)
		((struct ota_record_update *)ota_record_update_of(r))->revocation_sequence = v;
	else if (strcmp(what, "revert-reason") == 0 && (r->hdr.flags & OTA_RECORD_F_UPDATE_SECTION) &&
		 name_to(value, ota_revert_reason_name, OTA_REVERT_REASON_MAX, &v)) {
		struct ota_record_update *u = (struct ota_record_update *)ota_record_update_of(r);

		u->revert_reason = v; /* a consistent lie: a revert names slot B, none no slot */
		u->reverted_slot = v != OTA_REVERT_NONE ? OTA_SLOT_B : 0u;
	}
	else
		return OTA_HOST_BAD_ARGUMENT;
	return OTA_OK;
}

/* The runtime's RAM: the host build's own objects. */
ota_status_t device_compromise(struct model *m, const char *what, const char *value)
{
	if (m->opt.core_rv32)
		return OTA_HOST_BAD_ARGUMENT;
	return edit(boot_state_mut(), ota_boot_state() != NULL, what, value);
}
