/* SPDX-License-Identifier: MIT */
/*
 * Whole files: read one with a size bound, replace one atomically.
 *
 * Reading never trusts a size it was told: a file (or a pipe, or
 * /dev/stdin) is read to its end but never past max + 1 bytes, so a huge
 * or endless input costs at most that much memory and is refused as
 * -EFBIG rather than cut short.
 *
 * Writing goes to a temporary file in the target's own directory (rename
 * is atomic only within one filesystem), which is synced, renamed over the
 * target, and then the directory is synced so the rename itself survives a
 * crash. A process killed at any instant leaves the old file or the new
 * one, never a mix. Staging and committing are separate steps so a tool
 * that writes several files can write all of them before it replaces any.
 */
#ifndef OTU_FILE_H
#define OTU_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Read all of path into a fresh buffer (free() it) holding *len bytes and
 * a NUL after them, so text can be parsed in place. Returns 0; -EFBIG when
 * it holds more than max bytes (*len is then its size if it is a regular
 * file, else 0: a stream is not read further); -EISDIR; -ENOMEM; or the
 * -errno of open or read. *out is NULL on error.
 */
int otu_read_file(const char *path, size_t max, uint8_t **out, size_t *len);
/* The same from an open descriptor (standard input, say); fd stays open. */
int otu_read_fd(int fd, size_t max, uint8_t **out, size_t *len);

enum otu_write_flags {
	/*
	 * Rename without fsync: still atomic against a killed process, not
	 * against a host crash. For state that is volatile anyway, or tests
	 * on throwaway directories.
	 */
	OTU_WRITE_NO_SYNC = 1u << 0,
	/*
	 * Temporary named ".<name>.tmp" instead of a unique name. Only for a
	 * file with a single writer: a writer killed mid-write leaves one
	 * temporary that its next write reuses, instead of one per kill.
	 */
	OTU_WRITE_FIXED_TEMP = 1u << 1,
};

/* A file written to its temporary, not yet renamed into place. */
struct otu_staged {
	char path[PATH_MAX];
	char tmp[PATH_MAX];
	unsigned flags;
	bool pending;
};

/*
 * Write data to a temporary beside path, with permissions mode (exactly:
 * the umask does not apply), synced unless OTU_WRITE_NO_SYNC. Returns 0
 * or a negative errno; on error nothing is left behind.
 */
int otu_stage_file(struct otu_staged *s, const char *path, const void *data, size_t len,
		   mode_t mode, unsigned flags);
/*
 * Rename the temporary over path, then sync the directory. Returns 0 or a
 * negative errno: a failed rename leaves the old file and removes the
 * temporary; a failed directory sync comes after the new file is in place.
 */
int otu_stage_commit(struct otu_staged *s);
/* Remove a staged temporary that will not be committed; no-op otherwise. */
void otu_stage_discard(struct otu_staged *s);

/* Stage and commit one file. */
int otu_write_file_atomic(const char *path, const void *data, size_t len, mode_t mode,
			  unsigned flags);

#endif /* OTU_FILE_H */
