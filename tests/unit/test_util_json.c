// SPDX-License-Identifier: MIT
/*
 * libotattest-util JSON helpers over json-c: strings that are always valid
 * UTF-8 JSON, hex values, one-line documents with their key order.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <otu/json.h>

#include "tu_json.h"
#include "tu_main.h"

/* The line otu_json_emit prints for doc. */
static char *emitted(struct json_object *doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(otu_json_emit(f, doc), 0);
	fclose(f);
	return buf;
}

static void assert_string_emits(const char *in, const char *want)
{
	struct json_object *arr = json_object_new_array();
	char *out;

	json_object_array_add(arr, otu_json_string(in));
	out = emitted(arr);
	ck_assert_msg(strcmp(out, want) == 0, "got %s want %s", out, want);
	json_object_put(tu_json_parse_strict(out));
	free(out);
}

START_TEST(utf8_passes_through_unescaped)
{
	/* The otattest-verify bug: é came out as \u00c3\u00a9, two Latin-1 characters. */
	assert_string_emits("/tmp/caf\xc3\xa9/ev.cose", "[\"/tmp/caf\xc3\xa9/ev.cose\"]\n");
	assert_string_emits("\xf0\x9f\x98\x80 \xe2\x82\xac", "[\"\xf0\x9f\x98\x80 \xe2\x82\xac\"]\n");
}
END_TEST

START_TEST(invalid_utf8_becomes_replacement_characters)
{
#define FFFD "\xef\xbf\xbd"
	assert_string_emits("caf\xe9", "[\"caf" FFFD "\"]\n");            /* Latin-1 é */
	assert_string_emits("\xc3", "[\"" FFFD "\"]\n");                  /* cut short */
	assert_string_emits("\xc0\xaf", "[\"" FFFD FFFD "\"]\n");         /* overlong '/' */
	assert_string_emits("\xed\xa0\x80", "[\"" FFFD FFFD FFFD "\"]\n"); /* a surrogate */
	assert_string_emits("\xf4\x90\x80\x80", "[\"" FFFD FFFD FFFD FFFD "\"]\n"); /* > U+10FFFF */
	assert_string_emits("\xff" "ok", "[\"" FFFD "ok\"]\n");
#undef FFFD
}
END_TEST

START_TEST(controls_escaped_slash_kept)
{
	assert_string_emits("q\"b\\n\n\t\x01/", "[\"q\\\"b\\\\n\\n\\t\\u0001/\"]\n");
	{
		struct json_object *arr = json_object_new_array();
		char *out;

		json_object_array_add(arr, otu_json_string_len("a\0b", 3));
		out = emitted(arr);
		ck_assert_str_eq(out, "[\"a\\u0000b\"]\n");
		free(out);
	}
}
END_TEST

START_TEST(null_string_is_json_null)
{
	struct json_object *o = json_object_new_object();
	char *out;

	ck_assert_ptr_null(otu_json_string(NULL));
	json_object_object_add(o, "stage", otu_json_string(NULL));
	out = emitted(o);
	ck_assert_str_eq(out, "{\"stage\":null}\n");
	free(out);
}
END_TEST

START_TEST(hex_values)
{
	static const uint8_t id[] = { 0x00, 0xab, 0xff };
	struct json_object *o = json_object_new_object();
	char *out;

	json_object_object_add(o, "id", otu_json_hex(id, sizeof(id)));
	json_object_object_add(o, "empty", otu_json_hex(id, 0));
	out = emitted(o);
	ck_assert_str_eq(out, "{\"id\":\"00abff\",\"empty\":\"\"}\n");
	free(out);
}
END_TEST

START_TEST(document_order_and_numbers)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	char *out;

	json_object_object_add(o, "z", json_object_new_uint64(UINT64_MAX));
	json_object_object_add(o, "a", a);
	json_object_array_add(a, json_object_new_int64(-5));
	json_object_array_add(a, json_object_new_boolean(0));
	json_object_array_add(a, NULL);
	json_object_object_add(o, "m", json_object_new_object());
	out = emitted(o);
	/* Insertion order, not sorted; all of uint64 exactly. */
	ck_assert_str_eq(out, "{\"z\":18446744073709551615,\"a\":[-5,false,null],\"m\":{}}\n");
	free(out);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("util_json");
	TCase *tc = tcase_create("json");

	tcase_add_test(tc, utf8_passes_through_unescaped);
	tcase_add_test(tc, invalid_utf8_becomes_replacement_characters);
	tcase_add_test(tc, controls_escaped_slash_kept);
	tcase_add_test(tc, null_string_is_json_null);
	tcase_add_test(tc, hex_values);
	tcase_add_test(tc, document_order_and_numbers);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(suite)
