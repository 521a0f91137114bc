/* SPDX-License-Identifier: MIT */
/*
 * Reading an install image off the event loop. The descriptor a caller
 * passes may be anything its owner can open for reading: a file on NFS or
 * on a FUSE filesystem that never answers. pread() on such a file blocks
 * in the kernel, uninterruptibly for all the daemon can do, so it runs in
 * a thread of its own, bounded in size (OTA_DAEMON_IMAGE_MAX) and in time
 * (the caller's deadline: the call fails with Timeout and the loop goes
 * on). A thread stuck past its deadline is abandoned, not cancelled: it
 * holds its own copy of the descriptor and its buffer, and frees both if
 * the read ever returns. At most IMAGE_READ_MAX_THREADS readers exist at
 * once, stuck ones included; more are refused with Busy.
 */
#ifndef OTATTESTD_IMAGE_READ_H
#define OTATTESTD_IMAGE_READ_H

#include <stdint.h>

#include <systemd/sd-event.h>

#include "../common/errmap.h"

#define OTA_DAEMON_IMAGE_MAX (1024u * 1024u)
#define IMAGE_READ_MAX_THREADS 4u
#define IMAGE_READ_TIMEOUT_USEC (30ull * 1000000u)

struct image_read;

/*
 * done() is called once, from the loop: with the image (len bytes; the
 * callee takes `image` and frees it) when e is NULL, or with why not.
 */
typedef void (*image_read_done_fn)(void *userdata, uint8_t *image, uint32_t len,
				   const struct ota_err *e);

/*
 * Start reading the regular file fd (dup'd here: the caller keeps fd).
 * Checks the type and size on the loop first (fstat does not block on
 * FUSE's attribute cache... and when it does, the size bound still holds).
 * 0 with *out (cancel it with image_read_abandon when the call goes
 * first), or -errno with e set and done() never called.
 */
int image_read_start(sd_event *event, int fd, uint64_t timeout_usec, image_read_done_fn done,
		     void *userdata, struct image_read **out, struct ota_err *e);

/* The call no longer wants the result: done() is not called; the thread cleans up. */
void image_read_abandon(struct image_read *r);

/* Readers alive (running or stuck), for tests and the log. */
unsigned image_read_threads(void);

#endif /* OTATTESTD_IMAGE_READ_H */
