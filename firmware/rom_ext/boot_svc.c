// SPDX-License-Identifier: MIT
/*
 * ROM_EXT's boot services (OpenTitan's, in miniature): what the runtime
 * asked for before a warm reset - make the running BL0 slot the primary
 * (COMMIT), raise a boot data floor (RATCHET), apply a signed revocation
 * (REVOKE) - done here, after this boot verified the BL0 that runs, with
 * the boot data key and the OTP counters only the boot stages can reach.
 * The request sits in runtime-writable retention RAM, so every field is
 * judged again as hostile input; a refusal writes nothing.
 *
 * Then the lockdown before the hand-off: the flash the runtime must never
 * write is write-protected and the OTP counters locked until the next
 * reset, so these properties hold whatever the runtime does.
 */
#include <string.h>

#include "rom_ext.h"

static uint32_t svn_of(const struct boot_ctx *b, uint32_t stage)
{
	return stage == OTA_STAGE_ROM_EXT ? b->rom_ext_out.svn : b->bl0_out.svn;
}

/* fallback_survives()'s owner config (the anchors point into it) and image. */
static struct ota_owner_config fallback_oc;
static struct boot_image fallback_img;

/*
 * Whether the stage keeps a bootable fallback under the new floor: the
 * image in its other slot passes the whole check now (slow path, nothing
 * written) and its SVN is at least the floor. A ratchet is what makes an
 * old image unbootable for good, so ROM_EXT - not the host - decides that
 * one still boots.
 */
static ota_status_t fallback_survives(struct boot_ctx *b, uint32_t stage, uint32_t floor)
{
	uint32_t other = (stage == OTA_STAGE_ROM_EXT ? b->rom_ext_out.slot : b->bl0_out.slot) ^ 1u;
	struct ota_stage_record rec;
	struct ota_anchors a;

	if (!boot_slot_present(b, stage, other))
		return OTA_RATCHET_NO_FALLBACK;
	if (stage == OTA_STAGE_ROM_EXT)
		boot_anchors_rom_ext(b, &a);
	else if (boot_anchors_bl0(b, &fallback_oc, &a) != OTA_OK)
		return OTA_RATCHET_NO_FALLBACK;
	if (boot_stage_check(b, &a, stage, other, BOOT_MODE_VERIFY, &rec, &fallback_img) != OTA_OK ||
	    rec.security_version < floor)
		return OTA_RATCHET_NO_FALLBACK;
	return OTA_OK;
}

/* COMMIT and RATCHET into one boot data write; *changed when there is one to make. */
static ota_status_t boot_data_services(struct boot_ctx *b, const struct ota_boot_svc_request *q,
				       struct ota_boot_data *next, bool *changed)
{
	if (q->services & OTA_SVC_COMMIT) {
		/* Only the slot that booted now: what the agent saw run, still passing. */
		if (q->commit_slot >= OTA_SLOT_COUNT || q->commit_slot != b->bl0_out.slot)
			return OTA_COMMIT_NOT_RUNNING;
		*changed |= next->primary_slot != q->commit_slot;
		next->primary_slot = q->commit_slot;
	}
	if (q->services & OTA_SVC_RATCHET) {
		uint32_t *floor;

		if (q->ratchet_stage != OTA_STAGE_ROM_EXT && q->ratchet_stage != OTA_STAGE_BL0)
			return OTA_MBOX_BAD_FIELD;
		if (q->ratchet_flags & ~OTA_RATCHET_F_ALL)
			return OTA_MBOX_BAD_FIELD;
		/* Never above what runs: a ratchet must not brick the device. */
		if (q->ratchet_floor > svn_of(b, q->ratchet_stage))
			return OTA_RATCHET_ABOVE_RUNNING;
		/* Nor leave it without a fallback, unless the caller says so. */
		if (!(q->ratchet_flags & OTA_RATCHET_F_FORCE))
			OTA_TRY(fallback_survives(b, q->ratchet_stage, q->ratchet_floor));
		floor = q->ratchet_stage == OTA_STAGE_ROM_EXT ? &next->floor_rom_ext : &next->floor_bl0;
		if (q->ratchet_floor > *floor) {
			*floor = q->ratchet_floor;
			*changed = true;
		}
	}
	return OTA_OK;
}

