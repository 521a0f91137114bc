// SPDX-License-Identifier: MIT
#include <otu/json.h>

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <otu/hex.h>

static const char replacement[] = "\xef\xbf\xbd"; /* U+FFFD in UTF-8 */

static locale_t utf8_locale;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

/* glibc builds C.UTF-8 in (2.35+); without it every non-ASCII byte is replaced. */
static void utf8_locale_init(void)
{
	utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

/*
 * Length of the valid UTF-8 sequence at s (at most left bytes), or 0.
 * glibc's decoder refuses overlong forms and surrogates itself; it still
 * decodes lead bytes past U+10FFFF, which RFC 3629 (and so JSON) forbids.
 */
static size_t utf8_sequence(const char *s, size_t left)
{
	mbstate_t st;
	wchar_t wc;
	size_t n;

	if ((unsigned char)*s < 0x80)
		return 1;
	if (utf8_locale == (locale_t)0)
		return 0;
	memset(&st, 0, sizeof(st));
	n = mbrtowc(&wc, s, left, &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0 || (uint32_t)wc > 0x10ffff)
		return 0;
	return n;
}

struct json_object *otu_json_string_len(const char *s, size_t len)
{
	struct json_object *o;
	locale_t previous;
	size_t i = 0, n, out = 0;
	char *fixed;

	if (!s || len > INT_MAX / 3)
		return NULL;
	pthread_once(&utf8_once, utf8_locale_init);
	previous = utf8_locale ? uselocale(utf8_locale) : (locale_t)0;
	while (i < len && (n = utf8_sequence(s + i, len - i)) != 0)
		i += n;
	if (i == len) {
		if (previous)
			uselocale(previous);
		return json_object_new_string_len(s, (int)len);
	}
	/* Every invalid byte becomes three: the replacement character. */
	fixed = malloc(3 * len);
	if (!fixed) {
		if (previous)
			uselocale(previous);
		return NULL;
	}
	memcpy(fixed, s, i);
	out = i;
	while (i < len) {
		n = utf8_sequence(s + i, len - i);
		if (n) {
			memcpy(fixed + out, s + i, n);
			out += n;
			i += n;
		} else {
			memcpy(fixed + out, replacement, 3);
			out += 3;
			i++;
		}
	}
	if (previous)
		uselocale(previous);
	o = json_object_new_string_len(fixed, (int)out);
	free(fixed);
	return o;
}

struct json_object *otu_json_string(const char *s)
{
	return s ? otu_json_string_len(s, strlen(s)) : NULL;
}

struct json_object *otu_json_hex(const void *buf, size_t len)
{
	struct json_object *o;
	char *hex;

	if (len > (size_t)INT_MAX / 2)
		return NULL;
	hex = malloc(2 * len + 1);
	if (!hex)
		return NULL;
	otu_hex_encode(hex, buf, len);
	o = json_object_new_string_len(hex, (int)(2 * len));
	free(hex);
	return o;
}

void otu_json_add_str(struct json_object *obj, const char *key, const char *value)
{
	json_object_object_add(obj, key, otu_json_string(value));
}

void otu_json_add_u64(struct json_object *obj, const char *key, uint64_t value)
{
	json_object_object_add(obj, key, json_object_new_uint64(value));
}

void otu_json_add_i64(struct json_object *obj, const char *key, int64_t value)
{
	json_object_object_add(obj, key, json_object_new_int64(value));
}

void otu_json_add_bool(struct json_object *obj, const char *key, bool value)
{
	json_object_object_add(obj, key, json_object_new_boolean(value));
}

void otu_json_add_hex(struct json_object *obj, const char *key, const void *buf, size_t len)
{
	json_object_object_add(obj, key, otu_json_hex(buf, len));
}

int otu_json_emit(FILE *f, struct json_object *doc)
{
	const char *text = json_object_to_json_string_ext(
		doc, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	int r = 0;

	if (!text)
		r = -ENOMEM;
	else if (fputs(text, f) == EOF || fputc('\n', f) == EOF)
		r = -EIO;
	json_object_put(doc);
	return r;
}
