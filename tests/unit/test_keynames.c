// SPDX-License-Identifier: MIT
/*
 * The key names file (otu/keynames.h, docs/keynames.md): what it accepts,
 * every refusal with the line it names, the bounds, lookups and the short
 * hex shown for a key the file does not name.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otu/keynames.h>

#include "tu_main.h"

#define ID_A "1111111111111111111111111111111111111111111111111111111111111111"
#define ID_B "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789"
#define ID_C "00000000000000000000000000000000000000000000000000000000000000ff"

static void id_of(const char *hex, uint8_t id[OTA_KEY_ID_BYTES])
{
	size_t i;

	for (i = 0; i < OTA_KEY_ID_BYTES; i++) {
		unsigned v;

		ck_assert_int_eq(sscanf(hex + 2 * i, "%2x", &v), 1);
		id[i] = (uint8_t)v;
	}
}

START_TEST(accepts_comments_blanks_and_entries)
{
	static const char text[] = "# otattest key names\n"
				   "\n" ID_B " owner-2026\n" ID_A "\t\tcreator.root@fab:1+x/y\n"
				   "# last line has no newline\n" ID_C " last";
	struct otu_keynames kn;
	struct otu_keynames_error err;
	uint8_t id[OTA_KEY_ID_BYTES];

	ck_assert_int_eq(otu_keynames_parse(text, strlen(text), &kn, &err), 0);
	ck_assert_uint_eq(kn.n, 3);
	id_of(ID_A, id);
	ck_assert_str_eq(otu_keynames_lookup(&kn, id), "creator.root@fab:1+x/y");
	id_of(ID_B, id);
	ck_assert_str_eq(otu_keynames_lookup(&kn, id), "owner-2026");
	id_of(ID_C, id);
	ck_assert_str_eq(otu_keynames_lookup(&kn, id), "last");
	otu_keynames_free(&kn);
}
END_TEST

START_TEST(empty_file_is_empty_table)
{
	struct otu_keynames kn;
	struct otu_keynames_error err;

	ck_assert_int_eq(otu_keynames_parse("", 0, &kn, &err), 0);
	ck_assert_uint_eq(kn.n, 0);
	otu_keynames_free(&kn);
}
END_TEST

/* Each refusal: the text, the line it must name, a word of the message. */
static const struct {
	const char *text;
	unsigned line;
	const char *says;
} refused[] = {
	{ "# ok\n" ID_A "\n", 2, "expected a key id" },                       /* no name */
	{ ID_A " \n", 1, "no name" },                                          /* blank, then nothing */
	{ "ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789 n\n", 1, "lowercase" },
	{ "1111 short\n", 1, "expected a key id" },
	{ ID_A "1 toolong\n", 1, "expected a key id" },                        /* 65 digits */
	{ ID_A "x name\n", 1, "expected a key id" },                           /* junk after the id */
	{ ID_A " two names\n", 1, "blank after the name" },
	{ ID_A " trailing \n", 1, "blank after the name" },
	{ ID_A " name\r\n", 1, "carriage return" },
	{ "\n\n " ID_A " n\n", 3, "starts with a blank" },
	{ ID_A " -dash-first\n", 1, "start with a letter" },
	{ ID_A " semi;colon\n", 1, "the name must be" },
	{ ID_A " caf\xc3\xa9\n", 1, "the name must be" },                       /* not ASCII */
	{ ID_A " esc\x1b[31m\n", 1, "the name must be" },                      /* terminal escape */
	{ ID_A " a\n" ID_B " b\n" ID_A " c\n", 3, "already named on line 1" },
	{ ID_A " same\n" ID_B " same\n", 2, "already used on line 1" },
};

