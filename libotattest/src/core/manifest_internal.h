/* SPDX-License-Identifier: MIT */
/* Split of ota_image_parse between manifest.c, manifest_ext.c and manifest_load.c. */
#ifndef OTATTEST_CORE_MANIFEST_INTERNAL_H
#define OTATTEST_CORE_MANIFEST_INTERNAL_H

#include "otattest/manifest.h"

/*
 * Walk and check the extension table of a manifest whose header already
 * passed (image_length <= the buffer, payload inside the signed region).
 * Fills the extension offsets of *out, and out->bad_ext on failure.
 */
ota_status_t ota_manifest_ext_walk(const uint8_t *img, const struct ota_manifest *m,
				   struct ota_image_view *out);

/*
 * Table entry e, a LOAD extension whose header the walk checked: in the
 * signed region (EXT_WRONG_REGION), version 1 and 32 bytes
 * (EXT_BAD_HEADER), once (EXT_DUPLICATE), reserved fields zero
 * (EXT_RESERVED_NONZERO); load_address 4-byte and entry 2-byte aligned, a
 * non-empty payload whose span does not wrap, the entry inside it
 * (EXT_BAD_LOAD). Where a stage may run is the device's to say
 * (firmware/lib/stage_place.c). Sets out->load_offset.
 */
ota_status_t ota_ext_load_take(const uint8_t *img, const struct ota_manifest *m,
			       const struct ota_ext_entry *e, bool in_signed,
			       struct ota_image_view *out);

#endif
