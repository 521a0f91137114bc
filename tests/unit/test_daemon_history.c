// SPDX-License-Identifier: MIT
/*
 * otattestd's boot history store (daemon/otattestd/history.h): every
 * record kept in order, a restart (close and open again) neither loses
 * nor duplicates one, the bound holds in memory and on disk, a torn or
 * corrupt tail is cut off and the rest kept, a file cut or replaced under
 * an open history is written again, an entry this build cannot
 * read is skipped, queries by device, time and count.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otattest/sha256.h>

#include "../../daemon/otattestd/history.h"
#include "../../daemon/otattestd/log.h"
#include "tu_main.h"
#include "tu_record.h"

static char dir[64];
static char path[128];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/history-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, HISTORY_FILE_NAME);
	log_setup(LOG_TARGET_STDERR, LOG_WARNING);
}

static void teardown(void)
{
	char bad[160];

	snprintf(bad, sizeof(bad), "%s.bad", path);
	unlink(path);
	unlink(bad);
	rmdir(dir);
}

/* A valid one-stage record of device dev (its id's bytes) and generation gen. */
static uint32_t make_record(struct ota_record *r, uint8_t dev, uint32_t gen)
{
	uint32_t len = tu_record_one_stage(r, dev, gen);

	ck_assert_int_eq(ota_record_validate(r, len), OTA_OK);
	return len;
}

static int add(struct history *h, const char *dev_name, uint8_t dev, uint32_t gen, uint64_t t)
{
	struct ota_record r;
	uint32_t len = make_record(&r, dev, gen);

	return history_add(h, dev_name, &r, len, t);
}

struct seen {
	uint32_t gens[64];
	char devs[64][OTA_DEVICE_NAME_MAX];
	uint64_t times[64];
	size_t n;
};

static int collect(const struct history_entry *e, void *userdata)
{
	struct seen *s = userdata;
	const struct ota_record_header *hdr = (const void *)e->record;

	ck_assert_uint_lt(s->n, 64);
	s->gens[s->n] = hdr->generation;
	s->times[s->n] = e->seen_usec;
	snprintf(s->devs[s->n], sizeof(s->devs[s->n]), "%s", e->device);
	s->n++;
	return 0;
}

static uint64_t next_page; /* the last query's */

static struct seen query(const struct history *h, const char *dev, uint64_t since, size_t count)
{
	struct seen s;

	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(history_query(h, dev, since, count, collect, &s, &next_page), 0);
	return s;
}

/* h opened on the test's directory (bound 100) with generations 1..n of one device, seen at step * g. */
static void open_with(struct history *h, uint32_t n, uint64_t step)
{
	uint32_t g;

	ck_assert_int_eq(history_open(h, dir, 100), 0);
	for (g = 1; g <= n; g++)
		ck_assert_int_eq(add(h, "otattest0", 0xaa, g, step * g), 1);
}

/* A restart: the history opened again holds exactly n entries. */
static void reopened_holds(size_t n)
{
	struct history h;

	ck_assert_int_eq(history_open(&h, dir, 100), 0);
	ck_assert_uint_eq(query(&h, NULL, 0, 0).n, n);
	history_close(&h);
}

START_TEST(restart_neither_loses_nor_duplicates)
{
	struct history h;
	struct seen s;
	uint32_t g;

	open_with(&h, 3, 1000);
	/* The same record again (a refresh, an event seen twice): not kept twice. */
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 3, 5000), 0);
	history_close(&h);

	/* A restart: the daemon reads the current record (generation 3) again. */
	ck_assert_int_eq(history_open(&h, dir, 100), 0);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 3, 9000), 0);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 4, 10000), 1);
	s = query(&h, NULL, 0, 0);
	ck_assert_uint_eq(s.n, 4);
	for (g = 0; g < 4; g++)
		ck_assert_uint_eq(s.gens[g], g + 1);
	ck_assert_uint_eq(s.times[2], 3000); /* when it was first seen, not re-seen */
	history_close(&h);

	ck_assert_int_eq(history_open(&h, dir, 100), 0);
	ck_assert_uint_eq(query(&h, NULL, 0, 0).n, 4);
	history_close(&h);
}
END_TEST

START_TEST(devices_kept_apart)
{
	struct history h;
	struct seen s;

	ck_assert_int_eq(history_open(&h, dir, 100), 0);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 1, 10), 1);
	ck_assert_int_eq(add(&h, "otattest1", 0xbb, 1, 20), 1);
	/* Device 0's record again, after device 1's: still its newest, not kept. */
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 1, 30), 0);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 2, 40), 1);
	s = query(&h, "otattest0", 0, 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_str_eq(s.devs[0], "otattest0");
	s = query(&h, "otattest1", 0, 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(query(&h, "", 0, 0).n, 3);
	history_close(&h);
}
END_TEST

/* seen_usec is the page cursor: a clock that steps back cannot make two entries share one. */
START_TEST(seen_times_strictly_increase)
{
	struct history h;
	struct seen s;

	ck_assert_int_eq(history_open(&h, NULL, 100), 0);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 1, 1000), 1);
	ck_assert_int_eq(add(&h, "otattest1", 0xbb, 1, 1000), 1); /* the same instant */
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 2, 10), 1);   /* the clock stepped back */
	s = query(&h, NULL, 0, 0);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_uint_eq(s.times[0], 1000);
	ck_assert_uint_eq(s.times[1], 1001);
	ck_assert_uint_eq(s.times[2], 1002);
	s = query(&h, NULL, 0, 1);
	ck_assert_uint_eq(next_page, 1001);
	s = query(&h, NULL, next_page, 1);
	ck_assert_str_eq(s.devs[0], "otattest1");
	history_close(&h);
}
END_TEST

