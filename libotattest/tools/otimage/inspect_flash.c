// SPDX-License-Identifier: MIT
/*
 * inspect: flash images and the records in them. A flash image is
 * refused only when its layout is bad; the regions are described as the
 * device would find them (an erased slot, a corrupt boot data copy and
 * the copy the device would pick are all normal states to report).
 */
#include <string.h>

#include <otattest/sha256.h>

#include "inspect.h"

void oti_print_owner(struct oti_out *o, const struct ota_owner_config *oc)
{
	uint8_t digest[OTA_SHA256_BYTES];
	uint32_t i;

	ota_sha256(oc, sizeof(*oc), digest);
	oti_out_hex(o, "digest", digest, sizeof(digest));
	oti_out_u64(o, "max_delegation_depth", oc->max_delegation_depth);
	oti_out_bool(o, "direct_boot", oc->flags & OTA_OWNER_F_DIRECT_BOOT);
	oti_out_bool(o, "hybrid_required", oc->flags & OTA_OWNER_F_HYBRID_REQUIRED);
	oti_out_array(o, "keys");
	for (i = 0; i < oc->key_count && i < OTA_OWNER_MAX_KEYS; i++) {
		oti_out_begin(o, NULL);
		oti_out_u64(o, "index", i);
		oti_print_root_key(o, &oc->keys[i]);
		oti_out_end(o);
	}
	oti_out_array_end(o);
}

void oti_print_boot_data(struct oti_out *o, const struct ota_boot_data *bd)
{
	oti_out_u64(o, "counter", bd->counter);
	oti_out_str(o, "primary_slot", bd->primary_slot == OTA_SLOT_A ? "a" : "b");
	oti_out_u64(o, "tag_key_version", bd->tag_key_version);
	oti_out_u64(o, "floor_rom_ext", bd->floor_rom_ext);
	oti_out_u64(o, "floor_bl0", bd->floor_bl0);
	/* Whose copy: only the device can check its MAC (docs/formats.md). */
	oti_out_str(o, "written_by", ota_boot_data_is_factory(bd) ? "factory" : "device");
}

void oti_print_tag_table(struct oti_out *o, const struct ota_tag_table *tt)
{
	uint32_t i;

	oti_out_u64(o, "sequence", tt->sequence);
	oti_out_array(o, "entries");
	for (i = 0; i < OTA_TAG_ENTRIES; i++) {
		const struct ota_tag_entry *e = &tt->entry[i];

		oti_out_begin(o, NULL);
		oti_out_str(o, "stage", ota_stage_name(i / OTA_SLOT_COUNT + 1));
		oti_out_str(o, "slot", i % OTA_SLOT_COUNT == OTA_SLOT_A ? "a" : "b");
		oti_out_bool(o, "valid", e->state == OTA_TAG_STATE_VALID);
		if (e->state == OTA_TAG_STATE_VALID) {
			oti_out_u64(o, "key_version", e->key_version);
			oti_out_hex(o, "tag", e->tag, sizeof(e->tag));
		}
		oti_out_end(o);
	}
	oti_out_array_end(o);
}

ota_status_t oti_inspect_owner(struct oti_out *o, const uint8_t *buf, size_t len,
			       struct oti_diag *d)
{
	struct ota_owner_config oc;
	ota_status_t st;

	OTA_TRY(oti_inspect_exact(buf, len, &oc, sizeof(oc), OTA_OWNER_TRUNCATED, OTA_OWNER_BAD_SIZE,
				  "owner_config", d));
	st = ota_owner_config_check(&oc);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	oti_print_owner(o, &oc);
	return OTA_OK;
}

ota_status_t oti_inspect_boot_data(struct oti_out *o, const uint8_t *buf, size_t len,
				   struct oti_diag *d)
{
	struct ota_boot_data bd;
	ota_status_t st;

	OTA_TRY(oti_inspect_exact(buf, len, &bd, sizeof(bd), OTA_BOOT_DATA_BAD_SIZE,
				  OTA_BOOT_DATA_BAD_SIZE, "boot_data", d));
	st = ota_boot_data_check(&bd);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	oti_print_boot_data(o, &bd);
	return OTA_OK;
}

ota_status_t oti_inspect_tag_table(struct oti_out *o, const uint8_t *buf, size_t len,
				   struct oti_diag *d)
{
	struct ota_tag_table tt;
	ota_status_t st;

	OTA_TRY(oti_inspect_exact(buf, len, &tt, sizeof(tt), OTA_TAG_TABLE_BAD_SIZE,
				  OTA_TAG_TABLE_BAD_SIZE, "tag_table", d));
	st = ota_tag_table_check(&tt);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	oti_print_tag_table(o, &tt);
	return OTA_OK;
}

static void print_idcert(struct oti_out *o, const struct ota_identity_cert_blob *c)
{
	uint8_t digest[OTA_SHA256_BYTES];

	ota_sha256(c->der, c->der_length, digest);
	oti_out_u64(o, "der_length", c->der_length);
	oti_out_hex(o, "der_sha256", digest, sizeof(digest));
}

ota_status_t oti_inspect_idcert(struct oti_out *o, const uint8_t *buf, size_t len,
				struct oti_diag *d)
{
	struct ota_identity_cert_blob c;
	ota_status_t st;

	OTA_TRY(oti_inspect_exact(buf, len, &c, sizeof(c), OTA_IDCERT_BAD_LENGTH,
				  OTA_IDCERT_BAD_LENGTH, "idcert", d));
	st = ota_identity_cert_check(&c);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	print_idcert(o, &c);
	return OTA_OK;
}

/* Never programmed since the last erase (checked over a header's worth of bytes). */
static bool erased(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != 0xff)
			return false;
	return true;
}

