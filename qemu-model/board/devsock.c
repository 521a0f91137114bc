// SPDX-License-Identifier: MIT
/*
 * The server's device socket (split mode, 'otattest-model server'): where
 * the device process joins, as an ivshmem peer, and where it may join
 * again after it died. The server keeps QEMU's connection, the shared
 * memory and every eventfd; the device process comes and goes.
 *
 * It speaks the ivshmem protocol, server side, to the device exactly as
 * to a guest: version 0; the device's id (always OTA_SHM_DEVICE_PEER_ID); -1
 * with the shared memory; the guest's vectors, when a guest is connected;
 * the device's own vectors. Later: a guest's id with an fd per vector when
 * one connects (sent before that guest's greeting, so the device knows a
 * guest before the guest can ring it), a guest's id alone when it leaves.
 * One device at a time (seat.c): a second one is greeted with version -1
 * and closed, as a second guest is.
 *
 * The device's eventfds are the server's, made once at start: QEMU has
 * had them since its greeting, and a new device process gets the same
 * ones. QEMU is never told that the device peer left or came back. It
 * could be (a peer id without an fd, then the id with new fds), but QEMU
 * 7.2 mishandles exactly that: its close_peer_eventfds() frees the peer's
 * eventfd array without forgetting it, so the peer's next vector is
 * written into freed memory and its next disconnect frees the array again
 * (glibc: "double free or corruption", QEMU aborts; valgrind shows both on
 * the first reconnect). Nothing is lost by keeping them: a guest cannot
 * see another peer come or go on ivshmem-doorbell anyway, and a ring at a
 * device that is not running waits in its eventfd until the next device
 * joins, which drains it (a power-on loses a pending doorbell).
 */
#include "ivshmem_proto.h"
#include "model.h"

/* The device process is gone: killed, crashed or stopped. QEMU is not told. */
static void device_gone(struct model *m, const char *why)
{
	log_info("device-disconnected", "peer=%u reason=%s", m->server.device.id, why);
}

static int admit_device(struct model *m, int fd)
{
	struct server *s = &m->server;
	bool guest = server_has_guest(m);
	int r;

	/* Rings made while no device ran are lost, as a power-on loses them. */
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++)
		peer_drain(s->device.eventfd[v]);
	r = ivshmem_send_greeting(fd, s->device.id, m->shm.fd, s->guest.id,
				  guest ? s->guest.eventfd : NULL, s->device.eventfd, OTA_VEC_COUNT);
	if (r < 0) {
		log_error("device-setup-failed", "peer=%u errno=%d", s->device.id, -r);
		return r;
	}
	m->devsock.seat.peer_id = s->device.id;
	m->devsock.joins++;
	if (guest)
		log_info("device-connected", "peer=%u guest-peer=%u joins=%llu", s->device.id,
			 s->guest.id, (unsigned long long)m->devsock.joins);
	else
		log_info("device-connected", "peer=%u guest=no joins=%llu", s->device.id,
			 (unsigned long long)m->devsock.joins);
	return 0;
}

int devsock_start(struct model *m)
{
	struct devsock *d = &m->devsock;
	int r;

	seat_init(&d->seat, m, "device", m->opt.device_socket_path, admit_device, device_gone);
	r = seat_listen(&d->seat, m->event);
	if (r < 0)
		return r;
	log_info("device-listening", "socket=%s device-peer=%u", m->opt.device_socket_path,
		 m->server.device.id);
	return 0;
}

void devsock_stop(struct model *m)
{
	seat_close(&m->devsock.seat, "server-stopping");
}

/* One message to the device; a device that cannot take it is dropped. */
static void tell_device(struct model *m, int64_t value, int fd)
{
	int r;

	if (!seat_taken(&m->devsock.seat))
		return;
	r = ivshmem_send(m->devsock.seat.fd, value, fd);
	if (r < 0) {
		log_warn("device-send-failed", "errno=%d", -r);
		seat_free(&m->devsock.seat, "send-failed");
	}
}

void devsock_guest_arrived(struct model *m)
{
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++)
		tell_device(m, m->server.guest.id, m->server.guest.eventfd[v]);
}

void devsock_guest_left(struct model *m, uint32_t guest_id)
{
	tell_device(m, guest_id, -1);
}
