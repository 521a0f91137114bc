/* SPDX-License-Identifier: MIT */
/*
 * An ivshmem peer as the server sees it: an id and one eventfd per
 * vector. Writing 1 to a peer's eventfd for vector v raises v at that peer
 * (for QEMU, an MSI-X interrupt in the guest); a peer learns of a ring by
 * the eventfd becoming readable.
 */
#ifndef MODEL_PEER_H
#define MODEL_PEER_H

#include <stdbool.h>
#include <stdint.h>

#include <otattest/shm.h>

struct peer {
	uint32_t id;
	int eventfd[OTA_VEC_COUNT]; /* -1 when closed */
};

#define PEER_INIT { .id = 0, .eventfd = { -1, -1 } }

/* Create fresh eventfds for every vector. Returns 0 or -errno. */
int peer_open(struct peer *p, uint32_t id);
/*
 * Keep copies (dup) of eventfds another party made, one per vector: a
 * peer the server announced to a split model's device process. They are
 * made non-blocking, as peer_drain() needs. Returns 0 or -errno.
 */
int peer_adopt(struct peer *p, uint32_t id, const int *fds);
void peer_close(struct peer *p);
bool peer_is_open(const struct peer *p);

/* Raise vector v at the peer. Returns 0 or -errno. */
int peer_ring(const struct peer *p, unsigned vector);

/* Consume every pending ring on a non-blocking eventfd: how many arrived. */
uint64_t peer_drain(int fd);

#endif /* MODEL_PEER_H */
