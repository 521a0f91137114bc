// SPDX-License-Identifier: MIT
/*
 * Boot data: the soft floors, the primary BL0 slot and the authoritative
 * tag key version, as two copies in flash (flash.h), trusted only when the
 * device itself wrote them and they are not older than OTP says:
 *
 *  - authenticated: a copy's `mac` is KMAC256 under the boot data key,
 *    which only ROM derives (its state's secret, MAC purpose) and hands
 *    to ROM_EXT; the runtime never holds it (the key manager wipes it at
 *    RUNTIME). Whoever writes flash cannot forge a copy - a rotation
 *    rolled back, floors dropped, the key version pinned, a slot chosen.
 *  - what must only rise is held in OTP, not in the copy: the soft
 *    floors and the tag key version live in OTP thermometers (floor_*,
 *    tag_key_version), and a RATCHET or a rotation programs OTP before it
 *    writes the copy (boot_data_commit), so no power cut and no flash
 *    writer brings them back - not an erased copy, not an authentic older
 *    one. The copy's own values only follow; a copy that holds more than
 *    OTP (written by older firmware, or the factory's) is first taken into
 *    OTP at load. docs/hal.md, "Monotonic state".
 *  - not replayed as a factory copy: the device's first own copy moves
 *    the OTP thermometer boot_data_anchor to its anchor_counter, and a
 *    copy below the anchor is refused (copies older firmware wrote before
 *    its last anchored change). Commits, rotations and ratchets keep the
 *    anchor_counter and spend no anchor bit.
 *  - factory copies (all-zero mac, from otimage pack) are taken only
 *    while the anchor is zero - before the device wrote boot data of its
 *    own - and the first boot adopts the newest as the device's own.
 *
 * With no valid copy a device that never wrote boot data (anchor zero) in
 * TEST_UNLOCKED, DEV or RMA boots with defaults (version 0, slot A, no soft
 * floors), as a factory-fresh part would; a PROD or PROD_END device
 * refuses, and so does any device whose anchor says it had boot data:
 * erasing both copies is tampering (the floors and the key version stay
 * OTP's either way). Two-copy writes mean a power cut never gets a device
 * there.
 *
 * The runtime's pre-checks (at RUNTIME) use the copy ROM verified, handed
 * over in the boot state, and never read flash for it.
 */
#include <string.h>

#include <otattest/sha256.h>

#include "fwlib.h"

#define BOOT_DATA_KEY_LABEL "otattest-boot-data"

static bool defaults_allowed(uint32_t lifecycle)
{
	return lifecycle != OTA_LC_PROD && lifecycle != OTA_LC_PROD_END;
}

ota_status_t boot_data_key(hal_key_t *out)
{
	hal_key_t cdi;

	*out = HAL_KEY_INVALID;
	if (hal_keymgr_state() != HAL_KEYMGR_ROM)
		return OTA_HAL_KEYMGR_STATE;
	cdi = hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST);
	if (cdi == HAL_KEY_INVALID)
		return OTA_HAL_BAD_HANDLE;
	return hal_keymgr_derive(cdi, BOOT_DATA_KEY_LABEL, NULL, 0, 0, 0, HAL_KEY_PURPOSE_MAC, out);
}

ota_status_t boot_data_mac(hal_key_t key, const struct ota_boot_data *bd,
			   uint8_t mac[OTA_SHA256_BYTES])
{
	ota_status_t st = hal_kmac_start(key, (const uint8_t *)BOOT_DATA_KEY_LABEL,
					 sizeof(BOOT_DATA_KEY_LABEL) - 1u);

	if (st == OTA_OK)
		st = hal_kmac_update(bd, OTA_BOOT_DATA_MACED_BYTES);
	if (st == OTA_OK)
		st = hal_kmac_finish(mac, OTA_SHA256_BYTES);
	return st;
}

