// SPDX-License-Identifier: MIT
/*
 * The flash layout header at offset 0: where every region lives. Once it
 * passes, region lookups by type are safe: each type exists exactly once,
 * inside the device's flash, page aligned and overlapping nothing.
 */
#include "otattest/flash.h"
#include "otattest/handover.h"

const uint32_t ota_flash_locked_regions[OTA_FLASH_LOCKED_REGION_COUNT] = {
	OTA_REGION_BOOT_DATA_0,  OTA_REGION_BOOT_DATA_1, OTA_REGION_TAG_TABLE_0,
	OTA_REGION_TAG_TABLE_1,  OTA_REGION_OWNER_CONFIG, OTA_REGION_IDENTITY_CERT,
};

static bool regions_overlap(const struct ota_flash_region *a, const struct ota_flash_region *b)
{
	/* Both ranges are known to lie inside the flash: no overflow here. */
	return a->offset < b->offset + b->size && b->offset < a->offset + a->size;
}

static ota_status_t region_check(const struct ota_flash_layout *l,
				 const struct ota_flash_region *r, uint32_t *seen)
{
	if (r->reserved != 0)
		return OTA_LAYOUT_RESERVED_NONZERO;
	if (r->type < 1 || r->type > OTA_REGION_OPTIONAL_MAX || (*seen & (1u << r->type)))
		return OTA_LAYOUT_REGION_MISSING;
	*seen |= 1u << r->type;
	if (r->offset % l->page_size != 0 || r->size % l->page_size != 0)
		return OTA_LAYOUT_REGION_MISALIGNED;
	if (r->size == 0 || !ota_range_ok(r->offset, r->size, l->flash_size))
		return OTA_LAYOUT_REGION_OUT_OF_RANGE;
	/* The identity log holds its header and every entry (handover.h). */
	if (r->type == OTA_REGION_IDENTITY_LOG && r->size < OTA_IDLOG_BYTES)
		return OTA_LAYOUT_REGION_OUT_OF_RANGE;
	/* Page 0 holds the layout itself: erasing a region must never erase it. */
	if (r->offset < l->page_size)
		return OTA_LAYOUT_REGION_OVERLAP;
	return OTA_OK;
}

ota_status_t ota_flash_layout_check(const struct ota_flash_layout *l, uint32_t device_flash_size)
{
	uint32_t seen = 0, i, j;

	if (l->magic != OTA_FLASH_LAYOUT_MAGIC)
		return OTA_LAYOUT_BAD_MAGIC;
	if (l->version != OTA_FLASH_LAYOUT_VERSION)
		return OTA_LAYOUT_BAD_VERSION;
	if (l->size != sizeof(*l))
		return OTA_LAYOUT_BAD_SIZE;
	if (l->reserved != 0 || !ota_all_zero(l->reserved2, sizeof(l->reserved2)))
		return OTA_LAYOUT_RESERVED_NONZERO;
	if (l->page_size != OTA_FLASH_PAGE_SIZE)
		return OTA_LAYOUT_BAD_PAGE_SIZE;
	if (l->flash_size == 0 || l->flash_size % l->page_size != 0 ||
	    l->flash_size > device_flash_size)
		return OTA_LAYOUT_BAD_FLASH_SIZE;
	if (l->region_count < OTA_REGION_TYPE_MAX || l->region_count > OTA_REGION_OPTIONAL_MAX)
		return OTA_LAYOUT_REGION_MISSING;
	for (i = l->region_count; i < OTA_FLASH_MAX_REGIONS; i++)
		if (!ota_all_zero(&l->region[i], sizeof(l->region[i])))
			return OTA_LAYOUT_RESERVED_NONZERO;

	for (i = 0; i < l->region_count; i++)
		OTA_TRY(region_check(l, &l->region[i], &seen));
	/* Every required type, whatever optional ones came instead. */
	if ((seen & (((1u << OTA_REGION_TYPE_MAX) - 1u) << 1)) != ((1u << OTA_REGION_TYPE_MAX) - 1u) << 1)
		return OTA_LAYOUT_REGION_MISSING;
	for (i = 0; i < l->region_count; i++)
		for (j = i + 1; j < l->region_count; j++)
			if (regions_overlap(&l->region[i], &l->region[j]))
				return OTA_LAYOUT_REGION_OVERLAP;
	{
		struct ota_flash_range r[OTA_FLASH_LOCKED_REGION_COUNT + 2];
		uint32_t types[OTA_FLASH_LOCKED_REGION_COUNT + 1];

		for (i = 0; i < OTA_FLASH_LOCKED_REGION_COUNT; i++)
			types[i] = ota_flash_locked_regions[i];
		types[i++] = OTA_FLASH_LOCKED_OPTIONAL;
		if (ota_flash_lock_ranges(l, types, i, r) > OTA_FLASH_LOCKED_RANGES_MAX)
			return OTA_LAYOUT_LOCKS_SCATTERED;
	}
	return OTA_OK;
}

uint32_t ota_flash_lock_ranges(const struct ota_flash_layout *l, const uint32_t *types,
			       uint32_t n, struct ota_flash_range *out)
{
	const struct ota_flash_region *reg;
	struct ota_flash_range t;
	uint32_t count = 1, i, j;

	out[0] = (struct ota_flash_range){ 0, l->page_size }; /* the layout page */
	for (i = 0; i < n && i < OTA_FLASH_MAX_REGIONS; i++) {
		reg = ota_flash_layout_region(l, types[i]);
		if (reg == NULL)
			continue;
		/* Insertion by offset; regions of a checked layout never overlap. */
		for (j = count; j > 0 && out[j - 1].offset > reg->offset; j--)
			out[j] = out[j - 1];
		out[j] = (struct ota_flash_range){ reg->offset, reg->size };
		count++;
	}
	for (i = 0, j = 1; j < count; j++) {
		if (out[i].offset + out[i].size == out[j].offset) {
			out[i].size += out[j].size;
		} else {
			t = out[j];
			out[++i] = t;
		}
	}
	return i + 1;
}

const struct ota_flash_region *ota_flash_layout_region(const struct ota_flash_layout *l,
						       uint32_t type)
{
	uint32_t i;

	for (i = 0; i < l->region_count && i < OTA_FLASH_MAX_REGIONS; i++)
		if (l->region[i].type == type)
			return &l->region[i];
	return NULL;
}
