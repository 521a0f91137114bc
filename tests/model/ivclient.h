/* SPDX-License-Identifier: MIT */
/*
 * A host-side ivshmem peer: the client half of QEMU's ivshmem protocol, so
 * tests and tools can stand where the guest stands without QEMU. It
 * connects to the model's server socket, takes the shared memory and the
 * eventfds from the greeting, rings the device and waits on its own
 * vectors, always with a timeout: a doorbell at an absent peer vanishes.
 */
#ifndef TESTS_MODEL_IVCLIENT_H
#define TESTS_MODEL_IVCLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <otattest/shm.h>

#include "ivshmem_client.h"

/*
 * The protocol itself (greeting, peer table) is the model's own client
 * half, qemu-model/board/ivshmem_client.c, which the split model's device
 * process speaks too; this adds the mapping and the doorbells.
 */
struct ivc {
	struct ivshmem_client cl;
	volatile uint8_t *shm;
	size_t shm_size;
};

/*
 * Connect, take the whole greeting and map the memory. Returns 0 or what
 * ivshmem_client_connect() returns (-EBUSY: turned away), -EPROTO for
 * memory that cannot be mapped.
 */
int ivc_connect(struct ivc *c, const char *path, int timeout_ms);
void ivc_close(struct ivc *c);

/* Ring vector v at peer id. -ENOENT when that peer or vector is unknown. */
int ivc_ring(struct ivc *c, int64_t peer_id, unsigned vector);

/*
 * Wait until vector v is rung at us or timeout_ms passes. Returns the
 * number of rings consumed (> 0) or 0 on timeout.
 */
uint64_t ivc_wait(struct ivc *c, unsigned vector, int timeout_ms);
/* Consume pending rings on v without waiting. */
uint64_t ivc_drain(struct ivc *c, unsigned vector);

/*
 * Handle what the server sent since the greeting (peer announcements and
 * disconnects), waiting up to timeout_ms for the first message. Returns
 * the number of messages handled, or -EPIPE once the server is gone.
 */
int ivc_poll_server(struct ivc *c, int timeout_ms);

/* The announced peer with this id, or NULL. */
const struct ivshmem_remote *ivc_find_peer(const struct ivc *c, int64_t id);

#endif /* TESTS_MODEL_IVCLIENT_H */
