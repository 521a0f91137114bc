// SPDX-License-Identifier: MIT
/*
 * DER writer (x509.h). Forward-writing with a bracket stack: an opened
 * item gets a one-byte length placeholder; closing it widens the length
 * field when needed (moving the contents up), which keeps callers free of
 * length arithmetic at the cost of a memmove per long item.
 */
#include <string.h>

#include "otattest/x509.h"

void ota_der_init(struct ota_der *d, uint8_t *buf, uint32_t cap)
{
	d->buf = buf;
	d->cap = cap;
	d->len = 0;
	d->depth = 0;
	d->err = OTA_OK;
}

static uint8_t *der_reserve(struct ota_der *d, uint32_t n)
{
	uint8_t *p;

	if (d->err != OTA_OK)
		return NULL;
	if (!ota_range_ok(d->len, n, d->cap)) {
		d->err = OTA_X509_BUFFER_FULL;
		return NULL;
	}
	p = d->buf + d->len;
	d->len += n;
	return p;
}

static uint32_t der_len_bytes(uint32_t n)
{
	if (n < 0x80u)
		return 0;
	if (n <= 0xffu)
		return 1;
	if (n <= 0xffffu)
		return 2;
	if (n <= 0xffffffu)
		return 3;
	return 4;
}

static void der_put_len(uint8_t *p, uint32_t n)
{
	uint32_t k = der_len_bytes(n), i;

	if (k == 0) {
		p[0] = (uint8_t)n;
		return;
	}
	p[0] = (uint8_t)(0x80u | k);
	for (i = 0; i < k; i++)
		p[1u + i] = (uint8_t)(n >> (8u * (k - 1u - i)));
}

void ota_der_begin(struct ota_der *d, uint8_t tag)
{
	uint8_t *p;

	if (d->err == OTA_OK && d->depth == OTA_DER_MAX_DEPTH)
		d->err = OTA_X509_MALFORMED;
	p = der_reserve(d, 2);
	if (!p)
		return;
	p[0] = tag;
	p[1] = 0;
	d->open[d->depth++] = d->len - 1u;
}

void ota_der_end(struct ota_der *d)
{
	uint32_t at, content, k;

	if (d->err != OTA_OK)
		return;
	if (d->depth == 0) {
		d->err = OTA_X509_MALFORMED;
		return;
	}
	at = d->open[--d->depth];
	content = d->len - (at + 1u);
	k = der_len_bytes(content);
	if (k && !der_reserve(d, k))
		return;
	if (k)
		memmove(d->buf + at + 1u + k, d->buf + at + 1u, content);
	der_put_len(d->buf + at, content);
}

void ota_der_put(struct ota_der *d, uint8_t tag, const void *p, uint32_t n)
{
	uint32_t k = der_len_bytes(n);
	uint8_t *o = der_reserve(d, 2u + k);

	if (!o)
		return;
	o[0] = tag;
	der_put_len(o + 1, n);
	ota_der_put_raw(d, p, n);
}

void ota_der_put_raw(struct ota_der *d, const void *p, uint32_t n)
{
	uint8_t *o = der_reserve(d, n);

	if (o && n)
		memcpy(o, p, n);
}

void ota_der_put_uint_be(struct ota_der *d, const uint8_t *be, uint32_t n)
{
	static const uint8_t zero = 0;

	while (n > 1 && be[0] == 0) {
		be++;
		n--;
	}
	if (n == 0) {
		ota_der_put(d, OTA_DER_INTEGER, &zero, 1);
		return;
	}
	if (be[0] & 0x80u) {
		/* Positive: a leading zero keeps the sign bit clear. */
		ota_der_begin(d, OTA_DER_INTEGER);
		ota_der_put_raw(d, &zero, 1);
		ota_der_put_raw(d, be, n);
		ota_der_end(d);
		return;
	}
	ota_der_put(d, OTA_DER_INTEGER, be, n);
}

void ota_der_put_uint(struct ota_der *d, uint32_t v)
{
	uint8_t be[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };

	ota_der_put_uint_be(d, be, sizeof(be));
}

void ota_der_put_uint_tagged(struct ota_der *d, uint8_t tag, uint32_t v)
{
	uint32_t at = d->len;

	ota_der_put_uint(d, v);
	if (d->err == OTA_OK)
		d->buf[at] = tag;
}

void ota_der_put_bits(struct ota_der *d, const void *p, uint32_t n)
{
	static const uint8_t unused = 0;

	ota_der_begin(d, OTA_DER_BIT_STRING);
	ota_der_put_raw(d, &unused, 1);
	ota_der_put_raw(d, p, n);
	ota_der_end(d);
}

void ota_der_put_ecdsa_sig(struct ota_der *d, const uint8_t sig[OTA_P256_SIG_BYTES])
{
	ota_der_begin(d, OTA_DER_SEQUENCE);
	ota_der_put_uint_be(d, sig, OTA_P256_SIG_BYTES / 2u);
	ota_der_put_uint_be(d, sig + OTA_P256_SIG_BYTES / 2u, OTA_P256_SIG_BYTES / 2u);
	ota_der_end(d);
}

ota_status_t ota_der_finish(const struct ota_der *d, uint32_t *len)
{
	if (d->err != OTA_OK)
		return d->err;
	if (d->depth != 0)
		return OTA_X509_MALFORMED;
	*len = d->len;
	return OTA_OK;
}
