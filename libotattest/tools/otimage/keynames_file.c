// SPDX-License-Identifier: MIT
/*
 * otimage's side of the key names file (docs/keynames.md): add one key's
 * name to it. The file is read with the same strict parser every reader
 * uses, so otimage never appends to a file the readers would refuse, and
 * never names a key twice or gives two keys one name. Writing replaces
 * the file atomically (otu_write_file_atomic): a reader sees the old file
 * or the new one. Loading it is for inspect, which names the key ids an
 * alias certificate certifies as otattest-verify does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <otu/file.h>
#include <otu/keynames.h>

#include "otimage_internal.h"

/*
 * Read and parse path: its bytes in *old (NULL for a missing file, which is
 * an empty table when missing_ok) and its table in *kn.
 */
static ota_status_t read_names(const char *path, bool missing_ok, uint8_t **old, size_t *old_len,
			       struct otu_keynames *kn, struct oti_diag *d)
{
	struct otu_keynames_error err;
	int r;

	*old = NULL;
	*old_len = 0;
	r = otu_read_file(path, OTU_KEYNAMES_MAX_BYTES, old, old_len);
	if (r == -ENOENT && missing_ok) {
		*old = NULL;
		*old_len = 0;
	} else if (r == -EFBIG) {
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, path, NULL, "larger than %u bytes",
				    OTU_KEYNAMES_MAX_BYTES);
	} else if (r < 0) {
		return oti_diag_set(d, OTA_HOST_IO, path, NULL, "%s", strerror(-r));
	}
	r = otu_keynames_parse(*old ? (const char *)*old : "", *old_len, kn, &err);
	if (r < 0) {
		free(*old);
		*old = NULL;
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, path, NULL, "line %u: %s", err.line,
				    err.message);
	}
	return OTA_OK;
}

ota_status_t oti_keynames_load(const char *path, bool missing_ok, struct otu_keynames *kn,
			       struct oti_diag *d)
{
	uint8_t *bytes;
	size_t len;
	ota_status_t st = read_names(path, missing_ok, &bytes, &len, kn, d);

	free(bytes);
	return st;
}

ota_status_t oti_keynames_prepare(const char *path, const uint8_t id[OTA_KEY_ID_BYTES],
				  const char *name, struct oti_keynames_update *u,
				  struct oti_diag *d)
{
	struct otu_keynames kn;
	const char *have;
	uint8_t *old = NULL;
	size_t old_len = 0, i, line_len;
	char line[OTU_KEYNAMES_LINE_MAX];
	ota_status_t st;

	memset(u, 0, sizeof(*u));
	if (!otu_keyname_valid(name))
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "--name",
				    "1 to %u of A-Z a-z 0-9 . _ : @ + / -, starting with a letter or digit",
				    OTU_KEYNAME_MAX);
	st = read_names(path, true, &old, &old_len, &kn, d);
	if (st != OTA_OK)
		return st;
	have = otu_keynames_lookup(&kn, id);
	if (have && strcmp(have, name) != 0)
		st = oti_diag_set(d, OTA_TOOL_BAD_VALUE, path, "--name", "this key is already named \"%s\"", have);
	for (i = 0; i < kn.n && st == OTA_OK; i++)
		if (!strcmp(kn.v[i].name, name) && memcmp(kn.v[i].key_id, id, OTA_KEY_ID_BYTES))
			st = oti_diag_set(d, OTA_TOOL_BAD_VALUE, path, "--name",
					  "line %u gives the name \"%s\" to another key", kn.v[i].line, name);
	if (kn.n >= OTU_KEYNAMES_MAX_ENTRIES && !have && st == OTA_OK)
		st = oti_diag_set(d, OTA_TOOL_TOO_MANY_KEYS, path, NULL, "already %u names",
				  OTU_KEYNAMES_MAX_ENTRIES);
	otu_keynames_free(&kn);
	if (st != OTA_OK || have) {
		/* The same name again: nothing to write. */
		free(old);
		return st;
	}
	otu_keynames_format_line(line, sizeof(line), id, name);
	line_len = strlen(line);
	/* A file whose last line lacks its '\n' gets one before ours. */
	u->len = old_len + (old_len && old[old_len - 1] != '\n') + line_len;
	if (old_len + line_len + 1 > OTU_KEYNAMES_MAX_BYTES) {
		free(old);
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, path, NULL, "would grow past %u bytes",
				    OTU_KEYNAMES_MAX_BYTES);
	}
	u->data = malloc(u->len);
	if (!u->data) {
		free(old);
		return oti_diag_set(d, OTA_HOST_INTERNAL, path, NULL, "out of memory");
	}
	if (old_len)
		memcpy(u->data, old, old_len);
	if (old_len && old[old_len - 1] != '\n')
		u->data[old_len] = '\n';
	memcpy(u->data + u->len - line_len, line, line_len);
	u->path = path;
	free(old);
	return OTA_OK;
}

ota_status_t oti_keynames_commit(struct oti_keynames_update *u, struct oti_diag *d)
{
	int r = 0;

	if (u->data)
		r = otu_write_file_atomic(u->path, u->data, u->len, 0644, 0);
	free(u->data);
	u->data = NULL;
	if (r < 0)
		return oti_diag_set(d, OTA_HOST_IO, u->path, NULL, "%s", strerror(-r));
	return OTA_OK;
}

void oti_keynames_discard(struct oti_keynames_update *u)
{
	free(u->data);
	u->data = NULL;
}