START_TEST(refusals_name_their_line)
{
	struct otu_keynames kn;
	struct otu_keynames_error err;
	int r;

	r = otu_keynames_parse(refused[_i].text, strlen(refused[_i].text), &kn, &err);
	ck_assert_msg(r == -EINVAL, "case %d accepted (r=%d)", _i, r);
	ck_assert_uint_eq(kn.n, 0);
	ck_assert_ptr_null(kn.v);
	ck_assert_msg(err.line == refused[_i].line, "case %d: line %u, expected %u (%s)", _i, err.line,
		      refused[_i].line, err.message);
	ck_assert_msg(strstr(err.message, refused[_i].says), "case %d: \"%s\" lacks \"%s\"", _i,
		      err.message, refused[_i].says);
}
END_TEST

START_TEST(nul_byte_refused_with_its_line)
{
	static const char text[] = ID_A " a\n" ID_B " b\0c\n";
	struct otu_keynames kn;
	struct otu_keynames_error err;

	ck_assert_int_eq(otu_keynames_parse(text, sizeof(text) - 1, &kn, &err), -EINVAL);
	ck_assert_uint_eq(err.line, 2);
	ck_assert_ptr_nonnull(strstr(err.message, "NUL"));
}
END_TEST

START_TEST(name_length_bound)
{
	char text[256], name[OTU_KEYNAME_MAX + 2];
	struct otu_keynames kn;
	struct otu_keynames_error err;

	memset(name, 'n', OTU_KEYNAME_MAX);
	name[OTU_KEYNAME_MAX] = '\0';
	snprintf(text, sizeof(text), ID_A " %s\n", name);
	ck_assert_int_eq(otu_keynames_parse(text, strlen(text), &kn, &err), 0);
	otu_keynames_free(&kn);
	strcat(name, "n");
	snprintf(text, sizeof(text), ID_A " %s\n", name);
	ck_assert_int_eq(otu_keynames_parse(text, strlen(text), &kn, &err), -EINVAL);
}
END_TEST

START_TEST(line_length_bound)
{
	char text[OTU_KEYNAMES_LINE_MAX + 8];

	struct otu_keynames kn;
	struct otu_keynames_error err;

	memset(text, '#', sizeof(text));
	text[OTU_KEYNAMES_LINE_MAX + 1] = '\n';
	ck_assert_int_eq(otu_keynames_parse(text, OTU_KEYNAMES_LINE_MAX + 2, &kn, &err), -EINVAL);
	ck_assert_uint_eq(err.line, 1);
	ck_assert_ptr_nonnull(strstr(err.message, "longer than"));
	/* A comment exactly at the bound is fine. */
	text[OTU_KEYNAMES_LINE_MAX] = '\n';
	ck_assert_int_eq(otu_keynames_parse(text, OTU_KEYNAMES_LINE_MAX + 1, &kn, &err), 0);
}
END_TEST

START_TEST(size_and_entry_bounds)
{
	size_t n = OTU_KEYNAMES_MAX_ENTRIES + 1, i, len = 0;
	char *text = malloc(n * 80 + 1), line[OTU_KEYNAMES_LINE_MAX];
	struct otu_keynames kn;
	struct otu_keynames_error err;
	uint8_t id[OTA_KEY_ID_BYTES] = { 0 };
	char name[16];

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < n; i++) {
		id[0] = (uint8_t)i;
		id[1] = (uint8_t)(i >> 8);
		snprintf(name, sizeof(name), "k%zu", i);
		otu_keynames_format_line(line, sizeof(line), id, name);
		memcpy(text + len, line, strlen(line));
		len += strlen(line);
	}
	/* One more than the bound: refused on the line past it. */
	ck_assert_int_eq(otu_keynames_parse(text, len, &kn, &err), -EFBIG);
	ck_assert_uint_eq(err.line, OTU_KEYNAMES_MAX_ENTRIES + 1);
	/* Exactly the bound: accepted, and every one found. */
	len -= strlen(line);
	ck_assert_int_eq(otu_keynames_parse(text, len, &kn, &err), 0);
	ck_assert_uint_eq(kn.n, OTU_KEYNAMES_MAX_ENTRIES);
	id[0] = 0x34;
	id[1] = 0x02;
	ck_assert_str_eq(otu_keynames_lookup(&kn, id), "k564");
	otu_keynames_free(&kn);
	/* The byte bound comes before anything is parsed. */
	ck_assert_int_eq(otu_keynames_parse(text, OTU_KEYNAMES_MAX_BYTES + 1, &kn, &err), -EFBIG);
	ck_assert_uint_eq(err.line, 0);
	free(text);
}
END_TEST

