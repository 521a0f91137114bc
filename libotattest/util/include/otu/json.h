/* SPDX-License-Identifier: MIT */
/*
 * What json-c leaves to its caller, for every JSON document otattest's
 * host programs print. Documents are built with json-c itself
 * (json_object_new_object, json_object_object_add, ...); these helpers add
 * strings that are always valid JSON, binary values as hex, and one way to
 * print a document.
 */
#ifndef OTU_JSON_H
#define OTU_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

/*
 * A JSON string holding s. NULL gives NULL, which json-c adds and prints as
 * null. json-c copies bytes through unchecked, so bytes that are not UTF-8
 * (a file name in Latin-1, a hostile device's text) are replaced here with
 * U+FFFD: the document stays valid JSON and says something was lost.
 */
struct json_object *otu_json_string(const char *s);
struct json_object *otu_json_string_len(const char *s, size_t len);

/* A JSON string of len bytes in lowercase hex. */
struct json_object *otu_json_hex(const void *buf, size_t len);

/*
 * "key": value members, the way every document here writes them: strings
 * through otu_json_string (NULL gives null), integers as exactly what
 * they are (all of uint64_t), binary values as hex.
 */
void otu_json_add_str(struct json_object *obj, const char *key, const char *value);
void otu_json_add_u64(struct json_object *obj, const char *key, uint64_t value);
void otu_json_add_i64(struct json_object *obj, const char *key, int64_t value);
void otu_json_add_bool(struct json_object *obj, const char *key, bool value);
void otu_json_add_hex(struct json_object *obj, const char *key, const void *buf, size_t len);

/*
 * Print doc as one line (compact, '/' unescaped) and a newline, then
 * release it. Returns 0, -ENOMEM, or -EIO when the stream reports an error.
 */
int otu_json_emit(FILE *f, struct json_object *doc);

#endif /* OTU_JSON_H */
