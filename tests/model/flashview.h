/* SPDX-License-Identifier: MIT */
/*
 * What a stopped (or dead) model's flash holds where boot code writes:
 * both boot data copies and both tag table copies, read from flash.bin in
 * its state directory, with what the next boot will make of them (the
 * copies it picks). The kill test compares a view taken before an
 * operation with one taken after the power cut to see which writes
 * landed whole, and holds the page of a torn write to what the model
 * says landed there.
 */
#ifndef TESTS_MODEL_FLASHVIEW_H
#define TESTS_MODEL_FLASHVIEW_H

#include <stdbool.h>
#include <stddef.h>

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

/*
 * How a region the operation left alone or stored whole compares with
 * before. Not for the region of a torn write: a page can already hold
 * what a tear leaves there (the same prefix, torn by an earlier cut), so
 * whether that one is torn is judged on the flash itself
 * (flashview_tear_check).
 */
enum fv_change {
	FV_SAME,   /* not written, or an erase of a page already blank */
	FV_ERASED, /* erased and not yet programmed: one whole write */
	FV_RECORD, /* a new valid record: erase and program, two whole writes */
	FV_TORN,   /* anything else: a write that stopped part way */
};
enum fv_change flashview_change(const struct flashview *before, const struct flashview *after,
				unsigned region);
/*
 * Whole writes that landed between the views, for flash no write tore (a
 * SIGKILL between writes); *torn counts regions that are none of the
 * above. An erase of a page already blank does not show.
 */
unsigned flashview_writes(const struct flashview *before, const struct flashview *after,
			  unsigned *torn);

/* A write that a power cut stopped, as the model's fault-power-loss line reports it. */
struct fv_tear {
	bool erase;       /* an erase of the page, else a program */
	uint32_t addr;
	uint32_t length;  /* bytes the write covers (the page, for an erase) */
	uint32_t landed;  /* the prefix of them that landed */
	uint32_t changed; /* bytes of flash the landed prefix changed */
	uint32_t of;      /* bytes of flash the whole write would change */
};
/*
 * Whether the torn write's page holds exactly what that write leaves, and
 * the report's counts agree with it. Boot code stores a record as an erase
 * of its page, then a program of the record from the page's start, and an
 * operation stores a page at most once, so:
 *  - a torn erase leaves the page as it was before the operation with its
 *    first `landed` bytes erased; `changed` counts the bytes of that prefix
 *    that were not 0xff before, `of` those of the whole page;
 *  - a torn program comes after a whole erase: the page reads 0xff but for
 *    the first `landed` bytes of the record, `changed` of them not 0xff, and
 *    holds the whole valid record when changed == of.
 * true, or false with what differs in why.
 */
bool flashview_tear_check(const struct flashview *before, const struct flashview *after,
			  const struct fv_tear *t, char *why, size_t cap);
/* Whether a region's page is blank (all 0xff). */
bool flashview_blank(const struct flashview *v, unsigned region);
/* The region (0..FV_REGIONS-1) whose page holds flash offset addr, or -1. */
int flashview_region_at(const struct flashview *v, uint32_t addr);
/* The picked tag table's entry for a stage and slot (NULL when no table is valid). */
const struct ota_tag_entry *flashview_tag(const struct flashview *v, uint32_t stage,
					  uint32_t slot);

#endif /* TESTS_MODEL_FLASHVIEW_H */
