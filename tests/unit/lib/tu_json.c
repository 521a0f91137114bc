// SPDX-License-Identifier: MIT
#include "tu_json.h"

#include <check.h>
#include <string.h>

struct json_object *tu_json_parse_strict(const char *text)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o;

	ck_assert_ptr_nonnull(tok);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, text, (int)strlen(text));
	ck_assert_msg(o != NULL, "not JSON (%s): %s",
		      json_tokener_error_desc(json_tokener_get_error(tok)), text);
	/* One document and nothing after it but the newline every printer ends with. */
	ck_assert_msg(strspn(text + json_tokener_get_parse_end(tok), "\n") ==
			      strlen(text + json_tokener_get_parse_end(tok)),
		      "trailing bytes after the document: %s", text);
	json_tokener_free(tok);
	return o;
}

struct json_object *tu_json_member(struct json_object *obj, const char *key)
{
	struct json_object *v = NULL;

	ck_assert_msg(json_object_object_get_ex(obj, key, &v), "no member \"%s\" in %s", key,
		      json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN));
	return v;
}
