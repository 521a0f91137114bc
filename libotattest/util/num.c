// SPDX-License-Identifier: MIT
#include <otu/num.h>

#include <errno.h>
#include <stdlib.h>

static int is_digit(char c, int base)
{
	if (c >= '0' && c <= '9')
		return 1;
	return base == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
}

int otu_parse_u64(const char *s, enum otu_base base, uint64_t min, uint64_t max, uint64_t *out)
{
	int radix = 10;
	unsigned long long v;
	const char *p, *q;

	if (!s)
		return -EINVAL;
	p = s;
	if (base == OTU_DEC_OR_HEX && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		radix = 16;
		p += 2;
	} else if (base == OTU_DEC_OR_HEX && p[0] == '0' && p[1] != '\0') {
		return -EINVAL;
	}
	/*
	 * Every character a digit of the radix, checked here: strtoull would
	 * skip blanks, take a sign, and with radix 16 a second "0x" itself.
	 */
	if (*p == '\0')
		return -EINVAL;
	for (q = p; *q; q++)
		if (!is_digit(*q, radix))
			return -EINVAL;
	errno = 0;
	v = strtoull(p, NULL, radix);
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int otu_parse_u32(const char *s, enum otu_base base, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	int r = otu_parse_u64(s, base, min, max, &v);

	if (r == 0)
		*out = (uint32_t)v;
	return r;
}
