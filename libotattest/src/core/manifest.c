// SPDX-License-Identifier: MIT
/*
 * The image manifest header: every structural rule of manifest.h that is
 * about the fixed header. The extension table is walked in
 * manifest_ext.c. No cryptography and no policy here: this is the first
 * thing a boot stage runs on bytes it does not trust yet.
 */
#include <string.h>

#include "otattest/manifest.h"

#include "manifest_internal.h"

static ota_status_t manifest_header_check(const struct ota_manifest *m, uint32_t buf_len)
{
	if (m->magic != OTA_MANIFEST_MAGIC)
		return OTA_MANIFEST_BAD_MAGIC;
	if (m->version != OTA_MANIFEST_VERSION)
		return OTA_MANIFEST_BAD_VERSION;
	if (m->header_size != sizeof(*m))
		return OTA_MANIFEST_BAD_HEADER_SIZE;
	if (m->flags & ~OTA_MANIFEST_F_ALL)
		return OTA_MANIFEST_UNKNOWN_FLAGS;
	if (m->reserved0 != 0)
		return OTA_MANIFEST_RESERVED_NONZERO;
	if (!ota_version_string_ok(m->version_string))
		return OTA_MANIFEST_BAD_VERSION_STRING;
	/* The image lies in the buffer and holds at least its own header. */
	if (m->image_length < m->header_size || m->image_length > buf_len)
		return OTA_MANIFEST_BAD_LENGTH;
	if (m->signed_end < m->header_size || m->signed_end > m->image_length)
		return OTA_MANIFEST_BAD_SIGNED_REGION;
	/* The payload starts right after the header and ends inside the signed region. */
	if (m->payload_offset != m->header_size ||
	    !ota_range_ok(m->payload_offset, m->payload_length, m->signed_end))
		return OTA_MANIFEST_BAD_PAYLOAD;
	if (m->identifier != OTA_ID_ROM_EXT && m->identifier != OTA_ID_BL0)
		return OTA_MANIFEST_WRONG_IDENTIFIER;
	if (m->security_version > OTA_SVN_LIMIT)
		return OTA_SVN_ABOVE_MAX;
	if (!ota_usage_valid(&m->usage))
		return OTA_MANIFEST_BAD_CONSTRAINTS;
	return OTA_OK;
}

ota_status_t ota_image_parse(const uint8_t *buf, uint32_t buf_len, struct ota_image_view *out)
{
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	out->bad_ext = OTA_MANIFEST_MAX_EXT;
	if (buf == NULL || buf_len < sizeof(out->manifest))
		return OTA_MANIFEST_TRUNCATED;
	/* One copy of the header; every later decision reads the copy. */
	memcpy(&out->manifest, buf, sizeof(out->manifest));

	st = manifest_header_check(&out->manifest, buf_len);
	if (st != OTA_OK)
		return st;
	st = ota_manifest_ext_walk(buf, &out->manifest, out);
	if (st != OTA_OK)
		return st;

	out->image = buf;
	out->length = out->manifest.image_length;
	out->bad_ext = OTA_MANIFEST_MAX_EXT;
	return OTA_OK;
}
