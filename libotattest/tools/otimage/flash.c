// SPDX-License-Identifier: MIT
/*
 * Building a flash image. Everything not written is 0xff, the erased
 * state of NOR flash, so an empty slot or region reads exactly as it
 * would on a device whose flash was erased and never programmed.
 */
#include <stdlib.h>
#include <string.h>

#include "otimage.h"
#include "otimage_internal.h"
#include <otattest/handover.h>

/* The small regions, one page each, right after the layout page. */
static const uint32_t small_regions[] = {
	OTA_REGION_BOOT_DATA_0, OTA_REGION_BOOT_DATA_1, OTA_REGION_TAG_TABLE_0,
	OTA_REGION_TAG_TABLE_1, OTA_REGION_OWNER_CONFIG, OTA_REGION_IDENTITY_CERT,
};
static const uint32_t slot_regions[OTI_SLOTS] = {
	[OTI_ROM_EXT_A] = OTA_REGION_ROM_EXT_A, [OTI_ROM_EXT_B] = OTA_REGION_ROM_EXT_B,
	[OTI_BL0_A] = OTA_REGION_BL0_A,         [OTI_BL0_B] = OTA_REGION_BL0_B,
};
static const char *const slot_names[OTI_SLOTS] = { "rom_ext_a", "rom_ext_b", "bl0_a", "bl0_b" };

/* Slots start at 64 KiB: room for the small regions and for growth. */
#define OTI_FIRST_SLOT_OFFSET (64u * 1024u)
/* The revocation staging region: a hybrid command (8000 bytes) in whole pages. */
#define OTI_REVOCATION_REGION_SIZE                                                            \
	((((uint32_t)sizeof(struct ota_revocation_hybrid) + OTA_FLASH_PAGE_SIZE - 1u) /        \
	  OTA_FLASH_PAGE_SIZE) *                                                                \
	 OTA_FLASH_PAGE_SIZE)

/* The identity log (handover.h) in whole pages. */
#define OTI_IDLOG_REGION_SIZE                                                                 \
	(((OTA_IDLOG_BYTES + OTA_FLASH_PAGE_SIZE - 1u) / OTA_FLASH_PAGE_SIZE) * OTA_FLASH_PAGE_SIZE)

ota_status_t oti_flash_layout_default(uint32_t flash_size, uint32_t rom_ext_slot_size,
				      uint32_t bl0_slot_size, struct ota_flash_layout *out,
				      struct oti_diag *d)
{
	uint64_t off = OTI_FIRST_SLOT_OFFSET;
	uint32_t n = 0, i;
	ota_status_t st;

