/* SPDX-License-Identifier: MIT */
/* JSON documents the code under test printed, read back with json-c. */
#ifndef OTATTEST_TU_JSON_H
#define OTATTEST_TU_JSON_H

#include <json-c/json.h>

/*
 * Parse text under json-c's strictest rules, UTF-8 checked; the test fails
 * when it is not one JSON document. The caller puts the result.
 */
struct json_object *tu_json_parse_strict(const char *text);

/* obj's member key; the test fails when obj has none. */
struct json_object *tu_json_member(struct json_object *obj, const char *key);

#endif /* OTATTEST_TU_JSON_H */
