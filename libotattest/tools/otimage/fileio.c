// SPDX-License-Identifier: MIT
/*
 * Reading inputs and writing outputs. Outputs go to a temporary file in
 * the target's own directory (so rename is atomic on every filesystem)
 * and are renamed into place only after every output of the command has
 * been written and synced: a command that fails leaves nothing behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "otimage.h"

ota_status_t oti_file_read(const char *path, size_t max, uint8_t **out, size_t *len,
			   struct oti_diag *d)
{
	struct stat sb;
	uint8_t *buf = NULL;
	size_t got = 0;
	int fd;

	*out = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return oti_diag_set(d, OTA_HOST_IO, path, NULL, "%s", strerror(errno));
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		close(fd);
		return oti_diag_set(d, OTA_HOST_IO, path, NULL, "not a regular file");
	}
	if ((uint64_t)sb.st_size > max) {
		close(fd);
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, path, NULL, "%lld bytes, at most %zu",
				    (long long)sb.st_size, max);
	}
	/* One spare byte so a file that grew since fstat is noticed, not truncated. */
	buf = malloc((size_t)sb.st_size + 1);
	if (!buf) {
		close(fd);
		return oti_diag_set(d, OTA_HOST_INTERNAL, path, NULL, "out of memory");
	}
	for (;;) {
		ssize_t n = read(fd, buf + got, (size_t)sb.st_size + 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			free(buf);
			return oti_diag_set(d, OTA_HOST_IO, path, NULL, "%s", strerror(e));
		}
		if (n == 0)
			break;
		got += (size_t)n;
		if (got > (size_t)sb.st_size) {
			close(fd);
			free(buf);
			return oti_diag_set(d, OTA_HOST_IO, path, NULL, "file changed while reading");
		}
	}
	close(fd);
	*out = buf;
	*len = got;
	return OTA_OK;
}

static int write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Temporary file next to path: "<dir>/.<base>.XXXXXX". */
static int temp_for(const char *path, char *tmp, size_t tmp_size)
{
	char a[4096], b[4096];
	int n;

	if (strlen(path) >= sizeof(a))
		return -1;
	strcpy(a, path);
	strcpy(b, path);
	n = snprintf(tmp, tmp_size, "%s/.%s.XXXXXX", dirname(a), basename(b));
	if (n < 0 || (size_t)n >= tmp_size)
		return -1;
	return mkstemp(tmp);
}

static void fsync_dir_of(const char *path)
{
	char a[4096];
	int fd;

	if (strlen(path) >= sizeof(a))
		return;
	strcpy(a, path);
	fd = open(dirname(a), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

#define OTI_MAX_OUTPUTS 4

ota_status_t oti_files_write(const struct oti_output *outs, size_t n, bool force,
			     struct oti_diag *d)
{
	char tmp[OTI_MAX_OUTPUTS][4096];
	size_t i, made = 0;
	ota_status_t st = OTA_OK;

	if (n > OTI_MAX_OUTPUTS)
		return oti_diag_set(d, OTA_HOST_INTERNAL, NULL, NULL, "too many outputs");
	for (i = 0; i < n; i++) {
		if (!force && access(outs[i].path, F_OK) == 0)
			return oti_diag_set(d, OTA_TOOL_EXISTS, outs[i].path, NULL, NULL);
	}

	for (i = 0; i < n; i++) {
		int fd = temp_for(outs[i].path, tmp[i], sizeof(tmp[i]));

		if (fd < 0) {
			st = oti_diag_set(d, OTA_HOST_IO, outs[i].path, NULL, "%s", strerror(errno));
			break;
		}
		made++;
		if (fchmod(fd, outs[i].mode) != 0 || write_all(fd, outs[i].data, outs[i].len) != 0 ||
		    fsync(fd) != 0) {
			st = oti_diag_set(d, OTA_HOST_IO, outs[i].path, NULL, "%s", strerror(errno));
			close(fd);
			break;
		}
		if (close(fd) != 0) {
			st = oti_diag_set(d, OTA_HOST_IO, outs[i].path, NULL, "%s", strerror(errno));
			break;
		}
	}
	if (st != OTA_OK) {
		for (i = 0; i < made; i++)
			unlink(tmp[i]);
		return st;
	}
	for (i = 0; i < n; i++) {
		if (rename(tmp[i], outs[i].path) != 0) {
			st = oti_diag_set(d, OTA_HOST_IO, outs[i].path, NULL, "%s", strerror(errno));
			for (; i < n; i++)
				unlink(tmp[i]);
			return st;
		}
		fsync_dir_of(outs[i].path);
	}
	return OTA_OK;
}
