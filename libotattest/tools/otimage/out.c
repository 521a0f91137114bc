// SPDX-License-Identifier: MIT
/*
 * The printer behind `inspect`: one description per format, rendered as
 * indented "key: value" text or as one JSON object (json-c, through
 * libotattest-util: strings that are not UTF-8, such as a file name,
 * still make valid JSON).
 */
#include <inttypes.h>
#include <string.h>

#include <otu/hex.h>
#include <otu/json.h>

#include "otimage_internal.h"

void oti_out_init(struct oti_out *o, FILE *f, bool json)
{
	memset(o, 0, sizeof(*o));
	o->f = f;
	o->json = json;
	if (json)
		o->open[0] = json_object_new_object();
}

/* JSON: value joins the container open at this depth, under key unless it is an array. */
static void add(struct oti_out *o, const char *key, struct json_object *value)
{
	if (o->in_array[o->depth])
		json_object_array_add(o->open[o->depth], value);
	else
		json_object_object_add(o->open[o->depth], key ? key : "", value);
}

/* Text: indentation, the array dash and "key: " for the next member. */
static void member(struct oti_out *o, const char *key, bool container)
{
	int i;

	for (i = 0; i < o->depth; i++)
		fputs("  ", o->f);
	if (o->in_array[o->depth])
		fputs(container ? "-" : "- ", o->f);
	if (key && !o->in_array[o->depth])
		fprintf(o->f, container ? "%s:\n" : "%s: ", key);
	else if (container)
		fputc('\n', o->f);
}

static void push(struct oti_out *o, const char *key, bool array)
{
	struct json_object *c = NULL;

	if (o->json) {
		c = array ? json_object_new_array() : json_object_new_object();
		add(o, key, c);
	} else {
		member(o, key, true);
	}
	if (o->depth + 1 < OTI_OUT_MAX_DEPTH) {
		o->depth++;
		o->in_array[o->depth] = array;
		o->open[o->depth] = c;
	}
}

static void pop(struct oti_out *o)
{
	if (o->depth > 0)
		o->depth--;
}

void oti_out_begin(struct oti_out *o, const char *key)
{
	push(o, key, false);
}

void oti_out_end(struct oti_out *o)
{
	pop(o);
}

void oti_out_array(struct oti_out *o, const char *key)
{
	push(o, key, true);
}

void oti_out_array_end(struct oti_out *o)
{
	pop(o);
}

void oti_out_str(struct oti_out *o, const char *key, const char *val)
{
	if (o->json) {
		add(o, key, otu_json_string(val));
		return;
	}
	member(o, key, false);
	fprintf(o->f, "%s\n", val);
}

void oti_out_u64(struct oti_out *o, const char *key, uint64_t val)
{
	if (o->json) {
		add(o, key, json_object_new_uint64(val));
		return;
	}
	member(o, key, false);
	fprintf(o->f, "%" PRIu64 "\n", val);
}

void oti_out_hexnum(struct oti_out *o, const char *key, uint32_t val)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%08" PRIx32, val);
	oti_out_str(o, key, buf);
}

void oti_out_bool(struct oti_out *o, const char *key, bool val)
{
	if (o->json) {
		add(o, key, json_object_new_boolean(val));
		return;
	}
	member(o, key, false);
	fputs(val ? "yes\n" : "no\n", o->f);
}

void oti_out_hex(struct oti_out *o, const char *key, const void *buf, size_t len)
{
	if (o->json) {
		add(o, key, otu_json_hex(buf, len));
		return;
	}
	member(o, key, false);
	otu_hex_fprint(o->f, buf, len);
	fputc('\n', o->f);
}

void oti_out_finish(struct oti_out *o)
{
	if (o->json)
		otu_json_emit(o->f, o->open[0]);
	o->open[0] = NULL;
}
