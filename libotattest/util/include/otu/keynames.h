/* SPDX-License-Identifier: MIT */
/*
 * Key names: the file that gives otattest key ids (SHA-256 of a public
 * key's X || Y, docs/formats.md) names a person reads, e.g. "owner-2026".
 * The format is docs/keynames.md: one "<64 lowercase hex> <name>" a line,
 * '#' comments, empty lines. otimage writes it (keygen --name), otattestctl,
 * otattest-verify and the metrics read it, from /etc/otattest/key-names.
 *
 * The file is read as hostile input: it may be edited by hand, copied
 * from elsewhere or truncated. Everything is bounded (file size, line
 * length, entry count, name length and alphabet), nothing is guessed
 * (no upper-case hex, no carriage return, no trailing blank, no key or
 * name twice), and every refusal names its line.
 */
#ifndef OTU_KEYNAMES_H
#define OTU_KEYNAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <otattest/status.h>
#include <otattest/types.h>

#define OTU_KEYNAMES_PATH "/etc/otattest/key-names"
#define OTU_KEYNAMES_MAX_BYTES (1024u * 1024u)
#define OTU_KEYNAMES_MAX_ENTRIES 4096u
#define OTU_KEYNAMES_LINE_MAX 200u
#define OTU_KEYNAME_MAX 64u
/* Unknown keys are shown by their first 8 bytes: 16 hex digits. */
#define OTU_KEYID_SHORT_HEX 16u

struct otu_keyname {
	uint8_t key_id[OTA_KEY_ID_BYTES];
	char name[OTU_KEYNAME_MAX + 1];
	unsigned line;
};

struct otu_keynames {
	struct otu_keyname *v; /* sorted by key_id */
	size_t n;
};

/* Why a file was refused: its line (0: the file as a whole) and what is wrong. */
struct otu_keynames_error {
	unsigned line;
	char message[160];
};

/*
 * Parse len bytes of text. Returns 0 with *out filled (free with
 * otu_keynames_free), or -EINVAL / -EFBIG / -ENOMEM with *err set and
 * *out empty.
 */
int otu_keynames_parse(const char *text, size_t len, struct otu_keynames *out,
		       struct otu_keynames_error *err);

/*
 * Read and parse path. A missing file is an empty table when missing_ok
 * (the default path: a machine without names), else an error. On error
 * msg holds "PATH:LINE: message" (or "PATH: message") and a negative errno
 * is returned.
 */
int otu_keynames_load(const char *path, bool missing_ok, struct otu_keynames *out, char *msg,
		      size_t msg_len);

/*
 * The status a tool reports for otu_keynames_load's failure r, so that
 * every tool exits with the same code for the same file: a file that does
 * not parse (or is too large) is a bad argument, one that cannot be read
 * (missing, unreadable) an I/O error.
 */
ota_status_t otu_keynames_load_status(int r);

void otu_keynames_free(struct otu_keynames *kn);

/* The name of id, or NULL when the table (which may be NULL) has none. */
const char *otu_keynames_lookup(const struct otu_keynames *kn, const uint8_t *id);

/* The name of id, or its short hex written into buf (>= OTU_KEYID_SHORT_HEX + 1). */
const char *otu_keynames_display(const struct otu_keynames *kn, const uint8_t *id, char *buf,
				 size_t buf_len);

/* A name the file may hold: 1..64 of [A-Za-z0-9._:@+/-], starting with a letter or digit. */
bool otu_keyname_valid(const char *name);

/* One line of the file for (id, name), '\n' included; out must hold OTU_KEYNAMES_LINE_MAX. */
void otu_keynames_format_line(char *out, size_t out_len, const uint8_t *id, const char *name);

#endif /* OTU_KEYNAMES_H */