/* Whether a copy is one this device may trust, given the OTP anchor. */
static ota_status_t copy_check(const struct boot_ctx *b, const struct ota_boot_data *bd)
{
	uint8_t mac[OTA_SHA256_BYTES];

	OTA_TRY(ota_boot_data_check(bd));
	if (ota_boot_data_is_factory(bd))
		return b->otp.boot_data_anchor == 0 ? OTA_OK : OTA_BOOT_DATA_ROLLED_BACK;
	OTA_TRY(boot_data_mac(b->bd_key, bd, mac));
	if (!ota_ct_equal(mac, bd->mac, sizeof(mac)))
		return OTA_BOOT_DATA_MAC_MISMATCH;
	if (bd->anchor_counter < b->otp.boot_data_anchor)
		return OTA_BOOT_DATA_ROLLED_BACK;
	return OTA_OK;
}

OTA_STATIC_ASSERT(OTA_SVN_LIMIT <= OTA_OTP_FLOOR_BITS, "OTP holds every floor a copy can hold");

/* Raise an OTP thermometer of nbytes to `value` (bits only ever set); *held follows. */
static ota_status_t otp_raise(uint32_t offset, uint32_t nbytes, uint32_t value, uint32_t *held)
{
	uint8_t bits[OTA_OTP_BOOT_DATA_ANCHOR_BITS / 8];

	if (value <= *held)
		return OTA_OK;
	if (nbytes > sizeof(bits) || value > nbytes * 8u)
		return OTA_HAL_BAD_ARGUMENT;
	ota_thermometer_encode(bits, nbytes, value);
	OTA_TRY(hal_otp_program(offset, bits, nbytes));
	*held = value;
	return OTA_OK;
}

/* Program the OTP anchor up to `counter`. */
static ota_status_t anchor_raise(struct boot_ctx *b, uint32_t counter)
{
	if (counter > OTA_OTP_BOOT_DATA_ANCHOR_BITS)
		return OTA_BOOT_DATA_COUNTER_EXHAUSTED;
	return otp_raise(offsetof(struct ota_otp, boot_data_anchor),
			 OTA_OTP_BOOT_DATA_ANCHOR_BITS / 8, counter, &b->otp.boot_data_anchor);
}

/*
 * A copy's floors and tag key version into OTP, where they can only rise.
 * A floor always fits (at most OTA_SVN_LIMIT); a tag key version above
 * the thermometer (only older firmware wrote one) fills it, and the copy
 * keeps the rest (boot_effective_tag_key_version).
 */
static ota_status_t hold_in_otp(struct boot_ctx *b, const struct ota_boot_data *bd)
{
	uint32_t version = bd->tag_key_version < OTA_OTP_TAG_KEY_VERSION_BITS
				   ? bd->tag_key_version
				   : OTA_OTP_TAG_KEY_VERSION_BITS;

	OTA_TRY(otp_raise(offsetof(struct ota_otp, floor_rom_ext), OTA_OTP_FLOOR_BITS / 8,
			  bd->floor_rom_ext, &b->otp.floor_rom_ext));
	OTA_TRY(otp_raise(offsetof(struct ota_otp, floor_bl0), OTA_OTP_FLOOR_BITS / 8,
			  bd->floor_bl0, &b->otp.floor_bl0));
	return otp_raise(offsetof(struct ota_otp, tag_key_version),
			 OTA_OTP_TAG_KEY_VERSION_BITS / 8, version, &b->otp.tag_key_version);
}

static void defaults(struct boot_ctx *b)
{
	b->bd_index = -1;
	memset(&b->bd, 0, sizeof(b->bd));
	b->bd.magic = OTA_BOOT_DATA_MAGIC;
	b->bd.version = OTA_BOOT_DATA_VERSION;
	b->bd.size = sizeof(b->bd);
	b->bd.primary_slot = OTA_SLOT_A;
}

