// SPDX-License-Identifier: MIT
/*
 * The ivshmem server: QEMU's ivshmem-doorbell device (or the host test
 * client) connects here and gets the shared memory and the eventfds.
 *
 * The device is the first peer (id OTA_SHM_DEVICE_PEER_ID, fixed by the ABI):
 * this process itself, or in split mode a separate device process that
 * joins through devsock.c and gets these same eventfds every time it
 * comes back. The server admits one guest at a time: the device has one
 * host interface (seat.c). A second guest is refused with a greeting of
 * version -1 and a closed connection: QEMU then fails its ivshmem-doorbell
 * realize ("server sent version -1, expecting 0") and exits, instead of a
 * guest that silently never gets an answer. Guest ids start at 1 and move
 * on with every connection, so a reconnecting guest never inherits the
 * previous one's id.
 */
#include "ivshmem_proto.h"
#include "model.h"

static uint32_t allocate_guest_id(struct server *s, uint32_t device_id)
{
	uint32_t id;

	do {
		id = s->next_guest_id;
		s->next_guest_id = id >= IVSHMEM_MAX_PEER_ID ? 1u : id + 1u;
	} while (id == device_id);
	return id;
}

/* The guest's seat is free again: QEMU exited or unplugged the device. */
static void guest_gone(struct model *m, const char *why)
{
	struct server *s = &m->server;
	uint32_t id = s->guest.id;

	log_info("guest-disconnected", "peer=%u reason=%s", id, why);
	peer_close(&s->guest);
	model_guest_gone(m, id);
}

static int admit_guest(struct model *m, int fd)
{
	struct server *s = &m->server;
	uint32_t id = allocate_guest_id(s, OTA_SHM_DEVICE_PEER_ID);
	int r;

	r = peer_open(&s->guest, id);
	if (r < 0) {
		log_error("guest-setup-failed", "peer=%u errno=%d", id, -r);
		return r;
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
	if (r < 0) {
		log_error("guest-setup-failed", "peer=%u errno=%d", id, -r);
		peer_close(&s->guest);
		model_guest_gone(m, id); /* a device process was told of it */
		return r;
	}
	s->seat.peer_id = id;
	s->guests_accepted++;
	log_info("guest-connected", "peer=%u device-peer=%u vectors=%u", id, s->device.id,
		 OTA_VEC_COUNT);
	model_guest_started(m);
	return 0;
}

int server_start(struct model *m)
{
	struct server *s = &m->server;
	int r;

	s->next_guest_id = 1;
	/*
	 * The device peer's eventfds live as long as the server: QEMU gets
	 * them once, in its greeting, and a split model's device process gets
	 * them again each time it joins (devsock.c says why they are never
	 * replaced). Only a whole model reads them itself.
	 */
	/* The device's peer id is the ABI's (shm.h); no guest is given it. */
	r = peer_open(&s->device, OTA_SHM_DEVICE_PEER_ID);
	if (r < 0)
		return r;
	if (m->opt.role == MODEL_ROLE_WHOLE) {
		r = doorbell_watch(m);
		if (r < 0)
			return r;
	}
	seat_init(&s->seat, m, "guest", m->opt.socket_path, admit_guest, guest_gone);
	r = seat_listen(&s->seat, m->event);
	if (r < 0)
		return r;
	log_info("listening", "socket=%s device-peer=%u shm-size=%u", m->opt.socket_path,
		 s->device.id, OTA_SHM_SIZE);
	return 0;
}

void server_stop(struct model *m)
{
	struct server *s = &m->server;

	seat_close(&s->seat, "model-stopping");
	doorbell_unwatch(m);
	peer_close(&s->device);
}

bool server_has_guest(const struct model *m)
{
	/* Open exactly while a guest is connected (or, in a device process, announced). */
	return peer_is_open(&m->server.guest);
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
