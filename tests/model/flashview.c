// SPDX-License-Identifier: MIT
/* The record regions of a model's flash; see flashview.h. */
#include "flashview.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
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

bool flashview_blank(const struct flashview *v, unsigned region)
{
	return all_erased(v->page[region], OTA_FLASH_PAGE_SIZE);
}

/* Bytes of p[0, len) that are not erased: what an erase of them changes. */
static uint32_t programmed(const uint8_t *p, uint32_t len)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < len; i++)
		n += p[i] != 0xff;
	return n;
}

__attribute__((format(printf, 3, 4))) static bool mismatch(char *why, size_t cap,
							    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, cap, fmt, ap);
	va_end(ap);
	return false;
}

static bool torn_erase_check(const uint8_t *was, const uint8_t *now, const struct fv_tear *t,
			     char *why, size_t cap)
{
	for (uint32_t i = 0; i < OTA_FLASH_PAGE_SIZE; i++) {
		uint8_t want = i < t->landed ? 0xff : was[i];

		if (now[i] != want)
			return mismatch(why, cap,
					"byte %u reads 0x%02x where the erase leaves 0x%02x "
					"(0x%02x before the operation)",
					i, now[i], want, was[i]);
	}
	if (t->changed != programmed(was, t->landed) || t->of != programmed(was, OTA_FLASH_PAGE_SIZE))
		return mismatch(why, cap,
				"the page held %u programmed bytes, %u of them in the %u that were "
				"erased; the report says changed %u of %u",
				programmed(was, OTA_FLASH_PAGE_SIZE), programmed(was, t->landed),
				t->landed, t->changed, t->of);
	return true;
}

static bool torn_program_check(const struct flashview *after, unsigned region,
			       const struct fv_tear *t, char *why, size_t cap)
{
	const uint8_t *now = after->page[region];

	for (uint32_t i = t->landed; i < OTA_FLASH_PAGE_SIZE; i++)
		if (now[i] != 0xff)
			return mismatch(why, cap,
					"byte %u reads 0x%02x past the %u bytes that landed: the "
					"page was not erased whole before the program",
					i, now[i], t->landed);
	if (programmed(now, t->landed) != t->changed)
		return mismatch(why, cap,
				"the %u bytes that landed hold %u programmed bytes; the report "
				"says changed %u",
				t->landed, programmed(now, t->landed), t->changed);
	if (t->of > t->length || (t->landed == t->length && t->changed != t->of))
		return mismatch(why, cap, "the whole program of %u bytes would change %u",
				t->length, t->of);
	if (t->changed == t->of && !valid_record(after, region))
		return mismatch(why, cap,
				"all the program would change landed, but the page holds no valid "
				"record");
	return true;
}

bool flashview_tear_check(const struct flashview *before, const struct flashview *after,
			  const struct fv_tear *t, char *why, size_t cap)
{
	int region = flashview_region_at(after, t->addr);

	if (region < 0)
		return mismatch(why, cap, "0x%x is not in a boot data or tag table page", t->addr);
	if (t->addr != after->offset[region])
		return mismatch(why, cap, "0x%x is not the start of its page (0x%x)", t->addr,
				after->offset[region]);
	if (t->length > OTA_FLASH_PAGE_SIZE || (t->erase && t->length != OTA_FLASH_PAGE_SIZE) ||
	    t->landed > t->length || t->changed > t->of)
		return mismatch(why, cap, "a report that cannot be: length %u landed %u changed %u of %u",
				t->length, t->landed, t->changed, t->of);
	if (t->erase)
		return torn_erase_check(before->page[region], after->page[region], t, why, cap);
	return torn_program_check(after, (unsigned)region, t, why, cap);
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
