// SPDX-License-Identifier: MIT
/* A host-side ivshmem peer; see ivclient.h. */
#include "ivclient.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int ivc_connect(struct ivc *c, const char *path, int timeout_ms)
{
	struct stat st;
	int r;

	memset(c, 0, sizeof(*c));
	r = ivshmem_client_connect(&c->cl, path, timeout_ms);
	if (r < 0)
		return r;
	if (fstat(c->cl.shm_fd, &st) < 0 || st.st_size <= 0) {
		r = -EPROTO;
		goto fail;
	}
	c->shm_size = (size_t)st.st_size;
	c->shm = mmap(NULL, c->shm_size, PROT_READ | PROT_WRITE, MAP_SHARED, c->cl.shm_fd, 0);
	if (c->shm == MAP_FAILED) {
		c->shm = NULL;
		r = -errno;
		goto fail;
	}
	return 0;

fail:
	ivc_close(c);
	return r;
}

void ivc_close(struct ivc *c)
{
	if (c->shm)
		munmap((void *)c->shm, c->shm_size);
	c->shm = NULL;
	ivshmem_client_close(&c->cl);
}

int ivc_ring(struct ivc *c, int64_t peer_id, unsigned vector)
{
	const struct ivshmem_remote *p = ivc_find_peer(c, peer_id);
	uint64_t one = 1;

	if (!p || vector >= OTA_VEC_COUNT || p->fd[vector] < 0)
		return -ENOENT;
	return write(p->fd[vector], &one, sizeof(one)) == sizeof(one) ? 0 : -errno;
}

uint64_t ivc_drain(struct ivc *c, unsigned vector)
{
	struct pollfd pfd = { .fd = c->cl.own_fd[vector], .events = POLLIN };
	uint64_t count = 0;

	if (poll(&pfd, 1, 0) == 1 &&
	    read(c->cl.own_fd[vector], &count, sizeof(count)) != sizeof(count))
		count = 0;
	return count;
}

uint64_t ivc_wait(struct ivc *c, unsigned vector, int timeout_ms)
{
	struct pollfd pfd = { .fd = c->cl.own_fd[vector], .events = POLLIN };
	int64_t deadline = now_ms() + timeout_ms;
	uint64_t count = 0;

	for (;;) {
		int64_t left = deadline - now_ms();
		int r;

		if (left < 0)
			left = 0;
		r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		/* The fd is blocking for QEMU's sake too; poll said it is readable. */
		if (read(c->cl.own_fd[vector], &count, sizeof(count)) == sizeof(count) && count)
			return count;
	}
}

int ivc_poll_server(struct ivc *c, int timeout_ms)
{
	return ivshmem_client_poll(&c->cl, timeout_ms);
}

const struct ivshmem_remote *ivc_find_peer(const struct ivc *c, int64_t id)
{
	return ivshmem_client_find(&c->cl, id);
}
