/* SPDX-License-Identifier: MIT */
/*
 * What a stopped (or dead) model's flash holds where boot code writes:
 * both boot data copies and both tag table copies, read from flash.bin in
 * its state directory, with what the next boot will make of them (the
 * copies it picks). The kill test compares a view taken before an
 * operation with one taken after the power cut to see which writes
 * landed whole and whether one was left torn.
 */
#ifndef TESTS_MODEL_FLASHVIEW_H
#define TESTS_MODEL_FLASHVIEW_H

#include <otattest/flash.h>

#define FV_REGIONS 4u /* BOOT_DATA_0, BOOT_DATA_1, TAG_TABLE_0, TAG_TABLE_1 */

struct flashview {
	uint32_t offset[FV_REGIONS];
	uint8_t page[FV_REGIONS][OTA_FLASH_PAGE_SIZE];
	/* The copies the next boot reads: -1 when neither is valid. */
	int bd_pick;
	int tt_pick;
	struct ota_boot_data bd; /* the picked copy, zero when none */
	struct ota_tag_table tt; /* likewise */
};

/* Read DIR/flash.bin. 0, or -errno (-EINVAL: no valid layout). */
int flashview_read(const char *state_dir, struct flashview *out);

enum fv_change {
	FV_SAME,   /* not written, or written back exactly as it was */
	FV_ERASED, /* erased and not yet programmed: one whole write */
	FV_RECORD, /* a new valid record: erase and program, two whole writes */
	FV_TORN,   /* anything else: a write that stopped part way */
};
enum fv_change flashview_change(const struct flashview *before, const struct flashview *after,
				unsigned region);
/* Whole writes that landed between the views; *torn counts regions left torn. */
unsigned flashview_writes(const struct flashview *before, const struct flashview *after,
			  unsigned *torn);
/* The region (0..FV_REGIONS-1) whose page holds flash offset addr, or -1. */
int flashview_region_at(const struct flashview *v, uint32_t addr);
/* The picked tag table's entry for a stage and slot (NULL when no table is valid). */
const struct ota_tag_entry *flashview_tag(const struct flashview *v, uint32_t stage,
					  uint32_t slot);

#endif /* TESTS_MODEL_FLASHVIEW_H */