	OTA_STATIC_ASSERT(sizeof(struct ota_identity_cert_blob) <= OTA_FLASH_PAGE_SIZE,
			  "identity certificate blob fits one page");
	OTA_STATIC_ASSERT(sizeof(struct ota_owner_config) <= OTA_FLASH_PAGE_SIZE,
			  "owner config fits one page");
	memset(out, 0, sizeof(*out));
	out->magic = OTA_FLASH_LAYOUT_MAGIC;
	out->version = OTA_FLASH_LAYOUT_VERSION;
	out->size = sizeof(*out);
	out->page_size = OTA_FLASH_PAGE_SIZE;
	out->flash_size = flash_size;
	for (i = 0; i < sizeof(small_regions) / sizeof(small_regions[0]); i++)
		out->region[n++] = (struct ota_flash_region){ small_regions[i],
							      (i + 1) * OTA_FLASH_PAGE_SIZE,
							      OTA_FLASH_PAGE_SIZE, 0 };
	for (i = 0; i < OTI_SLOTS; i++) {
		uint32_t size = i < OTI_BL0_A ? rom_ext_slot_size : bl0_slot_size;

		out->region[n++] = (struct ota_flash_region){ slot_regions[i], (uint32_t)off, size, 0 };
		off += size;
	}
	/*
	 * Last, right before the slots, apart from the small (locked) regions
	 * and never locked itself: a hybrid revocation staged for ROM_EXT
	 * (flash.h).
	 */
	OTA_STATIC_ASSERT((sizeof(small_regions) / sizeof(small_regions[0]) + 1u) * OTA_FLASH_PAGE_SIZE +
				  OTI_REVOCATION_REGION_SIZE <= OTI_FIRST_SLOT_OFFSET,
			  "the staging region fits before the slots");
	out->region[n++] = (struct ota_flash_region){ OTA_REGION_REVOCATION,
						      OTI_FIRST_SLOT_OFFSET - OTI_REVOCATION_REGION_SIZE,
						      OTI_REVOCATION_REGION_SIZE, 0 };
	/*
	 * The identity hand-over log (handover.h), locked like the small
	 * regions and right after them, so their locks stay one range.
	 */
	OTA_STATIC_ASSERT((sizeof(small_regions) / sizeof(small_regions[0]) + 1u) * OTA_FLASH_PAGE_SIZE +
				  OTI_IDLOG_REGION_SIZE <=
			  OTI_FIRST_SLOT_OFFSET - OTI_REVOCATION_REGION_SIZE,
			  "the identity log fits between the small regions and the staging region");
	out->region[n++] = (struct ota_flash_region){
		OTA_REGION_IDENTITY_LOG,
		(uint32_t)(sizeof(small_regions) / sizeof(small_regions[0]) + 1u) * OTA_FLASH_PAGE_SIZE,
		OTI_IDLOG_REGION_SIZE, 0
	};
	out->region_count = n;
	if (off > flash_size)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, "--flash-size",
				    "the slots need %llu bytes, the flash has %u",
				    (unsigned long long)off, flash_size);
	st = ota_flash_layout_check(out, flash_size);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL,
				    st == OTA_LAYOUT_BAD_FLASH_SIZE ? "--flash-size" : "--slot-size",
				    "sizes must be non-zero multiples of %u", OTA_FLASH_PAGE_SIZE);
	return OTA_OK;
}

ota_status_t oti_idcert_blob(const uint8_t *der, size_t len, struct ota_identity_cert_blob *out,
			     struct oti_diag *d)
{
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	if (len == 0 || len > OTA_IDCERT_MAX_DER)
		return oti_diag_set(d, OTA_IDCERT_BAD_LENGTH, NULL, "idcert.der_length",
				    "%zu bytes, 1..%u allowed", len, OTA_IDCERT_MAX_DER);
	out->magic = OTA_IDCERT_MAGIC;
	out->der_length = (uint32_t)len;
	memcpy(out->der, der, len);
	st = ota_identity_cert_check(out);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	return OTA_OK;
}

ota_status_t oti_slot_image_check(enum oti_slot_index slot, const uint8_t *img, size_t len,
				  struct oti_diag *d)
{
	uint32_t want = slot < OTI_BL0_A ? OTA_ID_ROM_EXT : OTA_ID_BL0;
	struct ota_image_view v;
	ota_status_t st;

	if ((unsigned int)slot >= OTI_SLOTS)
		return oti_diag_set(d, OTA_TOOL_BAD_VALUE, NULL, "slot", NULL);
	if (len > OTI_MAX_IMAGE)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, slot_names[slot], NULL);
	st = ota_image_parse(img, (uint32_t)len, &v);
	if (st != OTA_OK)
		return oti_image_parse_diag(&v, st, NULL, d);
	if (v.manifest.identifier != want)
		return oti_diag_set(d, OTA_MANIFEST_WRONG_IDENTIFIER, NULL, "manifest.identifier",
				    "a %s image for slot %s",
				    v.manifest.identifier == OTA_ID_ROM_EXT ? "ROM_EXT" : "BL0",
				    slot_names[slot]);
	if (v.length != len)
		return oti_diag_set(d, OTA_MANIFEST_BAD_LENGTH, NULL, "manifest.image_length",
				    "%zu bytes of file, %u of image", len, v.length);
	return OTA_OK;
}

