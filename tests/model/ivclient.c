// SPDX-License-Identifier: MIT
/* Client half of the ivshmem protocol; see ivclient.h. */
#include "ivclient.h"

#include <endian.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * One message: exactly 8 bytes per recvmsg, so an fd always arrives with
 * the message it belongs to. Returns 1 with *value (and *fd, -1 if none),
 * 0 on EOF, -ETIMEDOUT, or -errno.
 */
static int recv_msg(int sock, int timeout_ms, int64_t *value, int *fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct pollfd pfd = { .fd = sock, .events = POLLIN };
	uint64_t le;
	size_t got = 0;

	*fd = -1;
	while (got < sizeof(le)) {
		struct iovec iov = { .iov_base = (char *)&le + got, .iov_len = sizeof(le) - got };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
				      .msg_control = control.buf,
				      .msg_controllen = sizeof(control.buf) };
		struct cmsghdr *cmsg;
		ssize_t n;
		int r = poll(&pfd, 1, timeout_ms);

		if (r == 0)
			return -ETIMEDOUT;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) {
			if (*fd >= 0)
				close(*fd);
			return got ? -EPROTO : 0;
		}
		for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
			if (cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS &&
			    cmsg->cmsg_len == CMSG_LEN(sizeof(int)) && *fd < 0)
				memcpy(fd, CMSG_DATA(cmsg), sizeof(int));
		}
		got += (size_t)n;
	}
	*value = (int64_t)le64toh(le);
	return 1;
}

static struct ivc_peer *peer_slot(struct ivc *c, int64_t id, bool create)
{
	struct ivc_peer *free_slot = NULL;

	for (unsigned i = 0; i < IVC_MAX_PEERS; i++) {
		if (c->peer[i].present && c->peer[i].id == id)
			return &c->peer[i];
		if (!c->peer[i].present && !free_slot)
			free_slot = &c->peer[i];
	}
	if (!create || !free_slot)
		return NULL;
	free_slot->present = true;
	free_slot->id = id;
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++)
		free_slot->fd[v] = -1;
	return free_slot;
}

static void forget_peer(struct ivc_peer *p)
{
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++) {
		if (p->fd[v] >= 0)
			close(p->fd[v]);
		p->fd[v] = -1;
	}
	p->present = false;
}

/* A peer id with an fd: that peer's next vector. Extra vectors are closed. */
static int add_peer_vector(struct ivc *c, int64_t id, int fd)
{
	struct ivc_peer *p = peer_slot(c, id, true);

	if (!p) {
		close(fd);
		return -ENOSPC;
	}
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++) {
		if (p->fd[v] < 0) {
			p->fd[v] = fd;
			return 0;
		}
	}
	close(fd);
	return 0;
}

static int handle_later_message(struct ivc *c, int64_t value, int fd)
{
	struct ivc_peer *p;

	if (value < 0 || value > 65535 || value == c->own_id) {
		if (fd >= 0)
			close(fd);
		return -EPROTO;
	}
	if (fd >= 0)
		return add_peer_vector(c, value, fd);
	p = peer_slot(c, value, false);
	if (p)
		forget_peer(p);
	c->disconnects_seen++;
	return 0;
}

