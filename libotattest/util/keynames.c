// SPDX-License-Identifier: MIT
/* The key names file (otu/keynames.h, docs/keynames.md): strict parser and lookups. */
#include <otu/keynames.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otu/file.h>
#include <otu/hex.h>

static int fail(struct otu_keynames_error *err, unsigned line, int r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct otu_keynames_error *err, unsigned line, int r, const char *fmt, ...)
{
	va_list ap;

	err->line = line;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return r;
}

static bool name_char(char c, bool first)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return true;
	return !first && c != '\0' && strchr("._:@+/-", c) != NULL;
}

/* The name's rules, on a span that need not be NUL-terminated. */
static bool name_span_valid(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > OTU_KEYNAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!name_char(s[i], i == 0))
			return false;
	return true;
}

bool otu_keyname_valid(const char *name)
{
	return name && name_span_valid(name, strnlen(name, OTU_KEYNAME_MAX + 1));
}

static bool lower_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* One entry line (no '\n'), already known not to be empty or a comment. */
static int parse_entry(const char *s, size_t len, unsigned line, struct otu_keyname *e,
		       struct otu_keynames_error *err)
{
	char hex[2 * OTA_KEY_ID_BYTES + 1];
	size_t i, name_at;

	for (i = 0; i < len && lower_hex(s[i]); i++)
		;
	if (i != 2 * OTA_KEY_ID_BYTES || i == len || (s[i] != ' ' && s[i] != '\t'))
		return fail(err, line, -EINVAL,
			    "expected a key id of %u lowercase hex digits, a blank and a name",
			    2 * OTA_KEY_ID_BYTES);
	memcpy(hex, s, i);
	hex[i] = '\0';
	if (otu_hex_decode(hex, e->key_id, sizeof(e->key_id)) != (ssize_t)OTA_KEY_ID_BYTES)
		return fail(err, line, -EINVAL, "the key id is not hex");
	for (; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
		;
	name_at = i;
	if (name_at == len)
		return fail(err, line, -EINVAL, "no name after the key id");
	for (; i < len && s[i] != ' ' && s[i] != '\t'; i++)
		;
	if (i != len)
		return fail(err, line, -EINVAL, "blank after the name (one name a line, no trailing blanks)");
	if (!name_span_valid(s + name_at, len - name_at))
		return fail(err, line, -EINVAL,
			    "the name must be 1 to %u of A-Z a-z 0-9 . _ : @ + / - and start with a "
			    "letter or digit",
			    OTU_KEYNAME_MAX);
	memcpy(e->name, s + name_at, len - name_at);
	e->name[len - name_at] = '\0';
	e->line = line;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct otu_keyname *x = a, *y = b;
	int c = memcmp(x->key_id, y->key_id, OTA_KEY_ID_BYTES);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int by_name(const void *a, const void *b)
{
	const struct otu_keyname *x = *(const struct otu_keyname *const *)a;
	const struct otu_keyname *y = *(const struct otu_keyname *const *)b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* No key id and no name twice: a label or a message must mean one key. */
static int check_unique(struct otu_keynames *kn, struct otu_keynames_error *err)
{
	const struct otu_keyname **idx;
	size_t i;
	int r = 0;

	/* qsort and calloc with nothing to sort: qsort(NULL, 0) is undefined. */
	if (kn->n < 2)
		return 0;
	qsort(kn->v, kn->n, sizeof(*kn->v), by_id);
	for (i = 1; i < kn->n; i++)
		if (!memcmp(kn->v[i - 1].key_id, kn->v[i].key_id, OTA_KEY_ID_BYTES))
			return fail(err, kn->v[i].line, -EINVAL, "key id already named on line %u",
				    kn->v[i - 1].line);
	idx = calloc(kn->n, sizeof(*idx));
	if (!idx)
		return fail(err, 0, -ENOMEM, "out of memory");
	for (i = 0; i < kn->n; i++)
		idx[i] = &kn->v[i];
	qsort(idx, kn->n, sizeof(*idx), by_name);
	for (i = 1; i < kn->n && !r; i++)
		if (!strcmp(idx[i - 1]->name, idx[i]->name))
			r = fail(err, idx[i]->line, -EINVAL, "name \"%s\" already used on line %u",
				 idx[i]->name, idx[i - 1]->line);
	free(idx);
	return r;
}

int otu_keynames_parse(const char *text, size_t len, struct otu_keynames *out,
		       struct otu_keynames_error *err)
{
	struct otu_keynames kn = { 0 };
	size_t pos = 0, cap = 0;
	unsigned line = 0;
	int r = 0;

	memset(out, 0, sizeof(*out));
	err->line = 0;
	err->message[0] = '\0';
	if (len > OTU_KEYNAMES_MAX_BYTES)
		return fail(err, 0, -EFBIG, "larger than %u bytes", OTU_KEYNAMES_MAX_BYTES);
	if (memchr(text, '\0', len)) {
		const char *nul = memchr(text, '\0', len);
		size_t i;

		for (i = 0, line = 1; text + i < nul; i++)
			line += text[i] == '\n';
		return fail(err, line, -EINVAL, "NUL byte (not a text file)");
	}
	while (pos < len && r == 0) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - s) : len - pos;

		line++;
		pos += l + (nl ? 1 : 0);
		if (l > OTU_KEYNAMES_LINE_MAX)
			r = fail(err, line, -EINVAL, "line longer than %u bytes", OTU_KEYNAMES_LINE_MAX);
		else if (memchr(s, '\r', l))
			r = fail(err, line, -EINVAL, "carriage return (the file must use \\n line ends)");
		else if (l == 0 || s[0] == '#')
			continue;
		else if (s[0] == ' ' || s[0] == '\t')
			r = fail(err, line, -EINVAL, "line starts with a blank");
		else if (kn.n >= OTU_KEYNAMES_MAX_ENTRIES)
			r = fail(err, line, -EFBIG, "more than %u names", OTU_KEYNAMES_MAX_ENTRIES);
		else {
			if (kn.n == cap) {
				size_t ncap = cap ? 2 * cap : 16;
				struct otu_keyname *v = realloc(kn.v, ncap * sizeof(*v));

				if (!v) {
					r = fail(err, line, -ENOMEM, "out of memory");
					break;
				}
				kn.v = v;
				cap = ncap;
			}
			r = parse_entry(s, l, line, &kn.v[kn.n], err);
			if (r == 0)
				kn.n++;
		}
	}
	if (r == 0)
		r = check_unique(&kn, err);
	if (r < 0) {
		otu_keynames_free(&kn);
		return r;
	}
	*out = kn;
	return 0;
}

ota_status_t otu_keynames_load_status(int r)
{
	return r == -EINVAL || r == -EFBIG ? OTA_HOST_BAD_ARGUMENT : OTA_HOST_IO;
}

int otu_keynames_load(const char *path, bool missing_ok, struct otu_keynames *out, char *msg,
		      size_t msg_len)
{
	struct otu_keynames_error err;
	uint8_t *buf = NULL;
	size_t len = 0;
	int r;

	memset(out, 0, sizeof(*out));
	r = otu_read_file(path, OTU_KEYNAMES_MAX_BYTES, &buf, &len);
	if (r == -ENOENT && missing_ok)
		return 0;
	if (r == -EFBIG) {
		snprintf(msg, msg_len, "%s: larger than %u bytes", path, OTU_KEYNAMES_MAX_BYTES);
		return r;
	}
	if (r < 0) {
		snprintf(msg, msg_len, "%s: %s", path, strerror(-r));
		return r;
	}
	r = otu_keynames_parse((const char *)buf, len, out, &err);
	free(buf);
	if (r < 0) {
		if (err.line)
			snprintf(msg, msg_len, "%s:%u: %s", path, err.line, err.message);
		else
			snprintf(msg, msg_len, "%s: %s", path, err.message);
	}
	return r;
}

void otu_keynames_free(struct otu_keynames *kn)
{
	free(kn->v);
	kn->v = NULL;
	kn->n = 0;
}

static int id_cmp(const void *key, const void *elem)
{
	return memcmp(key, ((const struct otu_keyname *)elem)->key_id, OTA_KEY_ID_BYTES);
}

const char *otu_keynames_lookup(const struct otu_keynames *kn, const uint8_t *id)
{
	const struct otu_keyname *e;

	if (!kn || !kn->n)
		return NULL;
	e = bsearch(id, kn->v, kn->n, sizeof(*kn->v), id_cmp);
	return e ? e->name : NULL;
}

const char *otu_keynames_display(const struct otu_keynames *kn, const uint8_t *id, char *buf,
				 size_t buf_len)
{
	const char *name = otu_keynames_lookup(kn, id);
	char hex[2 * OTA_KEY_ID_BYTES + 1];

	if (name)
		return name;
	otu_hex_encode(hex, id, OTA_KEY_ID_BYTES);
	snprintf(buf, buf_len, "%.*s", (int)OTU_KEYID_SHORT_HEX, hex);
	return buf;
}

void otu_keynames_format_line(char *out, size_t out_len, const uint8_t *id, const char *name)
{
	char hex[2 * OTA_KEY_ID_BYTES + 1];

	otu_hex_encode(hex, id, OTA_KEY_ID_BYTES);
	snprintf(out, out_len, "%s %s\n", hex, name);
}
