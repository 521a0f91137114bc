// SPDX-License-Identifier: MIT
#include <otu/file.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* First buffer for a stream, whose size nobody states. */
#define STREAM_FIRST_BYTES (64u * 1024u)

int otu_read_fd(int fd, size_t max, uint8_t **out, size_t *len)
{
	size_t got = 0, cap, limit;
	uint8_t *buf, *grown;
	struct stat st;

	*out = NULL;
	*len = 0;
	/* One byte past max tells "exactly max" from "more"; one more for the NUL. */
	if (max > SIZE_MAX - 2)
		return -EINVAL;
	limit = max + 1;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		*len = (size_t)st.st_size;
		return -EFBIG;
	}
	/* A regular file's size is only a first guess: it may grow, and /proc says 0. */
	cap = S_ISREG(st.st_mode) && st.st_size > 0 ? (size_t)st.st_size + 1 : STREAM_FIRST_BYTES;
	if (cap > limit)
		cap = limit;
	buf = malloc(cap + 1);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (got == cap) {
			if (cap == limit)
				break;
			cap = cap > limit / 2 ? limit : cap * 2;
			grown = realloc(buf, cap + 1);
			if (!grown) {
				free(buf);
				return -ENOMEM;
			}
			buf = grown;
		}
		n = read(fd, buf + got, cap - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			return -e;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got > max) {
		free(buf);
		if (S_ISREG(st.st_mode) && fstat(fd, &st) == 0)
			*len = (size_t)st.st_size;
		return -EFBIG;
	}
	buf[got] = '\0';
	*out = buf;
	*len = got;
	return 0;
}

int otu_read_file(const char *path, size_t max, uint8_t **out, size_t *len)
{
	int fd, r;

	*out = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	r = otu_read_fd(fd, max, out, len);
	close(fd);
	return r;
}
