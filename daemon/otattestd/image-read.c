// SPDX-License-Identifier: MIT
#include "image-read.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/macro.h"

struct image_read {
	int refs; /* the loop's and the thread's */
	int fd;   /* our own copy of the caller's descriptor */
	int efd;  /* the thread says "done" here */
	sd_event_source *io, *timer;
	uint64_t timeout_usec;
	image_read_done_fn done;
	void *userdata;
	/* Written by the thread before it signals, read by the loop after. */
	uint8_t *image;
	uint32_t len;
	bool failed;
	struct ota_err err;
};

static unsigned n_threads;

unsigned image_read_threads(void)
{
	return __atomic_load_n(&n_threads, __ATOMIC_SEQ_CST);
}

static void unref(struct image_read *r)
{
	if (__atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	close(r->fd);
	close(r->efd);
	free(r->image);
	free(r);
	__atomic_sub_fetch(&n_threads, 1, __ATOMIC_SEQ_CST);
}

/* The whole image, by offset (the descriptor's position is the caller's business). */
static void read_all(struct image_read *r)
{
	struct ota_err *e = &r->err;
	struct stat st;
	uint8_t extra;
	ssize_t n;

	r->failed = true;
	if (fstat(r->fd, &st) < 0) {
		ota_err_set_statusf(e, OTA_HOST_IO, "cannot fstat the image: %s", strerror(errno));
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		ota_err_set_statusf(e, OTA_HOST_BAD_ARGUMENT, "the image must be a regular file");
		return;
	}
	if (st.st_size <= 0 || (uint64_t)st.st_size > OTA_DAEMON_IMAGE_MAX) {
		ota_err_set_statusf(e, OTA_HOST_BAD_ARGUMENT,
				    "the image is %lld bytes; an image is 1 to %u bytes",
				    (long long)st.st_size, OTA_DAEMON_IMAGE_MAX);
		return;
	}
	r->len = (uint32_t)st.st_size;
	r->image = malloc(r->len);
	if (!r->image) {
		ota_err_set_statusf(e, OTA_HOST_INTERNAL, "out of memory for a %u-byte image", r->len);
		return;
	}
	for (size_t done = 0; done < r->len; done += (size_t)n) {
		n = pread(r->fd, r->image + done, r->len - done, (off_t)done);
		if (n < 0 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0) {
			ota_err_set_statusf(e, n < 0 ? OTA_HOST_IO : OTA_HOST_BAD_ARGUMENT,
					    "the image ended after %zu of %u bytes%s%s", done, r->len,
					    n < 0 ? ": " : " (it changed while read)",
					    n < 0 ? strerror(errno) : "");
			return;
		}
	}
	if (pread(r->fd, &extra, 1, (off_t)r->len) != 0) {
		ota_err_set_statusf(e, OTA_HOST_BAD_ARGUMENT, "the image grew while it was read");
		return;
	}
	r->failed = false;
}

static void *reader(void *arg)
{
	struct image_read *r = arg;
	uint64_t one = 1;

	read_all(r);
	/* An eventfd write of 8 bytes never blocks here (the counter is far from full). */
	if (write(r->efd, &one, sizeof(one)) < 0) {
		/* Nothing to do: the loop's deadline answers the call. */
	}
	unref(r);
	return NULL;
}

static void detach_loop(struct image_read *r)
{
	r->io = sd_event_source_disable_unref(r->io);
	r->timer = sd_event_source_disable_unref(r->timer);
}

static int on_done(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct image_read *r = userdata;
	uint8_t *image = r->image;

	detach_loop(r);
	if (r->failed) {
		r->done(r->userdata, NULL, 0, &r->err);
	} else {
		r->image = NULL; /* the callee's now */
		r->done(r->userdata, image, r->len, NULL);
	}
	unref(r);
	return 0;
}

static int on_deadline(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct image_read *r = userdata;
	struct ota_err e;

	detach_loop(r);
	ota_err_set_statusf(&e, OTA_HOST_TIMEOUT,
			    "the image could not be read within %llu s (a file system that does not answer?)",
			    (unsigned long long)(r->timeout_usec / 1000000u));
	r->done(r->userdata, NULL, 0, &e);
	unref(r); /* the thread keeps its own reference until its read returns */
	return 0;
}

int image_read_start(sd_event *event, int fd, uint64_t timeout_usec, image_read_done_fn done,
		     void *userdata, struct image_read **out, struct ota_err *e)
{
	struct image_read *r;
	pthread_attr_t attr;
	pthread_t t;
	int err;

	if (__atomic_add_fetch(&n_threads, 1, __ATOMIC_SEQ_CST) > IMAGE_READ_MAX_THREADS) {
		__atomic_sub_fetch(&n_threads, 1, __ATOMIC_SEQ_CST);
		ota_err_set_statusf(e, OTA_MBOX_BUSY,
				    "%u image reads are still waiting on their files; retry later",
				    IMAGE_READ_MAX_THREADS);
		return -EBUSY;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		__atomic_sub_fetch(&n_threads, 1, __ATOMIC_SEQ_CST);
		ota_err_set_statusf(e, OTA_HOST_INTERNAL, "out of memory");
		return -ENOMEM;
	}
	r->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	r->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	r->done = done;
	r->userdata = userdata;
	r->timeout_usec = timeout_usec;
	r->refs = 1;
	err = r->fd < 0 || r->efd < 0 ? -errno : 0;
	if (!err)
		err = sd_event_add_io(event, &r->io, r->efd, EPOLLIN, on_done, r);
	if (!err)
		err = sd_event_add_time_relative(event, &r->timer, CLOCK_MONOTONIC, timeout_usec, 0,
						 on_deadline, r);
	if (err < 0)
		goto fail;
	r->refs = 2; /* the thread's from here */
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = -pthread_create(&t, &attr, reader, r);
	pthread_attr_destroy(&attr);
	if (err < 0) {
		r->refs = 1;
		goto fail;
	}
	*out = r;
	return 0;
fail:
	detach_loop(r);
	if (r->fd < 0)
		r->fd = open("/dev/null", O_RDONLY | O_CLOEXEC); /* unref closes it */
	if (r->efd < 0)
		r->efd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ota_err_set_statusf(e, OTA_HOST_INTERNAL, "cannot start reading the image: %s", strerror(-err));
	unref(r);
	return err;
}

void image_read_abandon(struct image_read *r)
{
	if (!r)
		return;
	detach_loop(r);
	unref(r);
}
