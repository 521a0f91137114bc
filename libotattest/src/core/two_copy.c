// SPDX-License-Identifier: MIT
/*
 * Choosing between the two copies of a record that changes after
 * provisioning. A writer always rewrites the copy that does not hold the
 * newest valid record, so a torn write can only damage the copy being
 * written: the other one is still intact and is what we fall back to.
 */
#include "otattest/flash.h"

#include "parse_util.h"

int ota_pick_newest(ota_status_t st0, ota_status_t st1, uint32_t seq0, uint32_t seq1,
		    ota_status_t *why)
{
	bool ok0 = st0 == OTA_OK, ok1 = st1 == OTA_OK;
	/* Ties go to copy 0 so the choice never depends on anything but the data. */
	bool one_newer = ota_seq_newer(seq1, seq0);
	ota_status_t reason;
	int pick;

	if (ok0 && ok1) {
		pick = one_newer ? 1 : 0;
		reason = OTA_OK;
	} else if (ok0) {
		pick = 0;
		reason = st1;
	} else if (ok1) {
		pick = 1;
		reason = st0;
	} else {
		pick = -1;
		reason = one_newer ? st1 : st0;
	}
	if (why)
		*why = reason;
	return pick;
}
