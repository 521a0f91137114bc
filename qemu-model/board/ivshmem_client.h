/* SPDX-License-Identifier: MIT */
/*
 * The client half of QEMU's ivshmem protocol: what QEMU's ivshmem-doorbell
 * does with a server's messages. Two programs speak it here: the device
 * process of a split model (link.c), which joins its server the way a
 * guest does, and the host tests' guest peer (tests/model/ivclient.c).
 *
 * The client takes the greeting (version 0, its own id, -1 with the
 * shared memory, every other peer's vectors, its own vectors) and then
 * keeps a table of the other peers from the later messages: a peer id
 * with an fd is that peer's next vector, a peer id without one is that
 * peer's disconnect. It never maps the memory or rings anyone itself:
 * the fds are its callers' to use (and to dup if they keep them longer).
 */
#ifndef MODEL_IVSHMEM_CLIENT_H
#define MODEL_IVSHMEM_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include <otattest/shm.h>

#define IVSHMEM_CLIENT_MAX_PEERS 4u

struct ivshmem_remote {
	int64_t id;
	int fd[OTA_VEC_COUNT]; /* for ringing it; -1 while not announced */
	unsigned vectors;      /* how many of fd[] are announced */
	bool present;
};

struct ivshmem_client {
	int sock;
	int64_t own_id;
	int shm_fd;
	int own_fd[OTA_VEC_COUNT]; /* readable when a peer rang us */
	struct ivshmem_remote peer[IVSHMEM_CLIENT_MAX_PEERS];
	uint32_t disconnects_seen;
};

/* Nothing open: what close may be called on before a connect. */
void ivshmem_client_init(struct ivshmem_client *c);

/*
 * Connect to the server socket at path and take the whole greeting
 * within timeout_ms. Returns 0; -EBUSY when the server greets with a
 * version other than 0 (how the model turns away a second guest or a
 * second device: version -1, then EOF); -ECONNRESET when it closed the
 * connection before greeting at all; -ETIMEDOUT; -EPROTO for a greeting
 * that breaks the protocol; other -errno from the socket (-ENOENT,
 * -ECONNREFUSED: no server there). On failure nothing stays open.
 */
int ivshmem_client_connect(struct ivshmem_client *c, const char *path, int timeout_ms);
void ivshmem_client_close(struct ivshmem_client *c);

/*
 * Handle what the server sent since the greeting (announcements and
 * disconnects), waiting up to timeout_ms for the first message and then
 * taking whatever else is already there. Returns the number of messages
 * handled (0 on timeout), -EPIPE once the server is gone, -EPROTO when it
 * broke the protocol.
 */
int ivshmem_client_poll(struct ivshmem_client *c, int timeout_ms);

/* The peer with this id, or NULL when it is not (or no longer) there. */
const struct ivshmem_remote *ivshmem_client_find(const struct ivshmem_client *c, int64_t id);

#endif /* MODEL_IVSHMEM_CLIENT_H */
