// SPDX-License-Identifier: MIT
/*
 * Deterministic CBOR encoder (RFC 8949 section 4.2.1), freestanding.
 * Every head uses the shortest argument and every length is definite,
 * so the same claims always encode to the same bytes; map key order is
 * the caller's job (the claims encoder emits keys already sorted).
 */
#include <string.h>

#include "otattest/cbor.h"

void ota_cbor_enc_init(struct ota_cbor_enc *e, uint8_t *buf, uint32_t cap)
{
	e->buf = buf;
	e->cap = cap;
	e->len = 0;
	e->err = OTA_OK;
}

/*
 * Reserve n bytes; NULL (and a sticky error) when they do not fit. With no
 * buffer the encoder only measures: it counts and writes nothing.
 */
static uint8_t *enc_reserve(struct ota_cbor_enc *e, uint32_t n)
{
	uint8_t *p;

	if (e->err != OTA_OK)
		return NULL;
	if (e->buf == NULL) {
		if (n > UINT32_MAX - e->len)
			e->err = OTA_CBOR_BUFFER_FULL;
		else
			e->len += n;
		return NULL;
	}
	if (!ota_range_ok(e->len, n, e->cap)) {
		e->err = OTA_CBOR_BUFFER_FULL;
		return NULL;
	}
	p = e->buf + e->len;
	e->len += n;
	return p;
}

void ota_cbor_put_head(struct ota_cbor_enc *e, uint32_t major, uint64_t arg)
{
	uint8_t ib = (uint8_t)(major << 5);
	uint32_t extra, i;
	uint8_t *p;

	if (arg < 24u) {
		p = enc_reserve(e, 1);
		if (p)
			p[0] = (uint8_t)(ib | arg);
		return;
	}
	if (arg <= 0xffu) {
		ib |= 24u;
		extra = 1;
	} else if (arg <= 0xffffu) {
		ib |= 25u;
		extra = 2;
	} else if (arg <= 0xffffffffu) {
		ib |= 26u;
		extra = 4;
	} else {
		ib |= 27u;
		extra = 8;
	}
	p = enc_reserve(e, 1u + extra);
	if (!p)
		return; /* full, or measuring */
	p[0] = ib;
	for (i = 0; i < extra; i++)
		p[1u + i] = (uint8_t)(arg >> (8u * (extra - 1u - i)));
}

void ota_cbor_put_uint(struct ota_cbor_enc *e, uint64_t v)
{
	ota_cbor_put_head(e, OTA_CBOR_UINT, v);
}

void ota_cbor_put_int(struct ota_cbor_enc *e, int64_t v)
{
	if (v >= 0)
		ota_cbor_put_head(e, OTA_CBOR_UINT, (uint64_t)v);
	else /* -1 - v without overflow at INT64_MIN */
		ota_cbor_put_head(e, OTA_CBOR_NINT, ~(uint64_t)v);
}

static void put_string(struct ota_cbor_enc *e, uint32_t major, const void *s, uint32_t n)
{
	uint8_t *p;

	ota_cbor_put_head(e, major, n);
	p = enc_reserve(e, n);
	if (p && n)
		memcpy(p, s, n);
}

void ota_cbor_put_bytes(struct ota_cbor_enc *e, const void *p, uint32_t n)
{
	put_string(e, OTA_CBOR_BSTR, p, n);
}

void ota_cbor_put_text(struct ota_cbor_enc *e, const char *s, uint32_t n)
{
	put_string(e, OTA_CBOR_TSTR, s, n);
}

void ota_cbor_put_array(struct ota_cbor_enc *e, uint32_t count)
{
	ota_cbor_put_head(e, OTA_CBOR_ARRAY, count);
}

void ota_cbor_put_map(struct ota_cbor_enc *e, uint32_t pairs)
{
	ota_cbor_put_head(e, OTA_CBOR_MAP, pairs);
}

void ota_cbor_put_tag(struct ota_cbor_enc *e, uint64_t tag)
{
	ota_cbor_put_head(e, OTA_CBOR_TAG, tag);
}

void ota_cbor_put_bool(struct ota_cbor_enc *e, bool v)
{
	ota_cbor_put_head(e, OTA_CBOR_SIMPLE, v ? 21u : 20u);
}

void ota_cbor_put_raw(struct ota_cbor_enc *e, const void *p, uint32_t n)
{
	uint8_t *d = enc_reserve(e, n);

	if (d && n)
		memcpy(d, p, n);
}

ota_status_t ota_cbor_enc_finish(const struct ota_cbor_enc *e, uint32_t *len)
{
	if (e->err != OTA_OK)
		return e->err;
	*len = e->len;
	return OTA_OK;
}
