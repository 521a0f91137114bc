// SPDX-License-Identifier: MIT
/*
 * Delegation certificates (DLGC) and their SLH-DSA companions (DLGS): the
 * structural checks, and the one definition of the bytes each parent
 * signature covers.
 */
#include <string.h>

#include "otattest/deleg.h"
#include "otattest/keys.h"
#include "otattest/sha256.h"

#include "parse_util.h"

ota_status_t ota_dlgc_check(const struct ota_dlgc *c)
{
	if (c->hdr.type != OTA_EXT_DLGC)
		return OTA_CERT_BAD_MAGIC;
	if (c->hdr.version != OTA_EXT_VERSION)
		return OTA_CERT_BAD_VERSION;
	if (c->hdr.length != sizeof(*c))
		return OTA_CERT_BAD_SIZE;
	if (c->hdr.reserved != 0 || c->hdr.reserved2 != 0 || c->reserved != 0)
		return OTA_CERT_RESERVED_NONZERO;
	if (c->cert_type != OTA_CERT_INTERMEDIATE && c->cert_type != OTA_CERT_LEAF)
		return OTA_CERT_BAD_TYPE;
	if (!ota_constraints_valid(&c->constraints))
		return OTA_CERT_BAD_CONSTRAINTS;
	return OTA_OK;
}

ota_status_t ota_dlgs_check(const struct ota_dlgc *c, const uint8_t *dlgs, uint32_t len)
{
	struct ota_ext_header h;
	uint8_t named[OTA_KEY_ID_BYTES], id[OTA_KEY_ID_BYTES];

	if (len < sizeof(h))
		return OTA_CERT_BAD_SIZE;
	memcpy(&h, dlgs, sizeof(h));
	if (h.type != OTA_EXT_DLGS)
		return OTA_CERT_BAD_MAGIC;
	if (h.version != OTA_EXT_VERSION)
		return OTA_CERT_BAD_VERSION;
	if (h.length != sizeof(struct ota_dlgs) || len != sizeof(struct ota_dlgs))
		return OTA_CERT_BAD_SIZE;
	if (h.reserved != 0 || h.reserved2 != 0)
		return OTA_CERT_RESERVED_NONZERO;
	memcpy(named, dlgs + offsetof(struct ota_dlgs, delegate_key_id), sizeof(named));
	ota_key_id(c->delegate_pubkey, id);
	if (memcmp(named, id, sizeof(id)) != 0)
		return OTA_CERT_SPX_MISMATCH;
	return OTA_OK;
}

ota_status_t ota_dlgc_read(const struct ota_image_view *v, uint32_t index, struct ota_dlgc *out)
{
	if (index >= v->cert_count || index >= OTA_MAX_DELEGATION_DEPTH)
		return OTA_EXT_NO_SUCH_CERT;
	memcpy(out, v->image + v->cert_offset[index], sizeof(*out));
	/* Checked again on the copy: the caller acts on the copy, not the buffer. */
	return ota_dlgc_check(out);
}

ota_status_t ota_dlgs_header_check(const struct ota_image_view *v, uint32_t index)
{
	struct ota_dlgc c;

	if (index >= v->cert_count || index >= OTA_MAX_DELEGATION_DEPTH)
		return OTA_EXT_NO_SUCH_CERT;
	if (v->cert_spx_offset[index] == 0)
		return OTA_DELEG_CERT_SPX_MISSING;
	OTA_TRY(ota_dlgc_read(v, index, &c));
	return ota_dlgs_check(&c, v->image + v->cert_spx_offset[index], sizeof(struct ota_dlgs));
}

void ota_dlgc_digest(const struct ota_dlgc *c, uint8_t out[OTA_SHA256_BYTES])
{
	ota_sha256(c, OTA_DLGC_SIGNED_BYTES, out);
}

void ota_dlgs_message(const struct ota_dlgc *c,
		      const uint8_t delegate_spx_pubkey[OTA_SLHDSA_PK_BYTES],
		      uint8_t out[OTA_DLGS_MSG_BYTES])
{
	memcpy(out, c, OTA_DLGC_SIGNED_BYTES);
	memcpy(out + OTA_DLGC_SIGNED_BYTES, delegate_spx_pubkey, OTA_SLHDSA_PK_BYTES);
}
