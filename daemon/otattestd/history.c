// SPDX-License-Identifier: MIT
/* The boot history store (history.h). */
#include "history.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otattest/sha256.h>
#include <otu/file.h>

#include "args.h"
#include "log.h"

OTA_STATIC_ASSERT(sizeof(struct history_disk_header) == 56, "history entry header layout");

#define ENTRY_MAX_BYTES (sizeof(struct history_disk_header) + OTA_RECORD_MAX_BYTES + OTA_SHA256_BYTES)

static size_t file_max_entries(const struct history *h)
{
	return h->max + h->max / 4;
}

static void entry_free(struct history_entry *e)
{
	free(e->record);
	e->record = NULL;
}

/* Keep e (its record is taken over), dropping the oldest beyond max. */
static const uint8_t *device_id_of(const uint8_t *record)
{
	return ((const struct ota_record_header *)record)->device_id;
}

bool history_same_boot(const struct ota_record *a, const struct ota_record *b)
{
	return a->hdr.stage_count == b->hdr.stage_count &&
	       memcmp(a->stage, b->stage, a->hdr.stage_count * sizeof(a->stage[0])) == 0;
}

/* Is e the first record of its boot: no earlier entry of its device, or one of another boot? */
static bool starts_a_boot(const struct history *h, const struct history_entry *e)
{
	size_t i;

	for (i = h->n; i-- > 0;) {
		const struct history_entry *p = &h->v[i];

		if (memcmp(device_id_of(p->record), device_id_of(e->record), OTA_DEVICE_ID_BYTES) != 0)
			continue;
		/* Both validated: their stages are whole. */
		return !history_same_boot((const struct ota_record *)p->record,
					  (const struct ota_record *)e->record);
	}
	return true;
}

static int keep(struct history *h, struct history_entry *e)
{
	e->new_boot = starts_a_boot(h, e);
	if (h->n == h->max) {
		entry_free(&h->v[0]);
		memmove(&h->v[0], &h->v[1], (h->n - 1) * sizeof(*h->v));
		h->n--;
	}
	if (h->n == h->cap) {
		size_t ncap = h->cap ? 2 * h->cap : 16;
		struct history_entry *v;

		if (ncap > h->max)
			ncap = h->max;
		v = realloc(h->v, ncap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		h->v = v;
		h->cap = ncap;
	}
	h->v[h->n++] = *e;
	return 0;
}

static bool device_name_ok(const char *name, size_t size)
{
	struct ota_err e;
	uint32_t index;

	if (!memchr(name, '\0', size))
		return false;
	ota_err_clear(&e);
	return args_parse_device_name(name, &index, &e);
}

static void encode(uint8_t *out, const struct history_entry *e)
{
	struct history_disk_header hdr;

	memset(&hdr, 0, sizeof(hdr));
	hdr.magic = HISTORY_MAGIC;
	hdr.version = HISTORY_VERSION;
	hdr.header_size = sizeof(hdr);
	hdr.record_len = e->len;
	hdr.seen_usec = e->seen_usec;
	memcpy(hdr.device, e->device, sizeof(hdr.device));
	memcpy(out, &hdr, sizeof(hdr));
	memcpy(out + sizeof(hdr), e->record, e->len);
	ota_sha256(out, sizeof(hdr) + e->len, out + sizeof(hdr) + e->len);
}

static size_t encoded_size(const struct history_entry *e)
{
	return sizeof(struct history_disk_header) + e->len + OTA_SHA256_BYTES;
}

/*
 * One entry at buf (avail bytes). Returns its size and fills e (a fresh
 * record copy) when intact and valid; 0 with e->record NULL when intact
 * but its record does not validate (skipped); -EBADMSG when torn or
 * corrupt (the file ends there).
 */
static ssize_t decode(const uint8_t *buf, size_t avail, struct history_entry *e)
{
	struct history_disk_header hdr;
	uint8_t digest[OTA_SHA256_BYTES];
	struct ota_record rec;
	size_t size;

	memset(e, 0, sizeof(*e));
	if (avail < sizeof(hdr))
		return -EBADMSG;
	memcpy(&hdr, buf, sizeof(hdr));
	if (hdr.magic != HISTORY_MAGIC || hdr.version != HISTORY_VERSION ||
	    hdr.header_size != sizeof(hdr) || hdr.reserved != 0 ||
	    hdr.record_len < sizeof(struct ota_record_header) || hdr.record_len > OTA_RECORD_MAX_BYTES)
		return -EBADMSG;
	size = sizeof(hdr) + hdr.record_len + OTA_SHA256_BYTES;
	if (avail < size)
		return -EBADMSG;
	ota_sha256(buf, sizeof(hdr) + hdr.record_len, digest);
	if (memcmp(digest, buf + sizeof(hdr) + hdr.record_len, sizeof(digest)) != 0 ||
	    !device_name_ok(hdr.device, sizeof(hdr.device)))
		return -EBADMSG;
	memset(&rec, 0, sizeof(rec));
	memcpy(&rec, buf + sizeof(hdr), hdr.record_len);
	if (ota_record_validate(&rec, hdr.record_len) != OTA_OK)
		return (ssize_t)size; /* intact, but not a record this build reads */
	e->record = malloc(hdr.record_len);
	if (!e->record)
		return -ENOMEM;
	memcpy(e->record, &rec, hdr.record_len);
	e->len = hdr.record_len;
	e->seen_usec = hdr.seen_usec;
	memcpy(e->device, hdr.device, sizeof(e->device));
	return (ssize_t)size;
}

/* Replace the file with the entries kept in memory (atomically). */
static int rewrite(struct history *h)
{
	size_t i, len = 0, off = 0;
	uint8_t *buf;
	int r;

	if (!h->path[0])
		return 0;
	for (i = 0; i < h->n; i++)
		len += encoded_size(&h->v[i]);
	buf = malloc(len ? len : 1);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < h->n; i++) {
		encode(buf + off, &h->v[i]);
		off += encoded_size(&h->v[i]);
	}
	r = otu_write_file_atomic(h->path, buf, len, 0600, 0);
	free(buf);
	if (r < 0)
		return r;
	h->file_entries = h->n;
	h->file_size = len;
	return 0;
}