/* One record region in a flash image: what the device would make of it. */
static void flash_region(struct oti_out *o, const uint8_t *buf, const struct ota_flash_region *r)
{
	const uint8_t *p = buf + r->offset;
	ota_status_t st;

	if (erased(p, r->size < sizeof(struct ota_manifest) ? r->size : sizeof(struct ota_manifest))) {
		oti_out_str(o, "state", "erased");
		return;
	}
	switch (r->type) {
	case OTA_REGION_ROM_EXT_A: case OTA_REGION_ROM_EXT_B:
	case OTA_REGION_BL0_A: case OTA_REGION_BL0_B: {
		struct ota_image_view v;

		st = ota_image_parse(p, r->size, &v);
		oti_print_status(o, "state", st);
		if (st == OTA_OK)
			oti_print_image_summary(o, &v);
		return;
	}
	case OTA_REGION_BOOT_DATA_0: case OTA_REGION_BOOT_DATA_1: {
		struct ota_boot_data bd;

		memcpy(&bd, p, sizeof(bd));
		st = ota_boot_data_check(&bd);
		oti_print_status(o, "state", st);
		if (st == OTA_OK)
			oti_print_boot_data(o, &bd);
		return;
	}
	case OTA_REGION_TAG_TABLE_0: case OTA_REGION_TAG_TABLE_1: {
		struct ota_tag_table tt;

		memcpy(&tt, p, sizeof(tt));
		st = ota_tag_table_check(&tt);
		oti_print_status(o, "state", st);
		if (st == OTA_OK)
			oti_print_tag_table(o, &tt);
		return;
	}
	case OTA_REGION_OWNER_CONFIG: {
		struct ota_owner_config oc;

		memcpy(&oc, p, sizeof(oc));
		st = ota_owner_config_check(&oc);
		oti_print_status(o, "state", st);
		if (st == OTA_OK)
			oti_print_owner(o, &oc);
		return;
	}
	case OTA_REGION_IDENTITY_CERT: {
		struct ota_identity_cert_blob c;

		memcpy(&c, p, sizeof(c));
		st = ota_identity_cert_check(&c);
		oti_print_status(o, "state", st);
		if (st == OTA_OK)
			print_idcert(o, &c);
		return;
	}
	}
}

static const char *region_name(uint32_t type)
{
	static const char *const names[] = {
		[OTA_REGION_ROM_EXT_A] = "rom_ext_a",   [OTA_REGION_ROM_EXT_B] = "rom_ext_b",
		[OTA_REGION_BL0_A] = "bl0_a",           [OTA_REGION_BL0_B] = "bl0_b",
		[OTA_REGION_BOOT_DATA_0] = "boot_data_0", [OTA_REGION_BOOT_DATA_1] = "boot_data_1",
		[OTA_REGION_TAG_TABLE_0] = "tag_table_0", [OTA_REGION_TAG_TABLE_1] = "tag_table_1",
		[OTA_REGION_OWNER_CONFIG] = "owner_config",
		[OTA_REGION_IDENTITY_CERT] = "identity_cert",
		[OTA_REGION_REVOCATION] = "revocation",
		[OTA_REGION_IDENTITY_LOG] = "identity_log",
	};

	return type < sizeof(names) / sizeof(names[0]) && names[type] ? names[type] : "unknown";
}

/* Which copy of a two-copy record the device would use. */
static void flash_pick(struct oti_out *o, const uint8_t *buf, const struct ota_flash_layout *l)
{
	struct ota_boot_data bd[2];
	struct ota_tag_table tt[2];
	ota_status_t why;
	int i, pick;

	for (i = 0; i < 2; i++) {
		memcpy(&bd[i], buf + ota_flash_layout_region(l, OTA_REGION_BOOT_DATA_0 + i)->offset,
		       sizeof(bd[i]));
		memcpy(&tt[i], buf + ota_flash_layout_region(l, OTA_REGION_TAG_TABLE_0 + i)->offset,
		       sizeof(tt[i]));
	}
	pick = ota_boot_data_pick(bd, &why);
	if (pick < 0)
		oti_print_status(o, "boot_data_in_use", OTA_BOOT_DATA_CORRUPT);
	else
		oti_out_u64(o, "boot_data_in_use", (uint64_t)pick);
	pick = ota_tag_table_pick(tt, &why);
	if (pick < 0)
		oti_print_status(o, "tag_table_in_use", OTA_TAG_TABLE_CORRUPT);
	else
		oti_out_u64(o, "tag_table_in_use", (uint64_t)pick);
}

ota_status_t oti_inspect_flash(struct oti_out *o, const uint8_t *buf, size_t len,
			       struct oti_diag *d)
{
	struct ota_flash_layout l;
	uint32_t i;
	ota_status_t st;

	if (len < sizeof(l))
		return oti_diag_set(d, OTA_LAYOUT_TRUNCATED, NULL, "layout", NULL);
	if (len > OTI_MAX_FLASH)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, NULL, NULL);
	memcpy(&l, buf, sizeof(l));
	/* The file is the whole flash: the layout must fit in it. */
	st = ota_flash_layout_check(&l, (uint32_t)len);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	oti_out_u64(o, "flash_size", l.flash_size);
	oti_out_u64(o, "page_size", l.page_size);
	flash_pick(o, buf, &l);
	oti_out_array(o, "regions");
	for (i = 0; i < l.region_count; i++) {
		oti_out_begin(o, NULL);
		oti_out_str(o, "name", region_name(l.region[i].type));
		oti_out_u64(o, "offset", l.region[i].offset);
		oti_out_u64(o, "size", l.region[i].size);
		flash_region(o, buf, &l.region[i]);
		oti_out_end(o);
	}
	oti_out_array_end(o);
	return OTA_OK;
}