START_TEST(display_name_or_short_hex)
{
	static const char text[] = ID_A " creator\n";
	struct otu_keynames kn;
	struct otu_keynames_error err;
	uint8_t id[OTA_KEY_ID_BYTES];
	char buf[OTU_KEYID_SHORT_HEX + 1];

	ck_assert_int_eq(otu_keynames_parse(text, strlen(text), &kn, &err), 0);
	id_of(ID_A, id);
	ck_assert_str_eq(otu_keynames_display(&kn, id, buf, sizeof(buf)), "creator");
	id_of(ID_B, id);
	ck_assert_ptr_null(otu_keynames_lookup(&kn, id));
	ck_assert_str_eq(otu_keynames_display(&kn, id, buf, sizeof(buf)), "abcdef0123456789");
	ck_assert_str_eq(otu_keynames_display(NULL, id, buf, sizeof(buf)), "abcdef0123456789");
	otu_keynames_free(&kn);
}
END_TEST

START_TEST(format_line_parses_back)
{
	char line[OTU_KEYNAMES_LINE_MAX];
	struct otu_keynames kn;
	struct otu_keynames_error err;
	uint8_t id[OTA_KEY_ID_BYTES];

	id_of(ID_B, id);
	otu_keynames_format_line(line, sizeof(line), id, "owner");
	ck_assert_str_eq(line, ID_B " owner\n");
	ck_assert_int_eq(otu_keynames_parse(line, strlen(line), &kn, &err), 0);
	ck_assert_str_eq(otu_keynames_lookup(&kn, id), "owner");
	otu_keynames_free(&kn);
	ck_assert(otu_keyname_valid("owner"));
	ck_assert(!otu_keyname_valid(""));
	ck_assert(!otu_keyname_valid("a b"));
	ck_assert(!otu_keyname_valid(NULL));
}
END_TEST

START_TEST(load_missing_and_errors_name_the_file)
{
	char dir[] = "/tmp/keynames-XXXXXX", path[64], msg[256];
	struct otu_keynames kn;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/key-names", dir);
	ck_assert_int_eq(otu_keynames_load(path, true, &kn, msg, sizeof(msg)), 0);
	ck_assert_uint_eq(kn.n, 0);
	ck_assert_int_eq(otu_keynames_load(path, false, &kn, msg, sizeof(msg)), -ENOENT);
	ck_assert_ptr_nonnull(strstr(msg, path));
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(ID_A " ok\n" ID_B " bad name\n", f);
	fclose(f);
	ck_assert_int_eq(otu_keynames_load(path, true, &kn, msg, sizeof(msg)), -EINVAL);
	ck_assert_msg(strncmp(msg, path, strlen(path)) == 0 && strstr(msg, ":2: "), "%s", msg);
	unlink(path);
	rmdir(dir);
}
END_TEST

static Suite *keynames_suite(void)
{
	Suite *s = suite_create("keynames");
	TCase *t = tcase_create("parse");

	tcase_add_test(t, accepts_comments_blanks_and_entries);
	tcase_add_test(t, empty_file_is_empty_table);
	tcase_add_loop_test(t, refusals_name_their_line, 0, (int)(sizeof(refused) / sizeof(refused[0])));
	tcase_add_test(t, nul_byte_refused_with_its_line);
	tcase_add_test(t, name_length_bound);
	tcase_add_test(t, line_length_bound);
	tcase_add_test(t, size_and_entry_bounds);
	tcase_add_test(t, display_name_or_short_hex);
	tcase_add_test(t, format_line_parses_back);
	tcase_add_test(t, load_missing_and_errors_name_the_file);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(keynames_suite)
