/* SPDX-License-Identifier: MIT */
/*
 * Boot history: every boot record otattestd sees, kept in a bounded file
 * of its own under its StateDirectory= (docs/dbus-api.md, "Boot history",
 * says why not the journal). Served by Manager.GetHistory.
 *
 * A record is identified by its bytes: the device's record generation
 * moves on every change and is never repeated, so the same bytes are the
 * same boot. A record equal to the newest one kept for its device (by
 * device id) is not added again, which is what makes a daemon restart
 * (that reads the record afresh) neither lose nor duplicate an entry.
 *
 * File: entries appended, each a fixed header, the record, and the
 * SHA-256 of both, written with one write() and fdatasync() before the
 * entry counts. Loading keeps every entry up to the first one that is
 * torn or corrupt (a crash mid-append, a disk error) and rewrites the
 * file without it; an intact entry whose record no longer validates (a
 * record format this build refuses) is skipped, not fatal. The file holds
 * at most max + max / 4 entries: past that it is rewritten atomically
 * with the newest max.
 */
#ifndef OTATTESTD_HISTORY_H
#define OTATTESTD_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <otattest/record.h>

#include "../common/dbus-api.h"

#define HISTORY_DEFAULT_MAX 1000u
#define HISTORY_MAX_LIMIT 100000u
/* The most entries one GetHistory page holds (about 1.2 KB each). */
#define HISTORY_PAGE_MAX 64u
#define HISTORY_FILE_NAME "history"
#define HISTORY_MAGIC 0x4841544fu /* "OTAH" */
#define HISTORY_VERSION 1u

/* On disk, little-endian, before each record. */
struct history_disk_header {
	uint32_t magic;
	uint16_t version;
	uint16_t header_size;
	uint32_t record_len;
	uint32_t reserved; /* zero */
	uint64_t seen_usec; /* CLOCK_REALTIME, microseconds */
	char device[OTA_DEVICE_NAME_MAX]; /* NUL-terminated, NUL-padded */
};

struct history_entry {
	/*
	 * The first record of its boot (its stage records differ from the
	 * device's entry before it): not a record that changed within a boot
	 * (an install, a dry run). Worked out as entries are kept, not stored.
	 */
	bool new_boot;
	uint64_t seen_usec;
	char device[OTA_DEVICE_NAME_MAX];
	uint32_t len;
	uint8_t *record;
};

struct history {
	char path[4096]; /* "": kept in memory only */
	struct history_entry *v; /* oldest first */
	size_t n, cap, max;
	size_t file_entries; /* entries the file holds (>= n when it has older ones) */
	uint64_t file_size;
};

/*
 * Open the history in dir (NULL: memory only) and load what it holds.
 * Returns 0; a negative errno only for what leaves no history at all
 * (out of memory). Damage in the file is logged and repaired.
 */
int history_open(struct history *h, const char *dir, size_t max);
void history_close(struct history *h);

/*
 * A record the daemon saw on device (already validated). Returns 1 when
 * kept, 0 when it is the newest entry of its device already, a negative
 * errno when it could not be written (it is then kept in memory).
 */
int history_add(struct history *h, const char *device, const void *record, uint32_t len,
		uint64_t now_usec);

/*
 * The same boot: the same stage records (each check's time and cycles
 * included), which a later record of one boot repeats unchanged.
 */
bool history_same_boot(const struct ota_record *a, const struct ota_record *b);

/*
 * Walk the entries, oldest first, of device (NULL or "": every one) seen
 * at or after since_usec: the first count of them (0: all). *next_usec
 * (when not NULL) is where the next page starts, the seen_usec of the
 * first matching entry not given, or 0 when none is left. Entries' seen_usec
 * strictly increase (history_add), so pages neither skip nor repeat one.
 */
typedef int (*history_fn)(const struct history_entry *e, void *userdata);
int history_query(const struct history *h, const char *device, uint64_t since_usec, size_t count,
		  history_fn fn, void *userdata, uint64_t *next_usec);

#endif /* OTATTESTD_HISTORY_H */
