// SPDX-License-Identifier: MIT
/* Client half of the ivshmem protocol; see ivshmem_client.h. */
#include "ivshmem_client.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ivshmem_proto.h"

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int left_ms(int64_t deadline)
{
	int64_t left = deadline - now_ms();

	return left < 0 ? 0 : (int)left;
}

static struct ivshmem_remote *peer_slot(struct ivshmem_client *c, int64_t id, bool create)
{
	struct ivshmem_remote *free_slot = NULL;

	for (unsigned i = 0; i < IVSHMEM_CLIENT_MAX_PEERS; i++) {
		if (c->peer[i].present && c->peer[i].id == id)
			return &c->peer[i];
		if (!c->peer[i].present && !free_slot)
			free_slot = &c->peer[i];
	}
	if (!create || !free_slot)
		return NULL;
	free_slot->present = true;
	free_slot->id = id;
	free_slot->vectors = 0;
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++)
		free_slot->fd[v] = -1;
	return free_slot;
}

static void forget_peer(struct ivshmem_remote *p)
{
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++) {
		if (p->fd[v] >= 0)
			close(p->fd[v]);
		p->fd[v] = -1;
	}
	p->vectors = 0;
	p->present = false;
}

/* A peer id with an fd: that peer's next vector. Extra vectors are closed. */
static int add_peer_vector(struct ivshmem_client *c, int64_t id, int fd)
{
	struct ivshmem_remote *p = peer_slot(c, id, true);

	if (!p) {
		close(fd);
		return -ENOSPC;
	}
	if (p->vectors < OTA_VEC_COUNT)
		p->fd[p->vectors++] = fd;
	else
		close(fd);
	return 0;
}

static bool valid_peer_id(int64_t id)
{
	return id >= 0 && id <= IVSHMEM_MAX_PEER_ID;
}

static int handle_later_message(struct ivshmem_client *c, int64_t value, int fd)
{
	struct ivshmem_remote *p;

	if (!valid_peer_id(value) || value == c->own_id) {
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

/* One greeting message that must carry no fd (version, own id). */
static int recv_plain(struct ivshmem_client *c, int64_t deadline, int64_t *value)
{
	int fd, r = ivshmem_recv(c->sock, left_ms(deadline), value, &fd);

	if (r <= 0)
		return r;
	if (fd >= 0) {
		close(fd);
		return -EPROTO;
	}
	return 1;
}

static int take_greeting(struct ivshmem_client *c, int64_t deadline)
{
	unsigned own = 0;
	int64_t value;
	int r, fd;

	/* 1. version */
	r = recv_plain(c, deadline, &value);
	if (r == 0)
		return -ECONNRESET; /* closed before any greeting */
	if (r < 0)
		return r;
	if (value != IVSHMEM_PROTOCOL_VERSION)
		return -EBUSY; /* a version no client speaks: turned away */
	/* 2. our id */
	r = recv_plain(c, deadline, &value);
	if (r <= 0 || !valid_peer_id(value))
		return r < 0 ? r : -EPROTO;
	c->own_id = value;
	/* 3. -1 with the shared memory */
	r = ivshmem_recv(c->sock, left_ms(deadline), &value, &fd);
	if (r <= 0 || value != IVSHMEM_SHM_MARKER || fd < 0) {
		if (r > 0 && fd >= 0)
			close(fd);
		return r < 0 ? r : -EPROTO;
	}
	c->shm_fd = fd;
	/* 4. the other peers' vectors, then 5. our own */
	while (own < OTA_VEC_COUNT) {
		r = ivshmem_recv(c->sock, left_ms(deadline), &value, &fd);
		if (r <= 0 || fd < 0 || !valid_peer_id(value)) {
			if (r > 0 && fd >= 0)
				close(fd);
			return r < 0 ? r : -EPROTO;
		}
		if (value == c->own_id)
			c->own_fd[own++] = fd;
		else if ((r = add_peer_vector(c, value, fd)) < 0)
			return r;
	}
	return 0;
}

void ivshmem_client_init(struct ivshmem_client *c)
{
	memset(c, 0, sizeof(*c));
	c->sock = -1;
	c->shm_fd = -1;
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++)
		c->own_fd[v] = -1;
}

int ivshmem_client_connect(struct ivshmem_client *c, const char *path, int timeout_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int r;

	ivshmem_client_init(c);
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path));
	c->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->sock < 0)
		return -errno;
	if (connect(c->sock, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		r = -errno;
	else
		r = take_greeting(c, now_ms() + timeout_ms);
	if (r < 0)
		ivshmem_client_close(c);
	return r;
}

void ivshmem_client_close(struct ivshmem_client *c)
{
	for (unsigned i = 0; i < IVSHMEM_CLIENT_MAX_PEERS; i++)
		if (c->peer[i].present)
			forget_peer(&c->peer[i]);
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++) {
		if (c->own_fd[v] >= 0)
			close(c->own_fd[v]);
		c->own_fd[v] = -1;
	}
	if (c->shm_fd >= 0)
		close(c->shm_fd);
	c->shm_fd = -1;
	if (c->sock >= 0)
		close(c->sock);
	c->sock = -1;
}

int ivshmem_client_poll(struct ivshmem_client *c, int timeout_ms)
{
	int handled = 0, r, fd;
	int64_t value;

	for (;;) {
		r = ivshmem_recv(c->sock, handled ? 0 : timeout_ms, &value, &fd);
		if (r == -ETIMEDOUT)
			return handled;
		if (r == 0)
			return -EPIPE;
		if (r < 0)
			return r == -ECONNRESET ? -EPIPE : r;
		r = handle_later_message(c, value, fd);
		if (r < 0)
			return r;
		handled++;
	}
}

const struct ivshmem_remote *ivshmem_client_find(const struct ivshmem_client *c, int64_t id)
{
	for (unsigned i = 0; i < IVSHMEM_CLIENT_MAX_PEERS; i++)
		if (c->peer[i].present && c->peer[i].id == id)
			return &c->peer[i];
	return NULL;
}
