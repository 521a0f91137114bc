// SPDX-License-Identifier: MIT
/* inspect: images and delegation certificates. */
#include <string.h>

#include "inspect.h"

const char *oti_fourcc(uint32_t v, char buf[5])
{
	int i;

	for (i = 0; i < 4; i++) {
		char ch = (char)(v >> (8 * i));

		buf[i] = ch >= 0x20 && ch < 0x7f ? ch : '?';
	}
	buf[4] = '\0';
	return buf;
}

void oti_print_status(struct oti_out *o, const char *key, ota_status_t st)
{
	const char *name = ota_status_name(st);

	oti_out_str(o, key, name ? name : "unknown");
}

void oti_print_usage(struct oti_out *o, const char *key, const struct ota_usage *u)
{
	oti_out_begin(o, key);
	oti_out_str(o, "slots", oti_slot_mask_str(u->slot_mask));
	oti_out_str(o, "lifecycle", oti_lifecycle_mask_str(u->lifecycle_mask));
	oti_out_str(o, "flags", oti_caps_str(u->flags));
	if (u->device_binding == OTA_BINDING_DEVICE)
		oti_out_hex(o, "device", u->device_id, sizeof(u->device_id));
	else
		oti_out_str(o, "device", "any");
	oti_out_end(o);
}

void oti_print_constraints(struct oti_out *o, const char *key, const struct ota_constraints *c)
{
	oti_out_begin(o, key);
	oti_out_u64(o, "svn_min", c->svn_min);
	oti_out_u64(o, "svn_max", c->svn_max);
	oti_out_str(o, "slots", oti_slot_mask_str(c->usage.slot_mask));
	oti_out_str(o, "lifecycle", oti_lifecycle_mask_str(c->usage.lifecycle_mask));
	oti_out_str(o, "flags", oti_caps_str(c->usage.flags));
	if (c->usage.device_binding == OTA_BINDING_DEVICE)
		oti_out_hex(o, "device", c->usage.device_id, sizeof(c->usage.device_id));
	else
		oti_out_str(o, "device", "any");
	oti_out_end(o);
}

void oti_print_dlgc(struct oti_out *o, const struct ota_dlgc *c, const uint8_t *dlgs)
{
	uint8_t id[OTA_KEY_ID_BYTES];

	ota_key_id(c->delegate_pubkey, id);
	oti_out_str(o, "type", c->cert_type == OTA_CERT_LEAF ? "leaf" : "intermediate");
	oti_out_hex(o, "parent_key_id", c->parent_key_id, sizeof(c->parent_key_id));
	oti_out_hex(o, "delegate_key_id", id, sizeof(id));
	oti_out_hex(o, "delegate_public_key", c->delegate_pubkey, sizeof(c->delegate_pubkey));
	oti_print_constraints(o, "constraints", &c->constraints);
	oti_out_hex(o, "signature", c->signature, sizeof(c->signature));
	oti_out_bool(o, "hybrid", dlgs != NULL);
	if (dlgs)
		oti_out_hex(o, "delegate_slhdsa_public_key",
			    dlgs + offsetof(struct ota_dlgs, delegate_spx_pubkey), OTA_SLHDSA_PK_BYTES);
}

void oti_print_image_summary(struct oti_out *o, const struct ota_image_view *v)
{
	const struct ota_manifest *m = &v->manifest;
	uint8_t digest[OTA_SHA256_BYTES];

	oti_out_str(o, "stage", m->identifier == OTA_ID_ROM_EXT ? "rom_ext" : "bl0");
	oti_out_u64(o, "image_length", m->image_length);
	oti_out_u64(o, "security_version", m->security_version);
	{
		char version[OTA_VERSION_STRING_BYTES + 1];

		/* The parser passed it: printable ASCII, NUL padded. */
		memcpy(version, m->version_string, OTA_VERSION_STRING_BYTES);
		version[OTA_VERSION_STRING_BYTES] = '\0';
		oti_out_str(o, "version_string", version);
	}
	oti_out_hex(o, "signer_key_id", m->signer_key_id, sizeof(m->signer_key_id));
	oti_out_u64(o, "delegation_depth", v->cert_count);
	oti_out_bool(o, "hybrid", v->spxs_offset != 0);
	ota_image_measure(v, digest);
	oti_out_hex(o, "measurement", digest, sizeof(digest));
}

