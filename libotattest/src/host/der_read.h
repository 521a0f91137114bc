/* SPDX-License-Identifier: MIT */
/*
 * A small bounded DER reader (host internal): one TLV at a time, with
 * single-byte tags, definite lengths in their shortest form and at most
 * 64 KiB. Whatever else DER allows is refused, which suits the readers
 * here: each reads one shape the firmware or otimage writes.
 */
#ifndef OTATTEST_HOST_DER_READ_H
#define OTATTEST_HOST_DER_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct der {
	const uint8_t *p;
	size_t n;
};

/* One TLV of this tag: its contents in *in, d moved past it. */
static inline bool der_next(struct der *d, uint8_t tag, struct der *in)
{
	size_t len, k, i;

	if (d->n < 2 || d->p[0] != tag)
		return false;
	len = d->p[1];
	k = 0;
	if (len & 0x80) {
		k = len & 0x7f;
		if (k == 0 || k > 2 || d->n < 2 + k)
			return false;
		for (len = 0, i = 0; i < k; i++)
			len = len << 8 | d->p[2 + i];
		if (len < 0x80 || (k == 2 && len < 0x100))
			return false;
	}
	if (d->n - 2 - k < len)
		return false;
	in->p = d->p + 2 + k;
	in->n = len;
	d->p += 2 + k + len;
	d->n -= 2 + k + len;
	return true;
}

/* The same, with *whole the TLV itself (tag and length too). */
static inline bool der_next_whole(struct der *d, uint8_t tag, struct der *in, struct der *whole)
{
	const uint8_t *start = d->p;

	if (!der_next(d, tag, in))
		return false;
	whole->p = start;
	whole->n = (size_t)(d->p - start);
	return true;
}

/* An OPTIONAL field: absent unless the next tag is this one. */
static inline bool der_optional(struct der *d, uint8_t tag, struct der *in, bool *present)
{
	*present = d->n > 0 && d->p[0] == tag;
	if (!*present) {
		in->p = NULL;
		in->n = 0;
		return true;
	}
	return der_next(d, tag, in);
}

/* Non-negative INTEGER contents of at most 32 bits, in the shortest form. */
static inline bool der_uint(const struct der *v, uint32_t *out)
{
	size_t i;

	if (v->n == 0 || v->n > 5 || (v->p[0] & 0x80) || (v->n == 5 && v->p[0] != 0))
		return false;
	if (v->n > 1 && v->p[0] == 0 && !(v->p[1] & 0x80))
		return false;
	for (*out = 0, i = 0; i < v->n; i++)
		*out = *out << 8 | v->p[i];
	return true;
}

static inline bool der_next_uint(struct der *d, uint32_t *out)
{
	struct der v;

	return der_next(d, 0x02, &v) && der_uint(&v, out);
}

/* Contents equal to these bytes. */
static inline bool der_eq(const struct der *v, const uint8_t *p, size_t n)
{
	return v->n == n && memcmp(v->p, p, n) == 0;
}

#endif /* OTATTEST_HOST_DER_READ_H */
