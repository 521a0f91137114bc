/* SPDX-License-Identifier: MIT */
/*
 * A listening ivshmem server socket with one seat: the server's socket for
 * QEMU (server.c) and a split server's socket for its device process
 * (devsock.c). One client at a time: another is greeted with protocol
 * version -1 and closed, which QEMU and the model's own client take as a
 * refusal. A client never sends anything (the protocol is one-way), so its
 * connection becoming readable means it hung up, or that it is not
 * speaking ivshmem: either way it is gone. One that died is noticed before
 * its successor is seated, even while its hangup waits to be handled.
 */
#ifndef MODEL_SEAT_H
#define MODEL_SEAT_H

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-event.h>

struct model;

struct seat {
	struct model *m;  /* the owner, handed to the callbacks */
	const char *name; /* "guest" or "device": the first word of its log events */
	const char *path;
	int listen_fd;
	sd_event_source *listen_src;
	int fd;           /* the seated client's connection, -1 while the seat is free */
	sd_event_source *src;
	uint32_t peer_id; /* the seated client's peer id, for log lines */
	uint64_t refused;
	/* Greet the client on fd and take the seat; < 0 turns it away (fd is closed). */
	int (*admit)(struct model *m, int fd);
	/* The seated client has gone (why: hangup, protocol-error, ...); fd is closed. */
	void (*gone)(struct model *m, const char *why);
};

/* Nothing open: what seat_close may be called on before seat_init. */
#define SEAT_CLOSED { .listen_fd = -1, .fd = -1 }

/* A free seat of m's, nothing open, with these callbacks. */
void seat_init(struct seat *s, struct model *m, const char *name, const char *path,
	       int (*admit)(struct model *m, int fd), void (*gone)(struct model *m, const char *why));
/* Listen on s->path in this event loop. 0 or -errno (-EADDRINUSE: someone serves there). */
int seat_listen(struct seat *s, sd_event *event);
/* The seated client goes (the gone callback runs); nothing if the seat is free. */
void seat_free(struct seat *s, const char *why);
/* Free the seat and stop listening; the socket file is removed. */
void seat_close(struct seat *s, const char *why);
bool seat_taken(const struct seat *s);

#endif /* MODEL_SEAT_H */