void oti_print_verdict(struct oti_out *o, const struct oti_verdict *v)
{
	uint32_t i;

	oti_out_begin(o, "device_check");
	oti_print_status(o, "status", v->status);
	oti_out_str(o, "stage", ota_stage_name(v->stage));
	oti_out_str(o, "slot", v->slot == OTA_SLOT_A ? "a" : "b");
	oti_out_str(o, "lifecycle", ota_lifecycle_name(v->lifecycle));
	oti_out_hex(o, "root_key_id", v->root_key_id, sizeof(v->root_key_id));
	oti_out_bool(o, "root_key_given", v->root_known);
	oti_out_bool(o, "hybrid_required", v->hybrid);
	oti_out_bool(o, "signatures_verified", v->signatures);
	oti_out_array(o, "not_applied");
	for (i = 0; i < v->not_applied_count; i++)
		oti_out_str(o, NULL, v->not_applied[i]);
	oti_out_array_end(o);
	oti_out_end(o);
}

ota_status_t oti_inspect_image(struct oti_out *o, const uint8_t *buf, size_t len,
			       const struct oti_device *dev, struct oti_diag *d)
{
	struct oti_verdict verdict;
	struct ota_image_view v;
	const struct ota_manifest *m = &v.manifest;
	uint8_t digest[OTA_SHA256_BYTES];
	char fc[5];
	uint32_t i;
	ota_status_t st;

	if (len > OTI_MAX_IMAGE)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, NULL, NULL);
	st = ota_image_parse(buf, (uint32_t)len, &v);
	if (st != OTA_OK)
		return oti_image_parse_diag(&v, st, NULL, d);
	/* A file holds one image; trailing bytes would be a slot dump, not an image file. */
	if (v.length != len)
		return oti_diag_set(d, OTA_MANIFEST_BAD_LENGTH, NULL, "manifest.image_length",
				    "%u bytes of image in a file of %zu", v.length, len);
	st = oti_device_check(dev, buf, len, 0, &verdict, d);
	if (st != OTA_OK)
		return st;

	oti_print_image_summary(o, &v);
	oti_out_str(o, "identifier", oti_fourcc(m->identifier, fc));
	oti_out_u64(o, "max_key_version", m->max_key_version);
	oti_out_u64(o, "signed_end", m->signed_end);
	oti_out_u64(o, "payload_offset", m->payload_offset);
	oti_out_u64(o, "payload_length", m->payload_length);
	ota_image_sigblock_digest(&v, digest);
	oti_out_hex(o, "signature_block_digest", digest, sizeof(digest));
	oti_out_hex(o, "signature", m->signature, sizeof(m->signature));
	oti_print_usage(o, "usage", &m->usage);
	oti_out_array(o, "extensions");
	for (i = 0; i < m->ext_count; i++) {
		const struct ota_ext_entry *e = &m->ext[i];

		oti_out_begin(o, NULL);
		oti_out_str(o, "type", oti_fourcc(e->type, fc));
		oti_out_u64(o, "offset", e->offset);
		oti_out_u64(o, "length", e->length);
		oti_out_bool(o, "critical", e->flags & OTA_EXT_F_CRITICAL);
		oti_out_bool(o, "signed", e->offset < m->signed_end);
		oti_out_end(o);
	}
	oti_out_array_end(o);
	if (v.salt_offset)
		oti_out_hex(o, "salt", buf + v.salt_offset + offsetof(struct ota_ext_salt, salt), 32);
	if (v.load_offset) {
		struct ota_ext_load l;

		/* The payload is code: where it runs (docs/formats.md, LOAD). */
		memcpy(&l, buf + v.load_offset, sizeof(l));
		oti_out_begin(o, "load");
		oti_out_hexnum(o, "load_address", l.load_address);
		oti_out_hexnum(o, "entry", l.entry);
		oti_out_end(o);
	}
	oti_out_array(o, "certificates");
	for (i = 0; i < v.cert_count; i++) {
		struct ota_dlgc c;

		OTA_TRY(ota_dlgc_read(&v, i, &c));
		oti_out_begin(o, NULL);
		oti_print_dlgc(o, &c, v.cert_spx_offset[i] ? buf + v.cert_spx_offset[i] : NULL);
		oti_out_end(o);
	}
	oti_out_array_end(o);
	oti_print_verdict(o, &verdict);
	return OTA_OK;
}

ota_status_t oti_inspect_cert(struct oti_out *o, const uint8_t *buf, size_t len,
			      struct oti_diag *d)
{
	struct oti_cert c;

	OTA_TRY(oti_cert_parse(buf, len, &c, d));
	oti_print_dlgc(o, &c.dlgc, c.has_dlgs ? (const uint8_t *)&c.dlgs : NULL);
	return OTA_OK;
}