static int load(struct history *h)
{
	size_t bound = (file_max_entries(h) + 1) * ENTRY_MAX_BYTES, off = 0, read_ok = 0;
	uint8_t *buf = NULL;
	size_t len = 0;
	bool damaged = false;
	int r;

	r = otu_read_file(h->path, bound, &buf, &len);
	if (r == -ENOENT)
		return 0;
	if (r == -EFBIG) {
		/* Not written by us within our bound: set aside, start afresh. */
		char aside[sizeof(h->path) + 8];

		snprintf(aside, sizeof(aside), "%s.bad", h->path);
		log_warning("%s is larger than its bound (%zu bytes); moved to %s, history starts empty",
			    h->path, bound, aside);
		if (rename(h->path, aside) < 0)
			return -errno;
		return 0;
	}
	if (r < 0)
		return r;
	while (off < len) {
		struct history_entry e;
		ssize_t n = decode(buf + off, len - off, &e);

		if (n == -ENOMEM) {
			free(buf);
			return -ENOMEM;
		}
		if (n < 0) {
			log_warning("%s: entry at byte %zu is torn or corrupt; keeping the %zu entries before it",
				    h->path, off, read_ok);
			damaged = true;
			break;
		}
		off += (size_t)n;
		read_ok++;
		if (!e.record) {
			log_notice("%s: skipping an entry whose record this otattestd does not read", h->path);
			continue;
		}
		if (keep(h, &e) < 0) {
			entry_free(&e);
			free(buf);
			return -ENOMEM;
		}
	}
	free(buf);
	h->file_entries = read_ok;
	h->file_size = off;
	if (damaged || read_ok > file_max_entries(h)) {
		r = rewrite(h);
		if (r < 0)
			log_warning_errno(r, "cannot rewrite %s: %m", h->path);
	}
	return 0;
}

int history_open(struct history *h, const char *dir, size_t max)
{
	int r;

	memset(h, 0, sizeof(*h));
	h->max = max ? max : HISTORY_DEFAULT_MAX;
	if (!dir || !*dir) {
		log_notice("no state directory: the boot history is kept in memory only");
		return 0;
	}
	if (snprintf(h->path, sizeof(h->path), "%s/%s", dir, HISTORY_FILE_NAME) >= (int)sizeof(h->path))
		return -ENAMETOOLONG;
	r = load(h);
	if (r < 0 && r != -ENOMEM) {
		log_warning_errno(r, "cannot read %s, the boot history starts empty: %m", h->path);
		r = 0;
	}
	return r;
}

