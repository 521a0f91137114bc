// SPDX-License-Identifier: MIT
/* Strict number parsing; see parse.h. */
#include "parse.h"

#include <errno.h>
#include <stdlib.h>

bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull accepts leading blanks and a minus sign: refuse both. */
	if (!s || !(s[0] >= '0' && s[0] <= '9'))
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end != '\0' || v > max)
		return false;
	*out = v;
	return true;
}

bool parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	uint64_t v;

	if (!parse_u64(s, max, &v))
		return false;
	*out = (uint32_t)v;
	return true;
}
