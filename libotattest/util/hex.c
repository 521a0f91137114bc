// SPDX-License-Identifier: MIT
#include <otu/hex.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>

static const char digits[] = "0123456789abcdef";

void otu_hex_encode(char *out, const void *in, size_t len)
{
	const uint8_t *p = in;
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 0xf];
	}
	out[2 * len] = '\0';
}

void otu_hex_fprint(FILE *f, const void *in, size_t len)
{
	const uint8_t *p = in;
	size_t i;

	for (i = 0; i < len; i++) {
		fputc(digits[p[i] >> 4], f);
		fputc(digits[p[i] & 0xf], f);
	}
}

/* Not isxdigit(): that one follows the locale, a wire format must not. */
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

ssize_t otu_hex_decode(const char *in, void *out, size_t max)
{
	size_t n = strlen(in), i;
	uint8_t *p = out;

	if (n % 2)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (nibble(in[i]) < 0)
			return -EINVAL;
	/* Checked after the digits: "zz" is not hex whatever its length. */
	if (n / 2 > max)
		return -EMSGSIZE;
	for (i = 0; i < n / 2; i++)
		p[i] = (uint8_t)(nibble(in[2 * i]) << 4 | nibble(in[2 * i + 1]));
	return (ssize_t)(n / 2);
}
