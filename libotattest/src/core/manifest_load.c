// SPDX-License-Identifier: MIT
/*
 * The LOAD extension (manifest.h, docs/formats.md): where the payload's
 * code runs. Its own file, so that the size budget of the delegation
 * parsing (manifest_ext.o, firmware/build.mk) does not carry it.
 */
#include <string.h>

#include "otattest/manifest.h"

#include "manifest_internal.h"

ota_status_t ota_ext_load_take(const uint8_t *img, const struct ota_manifest *m,
			       const struct ota_ext_entry *e, bool in_signed,
			       struct ota_image_view *out)
{
	struct ota_ext_load l;

	if (!in_signed)
		return OTA_EXT_WRONG_REGION;
	if (e->length != sizeof(l))
		return OTA_EXT_BAD_HEADER;
	memcpy(&l, img + e->offset, sizeof(l));
	if (l.hdr.version != OTA_EXT_VERSION)
		return OTA_EXT_BAD_HEADER;
	if (out->load_offset != 0)
		return OTA_EXT_DUPLICATE;
	if (!ota_all_zero(l.reserved, sizeof(l.reserved)))
		return OTA_EXT_RESERVED_NONZERO;
	/* The payload's span as the core sees it, and the entry inside it. */
	if ((l.load_address & 3u) || (l.entry & 1u) || m->payload_length == 0 ||
	    l.load_address > UINT32_MAX - m->payload_length || l.entry < l.load_address ||
	    l.entry - l.load_address >= m->payload_length)
		return OTA_EXT_BAD_LOAD;
	out->load_offset = e->offset;
	return OTA_OK;
}
