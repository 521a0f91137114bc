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


#endif /* OTATTEST_CORE_PARSE_UTIL_H */
