// SPDX-License-Identifier: MIT
/*
 * The state directory. Each file is replaced as a whole: write a
 * temporary file, fsync it, rename it over the old one, fsync the
 * directory. A process killed at any instant leaves either the old or
 * the new file, never a mix; a machine that crashes loses at most the
 * last write, exactly like a power cut during that flash operation.
 *
 * Retention RAM is volatile memory: its file is renamed into place but
 * not fsynced (losing it in a host crash is a cold boot, which is what a
 * power cut does to retention RAM anyway).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "swhal_priv.h"

static int state_path(char *buf, size_t cap, const char *prefix, const char *name)
{
	int n = snprintf(buf, cap, "%s/%s%s", swhal_dev.dir, prefix, name);

	return (n < 0 || (size_t)n >= cap) ? -ENAMETOOLONG : 0;
}

static int write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int swhal_file_write(const char *name, const void *data, size_t len, bool durable)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	int fd, r;

	if (!swhal_dev.dir)
		return 0;
	if ((r = state_path(path, sizeof(path), "", name)) < 0 ||
	    (r = state_path(tmp, sizeof(tmp), ".tmp.", name)) < 0)
		return r;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	r = write_all(fd, data, len);
	if (r == 0 && durable && !swhal_dev.no_fsync && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	if (durable && !swhal_dev.no_fsync) {
		int dfd = open(swhal_dev.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (dfd < 0)
			return -errno;
		r = fsync(dfd) < 0 ? -errno : 0;
		close(dfd);
	}
	return r;
}

long swhal_file_size(const char *name)
{
	char path[PATH_MAX];
	struct stat st;
	int r;

	if ((r = state_path(path, sizeof(path), "", name)) < 0)
		return r;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size > (off_t)LONG_MAX)
		return -EINVAL;
	return (long)st.st_size;
}

int swhal_file_read(const char *name, void *data, size_t len)
{
	char path[PATH_MAX];
	uint8_t *p = data;
	size_t left = len;
	struct stat st;
	int fd, r = 0;

	if ((r = state_path(path, sizeof(path), "", name)) < 0)
		return r;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != len) {
		close(fd);
		return -EINVAL;
	}
	while (left) {
		ssize_t n = read(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EINVAL;
			break;
		}
		p += n;
		left -= (size_t)n;
	}
	close(fd);
	return r;
}

int swhal_persist_flash(void)
{
	return swhal_file_write("flash.bin", swhal_dev.flash, swhal_dev.flash_size, true);
}

int swhal_persist_otp(void)
{
	return swhal_file_write("otp.bin", &swhal_dev.otp, sizeof(swhal_dev.otp), true);
}

void swhal_persist_retention(void)
{
	/* Best effort: a lost retention file reads as a cold boot. */
	(void)swhal_file_write("retention.bin", &swhal_dev.ret, sizeof(swhal_dev.ret), false);
}
