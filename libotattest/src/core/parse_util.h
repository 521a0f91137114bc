/* SPDX-License-Identifier: MIT */
/*
 * Helpers private to the libotattest/src/core parsers.
 */
#ifndef OTATTEST_CORE_PARSE_UTIL_H
#define OTATTEST_CORE_PARSE_UTIL_H

#include <string.h>

#include "otattest/status.h"

/*
 * Unaligned little-endian load. Extensions and flash records may sit at
 * any offset of the caller's buffer, so fields are always copied out with
 * memcpy (the compiler turns it into a plain load where that is legal).
 */
static inline uint32_t ota_load32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Pick the newest valid of two copies of a sequence-numbered record (boot
 * data, tag table). st0/st1 are each copy's check result, seq0/seq1 their
 * sequence numbers as stored (meaningful only when the copy is valid).
 * Returns 0 or 1, or -1 when neither is valid. *why (may be NULL) gets
 * OTA_OK when both are valid, the other copy's failure when one is, and
 * the newer-looking copy's failure when neither is.
 */
int ota_pick_newest(ota_status_t st0, ota_status_t st1, uint32_t seq0, uint32_t seq1,
		    ota_status_t *why);

#endif /* OTATTEST_CORE_PARSE_UTIL_H */
