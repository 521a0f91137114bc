// SPDX-License-Identifier: MIT
#include "hex.h"

#include <string.h>

void ota_hex_encode(char *out, const uint8_t *in, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 0xf];
	}
	out[2 * len] = '\0';
}

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long ota_hex_decode(uint8_t *out, size_t max, const char *in)
{
	size_t n = strlen(in), i;

	if (n % 2 || n / 2 > max)
		return -1;
	for (i = 0; i < n / 2; i++) {
		int hi = nibble(in[2 * i]), lo = nibble(in[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(n / 2);
}
