// SPDX-License-Identifier: MIT
/*
 * ota_record_validate (record.h) on hostile bytes: the checks the kernel
 * driver, the daemon and the verifier run on a record read from shared
 * memory. The input is copied into a heap block of exactly its size so
 * ASan catches any read past the claimed length. A record that passes
 * must also be safe to walk: every stage's fields in range, names printable.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ota_record_header *h;
	uint8_t *buf;
	uint32_t i;

	if (size > OTA_RECORD_MAX_BYTES + 64)
		return 0;
	buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	if (ota_record_validate(buf, (uint32_t)size) == OTA_OK) {
		h = (const struct ota_record_header *)buf;
		if (h->length != size || h->stage_count > OTA_RECORD_MAX_STAGES)
			abort();
		if (!ota_lifecycle_name(h->lifecycle) || !ota_reset_reason_name(h->reset_reason))
			abort();
		for (i = 0; i < h->stage_count; i++) {
			const struct ota_stage_record *s =
				(const struct ota_stage_record *)(buf + sizeof(*h)) + i;

			if (!strcmp(ota_stage_name(s->stage), "unknown") ||
			    !strcmp(ota_path_name(s->path), "unknown") ||
			    !strcmp(ota_scheme_name(s->sig_scheme), "unknown"))
				abort(); /* validate let an out-of-range enum through */
		}
	}
	free(buf);
	return 0;
}
