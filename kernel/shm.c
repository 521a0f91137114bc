// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the device's shared memory (BAR2). The device, or whatever
 * else holds the memory, may write any byte at any time, so everything is
 * copied out first and judged only on the copy, with the same checks
 * userspace and the firmware use (ota_shm_info_validate,
 * ota_record_validate). No length read from BAR2 is used before it is
 * bounded by the region it claims to describe.
 */
#include <linux/delay.h>
#include <linux/io.h>

#include "otattest.h"
#include "parse.h"

/*
 * A writer holds the seqlock for a few hundred nanoseconds; a copy that
 * keeps tearing after this many tries means the device is stuck mid-write
 * or is changing the record on purpose, and the record is refused.
 */
#define OTATTEST_RECORD_TRIES 8
#define OTATTEST_INFO_TRIES 8

/*
 * The info block is a seqlock too, around event_counter: a copy between
 * two equal, even reads of it is consistent (state and detail belong
 * together).
 */
ota_status_t otattest_shm_read_info(struct otattest_device *od, struct ota_shm_info *out)
{
	void __iomem *counter = od->shm + offsetof(struct ota_shm_info, event_counter);
	u32 c, try;

	for (try = 0; try < OTATTEST_INFO_TRIES; try++) {
		if (try)
			usleep_range(20, 100);
		c = readl(counter);
		if (c & 1)
			continue;
		rmb(); /* counter before contents */
		memcpy_fromio(out, od->shm, sizeof(*out));
		rmb(); /* contents before the second counter read */
		if (readl(counter) == c)
			return ota_shm_info_validate(out, od->shm_size);
	}
	/* Not ours at all says more than "torn" (probe of another ivshmem user). */
	memcpy_fromio(out, od->shm, sizeof(*out));
	if (out->magic != OTA_SHM_MAGIC)
		return OTA_SHM_BAD_MAGIC;
	return OTA_DRIVER_INFO_TORN;
}

void otattest_layout_from_info(struct otattest_layout *l, const struct ota_shm_info *info)
{
	l->record_offset = info->record_offset;
	l->record_size = info->record_size;
	l->request_offset = info->request_offset;
	l->request_size = info->request_size;
	l->response_offset = info->response_offset;
	l->response_size = info->response_size;
}

/*
 * The mailbox and record offsets are taken once, at probe. A device that
 * moves them later is refused rather than followed: a request may be in
 * flight at the old place. (The doorbell peer is not in the memory at
 * all: OTA_SHM_DEVICE_PEER_ID.)
 */
ota_status_t otattest_shm_check_layout(const struct otattest_device *od,
				       const struct ota_shm_info *info)
{
	struct otattest_layout now;

	otattest_layout_from_info(&now, info);
	if (memcmp(&now, &od->layout, sizeof(now)))
		return OTA_DRIVER_LAYOUT_CHANGED;
	return OTA_OK;
}

/*
 * Copy the record under the generation seqlock, then validate the copy.
 * Returns OTA_OK with a valid record of *len bytes in *out,
 * OTA_DRIVER_NO_RECORD when the device exports none (length 0), or why
 * the record was refused.
 */
ota_status_t otattest_shm_read_record(struct otattest_device *od, struct ota_record *out,
				      u32 *len)
{
	void __iomem *region = od->shm + od->layout.record_offset;
	struct ota_shm_record rh;
	u32 gen, try, n;

	for (try = 0; try < OTATTEST_RECORD_TRIES; try++) {
		if (try)
			usleep_range(20, 100);
		gen = readl(region + offsetof(struct ota_shm_record, generation));
		if (gen & 1)
			continue; /* writer active */
		rmb(); /* generation before contents */
		memcpy_fromio(&rh, region, sizeof(rh));
		/* Copy only what fits the region and *out; judge after. */
		n = otattest_record_copy_len(&rh, od->layout.record_size);
		if (n)
			memcpy_fromio(out, region + sizeof(rh), n);
		rmb(); /* contents before the second generation read */
		if (readl(region + offsetof(struct ota_shm_record, generation)) != gen)
			continue; /* torn: the device wrote meanwhile */
		*len = rh.length;
		return otattest_record_check(&rh, od->layout.record_size, out);
	}
	return OTA_RECORD_TORN;
}
