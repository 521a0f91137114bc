// SPDX-License-Identifier: MIT
#include <otu/file.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* "<dir>/.<name>.XXXXXX" or "<dir>/.<name>.tmp": hidden, in the target's directory. */
static int temp_name(char *tmp, size_t cap, const char *path, unsigned flags)
{
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	int dir_len = slash ? (int)(name - path) : 0, n;

	if (*name == '\0')
		return -EISDIR;
	n = snprintf(tmp, cap, "%.*s.%s.%s", dir_len, path, name,
		     flags & OTU_WRITE_FIXED_TEMP ? "tmp" : "XXXXXX");
	return n < 0 || (size_t)n >= cap ? -ENAMETOOLONG : 0;
}

static int open_temp(char *tmp, mode_t mode, unsigned flags)
{
	if (flags & OTU_WRITE_FIXED_TEMP)
		return open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
	return mkostemp(tmp, O_CLOEXEC);
}

int otu_stage_file(struct otu_staged *s, const char *path, const void *data, size_t len,
		   mode_t mode, unsigned flags)
{
	int fd, r;

	memset(s, 0, sizeof(*s));
	if (strlen(path) >= sizeof(s->path))
		return -ENAMETOOLONG;
	r = temp_name(s->tmp, sizeof(s->tmp), path, flags);
	if (r < 0)
		return r;
	strcpy(s->path, path);
	s->flags = flags;
	fd = open_temp(s->tmp, mode, flags);
	if (fd < 0)
		return -errno;
	r = write_all(fd, data, len);
	/* mkostemp makes 0600 and open applies the umask: set what was asked. */
	if (r == 0 && fchmod(fd, mode) < 0)
		r = -errno;
	if (r == 0 && !(flags & OTU_WRITE_NO_SYNC) && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0) {
		unlink(s->tmp);
		return r;
	}
	s->pending = true;
	return 0;
}

static int sync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int fd, r = 0;

	if (!slash)
		strcpy(dir, ".");
	else if (slash == path)
		strcpy(dir, "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0)
		r = -errno;
	close(fd);
	return r;
}

int otu_stage_commit(struct otu_staged *s)
{
	if (!s->pending)
		return -EINVAL;
	s->pending = false;
	if (rename(s->tmp, s->path) < 0) {
		int e = errno;

		unlink(s->tmp);
		return -e;
	}
	return s->flags & OTU_WRITE_NO_SYNC ? 0 : sync_dir_of(s->path);
}

void otu_stage_discard(struct otu_staged *s)
{
	if (s->pending)
		unlink(s->tmp);
	s->pending = false;
}

int otu_write_file_atomic(const char *path, const void *data, size_t len, mode_t mode,
			  unsigned flags)
{
	struct otu_staged s;
	int r = otu_stage_file(&s, path, data, len, mode, flags);

	return r < 0 ? r : otu_stage_commit(&s);
}
