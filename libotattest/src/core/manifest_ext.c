// SPDX-License-Identifier: MIT
/*
 * The manifest extension table. Extensions tile [payload_end, signed_end)
 * (signed ones) and then [signed_end, image_length) (unsigned ones) in
 * table order, each starting exactly where the previous one ended, so
 * every byte of the image belongs to the header, the payload or exactly
 * one extension: no byte is skipped unseen and no two extensions overlap.
 */
#include <string.h>

#include "otattest/keys.h"
#include "otattest/manifest.h"

#include "manifest_internal.h"
#include "parse_util.h"

/* Where an extension type may live. */
enum ext_region { EXT_REGION_SIGNED, EXT_REGION_UNSIGNED, EXT_REGION_ANY };

struct ext_kind {
	uint32_t type;
	uint32_t size; /* exact length, header included */
	enum ext_region region;
};

static const struct ext_kind ext_kinds[] = {
	{ OTA_EXT_SALT, sizeof(struct ota_ext_salt), EXT_REGION_SIGNED },
	{ OTA_EXT_DLGC, sizeof(struct ota_dlgc), EXT_REGION_UNSIGNED },
	{ OTA_EXT_DLGS, sizeof(struct ota_dlgs), EXT_REGION_UNSIGNED },
	{ OTA_EXT_SPXS, sizeof(struct ota_spxs), EXT_REGION_UNSIGNED },
};

static const struct ext_kind *ext_kind_of(uint32_t type)
{
	uint32_t i;

	for (i = 0; i < sizeof(ext_kinds) / sizeof(ext_kinds[0]); i++)
		if (ext_kinds[i].type == type)
			return &ext_kinds[i];
	return NULL;
}

/* State of one walk: what has been seen so far. */
struct ext_walk {
	struct ota_dlgc certs[OTA_MAX_DELEGATION_DEPTH]; /* copies, for key ids */
	uint32_t dlgs_offset[OTA_MAX_DELEGATION_DEPTH];
	uint32_t dlgs_index[OTA_MAX_DELEGATION_DEPTH];   /* table index, for bad_ext */
	uint32_t dlgs_count;
};

/* The known-type part of one extension: size, region, multiplicity, contents. */
static ota_status_t ext_known(const uint8_t *img, const struct ota_manifest *m,
			      const struct ota_ext_entry *e, const struct ota_ext_header *h,
			      bool in_signed, uint32_t index, struct ext_walk *w,
			      struct ota_image_view *out)
{
	const struct ext_kind *k = ext_kind_of(e->type);
	uint8_t id[OTA_KEY_ID_BYTES];

	if ((k->region == EXT_REGION_SIGNED) != in_signed)
		return OTA_EXT_WRONG_REGION;

	switch (e->type) {
	case OTA_EXT_SALT:
		if (h->version != OTA_EXT_VERSION || e->length != k->size)
			return OTA_EXT_BAD_HEADER;
		if (out->salt_offset != 0)
			return OTA_EXT_DUPLICATE;
		out->salt_offset = e->offset;
		return OTA_OK;

	case OTA_EXT_DLGC: {
		struct ota_dlgc *c;

		if (out->cert_count >= OTA_MAX_DELEGATION_DEPTH)
			return OTA_EXT_TOO_MANY_CERTS;
		/* Size first: the copy below must not read past the extension. */
		if (e->length != k->size)
			return OTA_CERT_BAD_SIZE;
		c = &w->certs[out->cert_count];
		memcpy(c, img + e->offset, sizeof(*c));
		OTA_TRY(ota_dlgc_check(c));
		out->cert_offset[out->cert_count++] = e->offset;
		return OTA_OK;
	}

	case OTA_EXT_DLGS:
		if (w->dlgs_count >= OTA_MAX_DELEGATION_DEPTH)
			return OTA_EXT_TOO_MANY_CERTS;
		if (h->version != OTA_EXT_VERSION)
			return OTA_CERT_BAD_VERSION;
		if (e->length != k->size)
			return OTA_CERT_BAD_SIZE;
		/* Matched to its DLGC once the whole table is known. */
		w->dlgs_offset[w->dlgs_count] = e->offset;
		w->dlgs_index[w->dlgs_count++] = index;
		return OTA_OK;

	case OTA_EXT_SPXS:
		if (h->version != OTA_EXT_VERSION || e->length != k->size)
			return OTA_EXT_BAD_HEADER;
		if (out->spxs_offset != 0)
			return OTA_EXT_DUPLICATE;
		memcpy(id, img + e->offset + offsetof(struct ota_spxs, signer_key_id), sizeof(id));
		if (memcmp(id, m->signer_key_id, sizeof(id)) != 0)
			return OTA_EXT_SPXS_SIGNER_MISMATCH;
		out->spxs_offset = e->offset;
		return OTA_OK;
	}
	return OTA_EXT_BAD_HEADER; /* not reached: ext_kinds and the switch agree */
}

