// SPDX-License-Identifier: MIT
/*
 * Key names in otattestctl's output (docs/keynames.md): the names file is
 * read once per command that shows keys, strictly (a file that does not
 * parse stops the command with its line, rather than showing some keys
 * by name and others not), and each key id is shown by its name or, for
 * a key the file does not name, by its short hex.
 */
#include <errno.h>
#include <string.h>

#include <otu/hex.h>
#include <otu/json.h>

#include "ctl.h"

int ctl_load_names(struct ctl *c)
{
	const char *path = c->key_names_path ? c->key_names_path : OTU_KEYNAMES_PATH;
	char msg[512];
	int r;

	if (c->names_loaded)
		return 0;
	/* The default file may be absent (no names); one asked for must exist. */
	r = otu_keynames_load(path, !c->key_names_path, &c->names, msg, sizeof(msg));
	if (r < 0)
		return ctl_fail(ota_status_class(otu_keynames_load_status(r)), "key names: %s", msg);
	c->names_loaded = true;
	return 0;
}

void ctl_print_key_chain(FILE *out, const uint8_t (*ids)[OTA_KEY_ID_BYTES], size_t n,
			 const struct otu_keynames *names)
{
	char buf[OTU_KEYID_SHORT_HEX + 1];
	size_t k;

	for (k = 0; k < n; k++)
		fprintf(out, "%s%s", k ? " > " : "", otu_keynames_display(names, ids[k], buf, sizeof(buf)));
}

struct json_object *ctl_key_chain_json(const uint8_t (*ids)[OTA_KEY_ID_BYTES], size_t n,
				       const struct otu_keynames *names)
{
	struct json_object *arr = json_object_new_array();
	size_t k;

	for (k = 0; k < n; k++) {
		struct json_object *o = json_object_new_object();
		const char *name = otu_keynames_lookup(names, ids[k]);

		otu_json_add_hex(o, "key_id", ids[k], OTA_KEY_ID_BYTES);
		/* null, not the short hex: a script tells "unnamed" from a name. */
		json_object_object_add(o, "name", name ? json_object_new_string(name) : NULL);
		json_object_array_add(arr, o);
	}
	return arr;
}
