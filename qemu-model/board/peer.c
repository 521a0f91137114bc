// SPDX-License-Identifier: MIT
/* ivshmem peers and their eventfds; see peer.h. */
#include "peer.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <unistd.h>

int peer_open(struct peer *p, uint32_t id)
{
	p->id = id;
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++) {
		/*
		 * Non-blocking: the model must never stall on a counter
		 * (QEMU sets O_NONBLOCK on the fds it receives anyway).
		 */
		p->eventfd[v] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (p->eventfd[v] < 0) {
			int err = errno;

			peer_close(p);
			return -err;
		}
	}
	return 0;
}

int peer_adopt(struct peer *p, uint32_t id, const int *fds)
{
	p->id = id;
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++) {
		int flags;

		p->eventfd[v] = fcntl(fds[v], F_DUPFD_CLOEXEC, 3);
		flags = p->eventfd[v] < 0 ? -1 : fcntl(p->eventfd[v], F_GETFL);
		if (flags < 0 || fcntl(p->eventfd[v], F_SETFL, flags | O_NONBLOCK) < 0) {
			int err = errno;

			peer_close(p);
			return -err;
		}
	}
	return 0;
}

void peer_close(struct peer *p)
{
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++) {
		if (p->eventfd[v] >= 0)
			close(p->eventfd[v]);
		p->eventfd[v] = -1;
	}
}

bool peer_is_open(const struct peer *p)
{
	return p->eventfd[0] >= 0;
}

int peer_ring(const struct peer *p, unsigned vector)
{
	uint64_t one = 1;
	ssize_t n;

	if (vector >= OTA_VEC_COUNT || p->eventfd[vector] < 0)
		return -EINVAL;
	do {
		n = write(p->eventfd[vector], &one, sizeof(one));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno; /* EAGAIN only if the counter is about to overflow */
	return 0;
}

uint64_t peer_drain(int fd)
{
	uint64_t total = 0, count;
	ssize_t n;

	for (;;) {
		n = read(fd, &count, sizeof(count));
		if (n == (ssize_t)sizeof(count)) {
			total += count;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return total; /* EAGAIN: nothing more pending */
	}
}