/* Give each DLGS to the DLGC whose delegate it names, at most one each. */
static ota_status_t ext_match_dlgs(const uint8_t *img, struct ext_walk *w,
				   struct ota_image_view *out)
{
	uint8_t ids[OTA_MAX_DELEGATION_DEPTH][OTA_KEY_ID_BYTES];
	uint8_t named[OTA_KEY_ID_BYTES];
	uint32_t i, j;

	for (i = 0; i < out->cert_count; i++)
		ota_key_id(w->certs[i].delegate_pubkey, ids[i]);

	for (j = 0; j < w->dlgs_count; j++) {
		const uint8_t *d = img + w->dlgs_offset[j];
		bool found = false;

		out->bad_ext = w->dlgs_index[j];
		memcpy(named, d + offsetof(struct ota_dlgs, delegate_key_id), sizeof(named));
		for (i = 0; i < out->cert_count && !found; i++) {
			if (memcmp(named, ids[i], sizeof(named)) != 0)
				continue;
			found = true;
			if (out->cert_spx_offset[i] != 0)
				return OTA_EXT_DUPLICATE;
			OTA_TRY(ota_dlgs_check(&w->certs[i], d, sizeof(struct ota_dlgs)));
			out->cert_spx_offset[i] = w->dlgs_offset[j];
		}
		if (!found)
			return OTA_CERT_SPX_MISMATCH;
	}
	return OTA_OK;
}

ota_status_t ota_manifest_ext_walk(const uint8_t *img, const struct ota_manifest *m,
				   struct ota_image_view *out)
{
	struct ext_walk w;
	uint32_t cursor = m->payload_offset + m->payload_length;
	uint32_t i;

	memset(&w, 0, sizeof(w));
	if (m->ext_count > OTA_MANIFEST_MAX_EXT)
		return OTA_EXT_TOO_MANY;
	for (i = m->ext_count; i < OTA_MANIFEST_MAX_EXT; i++) {
		if (!ota_all_zero(&m->ext[i], sizeof(m->ext[i]))) {
			out->bad_ext = i;
			return OTA_EXT_RESERVED_NONZERO;
		}
	}

	for (i = 0; i < m->ext_count; i++) {
		const struct ota_ext_entry *e = &m->ext[i];
		struct ota_ext_header h;
		bool in_signed;

		out->bad_ext = i;
		if (e->flags & ~OTA_EXT_F_ALL)
			return OTA_EXT_RESERVED_NONZERO;
		if (!ota_range_ok(e->offset, e->length, m->image_length))
			return OTA_EXT_BAD_RANGE;
		if (e->length < sizeof(h))
			return OTA_EXT_BAD_HEADER;
		if (e->offset < cursor)
			return OTA_EXT_OVERLAP;
		if (e->offset > cursor)
			return OTA_EXT_UNCOVERED_BYTES;
		in_signed = e->offset < m->signed_end;
		/* An extension may not straddle the end of the signed region. */
		if (in_signed && e->length > m->signed_end - e->offset)
			return OTA_EXT_WRONG_REGION;

		memcpy(&h, img + e->offset, sizeof(h));
		if (h.type != e->type || h.length != e->length)
			return OTA_EXT_BAD_HEADER;
		if (h.reserved != 0 || h.reserved2 != 0)
			return OTA_EXT_RESERVED_NONZERO;

		if (e->type == OTA_EXT_LOAD) {
			/* Not delegation: manifest_load.c, outside this file's size budget. */
			OTA_TRY(ota_ext_load_take(img, m, e, in_signed, out));
		} else if (ext_kind_of(e->type) != NULL) {
			OTA_TRY(ext_known(img, m, e, &h, in_signed, i, &w, out));
		} else if (e->flags & OTA_EXT_F_CRITICAL) {
			return OTA_EXT_UNKNOWN_CRITICAL;
		}
		/* Unknown and not critical: bounded above, covered by a digest, skipped. */
		cursor = e->offset + e->length;
	}

	out->bad_ext = OTA_MANIFEST_MAX_EXT;
	/* Both regions must be tiled to their very end. */
	if (cursor != m->image_length)
		return OTA_EXT_UNCOVERED_BYTES;
	return ext_match_dlgs(img, &w, out);
}
