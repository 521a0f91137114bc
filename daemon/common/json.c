// SPDX-License-Identifier: MIT
#include "json.h"

#include <inttypes.h>
#include <string.h>

void json_begin(struct json *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
}

int json_end(struct json *j)
{
	fputc('\n', j->out);
	return j->failed || j->depth != 0 ? -1 : 0;
}

/* Comma before a value unless it follows a key or opens a container. */
static void value_prefix(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->need_comma[j->depth])
		fputc(',', j->out);
	j->need_comma[j->depth] = true;
}

static void open(struct json *j, char c)
{
	value_prefix(j);
	if (j->depth >= JSON_MAX_DEPTH) {
		j->failed = true;
		return;
	}
	fputc(c, j->out);
	j->need_comma[++j->depth] = false;
}

static void close_(struct json *j, char c)
{
	if (j->depth <= 0 || j->after_key) {
		j->failed = true;
		return;
	}
	fputc(c, j->out);
	j->depth--;
}

void json_object_open(struct json *j) { open(j, '{'); }
void json_object_close(struct json *j) { close_(j, '}'); }
void json_array_open(struct json *j) { open(j, '['); }
void json_array_close(struct json *j) { close_(j, ']'); }

static void write_string(FILE *out, const char *s, size_t len)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		default:
			/* Control characters and DEL escaped; UTF-8 passes through. */
			if (c < 0x20 || c == 0x7f)
				fprintf(out, "\\u%04x", c);
			else
				fputc(c, out);
		}
	}
	fputc('"', out);
}

void json_key(struct json *j, const char *key)
{
	if (j->after_key || j->depth == 0)
		j->failed = true;
	value_prefix(j);
	write_string(j->out, key, strlen(key));
	fputc(':', j->out);
	j->after_key = true;
}

void json_string_len(struct json *j, const char *s, size_t len)
{
	value_prefix(j);
	write_string(j->out, s, len);
}

void json_string(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	json_string_len(j, s, strlen(s));
}

void json_uint(struct json *j, uint64_t v)
{
	value_prefix(j);
	fprintf(j->out, "%" PRIu64, v);
}

void json_int(struct json *j, int64_t v)
{
	value_prefix(j);
	fprintf(j->out, "%" PRId64, v);
}

void json_bool(struct json *j, bool v)
{
	value_prefix(j);
	fputs(v ? "true" : "false", j->out);
}

void json_null(struct json *j)
{
	value_prefix(j);
	fputs("null", j->out);
}

void json_hex(struct json *j, const uint8_t *buf, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	value_prefix(j);
	fputc('"', j->out);
	for (i = 0; i < len; i++) {
		fputc(digits[buf[i] >> 4], j->out);
		fputc(digits[buf[i] & 0xf], j->out);
	}
	fputc('"', j->out);
}

void json_kv_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_kv_uint(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_uint(j, v);
}

void json_kv_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

void json_kv_hex(struct json *j, const char *key, const uint8_t *buf, size_t len)
{
	json_key(j, key);
	json_hex(j, buf, len);
}
