// SPDX-License-Identifier: MIT
/*
 * The state directory. Each file is replaced as a whole (libotattest-util's
 * atomic write): write a temporary file, fsync it, rename it over the old
 * one, fsync the directory. A process killed at any instant leaves either
 * the old or the new file, never a mix; a machine that crashes loses at
 * most the last write, exactly like a power cut during that flash
 * operation. The device is the only writer of its directory, so the
 * temporary has a fixed name (".flash.bin.tmp"): a kill mid-write leaves
 * one, which the next write reuses, not one per kill.
 *
 * Retention RAM is volatile memory: its file is renamed into place but
 * not fsynced (losing it in a host crash is a cold boot, which is what a
 * power cut does to retention RAM anyway).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otu/file.h>

#include "swhal_priv.h"

static int state_path(char *buf, size_t cap, const char *name)
{
	int n = snprintf(buf, cap, "%s/%s", swhal_dev.dir, name);

	return (n < 0 || (size_t)n >= cap) ? -ENAMETOOLONG : 0;
}

int swhal_file_write(const char *name, const void *data, size_t len, bool durable)
{
	char path[PATH_MAX];
	unsigned flags = OTU_WRITE_FIXED_TEMP;
	int r;

	if (!swhal_dev.dir)
		return 0;
	if ((r = state_path(path, sizeof(path), name)) < 0)
		return r;
	if (!durable || swhal_dev.no_fsync)
		flags |= OTU_WRITE_NO_SYNC;
	return otu_write_file_atomic(path, data, len, 0600, flags);
}

long swhal_file_size(const char *name)
{
	char path[PATH_MAX];
	struct stat st;
	int r;

	if ((r = state_path(path, sizeof(path), name)) < 0)
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
	uint8_t *buf;
	size_t got;
	int r;

	if ((r = state_path(path, sizeof(path), name)) < 0)
		return r;
	r = otu_read_file(path, len, &buf, &got);
	/* A file of any other size is not this device's state. */
	if (r == -EFBIG || (r == 0 && got != len))
		r = -EINVAL;
	if (r == 0)
		memcpy(data, buf, len);
	free(buf);
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
