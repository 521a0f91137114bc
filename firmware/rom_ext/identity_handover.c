// SPDX-License-Identifier: MIT
/*
 * The identity hand-over at ROM_EXT's end (keychain.md, "Identity
 * hand-over"). When ROM named a predecessor - the log says another
 * creator key's ROM_EXT holds the identity - the key manager signs the
 * hand-over from that identity to this one; ROM_EXT appends it to the
 * log and then programs the OTP identity version, the commit point: from
 * there on the key manager derives the new identity only. A power cut
 * before the OTP program leaves the old version in force and the entry
 * written; the next boot hands over again and finds the entry there. On
 * a device's first boot with a log, the header names this ROM_EXT as the
 * holder of the identity at the version OTP holds.
 */
#include <stddef.h>
#include <string.h>

#include "rom_ext.h"

void rom_ext_identity_handover(struct boot_ctx *b)
{
	uint8_t own[OTA_SHA256_BYTES], bits[OTA_OTP_IDENTITY_VERSION_BITS / 8];
	struct ota_identity_handover h;
	ota_status_t st;

	boot_binding_attest(OTA_STAGE_ROM_EXT, b->rom_ext_out.root_key_id, own);
	st = hal_keymgr_handover(&h);
	if (st == OTA_HAL_KEYMGR_NO_PREDECESSOR) {
		(void)boot_identity_log_start(b, b->otp.identity_version, own);
		return;
	}
	/* A full thermometer or log: this ROM_EXT's identity stays uncertified. */
	if (st != OTA_OK || h.from_version != b->otp.identity_version ||
	    boot_identity_log_append(b, &h, own) != OTA_OK)
		return;
	ota_thermometer_encode(bits, sizeof(bits), h.to_version);
	if (hal_otp_program(offsetof(struct ota_otp, identity_version), bits, sizeof(bits)) == OTA_OK)
		b->otp.identity_version = h.to_version;
}
