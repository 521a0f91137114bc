/* SPDX-License-Identifier: MIT */
/*
 * The seam between the boot stages (firmware/lib, rom, rom_ext) and the
 * runtime (firmware/runtime). Both are compiled into one image, so the
 * "handoff" is a RAM structure plus a few calls; what must survive a
 * reset goes through retention RAM and the retained key vault (see
 * firmware.h), never through these globals.
 */
#ifndef OTATTEST_FW_INTERNAL_H
#define OTATTEST_FW_INTERNAL_H

#include <otattest/flash.h>
#include <otattest/otp.h>
#include <otattest/record.h>
#include <otattest/shm.h>

#include "firmware.h"
#include "hal.h"

/* What the boot stages leave for the runtime. */
struct ota_boot_state {
	struct ota_record record; /* as published */
	uint32_t record_len;
	uint32_t boot_status;     /* OTA_OK when BL0 was accepted */
	uint32_t reset_reason;
	struct ota_otp_info otp;  /* decoded OTP; the secret is never here */
	uint32_t rom_ext_slot;
	uint32_t bl0_slot;
	uint32_t bl0_svn;
	uint32_t min_svn;         /* min runtime SVN since cold boot */
	uint8_t rom_ext_measurement[OTA_SHA256_BYTES];
	uint8_t bl0_measurement[OTA_SHA256_BYTES];
	uint32_t rom_ext_svn;
	uint32_t chain_status;    /* OTA_OK when the SVN key chain holds link(min_svn) */
};

/* ---- provided by the boot stages (firmware/lib) ---------------------- */

/* The state of the last boot; NULL before the first one. */
const struct ota_boot_state *ota_boot_state(void);

/*
 * The stable ECDSA key of SVN `svn`, derived from the retained chain link
 * of min_svn by cranking it down. CHAIN_SVN_ABOVE_MAX when svn is above
 * the chain's length, CHAIN_SVN_ABOVE_MIN when svn > min_svn,
 * CHAIN_NOT_READY when no chain was established since cold boot. The
 * caller destroys the returned handle.
 */
ota_status_t ota_keychain_stable_key(uint32_t svn, hal_key_t *out);

/*
 * Rotate the tag key: a reset in which ROM and ROM_EXT bump the tag key
 * version, verify every valid slot on the slow path, write fresh tags and
 * commit the new version atomically. Progress goes to hal_host_progress.
 */
ota_status_t ota_fw_rotate_tags(struct ota_resp_rotate *out);

/*
 * Verify the BL0 image in `slot` (OTA_SLOT_A/B or OTA_UPDATE_SLOT_OTHER)
 * on the slow path; when it passes, perform an update reset into it, else
 * keep running the current image and return why it was refused.
 */
ota_status_t ota_fw_update_reset(uint32_t slot, struct ota_resp_reset *out);
ota_status_t ota_fw_warm_reset(struct ota_resp_reset *out);

/* ---- provided by the runtime (firmware/runtime) ----------------------- */

/*
 * Called by ROM_EXT once BL0 passed and before the key manager advances to
 * RUNTIME, while the device root is still available: derive the evidence
 * (alias) key bound to the boot measurements, retain it in
 * OTA_RETAINED_KEY_ALIAS, and issue its X.509 certificate signed by the
 * device identity key (which is destroyed afterwards, so the runtime can
 * never certify another key).
 */
ota_status_t ota_runtime_prepare(const struct ota_boot_state *bs);

#endif /* OTATTEST_FW_INTERNAL_H */