ota_status_t boot_data_load(struct boot_ctx *b)
{
	struct ota_boot_data copy[2];
	ota_status_t st[2], why;
	int pick, i;

	if (hal_keymgr_state() == HAL_KEYMGR_RUNTIME) {
		/* The runtime's pre-check: what ROM verified at this boot, never flash. */
		const struct ota_boot_state *bs = ota_boot_state();

		if (!bs)
			return OTA_MBOX_NOT_READY;
		b->bd = bs->boot_data;
		b->bd_index = -1;
		return OTA_OK;
	}
	OTA_TRY(boot_data_key(&b->bd_key));
	for (i = 0; i < 2; i++) {
		OTA_TRY(hal_flash_read(boot_region(b, OTA_REGION_BOOT_DATA_0 + (uint32_t)i)->offset,
				       &copy[i], sizeof(copy[i])));
		st[i] = copy_check(b, &copy[i]);
	}
	pick = ota_pick_newest(st[0], st[1], copy[0].counter, copy[1].counter, &why);
	if (pick < 0) {
		defaults(b);
		if (b->otp.boot_data_anchor != 0)
			return OTA_BOOT_DATA_ROLLED_BACK;
		return defaults_allowed(b->otp.lifecycle) ? OTA_OK : OTA_BOOT_DATA_CORRUPT;
	}
	b->bd = copy[pick];
	b->bd_index = pick;
	/* Before anything uses it: what the copy holds above OTP, OTP now holds. */
	OTA_TRY(hold_in_otp(b, &b->bd));
	/*
	 * The factory's copy becomes the device's own at its first boot. A
	 * write that fails costs nothing but the adoption: the factory copy is
	 * still intact and the next boot tries again.
	 */
	if (ota_boot_data_is_factory(&b->bd)) {
		struct ota_boot_data own = b->bd;

		(void)boot_data_commit(b, &own);
		return OTA_OK;
	}
	/* A power cut after the first own copy and before its anchor: finish it. */
	return anchor_raise(b, b->bd.anchor_counter);
}

ota_status_t boot_data_commit(struct boot_ctx *b, struct ota_boot_data *bd)
{
	/* Write over the copy that does not hold the record in use. */
	int target = b->bd_index == 0 ? 1 : 0;
	uint32_t type = target ? OTA_REGION_BOOT_DATA_1 : OTA_REGION_BOOT_DATA_0;

	bool own = b->bd_index >= 0 && !ota_boot_data_is_factory(&b->bd);

	/*
	 * A rotation needs a bit of OTP for its key version: with none left it
	 * is refused here, before anything is written.
	 */
	if (bd->tag_key_version > boot_effective_tag_key_version(b) &&
	    bd->tag_key_version > OTA_OTP_TAG_KEY_VERSION_BITS)
		return OTA_TAG_KEY_VERSION_OTP_FULL;
	/*
	 * What must only rise goes into OTP first: from here a power cut, an
	 * erased copy or an older one written back changes nothing (the copy
	 * below only follows). Flash first, then OTP, was the rollback window.
	 */
	OTA_TRY(hold_in_otp(b, bd));
	bd->counter = b->bd_index >= 0 ? b->bd.counter + 1u : 1u;
	/*
	 * The anchor moves only with the device's first own copy (factory
	 * copies are taken while it is zero); every later copy keeps the
	 * anchor counter, so a commit, a rotation or a ratchet spends no
	 * anchor bit. Writing an older own copy back can choose the primary
	 * slot of an earlier commit - a slot that boots anyway - and nothing
	 * else: floors and key version are OTP's.
	 */
	bd->anchor_counter = own ? b->bd.anchor_counter : b->otp.boot_data_anchor + 1u;
	if (bd->anchor_counter > OTA_OTP_BOOT_DATA_ANCHOR_BITS)
		return OTA_BOOT_DATA_COUNTER_EXHAUSTED;
	OTA_TRY(boot_data_mac(b->bd_key, bd, bd->mac));
	ota_boot_data_seal(bd);
	OTA_TRY(boot_flash_store(boot_region(b, type)->offset, bd, sizeof(*bd)));
	b->bd = *bd;
	b->bd_index = target;
	return anchor_raise(b, bd->anchor_counter);
}

bool boot_data_held(const struct boot_ctx *b, const struct ota_boot_data *bd)
{
	return bd->primary_slot == b->bd.primary_slot && b->otp.floor_rom_ext >= bd->floor_rom_ext &&
	       b->otp.floor_bl0 >= bd->floor_bl0 &&
	       boot_effective_tag_key_version(b) >= bd->tag_key_version;
}
