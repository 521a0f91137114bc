// SPDX-License-Identifier: MIT
/*
 * cbor_dump [--skip N] FILE...: what otattest's strict CBOR decoder makes
 * of each file, one JSON document a line, for the differential run
 * (tests/fuzz/differential.py) that decodes the same files with cbor2 and
 * cborg. With --skip N the first N bytes of each file are not CBOR (the
 * policy knob of fuzz_evidence_claims' inputs) and are left out.
 *
 *   {"file": F, "ok": false, "status": "CBOR_NONCANONICAL"}
 *   {"file": F, "ok": true, "item": ITEM}
 *
 * The limits are fuzz_cbor's. ITEM is the decoded data model, the same
 * shape every decoder in the differential prints:
 *   {"int": "<decimal>"}  {"bytes": "<hex>"}  {"text": "..."}
 *   {"array": [ITEM...]}  {"map": [[KEY, VALUE]...]} (in encoded order)
 *   {"tag": "<decimal>", "value": ITEM}  {"simple": "false"|"true"|"null"}
 * Integers are strings: CBOR's reach (-2^64 .. 2^64-1) is beyond JSON's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/cbor.h>
#include <otu/file.h>
#include <otu/json.h>
#include <otu/num.h>

static const struct ota_cbor_limits lim = { .max_depth = 8, .max_string = 4096, .max_count = 32 };

static struct json_object *tagged(const char *kind, struct json_object *v)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, kind, v);
	return o;
}

static struct json_object *decimal(const char *kind, const char *sign, uint64_t mag, int plus_one)
{
	char buf[32];

	/* -1 - n for n up to 2^64 - 1: print n + 1 without overflowing. */
	if (plus_one && mag == UINT64_MAX)
		snprintf(buf, sizeof(buf), "%s18446744073709551616", sign);
	else
		snprintf(buf, sizeof(buf), "%s%" PRIu64, sign, mag + (plus_one ? 1u : 0u));
	return tagged(kind, json_object_new_string(buf));
}

/*
 * The argument of the head at the cursor, which ota_cbor_check has judged
 * well formed and shortest. Only for negative integers below -2^63, which
 * ota_cbor_get_int cannot return as an int64_t.
 */
static uint64_t head_arg(struct ota_cbor_dec *d)
{
	uint8_t ai = d->buf[d->pos] & 0x1fu;
	uint64_t v = 0;
	size_t n, i;

	if (ai < 24u) {
		d->pos++;
		return ai;
	}
	n = (size_t)1 << (ai - 24u);
	for (i = 0; i < n; i++)
		v = v << 8 | d->buf[d->pos + 1 + i];
	d->pos += 1 + n;
	return v;
}

static struct json_object *item(struct ota_cbor_dec *d);

static struct json_object *integer(struct ota_cbor_dec *d, uint32_t major)
{
	uint64_t u;
	int64_t s;

	if (major == OTA_CBOR_UINT)
		return ota_cbor_get_uint(d, &u) == OTA_OK ? decimal("int", "", u, 0) : NULL;
	if (ota_cbor_get_int(d, &s) == OTA_OK)
		return decimal("int", "-", (uint64_t)(-(s + 1)), 1);
	return decimal("int", "-", head_arg(d), 1);
}

static struct json_object *container(struct ota_cbor_dec *d, uint32_t major)
{
	struct json_object *a = json_object_new_array(), *k, *v, *pair;
	uint64_t n, i;

	if ((major == OTA_CBOR_ARRAY ? ota_cbor_get_array(d, &n) : ota_cbor_get_map(d, &n)) != OTA_OK)
		goto fail;
	for (i = 0; i < n; i++) {
		if (!(k = item(d)))
			goto fail;
		if (major == OTA_CBOR_ARRAY) {
			json_object_array_add(a, k);
			continue;
		}
		pair = json_object_new_array();
		json_object_array_add(pair, k);
		json_object_array_add(a, pair);
		if (!(v = item(d)))
			goto fail;
		json_object_array_add(pair, v);
	}
	return tagged(major == OTA_CBOR_ARRAY ? "array" : "map", a);
fail:
	json_object_put(a);
	return NULL;
}

static struct json_object *item(struct ota_cbor_dec *d)
{
	struct json_object *o, *v;
	const uint8_t *p;
	uint32_t major;
	uint64_t tag;
	size_t n;
	uint8_t ib;

	if (ota_cbor_peek(d, &major) != OTA_OK)
		return NULL;
	switch (major) {
	case OTA_CBOR_UINT:
	case OTA_CBOR_NINT:
		return integer(d, major);
	case OTA_CBOR_BSTR:
		return ota_cbor_get_bytes(d, &p, &n) == OTA_OK ? tagged("bytes", otu_json_hex(p, n)) : NULL;
	case OTA_CBOR_TSTR:
		return ota_cbor_get_text(d, (const char **)&p, &n) == OTA_OK ?
			       tagged("text", otu_json_string_len((const char *)p, n)) :
			       NULL;
	case OTA_CBOR_ARRAY:
	case OTA_CBOR_MAP:
		return container(d, major);
	case OTA_CBOR_TAG:
		if (ota_cbor_get_tag(d, &tag) != OTA_OK)
			return NULL;
		o = decimal("tag", "", tag, 0);
		if (!(v = item(d))) {
			json_object_put(o);
			return NULL;
		}
		json_object_object_add(o, "value", v);
		return o;
	default: /* the checker lets only false, true and null through */
		ib = d->buf[d->pos++];
		return tagged("simple", json_object_new_string(ib == 0xf4 ? "false" :
							       ib == 0xf5 ? "true" : "null"));
	}
}

static int dump(const char *path, size_t skip)
{
	struct json_object *doc = json_object_new_object(), *it;
	struct ota_cbor_dec d;
	ota_status_t st;
	uint8_t *buf;
	size_t len;

	if (otu_read_file(path, 1u << 20, &buf, &len) != 0) {
		fprintf(stderr, "cbor_dump: cannot read %s\n", path);
		json_object_put(doc);
		return -1;
	}
	skip = skip < len ? skip : len;
	otu_json_add_str(doc, "file", path);
	st = ota_cbor_check(buf + skip, len - skip, &lim);
	otu_json_add_bool(doc, "ok", st == OTA_OK);
	if (st != OTA_OK) {
		otu_json_add_str(doc, "status", ota_status_name(st));
	} else {
		ota_cbor_dec_init(&d, buf + skip, len - skip);
		it = item(&d);
		if (!it || d.pos != len - skip) {
			fprintf(stderr, "cbor_dump: %s: checked input did not walk to its end\n", path);
			json_object_put(it);
			json_object_put(doc);
			free(buf);
			return -1;
		}
		json_object_object_add(doc, "item", it);
	}
	free(buf);
	return otu_json_emit(stdout, doc);
}

int main(int argc, char **argv)
{
	uint32_t skip = 0;
	int i = 1, rc = 0;

	if (argc > 2 && !strcmp(argv[1], "--skip")) {
		if (otu_parse_u32(argv[2], OTU_DEC, 0, 4096, &skip) != 0)
			i = argc; /* a usage error */
		else
			i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: cbor_dump [--skip N] FILE...\n");
		return 2;
	}
	for (; i < argc; i++)
		if (dump(argv[i], skip) != 0)
			rc = 1;
	return rc;
}
