// SPDX-License-Identifier: MIT
/*
 * The key names file parser (otu/keynames.h) on hostile bytes. The input
 * sits in a heap block of exactly its size, so ASan catches a read past
 * it. A file that parses must hold only what the format allows: valid
 * names, no key id twice, every entry found by its id.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <otu/keynames.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct otu_keynames kn;
	struct otu_keynames_error err;
	char *buf;
	size_t i;

	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	if (otu_keynames_parse(buf, size, &kn, &err) == 0) {
		if (kn.n > OTU_KEYNAMES_MAX_ENTRIES)
			abort();
		for (i = 0; i < kn.n; i++) {
			if (!otu_keyname_valid(kn.v[i].name) ||
			    otu_keynames_lookup(&kn, kn.v[i].key_id) != kn.v[i].name)
				abort();
			if (i && memcmp(kn.v[i - 1].key_id, kn.v[i].key_id, OTA_KEY_ID_BYTES) >= 0)
				abort();
		}
		otu_keynames_free(&kn);
	} else if (kn.n || kn.v || !err.message[0] || strlen(err.message) >= sizeof(err.message)) {
		abort();
	}
	free(buf);
	return 0;
}