START_TEST(since_and_limit)
{
	struct history h;
	struct seen s;
	uint32_t g;

	ck_assert_int_eq(history_open(&h, NULL, 100), 0); /* memory only */
	for (g = 1; g <= 10; g++)
		ck_assert_int_eq(add(&h, "otattest0", 0xaa, g, 100 * g), 1);
	s = query(&h, NULL, 500, 0);
	ck_assert_uint_eq(s.n, 6);
	ck_assert_uint_eq(s.gens[0], 5);
	ck_assert_uint_eq(next_page, 0);
	s = query(&h, NULL, 0, 3); /* a page of three, then where the next starts */
	ck_assert_uint_eq(s.n, 3);
	ck_assert_uint_eq(s.gens[0], 1);
	ck_assert_uint_eq(s.gens[2], 3);
	ck_assert_uint_eq(next_page, 400);
	s = query(&h, NULL, 500, 2);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(s.gens[0], 5);
	ck_assert_uint_eq(next_page, 700);
	s = query(&h, NULL, 900, 2); /* the last page */
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(next_page, 0);
	ck_assert_uint_eq(query(&h, NULL, 2000, 0).n, 0);
	history_close(&h);
	ck_assert_int_eq(access(path, F_OK), -1);
}
END_TEST

static off_t file_size(void)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_size;
}

START_TEST(bounded_in_memory_and_on_disk)
{
	size_t entry = sizeof(struct history_disk_header) + sizeof(struct ota_record_header) +
		       sizeof(struct ota_stage_record) + OTA_SHA256_BYTES;
	struct history h;
	struct seen s;
	uint32_t g;

	ck_assert_int_eq(history_open(&h, dir, 8), 0);
	for (g = 1; g <= 40; g++) {
		ck_assert_int_eq(add(&h, "otattest0", 0xaa, g, g), 1);
		/* The file never holds more than max + max / 4 entries. */
		ck_assert_int_le(file_size(), (off_t)(10 * entry));
	}
	s = query(&h, NULL, 0, 0);
	ck_assert_uint_eq(s.n, 8);
	ck_assert_uint_eq(s.gens[0], 33);
	history_close(&h);
	/* Read back: the newest 8, in order. */
	ck_assert_int_eq(history_open(&h, dir, 8), 0);
	s = query(&h, NULL, 0, 0);
	ck_assert_uint_eq(s.n, 8);
	ck_assert_uint_eq(s.gens[0], 33);
	ck_assert_uint_eq(s.gens[7], 40);
	history_close(&h);
}
END_TEST

START_TEST(torn_tail_cut_off_rest_kept)
{
	struct history h;
	off_t full;
	int fd;

	ck_assert_int_eq(history_open(&h, dir, 100), 0);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 1, 1), 1);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 2, 2), 1);
	history_close(&h);
	/* A crash in the middle of the third append. */
	full = file_size();
	fd = open(path, O_WRONLY | O_APPEND);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "OTAH\1\0", 6), 6);
	close(fd);
	ck_assert_int_eq(history_open(&h, dir, 100), 0);
	ck_assert_uint_eq(query(&h, NULL, 0, 0).n, 2);
	/* Repaired on load, so the next append is readable. */
	ck_assert_int_eq(file_size(), full);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 3, 3), 1);
	history_close(&h);
	reopened_holds(3);
}
END_TEST

/*
 * The file cut in the middle of an entry while the history is open (the
 * 2-hour soak's history-truncate fault, when a reader's call had already
 * activated otattestd again): entries added after it must survive the next
 * open. Appended after the torn entry, they were lost there.
 */
START_TEST(file_cut_under_an_open_history_loses_nothing)
{
	struct history h;
	struct seen s;
	uint32_t g;

	open_with(&h, 3, 1);
	ck_assert_int_eq(truncate(path, file_size() - 7), 0);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 4, 4), 1);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 5, 5), 1);
	history_close(&h);

	ck_assert_int_eq(history_open(&h, dir, 100), 0);
	s = query(&h, NULL, 0, 0);
	ck_assert_uint_eq(s.n, 5);
	for (g = 0; g < 5; g++)
		ck_assert_uint_eq(s.gens[g], g + 1);
	history_close(&h);

	/* Replaced by a shorter, whole file: the history written again too. */
	ck_assert_int_eq(history_open(&h, dir, 100), 0);
	ck_assert_int_eq(truncate(path, 0), 0);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 6, 6), 1);
	history_close(&h);
	reopened_holds(6);
}
END_TEST

