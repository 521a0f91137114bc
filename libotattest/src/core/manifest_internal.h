/* SPDX-License-Identifier: MIT */
/* Split of ota_image_parse between manifest.c and manifest_ext.c. */
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

#endif
