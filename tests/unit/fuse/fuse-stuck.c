// SPDX-License-Identifier: MIT
/*
 * fuse-stuck MOUNTPOINT: a FUSE file system (Debian's fuse3) holding one
 * file, /image, of 4096 bytes, whose every read never answers: what a
 * hung network or user-space file system looks like to a reader.
 * test_daemon_bus_update hands such a file to InstallImage and checks otattestd
 * keeps answering and fails the install with Timeout. Runs in the
 * foreground until SIGTERM (libfuse then unmounts).
 */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fuse.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IMAGE_SIZE 4096

static int stuck_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (!strcmp(path, "/image")) {
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = IMAGE_SIZE;
		return 0;
	}
	return -ENOENT;
}

static int stuck_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/image") != 0)
		return -ENOENT;
	fi->direct_io = 1; /* every read reaches us: no page cache, no readahead */
	return 0;
}

static int stuck_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)path;
	(void)buf;
	(void)size;
	(void)off;
	(void)fi;
	for (;;)
		pause(); /* never answers; the other threads serve getattr and open */
	return -EIO;
}

static const struct fuse_operations ops = {
	.getattr = stuck_getattr,
	.open = stuck_open,
	.read = stuck_read,
};

int main(int argc, char **argv)
{
	return fuse_main(argc, argv, &ops, NULL);
}
