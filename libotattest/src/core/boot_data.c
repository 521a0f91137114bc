// SPDX-License-Identifier: MIT
/*
 * Boot data: the sequence-numbered record of soft floors, tag key version
 * and primary slot, kept as two copies (see flash.h). This is the part any
 * tool can check - layout and the integrity digest; whether a copy is the
 * device's own (its KMAC) only the device can tell (firmware/lib/boot_data.c).
 */
#include "otattest/flash.h"
#include "otattest/otp.h"
#include "otattest/sha256.h"

#include "parse_util.h"

ota_status_t ota_boot_data_check(const struct ota_boot_data *bd)
{
	uint8_t digest[OTA_SHA256_BYTES];

	if (bd->magic != OTA_BOOT_DATA_MAGIC)
		return OTA_BOOT_DATA_BAD_MAGIC;
	if (bd->version != OTA_BOOT_DATA_VERSION)
		return OTA_BOOT_DATA_BAD_VERSION;
	if (bd->size != sizeof(*bd))
		return OTA_BOOT_DATA_BAD_SIZE;
	/* A torn write shows here first; the fields below mean nothing without it. */
	ota_sha256(bd, OTA_BOOT_DATA_DIGESTED_BYTES, digest);
	if (!ota_ct_equal(digest, bd->digest, sizeof(digest)))
		return OTA_BOOT_DATA_DIGEST_MISMATCH;
	if (bd->primary_slot >= OTA_SLOT_COUNT || bd->floor_rom_ext > OTA_SVN_LIMIT ||
	    bd->floor_bl0 > OTA_SVN_LIMIT || bd->anchor_counter > OTA_OTP_BOOT_DATA_ANCHOR_BITS)
		return OTA_BOOT_DATA_BAD_FIELD;
	return OTA_OK;
}

void ota_boot_data_seal(struct ota_boot_data *bd)
{
	ota_sha256(bd, OTA_BOOT_DATA_DIGESTED_BYTES, bd->digest);
}

int ota_boot_data_pick(const struct ota_boot_data copy[2], ota_status_t *why)
{
	return ota_pick_newest(ota_boot_data_check(&copy[0]), ota_boot_data_check(&copy[1]),
			       copy[0].counter, copy[1].counter, why);
}
