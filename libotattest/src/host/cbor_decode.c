// SPDX-License-Identifier: MIT
/*
 * Strict CBOR decoder (RFC 8949). Evidence arrives from a device the
 * verifier does not trust yet, so the checker refuses everything a
 * deterministic encoder would never produce: indefinite lengths,
 * non-shortest arguments, duplicate map keys, trailing bytes, oversize
 * strings and containers, deep nesting, text that is not UTF-8, and types otattest does not use
 * (floats, undefined, simple values, reserved encodings, tags other than COSE_Sign1's,
 * map keys other than integers and text; ota_cbor_check_tags names the tags a
 * format may use). Because
 * arguments are shortest-form, equal keys have equal encodings, and
 * duplicate detection is a byte comparison of key spans.
 *
 * Plain C with no allocation; recursion depth is bounded by max_depth.
 */
#include <string.h>

#include "otattest/cbor.h"

struct head {
	uint32_t major;
	uint32_t ai; /* additional information */
	uint64_t arg;
};

/* Read one head at *pos; canonical form enforced. */
static ota_status_t read_head(const uint8_t *buf, size_t len, size_t *pos, struct head *h)
{
	size_t p = *pos, n, i;
	uint8_t ib;

	if (p >= len)
		return OTA_CBOR_TRUNCATED;
	ib = buf[p++];
	h->major = ib >> 5;
	h->ai = ib & 0x1fu;
	if (h->ai < 24u) {
		h->arg = h->ai;
		*pos = p;
		return OTA_OK;
	}
	if (h->ai == 31u)
		return OTA_CBOR_INDEFINITE; /* also a stray "break" */
	if (h->ai > 27u)
		return OTA_CBOR_UNSUPPORTED; /* reserved additional information */
	n = (size_t)1 << (h->ai - 24u);
	if (len - p < n)
		return OTA_CBOR_TRUNCATED;
	h->arg = 0;
	for (i = 0; i < n; i++)
		h->arg = (h->arg << 8) | buf[p + i];
	*pos = p + n;
	if (h->major == OTA_CBOR_SIMPLE)
		return OTA_OK; /* floats and 1-byte simple values: judged by the caller */
	/* Shortest form: the value must need this many bytes. */
	if ((n == 1 && h->arg < 24u) || (n == 2 && h->arg <= 0xffu) ||
	    (n == 4 && h->arg <= 0xffffu) || (n == 8 && h->arg <= 0xffffffffu))
		return OTA_CBOR_NONCANONICAL;
	return OTA_OK;
}

/*
 * RFC 3629 UTF-8: shortest encodings only, no surrogates, nothing above
 * U+10FFFF. A text string that is not valid UTF-8 is invalid CBOR
 * (RFC 8949 section 3.1) and could compare equal to another on display.
 */
static bool utf8_ok(const uint8_t *p, size_t n)
{
	size_t i = 0, k, len;
	uint32_t cp, min;

	while (i < n) {
		uint8_t c = p[i];

		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0) {
			len = 2;
			cp = c & 0x1fu;
			min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			len = 3;
			cp = c & 0x0fu;
			min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			len = 4;
			cp = c & 0x07u;
			min = 0x10000;
		} else {
			return false;
		}
		if (n - i < len)
			return false;
		for (k = 1; k < len; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (p[i + k] & 0x3fu);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += len;
	}
	return true;
}

struct span {
	size_t off, len;
};

/* The tags an item may carry; NULL in skip(): input checked already. */
struct tag_set {
	const uint64_t *tags;
	size_t count;
};

static bool tag_allowed(const struct tag_set *ts, uint64_t tag)
{
	size_t i;

	if (ts == NULL)
		return true;
	for (i = 0; i < ts->count; i++)
		if (ts->tags[i] == tag)
			return true;
	return false;
}

