// SPDX-License-Identifier: MIT
/*
 * libotattest-util files: bounded reads of files and streams, atomic
 * replacement that leaves the old file or the new one and no temporary.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <otu/file.h>

#include "testutil.h"
#include "tu_main.h"

static char *dir;

static void setup(void)
{
	dir = tu_mkdtemp();
}

static void teardown(void)
{
	tu_rmdir_state(dir);
}

static void path_in(char *buf, size_t cap, const char *name)
{
	ck_assert_int_lt(snprintf(buf, cap, "%s/%s", dir, name), (int)cap);
}

static void put(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* Entries of dir other than . and .., and whether one is a hidden temporary. */
static int entries(bool *hidden)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	*hidden = false;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n++;
		*hidden |= e->d_name[0] == '.';
	}
	closedir(d);
	return n;
}

START_TEST(read_whole_file_nul_terminated)
{
	char path[4200];
	uint8_t *buf = NULL;
	size_t len = 0;

	path_in(path, sizeof(path), "a");
	put(path, "hello", 5);
	ck_assert_int_eq(otu_read_file(path, 5, &buf, &len), 0); /* exactly max */
	ck_assert_uint_eq(len, 5);
	ck_assert_str_eq((char *)buf, "hello");
	free(buf);
	put(path, "", 0);
	ck_assert_int_eq(otu_read_file(path, 5, &buf, &len), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(buf[0], 0);
	free(buf);
}
END_TEST

START_TEST(read_refuses_more_than_max_with_its_size)
{
	char path[4200];
	uint8_t *buf = (uint8_t *)"x";
	size_t len = 0;

	path_in(path, sizeof(path), "big");
	put(path, "0123456789", 10);
	ck_assert_int_eq(otu_read_file(path, 9, &buf, &len), -EFBIG);
	ck_assert_ptr_null(buf);
	ck_assert_uint_eq(len, 10); /* for the message: "10 bytes, at most 9" */
}
END_TEST

START_TEST(read_errors_are_errno)
{
	char path[4200];
	uint8_t *buf;
	size_t len;

	path_in(path, sizeof(path), "missing");
	ck_assert_int_eq(otu_read_file(path, 10, &buf, &len), -ENOENT);
	ck_assert_ptr_null(buf);
	ck_assert_int_eq(otu_read_file(dir, 10, &buf, &len), -EISDIR);
	ck_assert_int_eq(otu_read_file(path, SIZE_MAX, &buf, &len), -ENOENT);
}
END_TEST

/* A writer of n bytes into a pipe, as a child process; the read end for us. */
static int pipe_of(size_t n, pid_t *child)
{
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	*child = fork();
	ck_assert_int_ge(*child, 0);
	if (*child == 0) {
		static char block[4096];
		size_t left = n;

		close(p[0]);
		memset(block, 'p', sizeof(block));
		while (left) {
			ssize_t w = write(p[1], block, left < sizeof(block) ? left : sizeof(block));

			if (w <= 0)
				_exit(0); /* the reader stopped: that is its right */
			left -= (size_t)w;
		}
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

START_TEST(read_stream_bounded)
{
	uint8_t *buf;
	size_t len;
	pid_t child;
	int fd;

	/* A stream has no size to check first: it is read to max + 1 bytes at most. */
	fd = pipe_of(200000, &child);
	ck_assert_int_eq(otu_read_fd(fd, 199999, &buf, &len), -EFBIG);
	ck_assert_uint_eq(len, 0);
	close(fd);
	waitpid(child, NULL, 0);

	fd = pipe_of(200000, &child);
	ck_assert_int_eq(otu_read_fd(fd, 200000, &buf, &len), 0);
	ck_assert_uint_eq(len, 200000);
	ck_assert_int_eq(buf[199999], 'p');
	ck_assert_int_eq(buf[200000], 0);
	free(buf);
	close(fd);
	waitpid(child, NULL, 0);
}
END_TEST

START_TEST(read_proc_file_that_says_size_zero)
{
	uint8_t *buf;
	size_t len;

	ck_assert_int_eq(otu_read_file("/proc/self/status", 1 << 20, &buf, &len), 0);
	ck_assert_uint_gt(len, 0);
	ck_assert_ptr_nonnull(strstr((char *)buf, "Pid:"));
	free(buf);
}
END_TEST

START_TEST(write_replaces_with_exact_mode_and_no_temporary)
{
	char path[4200];
	uint8_t *buf;
	size_t len;
	struct stat st;
	bool hidden;
	mode_t old = umask(077);

	path_in(path, sizeof(path), "out.prom");
	ck_assert_int_eq(otu_write_file_atomic(path, "first\n", 6, 0644, 0), 0);
	ck_assert_int_eq(otu_write_file_atomic(path, "second\n", 7, 0644, 0), 0);
	umask(old);
	ck_assert_int_eq(otu_read_file(path, 100, &buf, &len), 0);
	ck_assert_str_eq((char *)buf, "second\n");
	free(buf);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0644); /* the umask did not apply */
	ck_assert_int_eq(entries(&hidden), 1);
	ck_assert(!hidden);
}
END_TEST

START_TEST(write_into_missing_directory_fails_cleanly)
{
	char path[4200];
	bool hidden;

	path_in(path, sizeof(path), "no/such/file");
	ck_assert_int_eq(otu_write_file_atomic(path, "x", 1, 0600, 0), -ENOENT);
	ck_assert_int_eq(otu_write_file_atomic("", "x", 1, 0600, 0), -EISDIR);
	path_in(path, sizeof(path), "dir/");
	ck_assert_int_eq(otu_write_file_atomic(path, "x", 1, 0600, 0), -EISDIR);
	ck_assert_int_eq(entries(&hidden), 0);
}
END_TEST

START_TEST(write_over_a_directory_leaves_no_temporary)
{
	char path[4200];
	bool hidden;

	path_in(path, sizeof(path), "sub");
	ck_assert_int_eq(mkdir(path, 0700), 0);
	ck_assert_int_eq(otu_write_file_atomic(path, "x", 1, 0600, 0), -EISDIR);
	ck_assert_int_eq(entries(&hidden), 1);
	ck_assert(!hidden);
	ck_assert_int_eq(rmdir(path), 0);
}
END_TEST

START_TEST(stage_all_then_commit_or_discard)
{
	struct otu_staged a, b;
	char pa[4200], pb[4200];
	uint8_t *buf;
	size_t len;
	bool hidden;

	path_in(pa, sizeof(pa), "a");
	path_in(pb, sizeof(pb), "b");
	put(pa, "old", 3);
	ck_assert_int_eq(otu_stage_file(&a, pa, "new-a", 5, 0600, 0), 0);
	ck_assert_int_eq(otu_stage_file(&b, pb, "new-b", 5, 0600, 0), 0);
	/* Staged, not committed: the old file is still what readers see. */
	ck_assert_int_eq(otu_read_file(pa, 100, &buf, &len), 0);
	ck_assert_str_eq((char *)buf, "old");
	free(buf);
	ck_assert_int_eq(entries(&hidden), 3);
	ck_assert(hidden);
	otu_stage_discard(&a);
	otu_stage_discard(&a); /* twice is harmless */
	ck_assert_int_eq(otu_stage_commit(&a), -EINVAL);
	ck_assert_int_eq(otu_stage_commit(&b), 0);
	ck_assert_int_eq(otu_read_file(pa, 100, &buf, &len), 0);
	ck_assert_str_eq((char *)buf, "old");
	free(buf);
	ck_assert_int_eq(otu_read_file(pb, 100, &buf, &len), 0);
	ck_assert_str_eq((char *)buf, "new-b");
	free(buf);
	ck_assert_int_eq(entries(&hidden), 2);
	ck_assert(!hidden);
}
END_TEST

START_TEST(fixed_temporary_is_reused_not_piled_up)
{
	char path[4200], stale[4200];
	uint8_t *buf;
	size_t len;
	bool hidden;

	path_in(path, sizeof(path), "flash.bin");
	path_in(stale, sizeof(stale), ".flash.bin.tmp");
	/* What a writer killed mid-write leaves: a partial temporary. */
	put(stale, "partial-garbage-longer-than-the-file", 36);
	ck_assert_int_eq(otu_write_file_atomic(path, "abc", 3, 0600,
					       OTU_WRITE_FIXED_TEMP | OTU_WRITE_NO_SYNC), 0);
	ck_assert_int_eq(otu_read_file(path, 100, &buf, &len), 0);
	ck_assert_uint_eq(len, 3);
	ck_assert_int_eq(memcmp(buf, "abc", 3), 0);
	free(buf);
	ck_assert_int_eq(entries(&hidden), 1);
	ck_assert(!hidden);
	/* A symlink planted as the temporary is not followed. */
	ck_assert_int_eq(symlink("/etc/passwd", stale), 0);
	ck_assert_int_eq(otu_write_file_atomic(path, "x", 1, 0600, OTU_WRITE_FIXED_TEMP), -ELOOP);
}
END_TEST

/*
 * A writer killed at a random instant, many times: the file is always
 * the old contents or the new, whole, never a mix or a short file.
 */
START_TEST(killed_writer_leaves_old_or_new)
{
	enum { SIZE = 1 << 20, ROUNDS = 20 };
	char path[4200];
	uint8_t *a = malloc(SIZE), *b = malloc(SIZE), *buf;
	size_t len;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	memset(a, 'a', SIZE);
	memset(b, 'b', SIZE);
	path_in(path, sizeof(path), "state");
	ck_assert_int_eq(otu_write_file_atomic(path, a, SIZE, 0600, OTU_WRITE_NO_SYNC), 0);
	srand((unsigned)time(NULL));
	for (int round = 0; round < ROUNDS; round++) {
		struct timespec pause = { 0, (rand() % 3000) * 1000L };
		pid_t child = fork();

		ck_assert_int_ge(child, 0);
		if (child == 0) {
			for (unsigned i = 0;; i++)
				otu_write_file_atomic(path, i % 2 ? a : b, SIZE, 0600, OTU_WRITE_NO_SYNC);
		}
		nanosleep(&pause, NULL);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		ck_assert_int_eq(otu_read_file(path, SIZE, &buf, &len), 0);
		ck_assert_uint_eq(len, SIZE);
		ck_assert(memcmp(buf, a, SIZE) == 0 || memcmp(buf, b, SIZE) == 0);
		free(buf);
	}
	free(a);
	free(b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("util_file");
	TCase *rd = tcase_create("read"), *wr = tcase_create("write");

	tcase_add_checked_fixture(rd, setup, teardown);
	tcase_add_checked_fixture(wr, setup, teardown);
	tcase_add_test(rd, read_whole_file_nul_terminated);
	tcase_add_test(rd, read_refuses_more_than_max_with_its_size);
	tcase_add_test(rd, read_errors_are_errno);
	tcase_add_test(rd, read_stream_bounded);
	tcase_add_test(rd, read_proc_file_that_says_size_zero);
	tcase_add_test(wr, write_replaces_with_exact_mode_and_no_temporary);
	tcase_add_test(wr, write_into_missing_directory_fails_cleanly);
	tcase_add_test(wr, write_over_a_directory_leaves_no_temporary);
	tcase_add_test(wr, stage_all_then_commit_or_discard);
	tcase_add_test(wr, fixed_temporary_is_reused_not_piled_up);
	tcase_add_test(wr, killed_writer_leaves_old_or_new);
	tcase_set_timeout(wr, 60);
	suite_add_tcase(s, rd);
	suite_add_tcase(s, wr);
	return s;
}

OTA_TEST_MAIN(suite)