void history_close(struct history *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		entry_free(&h->v[i]);
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}


static bool is_newest_of_its_device(const struct history *h, const void *record, uint32_t len)
{
	size_t i;

	for (i = h->n; i-- > 0;) {
		const struct history_entry *e = &h->v[i];

		if (memcmp(device_id_of(e->record), device_id_of(record), OTA_DEVICE_ID_BYTES) != 0)
			continue;
		return e->len == len && memcmp(e->record, record, len) == 0;
	}
	return false;
}

/* One write of the whole entry; a short or failed one is cut off again. */
static int append(struct history *h, const struct history_entry *e)
{
	size_t size = encoded_size(e);
	uint8_t *buf = malloc(size);
	struct stat st;
	ssize_t w;
	int fd, r = 0;

	if (!buf)
		return -ENOMEM;
	encode(buf, e);
	fd = open(h->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	if (fstat(fd, &st) < 0) {
		r = -errno;
	} else if ((uint64_t)st.st_size != h->file_size) {
		/*
		 * Not the file this otattestd wrote: cut or replaced under it. An
		 * entry appended after a cut in the middle of another would be
		 * invisible to the next load, which stops at the torn one.
		 */
		r = -ESTALE;
	} else {
		w = write(fd, buf, size);
		if (w != (ssize_t)size)
			r = w < 0 ? -errno : -EIO;
		else if (fdatasync(fd) < 0)
			r = -errno;
		if (r < 0 && ftruncate(fd, st.st_size) < 0)
			log_warning("cannot cut %s back to %lld bytes after a failed write", h->path,
				    (long long)st.st_size);
		if (r == 0) {
			h->file_size = (uint64_t)st.st_size + size;
			h->file_entries++;
		}
	}
	close(fd);
	free(buf);
	return r;
}

int history_add(struct history *h, const char *device, const void *record, uint32_t len,
		uint64_t now_usec)
{
	struct history_entry e;
	int r;

	if (len < sizeof(struct ota_record_header) || len > OTA_RECORD_MAX_BYTES)
		return -EINVAL;
	/* A history never opened (all zero, as a test's manager): in memory, default bound. */
	if (!h->max)
		h->max = HISTORY_DEFAULT_MAX;
	if (is_newest_of_its_device(h, record, len))
		return 0;
	memset(&e, 0, sizeof(e));
	/*
	 * Strictly after the newest entry, even when the clock stepped back:
	 * seen_usec is GetHistory's page cursor, so no two entries share one.
	 */
	if (h->n && now_usec <= h->v[h->n - 1].seen_usec)
		now_usec = h->v[h->n - 1].seen_usec + 1;
	e.seen_usec = now_usec;
	snprintf(e.device, sizeof(e.device), "%s", device);
	e.len = len;
	e.record = malloc(len);
	if (!e.record)
		return -ENOMEM;
	memcpy(e.record, record, len);
	r = keep(h, &e);
	if (r < 0) {
		entry_free(&e);
		return r;
	}
	if (!h->path[0])
		return 1;
	if (h->file_entries + 1 > file_max_entries(h))
		r = rewrite(h);
	else
		r = append(h, &h->v[h->n - 1]);
	if (r == -ESTALE) {
		log_warning("%s changed under otattestd (not the %llu bytes it wrote); written again from the %zu entries it holds",
			    h->path, (unsigned long long)h->file_size, h->n);
		r = rewrite(h);
	}
	return r < 0 ? r : 1;
}

int history_query(const struct history *h, const char *device, uint64_t since_usec, size_t count,
		  history_fn fn, void *userdata, uint64_t *next_usec)
{
	size_t i, given = 0;
	int r;

	if (next_usec)
		*next_usec = 0;
	for (i = 0; i < h->n; i++) {
		const struct history_entry *e = &h->v[i];

		if (e->seen_usec < since_usec || (device && *device && strcmp(e->device, device) != 0))
			continue;
		if (count && given == count) {
			/* seen_usec strictly increases (history_add): the next page starts here. */
			if (next_usec)
				*next_usec = e->seen_usec;
			break;
		}
		r = fn(e, userdata);
		if (r < 0)
			return r;
		given++;
	}
	return 0;
}
