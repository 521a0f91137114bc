// SPDX-License-Identifier: MIT
/*
 * The printer behind `inspect`: one description per format, rendered as
 * indented "key: value" text or as one JSON object. JSON strings are
 * escaped per RFC 8259; values otimage prints are ASCII it made itself,
 * but file names and the like are not, so everything goes through the
 * escaper.
 */
#include <inttypes.h>
#include <string.h>

#include "otimage_internal.h"

void oti_out_init(struct oti_out *o, FILE *f, bool json)
{
	memset(o, 0, sizeof(*o));
	o->f = f;
	o->json = json;
	o->first[0] = true;
	if (json)
		fputc('{', f);
}

static void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* Separator and key for the next member; text mode: indentation and "key: ". */
static void member(struct oti_out *o, const char *key, bool container)
{
	int i;

	if (o->json) {
		if (!o->first[o->depth])
			fputc(',', o->f);
		o->first[o->depth] = false;
		if (key && !o->in_array[o->depth]) {
			json_string(o->f, key);
			fputc(':', o->f);
		}
		return;
	}
	for (i = 0; i < o->depth; i++)
		fputs("  ", o->f);
	if (o->in_array[o->depth])
		fputs(container ? "-" : "- ", o->f);
	if (key && !o->in_array[o->depth])
		fprintf(o->f, container ? "%s:\n" : "%s: ", key);
	else if (container)
		fputc('\n', o->f);
}

static void push(struct oti_out *o, bool array)
{
	if (o->depth + 1 < OTI_OUT_MAX_DEPTH) {
		o->depth++;
		o->first[o->depth] = true;
		o->in_array[o->depth] = array;
	}
}

void oti_out_begin(struct oti_out *o, const char *key)
{
	member(o, key, true);
	if (o->json)
		fputc('{', o->f);
	push(o, false);
}

void oti_out_end(struct oti_out *o)
{
	if (o->depth > 0)
		o->depth--;
	if (o->json)
		fputc('}', o->f);
}

void oti_out_array(struct oti_out *o, const char *key)
{
	member(o, key, true);
	if (o->json)
		fputc('[', o->f);
	push(o, true);
}

void oti_out_array_end(struct oti_out *o)
{
	if (o->depth > 0)
		o->depth--;
	if (o->json)
		fputc(']', o->f);
}

void oti_out_str(struct oti_out *o, const char *key, const char *val)
{
	member(o, key, false);
	if (o->json)
		json_string(o->f, val);
	else
		fputs(val, o->f);
	if (!o->json)
		fputc('\n', o->f);
}

void oti_out_u64(struct oti_out *o, const char *key, uint64_t val)
{
	member(o, key, false);
	fprintf(o->f, o->json ? "%" PRIu64 : "%" PRIu64 "\n", val);
}

void oti_out_hexnum(struct oti_out *o, const char *key, uint32_t val)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%08" PRIx32, val);
	oti_out_str(o, key, buf);
}

void oti_out_bool(struct oti_out *o, const char *key, bool val)
{
	member(o, key, false);
	fputs(o->json ? (val ? "true" : "false") : (val ? "yes\n" : "no\n"), o->f);
}

void oti_out_hex(struct oti_out *o, const char *key, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;

	member(o, key, false);
	if (o->json)
		fputc('"', o->f);
	for (i = 0; i < len; i++)
		fprintf(o->f, "%02x", p[i]);
	fputs(o->json ? "\"" : "\n", o->f);
}

void oti_out_finish(struct oti_out *o)
{
	if (o->json)
		fputs("}\n", o->f);
}
