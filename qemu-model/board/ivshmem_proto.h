/* SPDX-License-Identifier: MIT */
/*
 * The wire format of QEMU's ivshmem client-server protocol (docs/ivshmem
 * spec in qemu-system-data, "The ivshmem Client-Server Protocol"): one
 * message, sent (server side) and received (client side).
 *
 * The connection is one-way, server to client. Every message is one
 * little-endian int64, optionally with one file descriptor (SCM_RIGHTS):
 *   version (0); the client's own id; -1 with the shared-memory fd;
 *   for each other peer: its id once per vector, each with that vector's
 *   eventfd (for ringing it); the client's own id once per vector with its
 *   own eventfds (for being rung). Later: a peer id with an fd announces a
 *   peer's vector, a peer id without one is that peer's disconnect.
 */
#ifndef MODEL_IVSHMEM_PROTO_H
#define MODEL_IVSHMEM_PROTO_H

#include <stdint.h>

#define IVSHMEM_PROTOCOL_VERSION 0
/*
 * How the model turns a second guest away: a greeting whose version no
 * client accepts, then EOF. QEMU fails the device's realize with "server
 * sent version -1, expecting 0" and exits; merely closing the connection
 * would leave QEMU 7.2 spinning in its read loop forever.
 */
#define IVSHMEM_REFUSED_VERSION (-1)
#define IVSHMEM_SHM_MARKER (-1)
#define IVSHMEM_MAX_PEER_ID 65535u /* the Doorbell register has 16 bits for it */

/*
 * Send one message, with fd attached when fd >= 0. The socket is
 * non-blocking: a message that does not go out whole at once is an error
 * (these messages are 8 bytes; a peer whose socket buffer is full is not
 * following the protocol). Returns 0 or -errno.
 */
int ivshmem_send(int sock, int64_t value, int fd);

/*
 * The greeting a new client gets: version, its id, the shared memory,
 * the other peer's vectors (other_fds may be NULL when there is no other
 * peer), then its own vectors. Returns 0 or -errno.
 */
int ivshmem_send_greeting(int sock, uint32_t client_id, int shm_fd, uint32_t other_id,
			  const int *other_fds, const int *own_fds, unsigned vectors);

/*
 * Receive one message, waiting up to timeout_ms for it (0: only what is
 * already there). Exactly 8 bytes are read per message, so an fd always
 * arrives with the message it belongs to; an fd that came with anything
 * else is closed. Returns 1 with *value (and *fd, -1 if none, close-on-
 * exec), 0 on EOF before a message, -ETIMEDOUT, -EPROTO for EOF inside
 * one, or -errno.
 */
int ivshmem_recv(int sock, int timeout_ms, int64_t *value, int *fd);

#endif /* MODEL_IVSHMEM_PROTO_H */