static ota_status_t check_item(const uint8_t *buf, size_t len, size_t *pos,
			       const struct ota_cbor_limits *lim, const struct tag_set *ts,
			       uint32_t depth)
{
	struct span keys[OTA_CBOR_MAX_MAP_PAIRS];
	struct head h;
	ota_status_t st;
	uint64_t i, j;

	if (depth > lim->max_depth)
		return OTA_CBOR_DEPTH;
	st = read_head(buf, len, pos, &h);
	if (st != OTA_OK)
		return st;

	switch (h.major) {
	case OTA_CBOR_UINT:
	case OTA_CBOR_NINT:
		return OTA_OK;
	case OTA_CBOR_BSTR:
	case OTA_CBOR_TSTR:
		if (h.arg > lim->max_string)
			return OTA_CBOR_OVERSIZE;
		if (len - *pos < h.arg)
			return OTA_CBOR_TRUNCATED;
		if (h.major == OTA_CBOR_TSTR && !utf8_ok(buf + *pos, (size_t)h.arg))
			return OTA_CBOR_BAD_UTF8;
		*pos += (size_t)h.arg;
		return OTA_OK;
	case OTA_CBOR_ARRAY:
		if (h.arg > lim->max_count)
			return OTA_CBOR_OVERSIZE;
		if (h.arg > len - *pos)
			return OTA_CBOR_TRUNCATED; /* every item is at least one byte */
		for (i = 0; i < h.arg; i++) {
			st = check_item(buf, len, pos, lim, ts, depth + 1u);
			if (st != OTA_OK)
				return st;
		}
		return OTA_OK;
	case OTA_CBOR_MAP:
		if (h.arg > lim->max_count || h.arg > OTA_CBOR_MAX_MAP_PAIRS)
			return OTA_CBOR_OVERSIZE;
		if (h.arg > (len - *pos) / 2u)
			return OTA_CBOR_TRUNCATED;
		for (i = 0; i < h.arg; i++) {
			keys[i].off = *pos;
			st = check_item(buf, len, pos, lim, ts, depth + 1u);
			if (st != OTA_OK)
				return st;
			/*
			 * Keys are integers or text, as COSE labels and every
			 * map otattest writes: other keys decode differently
			 * elsewhere (Python's True is its 1, so {true: a, 1: b}
			 * is one key to cbor2; arrays and maps are no keys at all
			 * to many decoders). Found by tests/fuzz/differential.py.
			 */
			if (buf[keys[i].off] >> 5 != OTA_CBOR_UINT && buf[keys[i].off] >> 5 != OTA_CBOR_NINT &&
			    buf[keys[i].off] >> 5 != OTA_CBOR_TSTR)
				return OTA_CBOR_UNSUPPORTED;
			keys[i].len = *pos - keys[i].off;
			for (j = 0; j < i; j++)
				if (keys[j].len == keys[i].len &&
				    memcmp(buf + keys[j].off, buf + keys[i].off, keys[i].len) == 0)
					return OTA_CBOR_DUPLICATE_KEY;
			st = check_item(buf, len, pos, lim, ts, depth + 1u);
			if (st != OTA_OK)
				return st;
		}
		return OTA_OK;
	case OTA_CBOR_TAG:
		/*
		 * Only the tags the caller's format uses (evidence: COSE_Sign1's
		 * alone; a CoRIM: its own, corim.h). Others carry meaning
		 * other decoders act on (tag 0 wants a date string, tag 2
		 * makes a byte string an integer that can equal another map
		 * key), so content this checker passed as well formed would
		 * read differently there, or not at all (found by the
		 * differential run, tests/fuzz/differential.py).
		 */
		if (!tag_allowed(ts, h.arg))
			return OTA_CBOR_UNSUPPORTED;
		return check_item(buf, len, pos, lim, ts, depth + 1u);
	default: /* simple values and floats */
		if (h.ai >= 20u && h.ai <= 22u)
			return OTA_OK; /* false, true, null */
		return OTA_CBOR_UNSUPPORTED;
	}
}

ota_status_t ota_cbor_check_tags(const uint8_t *buf, size_t len, const struct ota_cbor_limits *lim,
				 const uint64_t *tags, size_t tag_count)
{
	const struct tag_set ts = { tags, tag_count };
	size_t pos = 0;
	ota_status_t st;

	if (len == 0)
		return OTA_CBOR_TRUNCATED;
	st = check_item(buf, len, &pos, lim, &ts, 1);
	if (st != OTA_OK)
		return st;
	return pos == len ? OTA_OK : OTA_CBOR_TRAILING;
}

ota_status_t ota_cbor_check(const uint8_t *buf, size_t len, const struct ota_cbor_limits *lim)
{
	static const uint64_t cose_only[] = { OTA_COSE_SIGN1_TAG };

	return ota_cbor_check_tags(buf, len, lim, cose_only, 1);
}