static ota_status_t place_slot(uint8_t *flash, const struct ota_flash_region *r,
			       const struct oti_flash_params *p, uint32_t i, struct oti_diag *d)
{
	if (!p->slot[i])
		return OTA_OK;
	if (p->slot_len[i] > r->size)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, slot_names[i],
				    "image of %zu bytes, slot of %u", p->slot_len[i], r->size);
	if (!(p->flags & OTI_UNCHECKED))
		OTA_TRY(oti_slot_image_check((enum oti_slot_index)i, p->slot[i], p->slot_len[i], d));
	memcpy(flash + r->offset, p->slot[i], p->slot_len[i]);
	return OTA_OK;
}

ota_status_t oti_flash_build(const struct oti_flash_params *p, uint8_t **out, size_t *out_len,
			     struct oti_diag *d)
{
	struct ota_flash_layout l;
	struct ota_boot_data bd;
	struct ota_tag_table tt;
	uint32_t flash_size = p->flash_size ? p->flash_size : OTI_FLASH_DEFAULT_SIZE;
	uint8_t *flash;
	uint32_t i;
	ota_status_t st;

	*out = NULL;
	*out_len = 0;
	if (flash_size > OTI_MAX_FLASH)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, NULL, "--flash-size", NULL);
	st = oti_flash_layout_default(flash_size,
				      p->rom_ext_slot_size ? p->rom_ext_slot_size
							   : OTI_ROM_EXT_SLOT_DEFAULT,
				      p->bl0_slot_size ? p->bl0_slot_size : OTI_BL0_SLOT_DEFAULT, &l,
				      d);
	if (st != OTA_OK)
		return st;

	memset(&bd, 0, sizeof(bd));
	bd.magic = OTA_BOOT_DATA_MAGIC;
	bd.version = OTA_BOOT_DATA_VERSION;
	bd.size = sizeof(bd);
	bd.primary_slot = p->primary_slot;
	bd.tag_key_version = p->tag_key_version;
	bd.floor_rom_ext = p->floor_rom_ext;
	bd.floor_bl0 = p->floor_bl0;
	ota_boot_data_seal(&bd);
	st = ota_boot_data_check(&bd);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, "boot_data",
				    "primary slot a or b, floors 0..%u", OTA_SVN_LIMIT);
	if (p->owner) {
		st = ota_owner_config_check(p->owner);
		if (st != OTA_OK)
			return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	}
	if (p->idcert) {
		st = ota_identity_cert_check(p->idcert);
		if (st != OTA_OK)
			return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	}

	flash = malloc(flash_size);
	if (!flash)
		return oti_diag_set(d, OTA_HOST_INTERNAL, NULL, NULL, "out of memory");
	memset(flash, 0xff, flash_size);
	memcpy(flash, &l, sizeof(l));
	for (i = 0; i < OTI_SLOTS; i++) {
		st = place_slot(flash, ota_flash_layout_region(&l, slot_regions[i]), p, i, d);
		if (st != OTA_OK) {
			free(flash);
			return st;
		}
	}

	/*
	 * Both copies valid, copy 1 the newer: the first update then goes to
	 * copy 0 and a device fresh from the factory never depends on one
	 * copy alone.
	 */
	for (i = 0; i < 2; i++) {
		bd.counter = i;
		ota_boot_data_seal(&bd);
		memcpy(flash + ota_flash_layout_region(&l, OTA_REGION_BOOT_DATA_0 + i)->offset, &bd,
		       sizeof(bd));

		memset(&tt, 0, sizeof(tt));
		tt.magic = OTA_TAG_TABLE_MAGIC;
		tt.version = OTA_TAG_TABLE_VERSION;
		tt.size = sizeof(tt);
		tt.sequence = i;
		ota_tag_table_seal(&tt);
		memcpy(flash + ota_flash_layout_region(&l, OTA_REGION_TAG_TABLE_0 + i)->offset, &tt,
		       sizeof(tt));
	}
	if (p->owner)
		memcpy(flash + ota_flash_layout_region(&l, OTA_REGION_OWNER_CONFIG)->offset, p->owner,
		       sizeof(*p->owner));
	if (p->idcert)
		memcpy(flash + ota_flash_layout_region(&l, OTA_REGION_IDENTITY_CERT)->offset,
		       p->idcert, sizeof(*p->idcert));
	*out = flash;
	*out_len = flash_size;
	return OTA_OK;
}
