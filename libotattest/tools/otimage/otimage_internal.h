/* SPDX-License-Identifier: MIT */
/*
 * Private to libotimage and otimage: field names for statuses, the
 * text/JSON printer inspect uses, and the subcommands main.c dispatches.
 */
#ifndef OTATTEST_OTIMAGE_INTERNAL_H
#define OTATTEST_OTIMAGE_INTERNAL_H

#include "otimage.h"

/* The field a parser status is about ("manifest.signed_end"), or NULL. */
const char *oti_status_field(ota_status_t st);
/* True for statuses about one extension or certificate of an image. */
bool oti_status_is_ext(ota_status_t st);
/* "manifest.ext[1] (DLGC)": an extension table entry by index ("manifest.ext" past the table). */
const char *oti_ext_field(const struct ota_manifest *m, uint32_t index, char *buf, size_t n);
/* Fill d for a failed ota_image_parse: the field, with the extension index. */
ota_status_t oti_image_parse_diag(const struct ota_image_view *v, ota_status_t st,
				  const char *file, struct oti_diag *d);

/*
 * The bytes oti_image_build signs, unsigned: the manifest naming signer_id,
 * the payload, the extensions (an SPXS with no signature yet when hybrid).
 */
ota_status_t oti_image_layout(const struct oti_image_params *p,
			      const uint8_t signer_id[OTA_KEY_ID_BYTES], bool hybrid,
			      const struct oti_cert *chain, uint32_t chain_len, uint8_t **out,
			      size_t *out_len, struct oti_diag *d);

/* Input size limits: far above anything real, low enough to read into memory. */
#define OTI_MAX_PAYLOAD (16u * 1024u * 1024u)
#define OTI_MAX_IMAGE (OTI_MAX_PAYLOAD + 64u * 1024u)
#define OTI_MAX_FLASH (64u * 1024u * 1024u)
#define OTI_MAX_SMALL_FILE (64u * 1024u)

/*
 * One printer for both output forms of inspect: nested objects and
 * arrays; text mode prints "key: value" lines indented by depth, JSON mode
 * builds one json-c object and prints it at oti_out_finish. Hex strings
 * are lowercase.
 */
#define OTI_OUT_MAX_DEPTH 16
struct json_object;
struct otu_keynames;
struct oti_out {
	FILE *f;
	bool json;
	int depth;
	bool in_array[OTI_OUT_MAX_DEPTH];
	struct json_object *open[OTI_OUT_MAX_DEPTH]; /* JSON: the container at each depth */
	const struct otu_keynames *key_names; /* names for key ids, or NULL (docs/keynames.md) */
};
void oti_out_init(struct oti_out *o, FILE *f, bool json);
void oti_out_begin(struct oti_out *o, const char *key); /* object; key NULL in arrays */
void oti_out_end(struct oti_out *o);
void oti_out_array(struct oti_out *o, const char *key);
void oti_out_array_end(struct oti_out *o);
void oti_out_str(struct oti_out *o, const char *key, const char *val);
void oti_out_u64(struct oti_out *o, const char *key, uint64_t val);
void oti_out_hexnum(struct oti_out *o, const char *key, uint32_t val); /* "0x..." */
void oti_out_bool(struct oti_out *o, const char *key, bool val);
void oti_out_hex(struct oti_out *o, const char *key, const void *buf, size_t len);
void oti_out_finish(struct oti_out *o); /* JSON: prints the document, one line */

/* Subcommands: argv[0] is the subcommand name. Return the exit code. */
int oti_cmd_keygen(int argc, char **argv);
int oti_cmd_sign(int argc, char **argv);
int oti_cmd_delegate(int argc, char **argv);
int oti_cmd_pack(int argc, char **argv);
int oti_cmd_provision(int argc, char **argv);
int oti_cmd_fuse(int argc, char **argv);
int oti_cmd_owner_config(int argc, char **argv);
int oti_cmd_inspect(int argc, char **argv);
int oti_cmd_corim(int argc, char **argv);
int oti_cmd_revocation(int argc, char **argv);

/* Shared by the subcommands. */
const char *oti_fourcc(uint32_t v, char buf[5]);
int oti_fail(const struct oti_diag *d, ota_status_t st);
int oti_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print a help text; returns 0. */
int oti_print_help(const char *text);
/* The EXIT STATUS section of the help of a command that writes files. */
#define OTI_HELP_EXIT_WRITES                                                          \
	"EXIT STATUS\n"                                                                \
	"    0 on success, 2 for a usage error, otherwise the class code of the failure\n" \
	"    (see otimage --help). Nothing is written on failure.\n"
/* "KEY" or "KEY:LIFECYCLE-MASK" (all states when no mask is given). */
void oti_key_spec(const char *arg, char *path, size_t path_size, uint32_t *lifecycle_mask);
void oti_print_root_key(struct oti_out *o, const struct ota_root_key *k);
/* Names for masks, e.g. "dev,prod"; static buffers (one call per printf). */
const char *oti_lifecycle_mask_str(uint32_t mask);
const char *oti_slot_mask_str(uint32_t mask);
const char *oti_caps_str(uint32_t caps);

/*
 * keynames_file.c: add a key's name to a key names file (docs/keynames.md).
 * prepare reads and checks the file (strictly, as its readers do) and
 * builds the new contents; commit replaces the file atomically. Naming a
 * key again with the name it has is a no-op; another name for a named
 * key, or a name another key has, is refused (TOOL_BAD_VALUE).
 */
struct oti_keynames_update {
	const char *path;
	uint8_t *data; /* NULL: nothing to write */
	size_t len;
};
ota_status_t oti_keynames_prepare(const char *path, const uint8_t id[OTA_KEY_ID_BYTES],
				  const char *name, struct oti_keynames_update *u,
				  struct oti_diag *d);
ota_status_t oti_keynames_commit(struct oti_keynames_update *u, struct oti_diag *d);
void oti_keynames_discard(struct oti_keynames_update *u);
/*
 * Read a key names file for showing names (free with otu_keynames_free):
 * a missing file is no names when missing_ok (the default path), else
 * HOST_IO; a file that does not parse is TOOL_BAD_VALUE with its line.
 */
ota_status_t oti_keynames_load(const char *path, bool missing_ok, struct otu_keynames *kn,
			       struct oti_diag *d);

#endif