/* ---- cursor ----------------------------------------------------------- */

void ota_cbor_dec_init(struct ota_cbor_dec *d, const uint8_t *buf, size_t len)
{
	d->buf = buf;
	d->len = len;
	d->pos = 0;
}

ota_status_t ota_cbor_peek(const struct ota_cbor_dec *d, uint32_t *major)
{
	if (d->pos >= d->len)
		return OTA_CBOR_TRUNCATED;
	*major = d->buf[d->pos] >> 5;
	return OTA_OK;
}

/* Read a head of the wanted major type; the cursor moves only on success. */
static ota_status_t get_head(struct ota_cbor_dec *d, uint32_t major, struct head *h)
{
	size_t p = d->pos;
	ota_status_t st = read_head(d->buf, d->len, &p, h);

	if (st != OTA_OK)
		return st;
	if (h->major != major)
		return OTA_CBOR_TYPE;
	d->pos = p;
	return OTA_OK;
}

ota_status_t ota_cbor_get_uint(struct ota_cbor_dec *d, uint64_t *v)
{
	struct head h;
	ota_status_t st = get_head(d, OTA_CBOR_UINT, &h);

	if (st == OTA_OK)
		*v = h.arg;
	return st;
}

ota_status_t ota_cbor_get_int(struct ota_cbor_dec *d, int64_t *v)
{
	uint32_t major;
	struct head h;
	ota_status_t st = ota_cbor_peek(d, &major);
	size_t save = d->pos;

	if (st != OTA_OK)
		return st;
	if (major != OTA_CBOR_UINT && major != OTA_CBOR_NINT)
		return OTA_CBOR_TYPE;
	st = get_head(d, major, &h);
	if (st != OTA_OK)
		return st;
	if (h.arg > (uint64_t)INT64_MAX) {
		d->pos = save;
		return OTA_CBOR_OVERSIZE;
	}
	*v = major == OTA_CBOR_UINT ? (int64_t)h.arg : -1 - (int64_t)h.arg;
	return OTA_OK;
}

static ota_status_t get_string(struct ota_cbor_dec *d, uint32_t major, const uint8_t **p,
			       size_t *n)
{
	size_t save = d->pos;
	struct head h;
	ota_status_t st = get_head(d, major, &h);

	if (st != OTA_OK)
		return st;
	if (h.arg > d->len - d->pos) {
		d->pos = save;
		return OTA_CBOR_TRUNCATED;
	}
	*p = d->buf + d->pos;
	*n = (size_t)h.arg;
	d->pos += (size_t)h.arg;
	return OTA_OK;
}

ota_status_t ota_cbor_get_bytes(struct ota_cbor_dec *d, const uint8_t **p, size_t *n)
{
	return get_string(d, OTA_CBOR_BSTR, p, n);
}

ota_status_t ota_cbor_get_text(struct ota_cbor_dec *d, const char **p, size_t *n)
{
	return get_string(d, OTA_CBOR_TSTR, (const uint8_t **)p, n);
}

ota_status_t ota_cbor_get_array(struct ota_cbor_dec *d, uint64_t *count)
{
	struct head h;
	ota_status_t st = get_head(d, OTA_CBOR_ARRAY, &h);

	if (st == OTA_OK)
		*count = h.arg;
	return st;
}

ota_status_t ota_cbor_get_map(struct ota_cbor_dec *d, uint64_t *pairs)
{
	struct head h;
	ota_status_t st = get_head(d, OTA_CBOR_MAP, &h);

	if (st == OTA_OK)
		*pairs = h.arg;
	return st;
}

ota_status_t ota_cbor_get_tag(struct ota_cbor_dec *d, uint64_t *tag)
{
	struct head h;
	ota_status_t st = get_head(d, OTA_CBOR_TAG, &h);

	if (st == OTA_OK)
		*tag = h.arg;
	return st;
}

ota_status_t ota_cbor_skip(struct ota_cbor_dec *d)
{
	/* Generous limits: the input was checked with the caller's own. */
	static const struct ota_cbor_limits any = { 16, 0xffffffffu, OTA_CBOR_MAX_MAP_PAIRS };
	size_t p = d->pos;
	ota_status_t st = check_item(d->buf, d->len, &p, &any, NULL, 1);

	if (st == OTA_OK)
		d->pos = p;
	return st;
}
