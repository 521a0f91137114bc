/* SPDX-License-Identifier: MIT */
/*
 * A small streaming JSON writer for otattestctl's --json output: objects,
 * arrays, strings escaped per RFC 8259, integers, booleans. It tracks
 * nesting so callers never place a comma by hand; output is one line per
 * document (json_end writes the newline), which suits `watch --json` lines.
 */
#ifndef OTATTESTD_JSON_H
#define OTATTESTD_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *out;
	int depth;
	bool need_comma[JSON_MAX_DEPTH + 1];
	bool after_key;
	bool failed; /* nesting misuse: the document is not valid JSON */
};

void json_begin(struct json *j, FILE *out);
/* Finish the document: newline; returns 0, or -1 if it was misused. */
int json_end(struct json *j);

void json_object_open(struct json *j);
void json_object_close(struct json *j);
void json_array_open(struct json *j);
void json_array_close(struct json *j);
void json_key(struct json *j, const char *key);

void json_string(struct json *j, const char *s);
void json_string_len(struct json *j, const char *s, size_t len);
void json_uint(struct json *j, uint64_t v);
void json_int(struct json *j, int64_t v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
void json_hex(struct json *j, const uint8_t *buf, size_t len);

/* Shorthands for "key": value inside an object. */
void json_kv_string(struct json *j, const char *key, const char *s);
void json_kv_uint(struct json *j, const char *key, uint64_t v);
void json_kv_bool(struct json *j, const char *key, bool v);
void json_kv_hex(struct json *j, const char *key, const uint8_t *buf, size_t len);

#endif /* OTATTESTD_JSON_H */
