// SPDX-License-Identifier: MIT
/* The record regions of a model's flash; see flashview.h. */
#include "flashview.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const uint32_t region_types[FV_REGIONS] = {
	OTA_REGION_BOOT_DATA_0, OTA_REGION_BOOT_DATA_1,
	OTA_REGION_TAG_TABLE_0, OTA_REGION_TAG_TABLE_1,
};

static int read_at(int fd, uint32_t off, void *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EINVAL;
}

static void pick(struct flashview *v)
{
	struct ota_boot_data bd[2];
	struct ota_tag_table tt[2];

	memcpy(&bd[0], v->page[0], sizeof(bd[0]));
	memcpy(&bd[1], v->page[1], sizeof(bd[1]));
	memcpy(&tt[0], v->page[2], sizeof(tt[0]));
	memcpy(&tt[1], v->page[3], sizeof(tt[1]));
	v->bd_pick = ota_boot_data_pick(bd, NULL);
	v->tt_pick = ota_tag_table_pick(tt, NULL);
	memset(&v->bd, 0, sizeof(v->bd));
	memset(&v->tt, 0, sizeof(v->tt));
	if (v->bd_pick >= 0)
		v->bd = bd[v->bd_pick];
	if (v->tt_pick >= 0)
		v->tt = tt[v->tt_pick];
}

int flashview_read(const char *state_dir, struct flashview *out)
{
	struct ota_flash_layout layout;
	char path[PATH_MAX];
	struct stat st;
	int fd, r;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/flash.bin", state_dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = fstat(fd, &st) < 0 ? -errno : 0;
	if (r == 0 && (st.st_size > UINT32_MAX || st.st_size < (off_t)sizeof(layout)))
		r = -EINVAL;
	if (r == 0)
		r = read_at(fd, 0, &layout, sizeof(layout));
	if (r == 0 && ota_flash_layout_check(&layout, (uint32_t)st.st_size) != OTA_OK)
		r = -EINVAL;
	for (unsigned i = 0; r == 0 && i < FV_REGIONS; i++) {
		out->offset[i] = ota_flash_layout_region(&layout, region_types[i])->offset;
		r = read_at(fd, out->offset[i], out->page[i], OTA_FLASH_PAGE_SIZE);
	}
	close(fd);
	if (r == 0)
		pick(out);
	return r;
}

static bool all_erased(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != 0xff)
			return false;
	return true;
}

static bool valid_record(const struct flashview *v, unsigned region)
{
	if (region < 2) {
		struct ota_boot_data bd;

		memcpy(&bd, v->page[region], sizeof(bd));
		return ota_boot_data_check(&bd) == OTA_OK &&
		       all_erased(v->page[region] + sizeof(bd), OTA_FLASH_PAGE_SIZE - sizeof(bd));
	} else {
		struct ota_tag_table tt;

		memcpy(&tt, v->page[region], sizeof(tt));
		return ota_tag_table_check(&tt) == OTA_OK &&
		       all_erased(v->page[region] + sizeof(tt), OTA_FLASH_PAGE_SIZE - sizeof(tt));
	}
}

enum fv_change flashview_change(const struct flashview *before, const struct flashview *after,
				unsigned region)
{
	if (memcmp(before->page[region], after->page[region], OTA_FLASH_PAGE_SIZE) == 0)
		return FV_SAME;
	if (all_erased(after->page[region], OTA_FLASH_PAGE_SIZE))
		return FV_ERASED;
	return valid_record(after, region) ? FV_RECORD : FV_TORN;
}

unsigned flashview_writes(const struct flashview *before, const struct flashview *after,
			  unsigned *torn)
{
	unsigned writes = 0;

	*torn = 0;
	for (unsigned i = 0; i < FV_REGIONS; i++) {
		enum fv_change c = flashview_change(before, after, i);

		writes += c == FV_ERASED ? 1u : c == FV_RECORD ? 2u : 0u;
		*torn += c == FV_TORN;
	}
	return writes;
}

int flashview_region_at(const struct flashview *v, uint32_t addr)
{
	for (unsigned i = 0; i < FV_REGIONS; i++)
		if (addr >= v->offset[i] && addr - v->offset[i] < OTA_FLASH_PAGE_SIZE)
			return (int)i;
	return -1;
}

const struct ota_tag_entry *flashview_tag(const struct flashview *v, uint32_t stage,
					  uint32_t slot)
{
	if (v->tt_pick < 0 || stage < OTA_STAGE_ROM_EXT || stage > OTA_STAGE_BL0 ||
	    slot >= OTA_SLOT_COUNT)
		return NULL;
	return &v->tt.entry[ota_tag_index(stage, slot)];
}