START_TEST(corrupt_entry_ends_the_file)
{
	struct history h;
	struct seen s;
	off_t one;
	int fd;
	uint8_t b;

	ck_assert_int_eq(history_open(&h, dir, 100), 0);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 1, 1), 1);
	one = file_size();
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 2, 2), 1);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 3, 3), 1);
	history_close(&h);
	/* Flip a bit inside the second entry's record: its digest no longer matches. */
	fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &b, 1, one + 100), 1);
	b ^= 1;
	ck_assert_int_eq(pwrite(fd, &b, 1, one + 100), 1);
	close(fd);
	ck_assert_int_eq(history_open(&h, dir, 100), 0);
	s = query(&h, NULL, 0, 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(s.gens[0], 1);
	ck_assert_int_eq(file_size(), one);
	history_close(&h);
}
END_TEST

/* Write one entry by hand, digest and all, around the given record bytes. */
static void write_raw_entry(int fd, const char *dev, const void *rec, uint32_t len)
{
	struct history_disk_header hdr;
	uint8_t buf[sizeof(hdr) + OTA_RECORD_MAX_BYTES + OTA_SHA256_BYTES];

	memset(&hdr, 0, sizeof(hdr));
	hdr.magic = HISTORY_MAGIC;
	hdr.version = HISTORY_VERSION;
	hdr.header_size = sizeof(hdr);
	hdr.record_len = len;
	hdr.seen_usec = 7;
	snprintf(hdr.device, sizeof(hdr.device), "%s", dev);
	memcpy(buf, &hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), rec, len);
	ota_sha256(buf, sizeof(hdr) + len, buf + sizeof(hdr) + len);
	ck_assert_int_eq(write(fd, buf, sizeof(hdr) + len + OTA_SHA256_BYTES),
			 (ssize_t)(sizeof(hdr) + len + OTA_SHA256_BYTES));
}

START_TEST(unreadable_record_skipped_bad_name_refused)
{
	struct ota_record r;
	struct history h;
	struct seen s;
	uint32_t len;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	len = make_record(&r, 0xaa, 1);
	write_raw_entry(fd, "otattest0", &r, len);
	/* Intact but not a record this build reads (another record version): skipped. */
	len = make_record(&r, 0xaa, 2);
	r.hdr.version = OTA_RECORD_VERSION + 1;
	write_raw_entry(fd, "otattest0", &r, len);
	len = make_record(&r, 0xaa, 3);
	write_raw_entry(fd, "otattest0", &r, len);
	/* Intact digest, but a device name that is none: the file ends there. */
	len = make_record(&r, 0xaa, 4);
	write_raw_entry(fd, "../../etc", &r, len);
	len = make_record(&r, 0xaa, 5);
	write_raw_entry(fd, "otattest0", &r, len);
	close(fd);
	ck_assert_int_eq(history_open(&h, dir, 100), 0);
	s = query(&h, NULL, 0, 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(s.gens[0], 1);
	ck_assert_uint_eq(s.gens[1], 3);
	history_close(&h);
}
END_TEST

START_TEST(oversized_file_set_aside)
{
	char bad[160];
	struct history h;
	int fd;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 64 << 20), 0);
	close(fd);
	ck_assert_int_eq(history_open(&h, dir, 4), 0);
	ck_assert_uint_eq(query(&h, NULL, 0, 0).n, 0);
	snprintf(bad, sizeof(bad), "%s.bad", path);
	ck_assert_int_eq(access(bad, F_OK), 0);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 1, 1), 1);
	history_close(&h);
}
END_TEST

/* A manager that never opened its history (all zero) still keeps records in memory. */
START_TEST(unopened_history_keeps_in_memory)
{
	struct history h;

	memset(&h, 0, sizeof(h));
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 1, 1), 1);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 1, 2), 0);
	ck_assert_int_eq(add(&h, "otattest0", 0xaa, 2, 3), 1);
	ck_assert_uint_eq(query(&h, NULL, 0, 0).n, 2);
	history_close(&h);
}
END_TEST

static Suite *history_suite(void)
{
	Suite *s = suite_create("daemon_history");
	TCase *t = tcase_create("store");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, restart_neither_loses_nor_duplicates);
	tcase_add_test(t, devices_kept_apart);
	tcase_add_test(t, since_and_limit);
	tcase_add_test(t, seen_times_strictly_increase);
	tcase_add_test(t, bounded_in_memory_and_on_disk);
	tcase_add_test(t, torn_tail_cut_off_rest_kept);
	tcase_add_test(t, file_cut_under_an_open_history_loses_nothing);
	tcase_add_test(t, corrupt_entry_ends_the_file);
	tcase_add_test(t, unreadable_record_skipped_bad_name_refused);
	tcase_add_test(t, oversized_file_set_aside);
	tcase_add_test(t, unopened_history_keeps_in_memory);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(history_suite)