static ota_status_t program_thermometer(uint32_t offset, uint32_t nbytes, uint32_t value)
{
	uint8_t bits[OTA_OTP_REVOCATION_SEQ_BITS / 8];

	if (nbytes > sizeof(bits))
		return OTA_HAL_BAD_ARGUMENT;
	ota_thermometer_encode(bits, nbytes, value);
	return hal_otp_program(offset, bits, nbytes);
}

/* The OTP thermometer of the command's series: its signer's, fleet-wide or device-bound. */
static uint32_t *series_of(struct boot_ctx *b, const struct ota_revocation *r, uint32_t *offset)
{
	struct ota_anchors creator;
	const bool fleet = ota_all_zero(r->device_id, OTA_DEVICE_ID_BYTES);

	boot_anchors_rom_ext(b, &creator);
	if (ota_revocation_by_creator(r, &creator)) {
		*offset = fleet ? offsetof(struct ota_otp, revocation_seq)
				: offsetof(struct ota_otp, revocation_seq_device);
		return fleet ? &b->otp.revocation_seq : &b->otp.revocation_seq_device;
	}
	*offset = fleet ? offsetof(struct ota_otp, revocation_seq_owner)
			: offsetof(struct ota_otp, revocation_seq_owner_device);
	return fleet ? &b->otp.revocation_seq_owner : &b->otp.revocation_seq_owner_device;
}

/*
 * The revocation's own effect, then its sequence number in its series
 * (its signer's, fleet-wide or device-bound): a cut between leaves it
 * applied once.
 */
static ota_status_t revocation_apply(struct boot_ctx *b, const struct ota_revocation *r)
{
	const uint32_t revoked = OTA_OTP_REVOKED;
	uint32_t series_offset;
	uint32_t *series = series_of(b, r, &series_offset);

	switch (r->action) {
	case OTA_REVOKE_RAISE_FLOOR:
		if (r->target == OTA_STAGE_ROM_EXT) {
			OTA_TRY(program_thermometer(offsetof(struct ota_otp, floor_rom_ext),
						    OTA_OTP_FLOOR_BITS / 8, r->value));
			b->otp.floor_rom_ext = r->value;
		} else {
			OTA_TRY(program_thermometer(offsetof(struct ota_otp, floor_bl0),
						    OTA_OTP_FLOOR_BITS / 8, r->value));
			b->otp.floor_bl0 = r->value;
		}
		break;
	case OTA_REVOKE_CREATOR_KEY:
		OTA_TRY(hal_otp_program(offsetof(struct ota_otp, creator_key_revoked) + 4u * r->target,
					&revoked, sizeof(revoked)));
		b->otp.creator_key_revoked[r->target] = true;
		break;
	case OTA_REVOKE_OWNER_KEY:
		OTA_TRY(hal_otp_program(offsetof(struct ota_otp, owner_key_revoked) + 4u * r->target,
					&revoked, sizeof(revoked)));
		b->otp.owner_key_revoked[r->target] = true;
		break;
	case OTA_REVOKE_BUMP_EPOCH:
		/* In force from the next boot: this one's keys were derived with the old one. */
		OTA_TRY(program_thermometer(offsetof(struct ota_otp, epoch), OTA_OTP_EPOCH_BITS / 8,
					    r->value));
		break;
	default:
		return OTA_REVOKE_MALFORMED;
	}
	OTA_TRY(program_thermometer(series_offset, OTA_OTP_REVOCATION_SEQ_BITS / 8, r->sequence));
	*series = r->sequence;
	b->svc.revoked.action = r->action;
	b->svc.revoked.target = r->target;
	b->svc.revoked.value = r->value;
	return OTA_OK;
}

/* A hybrid command as the runtime staged it in flash (too large for retention RAM). */
static struct ota_revocation_hybrid staged;

