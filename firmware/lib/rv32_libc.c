// SPDX-License-Identifier: MIT
/*
 * The mem* functions the freestanding code uses, for the rv32imc size
 * build only (the host build links libc's). -Os: this is what a ROM would
 * carry, so `make size` counts it. memcpy and memset go a word at a time
 * where both ends allow it: the stages clear and copy images of up to a
 * MiB on the core, which byte loops made most of a boot's instructions.
 */
#if defined(__riscv)
#include <stddef.h>
#include <stdint.h>

#define NO_LOOP_TO_CALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

NO_LOOP_TO_CALL void *memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if ((((uintptr_t)d | (uintptr_t)s) & 3u) == 0) {
		/* Four words a round: the loop's overhead was most of a copy's instructions. */
		for (; n >= 16; n -= 16, d += 16, s += 16) {
			uint32_t *dw = (uint32_t *)(void *)d;
			const uint32_t *sw = (const uint32_t *)(const void *)s;

			dw[0] = sw[0];
			dw[1] = sw[1];
			dw[2] = sw[2];
			dw[3] = sw[3];
		}
		for (; n >= 4; n -= 4, d += 4, s += 4)
			*(uint32_t *)(void *)d = *(const uint32_t *)(const void *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

NO_LOOP_TO_CALL void *memmove(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if (d < s)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

NO_LOOP_TO_CALL void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;
	uint32_t w = (uint8_t)c * 0x01010101u;

	for (; n && ((uintptr_t)d & 3u); n--)
		*d++ = (uint8_t)c;
	for (; n >= 16; n -= 16, d += 16) {
		uint32_t *dw = (uint32_t *)(void *)d;

		dw[0] = w;
		dw[1] = w;
		dw[2] = w;
		dw[3] = w;
	}
	for (; n >= 4; n -= 4, d += 4)
		*(uint32_t *)(void *)d = w;
	while (n--)
		*d++ = (uint8_t)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	/* Equal words skipped a word at a time; the first differing byte decides. */
	if ((((uintptr_t)x | (uintptr_t)y) & 3u) == 0)
		for (; n >= 4 && *(const uint32_t *)(const void *)x == *(const uint32_t *)(const void *)y;
		     n -= 4, x += 4, y += 4)
			;
	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}
#else
/* Hosted builds use libc's; an empty translation unit is not valid C. */
typedef int ota_rv32_libc_unused;
#endif
