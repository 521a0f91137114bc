// SPDX-License-Identifier: MIT
/* A listening ivshmem socket with one seat; see seat.h. */
#include "seat.h"

#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ivshmem_proto.h"
#include "log.h"
#include "unixsock.h"

/* "<name>-<what>", the seat's log event. */
static const char *event_name(const struct seat *s, const char *what, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s-%s", s->name, what);
	return buf;
}

void seat_init(struct seat *s, struct model *m, const char *name, const char *path,
	       int (*admit)(struct model *m, int fd), void (*gone)(struct model *m, const char *why))
{
	*s = (struct seat){ .m = m, .name = name, .path = path, .listen_fd = -1, .fd = -1,
			    .admit = admit, .gone = gone };
}

bool seat_taken(const struct seat *s)
{
	return s->fd >= 0;
}

void seat_free(struct seat *s, const char *why)
{
	if (s->fd < 0)
		return;
	s->src = sd_event_source_disable_unref(s->src);
	close(s->fd);
	s->fd = -1;
	s->gone(s->m, why);
}

static int on_client_io(sd_event_source *src, int fd, uint32_t revents, void *userdata)
{
	struct seat *s = userdata;
	char byte, ev[32];
	ssize_t n;

	(void)src;
	if (revents & EPOLLIN) {
		n = recv(fd, &byte, 1, MSG_DONTWAIT);
		if (n > 0) {
			log_warn(event_name(s, "protocol-error", ev, sizeof(ev)),
				 "peer=%u reason=client-sent-data", s->peer_id);
			seat_free(s, "protocol-error");
			return 0;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
	}
	seat_free(s, "hangup");
	return 0;
}

/* Whether the seated client still runs: a dead one has hung up, handled or not. */
static bool client_alive(int fd)
{
	char byte;
	ssize_t n = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);

	return n < 0 && (errno == EAGAIN || errno == EINTR);
}

static int on_listen(sd_event_source *src, int fd, uint32_t revents, void *userdata)
{
	struct seat *s = userdata;
	char ev[32];
	int conn, r;

	(void)revents;
	conn = unix_accept(fd);
	if (conn < 0) {
		if (conn != -EAGAIN)
			log_warn("accept-failed", "socket=%s errno=%d", s->name, -conn);
		return 0;
	}
	if (s->fd >= 0 && !client_alive(s->fd))
		seat_free(s, "hangup");
	if (s->fd >= 0) {
		/* One at a time: a version nobody accepts is the refusal. */
		s->refused++;
		log_warn(event_name(s, "refused", ev, sizeof(ev)), "reason=busy connected-peer=%u",
			 s->peer_id);
		(void)ivshmem_send(conn, IVSHMEM_REFUSED_VERSION, -1);
		close(conn);
		return 0;
	}
	if (s->admit(s->m, conn) < 0) {
		close(conn);
		return 0;
	}
	/* A hangup is handled before a connection that came with it. */
	r = sd_event_add_io(sd_event_source_get_event(src), &s->src, conn, EPOLLIN | EPOLLRDHUP,
			    on_client_io, s);
	if (r >= 0)
		r = sd_event_source_set_priority(s->src, SD_EVENT_PRIORITY_IMPORTANT);
	s->fd = conn;
	if (r < 0) {
		log_error(event_name(s, "setup-failed", ev, sizeof(ev)), "peer=%u errno=%d",
			  s->peer_id, -r);
		seat_free(s, "setup-failed");
	}
	return 0;
}

int seat_listen(struct seat *s, sd_event *event)
{
	s->listen_fd = unix_listen(s->path, 4);
	if (s->listen_fd < 0)
		return s->listen_fd;
	return sd_event_add_io(event, &s->listen_src, s->listen_fd, EPOLLIN, on_listen, s);
}

void seat_close(struct seat *s, const char *why)
{
	seat_free(s, why);
	s->listen_src = sd_event_source_disable_unref(s->listen_src);
	if (s->listen_fd >= 0) {
		close(s->listen_fd);
		unlink(s->path);
	}
	s->listen_fd = -1;
}
