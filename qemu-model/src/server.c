// SPDX-License-Identifier: MIT
/*
 * The ivshmem server: QEMU's ivshmem-doorbell device (or the host test
 * client) connects here and gets the shared memory and the eventfds.
 *
 * The model is itself the first peer (the device, id --device-peer-id,
 * 0 by default) and admits one guest at a time: the device has one host
 * interface. A second guest is refused with a greeting of version -1 and
 * a closed connection: QEMU then fails its ivshmem-doorbell realize
 * ("server sent version -1, expecting 0") and exits, instead of a guest
 * that silently never gets an answer. Guest ids start at 1 and move on with every connection, so a
 * reconnecting guest never inherits the previous one's id.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ivshmem_proto.h"
#include "model.h"
#include "unixsock.h"

static uint32_t allocate_guest_id(struct server *s, uint32_t device_id)
{
	uint32_t id;

	do {
		id = s->next_guest_id;
		s->next_guest_id = id >= IVSHMEM_MAX_PEER_ID ? 1u : id + 1u;
	} while (id == device_id);
	return id;
}

static void drop_guest(struct model *m, const char *why)
{
	struct server *s = &m->server;

	if (s->guest_fd < 0)
		return;
	log_info("guest-disconnected", "peer=%u reason=%s", s->guest.id, why);
	s->guest_src = sd_event_source_disable_unref(s->guest_src);
	close(s->guest_fd);
	s->guest_fd = -1;
	peer_close(&s->guest);
	storm_stop(m);
}

/*
 * The protocol is one-way: a guest never sends anything. Readable means
 * EOF (QEMU exited or unplugged the device) or a client that is not
 * speaking ivshmem; either way it is gone.
 */
static int on_guest_io(sd_event_source *src, int fd, uint32_t revents, void *userdata)
{
	struct model *m = userdata;
	char byte;
	ssize_t n;

	(void)src;
	if (revents & EPOLLIN) {
		n = recv(fd, &byte, 1, MSG_DONTWAIT);
		if (n > 0) {
			log_warn("guest-protocol-error", "peer=%u reason=client-sent-data",
				 m->server.guest.id);
			drop_guest(m, "protocol-error");
			return 0;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
	}
	drop_guest(m, "hangup");
	return 0;
}

static void admit_guest(struct model *m, int fd)
{
	struct server *s = &m->server;
	uint32_t id = allocate_guest_id(s, m->opt.device_peer_id);
	int r;

	r = peer_open(&s->guest, id);
	if (r < 0) {
		log_error("guest-setup-failed", "peer=%u errno=%d", id, -r);
		close(fd);
		return;
	}
	/*
	 * Before the greeting: the guest may write a request the instant it
	 * has the memory, and a mailbox reset after that would wipe it. Rings
	 * the previous guest left on the device's eventfds are not this one's.
	 */
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++)
		peer_drain(s->device.eventfd[v]);
	model_guest_connected(m);
	r = ivshmem_send_greeting(fd, id, m->shm.fd, s->device.id, s->device.eventfd,
				  s->guest.eventfd, OTA_VEC_COUNT);
	if (r >= 0)
		r = sd_event_add_io(m->event, &s->guest_src, fd, EPOLLIN | EPOLLRDHUP,
				    on_guest_io, m);
	if (r < 0) {
		log_error("guest-setup-failed", "peer=%u errno=%d", id, -r);
		peer_close(&s->guest);
		close(fd);
		return;
	}
	s->guest_fd = fd;
	s->guests_accepted++;
	log_info("guest-connected", "peer=%u device-peer=%u vectors=%u", id, s->device.id,
		 OTA_VEC_COUNT);
	model_guest_started(m);
}

static int on_listen(sd_event_source *src, int fd, uint32_t revents, void *userdata)
{
	struct model *m = userdata;
	int conn;

	(void)src;
	(void)revents;
	conn = unix_accept(fd);
	if (conn < 0) {
		if (conn != -EAGAIN)
			log_warn("accept-failed", "socket=ivshmem errno=%d", -conn);
		return 0;
	}
	if (m->server.guest_fd >= 0) {
		/* One host interface: a version nobody accepts is the refusal. */
		m->server.guests_refused++;
		log_warn("guest-refused", "reason=busy connected-peer=%u", m->server.guest.id);
		(void)ivshmem_send(conn, IVSHMEM_REFUSED_VERSION, -1);
		close(conn);
		return 0;
	}
	admit_guest(m, conn);
	return 0;
}

static int on_device_doorbell(sd_event_source *src, int fd, uint32_t revents, void *userdata)
{
	struct model *m = userdata;
	unsigned vector = fd == m->server.device.eventfd[OTA_VEC_MAILBOX] ? OTA_VEC_MAILBOX
									    : OTA_VEC_EVENT;
	uint64_t rings;

	(void)src;
	(void)revents;
	rings = peer_drain(fd);
	if (rings == 0)
		return 0;
	if (vector != OTA_VEC_MAILBOX) {
		/* The device has no meaning for this vector; say so and move on. */
		log_warn("doorbell-unexpected", "vector=%u rings=%llu", vector,
			 (unsigned long long)rings);
		return 0;
	}
	if (rings > 1)
		log_debug("doorbell-coalesced", "rings=%llu", (unsigned long long)rings);
	mbox_doorbell(m);
	return 0;
}

int server_start(struct model *m)
{
	struct server *s = &m->server;
	int r;

	s->guest_fd = -1;
	s->next_guest_id = 1;
	r = peer_open(&s->device, m->opt.device_peer_id);
	if (r < 0)
		return r;
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++) {
		r = sd_event_add_io(m->event, &s->device_src[v], s->device.eventfd[v], EPOLLIN,
				    on_device_doorbell, m);
		if (r < 0)
			return r;
	}
	s->listen_fd = unix_listen(m->opt.socket_path, 4);
	if (s->listen_fd < 0)
		return s->listen_fd;
	r = sd_event_add_io(m->event, &s->listen_src, s->listen_fd, EPOLLIN, on_listen, m);
	if (r < 0)
		return r;
	log_info("listening", "socket=%s device-peer=%u shm-size=%u", m->opt.socket_path,
		 s->device.id, OTA_SHM_SIZE);
	return 0;
}

void server_stop(struct model *m)
{
	struct server *s = &m->server;

	drop_guest(m, "model-stopping");
	s->listen_src = sd_event_source_disable_unref(s->listen_src);
	if (s->listen_fd >= 0) {
		close(s->listen_fd);
		unlink(m->opt.socket_path);
	}
	s->listen_fd = -1;
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++)
		s->device_src[v] = sd_event_source_disable_unref(s->device_src[v]);
	peer_close(&s->device);
}

bool server_has_guest(const struct model *m)
{
	return m->server.guest_fd >= 0;
}

void server_ring_guest(struct model *m, unsigned vector)
{
	int r;

	if (!server_has_guest(m))
		return;
	r = peer_ring(&m->server.guest, vector);
	if (r < 0)
		log_warn("ring-failed", "peer=%u vector=%u errno=%d", m->server.guest.id, vector,
			 -r);
}
