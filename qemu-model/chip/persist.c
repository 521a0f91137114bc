// SPDX-License-Identifier: MIT
/*
 * The state directory: flash.bin, otp.bin, retention.bin and host.bin.
 *
 * An emulated write changes its file in place: the bytes that write
 * changed, written at their offset with one pwrite on a descriptor kept
 * open, nothing else. A write of a flash page or less (every write the
 * firmware makes, 2 KiB pages aligned to 2 KiB), of OTP (1 KiB) or of
 * retention RAM (800 bytes) lies inside one 4 KiB page of the file, and
 * the kernel copies a page's part of a write into the page cache whole
 * before it looks at a fatal signal: a process killed at any instant
 * leaves each such write all there or not at all, and what a killed
 * process wrote is in the page cache, where the next process reads it.
 * No file is renamed and nothing is flushed per write, so the device's
 * clock runs on device work, not on the host's disk.
 *
 * A host crash (not a process kill) is another matter: the kernel writes
 * dirty pages back on its own schedule (within about 30 s on Linux's
 * defaults), and a clean close flushes flash and OTP; a crash in between
 * can lose the writes not yet written back. Retention RAM is never
 * flushed (losing it is a cold boot, which is what a power cut does to
 * it). The option no_fsync skips the flush at close and the syncs of
 * whole-file replacements.
 *
 * A file is created, or replaced whole (factory programming, a new
 * device, raw pokes), with libotattest-util's atomic write: a temporary
 * written and synced, renamed over the old one, the directory synced; the
 * temporary has a fixed name (".flash.bin.tmp"), since the device is its
 * directory's only writer. Then the in-place descriptor is opened again
 * on the new file. host.bin is always written that way.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otu/file.h>

#include "swhal_priv.h"

/* A file written in place: its descriptor, -1 until the first write. */
struct state_file {
	const char *name;
	int fd;
};

static struct state_file flash_file = { "flash.bin", -1 };
static struct state_file otp_file = { "otp.bin", -1 };
static struct state_file retention_file = { "retention.bin", -1 };

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

static void state_close(struct state_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

/* Replace f whole with image (size bytes), atomically, and open it for writes in place. */
static int state_replace(struct state_file *f, const void *image, size_t size, bool durable)
{
	char path[PATH_MAX];
	int r;

	state_close(f);
	if (!swhal_dev.dir)
		return 0;
	if ((r = state_path(path, sizeof(path), f->name)) < 0 ||
	    (r = swhal_file_write(f->name, image, size, durable)) < 0)
		return r;
	f->fd = open(path, O_WRONLY | O_CLOEXEC);
	return f->fd >= 0 ? 0 : -errno;
}

/*
 * The in-place descriptor of f, whose whole contents are image (size
 * bytes): opened on the existing file when it has that size; a file that
 * is missing or of another size is written whole first. 0 or a negative
 * errno.
 */
static int state_open(struct state_file *f, const void *image, size_t size, bool durable)
{
	char path[PATH_MAX];
	struct stat st;
	int r;

	if (f->fd >= 0)
		return 0;
	if ((r = state_path(path, sizeof(path), f->name)) < 0)
		return r;
	f->fd = open(path, O_WRONLY | O_CLOEXEC);
	if (f->fd >= 0 && fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size == size)
		return 0;
	return state_replace(f, image, size, durable);
}

/* Write bytes [off, off + len) of f's image (size bytes) in place. 0 or a negative errno. */
static int state_write(struct state_file *f, const uint8_t *image, size_t size, size_t off,
		       size_t len)
{
	int r;

	if (!swhal_dev.dir || len == 0)
		return 0;
	if (off > size || len > size - off)
		return -EINVAL;
	if ((r = state_open(f, image, size, true)) < 0)
		return r;
	while (len) {
		ssize_t n = pwrite(f->fd, image + off, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		off += (size_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int swhal_persist_flash(void)
{
	return state_replace(&flash_file, swhal_dev.flash, swhal_dev.flash_size, true);
}

int swhal_persist_flash_range(uint32_t addr, uint32_t len)
{
	return state_write(&flash_file, swhal_dev.flash, swhal_dev.flash_size, addr, len);
}

int swhal_persist_otp(void)
{
	return state_replace(&otp_file, &swhal_dev.otp, sizeof(swhal_dev.otp), true);
}

int swhal_persist_otp_range(uint32_t offset, uint32_t len)
{
	return state_write(&otp_file, (const uint8_t *)&swhal_dev.otp, sizeof(swhal_dev.otp),
			   offset, len);
}

void swhal_persist_retention(void)
{
	/* Best effort: a lost retention file reads as a cold boot. */
	(void)state_write(&retention_file, (const uint8_t *)&swhal_dev.ret, sizeof(swhal_dev.ret),
			  0, sizeof(swhal_dev.ret));
}

void swhal_persist_close(void)
{
	/* A clean stop: what flash and OTP writes left in the page cache goes to disk. */
	if (!swhal_dev.no_fsync) {
		if (flash_file.fd >= 0)
			(void)fdatasync(flash_file.fd);
		if (otp_file.fd >= 0)
			(void)fdatasync(otp_file.fd);
	}
	state_close(&flash_file);
	state_close(&otp_file);
	state_close(&retention_file);
}