static ota_status_t revoke(struct boot_ctx *b, const struct ota_revocation *r)
{
	const uint32_t svn[OTA_STAGE_COUNT] = { b->rom_ext_out.svn, b->bl0_out.svn };
	const uint8_t *root[OTA_STAGE_COUNT] = { b->rom_ext_out.root_key_id, b->bl0_out.root_key_id };
	const struct ota_flash_region *reg;

	if (r->version != OTA_REVOCATION_VERSION_HYBRID) {
		OTA_TRY(boot_revocation_check(b, r, svn, root));
		return revocation_apply(b, r);
	}
	/*
	 * Hybrid: the staged copy, checked whole - both signatures - and only
	 * when it is the command the request names (the runtime can write
	 * both; a torn or swapped copy is refused, never half believed).
	 */
	OTA_TRY(boot_revocation_staging(b, &reg));
	OTA_TRY(hal_flash_read(reg->offset, &staged, sizeof(staged)));
	if (memcmp(&staged.cmd, r, sizeof(*r)) != 0)
		return OTA_REVOKE_MALFORMED;
	OTA_TRY(boot_revocation_check_hybrid(b, &staged.cmd, staged.spx_signature, svn, root));
	return revocation_apply(b, &staged.cmd);
}

void rom_ext_boot_services(struct boot_ctx *b)
{
	const struct ota_boot_svc_request *q = &b->svc_req;
	struct ota_boot_data next = b->bd;
	bool changed = false;
	ota_status_t st;

	/*
	 * The runtime asks with a warm reset; any other boot only drops the
	 * request, and so does a watchdog bite: a runtime that hung did not ask.
	 */
	if (!b->svc_req_valid || b->reset_reason != OTA_RESET_WARM || hal_wdog_bitten() ||
	    b->bl0_out.status != OTA_OK)
		return;
	b->svc.served = q->services & OTA_SVC_ALL;
	if (q->services & ~OTA_SVC_ALL || !ota_all_zero(q->reserved, sizeof(q->reserved)))
		st = OTA_MBOX_RESERVED_NONZERO;
	else
		st = boot_data_services(b, q, &next, &changed);
	if (st == OTA_OK && changed) {
		st = boot_data_commit(b, &next);
		/* A ratchet alone is done once OTP holds its floor, whatever its copy did. */
		if (st != OTA_OK && boot_data_held(b, &next))
			st = OTA_OK;
		b->record.hdr.boot_data_counter = b->bd.counter;
	}
	if (st == OTA_OK && (q->services & OTA_SVC_REVOKE))
		st = revoke(b, &q->revocation);
	b->svc.status = st;
	b->record.hdr.floor_rom_ext = boot_effective_floor(b, OTA_STAGE_ROM_EXT);
	b->record.hdr.floor_bl0 = boot_effective_floor(b, OTA_STAGE_BL0);
}

ota_status_t rom_ext_lockdown(const struct boot_ctx *b)
{
	struct ota_flash_range r[OTA_FLASH_LOCKED_REGION_COUNT + 4];
	uint32_t types[OTA_FLASH_LOCKED_REGION_COUNT + 3], n = 0, i, count;

	OTA_STATIC_ASSERT(HAL_FLASH_PROTECT_REGIONS == OTA_FLASH_PROTECT_RANGES,
			  "the layout check counts the flash controller's ranges");
	for (i = 0; i < OTA_FLASH_LOCKED_REGION_COUNT; i++) {
		/* The factory writes the identity certificate in manufacturing only. */
		if (ota_flash_locked_regions[i] == OTA_REGION_IDENTITY_CERT &&
		    b->otp.lifecycle == OTA_LC_TEST_UNLOCKED)
			continue;
		types[n++] = ota_flash_locked_regions[i];
	}
	types[n++] = OTA_FLASH_LOCKED_OPTIONAL; /* the identity log, when there is one */
	types[n++] = ota_region_for_slot(OTA_STAGE_ROM_EXT, b->rom_ext_out.slot);
	types[n++] = ota_region_for_slot(OTA_STAGE_BL0, b->bl0_out.slot);
	count = ota_flash_lock_ranges(&b->layout, types, n, r);
	for (i = 0; i < count; i++)
		OTA_TRY(hal_flash_protect(r[i].offset, r[i].size));
	return hal_otp_lock_counters();
}