int ivc_connect(struct ivc *c, const char *path, int timeout_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int64_t deadline = now_ms() + timeout_ms, value;
	unsigned own = 0;
	struct stat st;
	int r, fd;

	memset(c, 0, sizeof(*c));
	c->sock = -1;
	c->shm_fd = -1;
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++)
		c->own_fd[v] = -1;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path));
	c->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->sock < 0)
		return -errno;
	if (connect(c->sock, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		goto fail;
	}

	/* 1. version */
	r = recv_msg(c->sock, (int)(deadline - now_ms()), &value, &fd);
	if (r == 0) {
		r = -ECONNRESET; /* closed before any greeting */
		goto fail;
	}
	if (r < 0)
		goto fail;
	if (fd >= 0) {
		close(fd);
		r = -EPROTO;
		goto fail;
	}
	if (value != 0) {
		r = -EBUSY; /* a version no client speaks: turned away */
		goto fail;
	}
	/* 2. our id */
	r = recv_msg(c->sock, (int)(deadline - now_ms()), &value, &fd);
	if (r <= 0 || fd >= 0 || value < 0 || value > 65535) {
		if (fd >= 0)
			close(fd);
		r = r < 0 ? r : -EPROTO;
		goto fail;
	}
	c->own_id = value;
	/* 3. -1 with the shared memory */
	r = recv_msg(c->sock, (int)(deadline - now_ms()), &value, &fd);
	if (r <= 0 || value != -1 || fd < 0) {
		if (fd >= 0)
			close(fd);
		r = r < 0 ? r : -EPROTO;
		goto fail;
	}
	c->shm_fd = fd;
	if (fstat(fd, &st) < 0 || st.st_size <= 0) {
		r = -EPROTO;
		goto fail;
	}
	c->shm_size = (size_t)st.st_size;
	c->shm = mmap(NULL, c->shm_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (c->shm == MAP_FAILED) {
		c->shm = NULL;
		r = -errno;
		goto fail;
	}
	/* 4. other peers' vectors, then 5. our own vectors */
	while (own < OTA_VEC_COUNT) {
		r = recv_msg(c->sock, (int)(deadline - now_ms()), &value, &fd);
		if (r <= 0 || fd < 0 || value < 0 || value > 65535) {
			if (fd >= 0)
				close(fd);
			r = r < 0 ? r : -EPROTO;
			goto fail;
		}
		if (value == c->own_id)
			c->own_fd[own++] = fd;
		else if ((r = add_peer_vector(c, value, fd)) < 0)
			goto fail;
	}
	return 0;

fail:
	ivc_close(c);
	return r;
}

void ivc_close(struct ivc *c)
{
	for (unsigned i = 0; i < IVC_MAX_PEERS; i++)
		if (c->peer[i].present)
			forget_peer(&c->peer[i]);
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++) {
		if (c->own_fd[v] >= 0)
			close(c->own_fd[v]);
		c->own_fd[v] = -1;
	}
	if (c->shm)
		munmap((void *)c->shm, c->shm_size);
	c->shm = NULL;
	if (c->shm_fd >= 0)
		close(c->shm_fd);
	c->shm_fd = -1;
	if (c->sock >= 0)
		close(c->sock);
	c->sock = -1;
}

int ivc_ring(struct ivc *c, int64_t peer_id, unsigned vector)
{
	const struct ivc_peer *p = ivc_find_peer(c, peer_id);
	uint64_t one = 1;

	if (!p || vector >= OTA_VEC_COUNT || p->fd[vector] < 0)
		return -ENOENT;
	return write(p->fd[vector], &one, sizeof(one)) == sizeof(one) ? 0 : -errno;
}

uint64_t ivc_drain(struct ivc *c, unsigned vector)
{
	struct pollfd pfd = { .fd = c->own_fd[vector], .events = POLLIN };
	uint64_t count = 0;

	if (poll(&pfd, 1, 0) == 1 && read(c->own_fd[vector], &count, sizeof(count)) != sizeof(count))
		count = 0;
	return count;
}

uint64_t ivc_wait(struct ivc *c, unsigned vector, int timeout_ms)
{
	struct pollfd pfd = { .fd = c->own_fd[vector], .events = POLLIN };
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
		if (read(c->own_fd[vector], &count, sizeof(count)) == sizeof(count) && count)
			return count;
	}
}

int ivc_poll_server(struct ivc *c, int timeout_ms)
{
	int handled = 0, r, fd;
	int64_t value;

	for (;;) {
		r = recv_msg(c->sock, handled ? 0 : timeout_ms, &value, &fd);
		if (r == -ETIMEDOUT)
			return handled;
		if (r == 0)
			return -EPIPE;
		if (r < 0)
			return r;
		r = handle_later_message(c, value, fd);
		if (r < 0)
			return r;
		handled++;
	}
}

const struct ivc_peer *ivc_find_peer(const struct ivc *c, int64_t id)
{
	for (unsigned i = 0; i < IVC_MAX_PEERS; i++)
		if (c->peer[i].present && c->peer[i].id == id)
			return &c->peer[i];
	return NULL;
}
