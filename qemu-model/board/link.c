// SPDX-License-Identifier: MIT
/*
 * A split model's device process and its server ('otattest-model
 * --connect=DEVICE-SOCKET'): the device joins the server as an ivshmem
 * peer, with the client half of the protocol a guest uses
 * (ivshmem_client.c), and the server always gives it the device's peer id
 * and the device's eventfds (devsock.c).
 *
 * From the greeting it takes the shared memory, which it takes over as a
 * power-on does (shm_attach: whatever a previous device left there is
 * stale), its own eventfds, to be rung on, and the guest's, to ring.
 * Later the server announces guests coming and going; the device rings
 * whichever guest is there. A guest announcement is always handled
 * before a doorbell that arrived with it (the socket's event source has
 * the higher priority), so a new guest's first request never meets the
 * last guest's sequence number. When the server goes away the device has
 * lost its bus and stops.
 */
#include <errno.h>
#include <string.h>

#include "model.h"

/* The server greets at once; waiting longer only hides a wrong socket. */
#define LINK_GREETING_TIMEOUT_MS 10000

/* The announced guest: a peer other than us with all its vectors. */
static const struct ivshmem_remote *announced_guest(const struct link *l)
{
	for (unsigned i = 0; i < IVSHMEM_CLIENT_MAX_PEERS; i++)
		if (l->cl.peer[i].present && l->cl.peer[i].vectors == OTA_VEC_COUNT)
			return &l->cl.peer[i];
	return NULL;
}

/* Bring the guest peer in line with what the server said. */
static void sync_guest(struct model *m)
{
	struct server *s = &m->server;
	struct link *l = &m->link;
	const struct ivshmem_remote *g = announced_guest(l);
	bool left = l->cl.disconnects_seen != l->disconnects_handled;
	uint32_t id = s->guest.id;
	int r;

	l->disconnects_handled = l->cl.disconnects_seen;
	if (peer_is_open(&s->guest) && (left || !g || g->id != id)) {
		peer_close(&s->guest);
		log_info("guest-gone", "peer=%u", id);
		model_guest_gone(m, id);
	}
	if (peer_is_open(&s->guest) || !g)
		return;
	r = peer_adopt(&s->guest, (uint32_t)g->id, g->fd);
	if (r < 0) {
		log_error("guest-setup-failed", "peer=%u errno=%d", (uint32_t)g->id, -r);
		return;
	}
	s->guests_accepted++;
	/* The server cleared the mailbox before greeting it; the sequence is ours to forget. */
	mbox_forget(m);
	log_info("guest-announced", "peer=%u device-peer=%u", s->guest.id, s->device.id);
	model_guest_started(m);
}

static int on_server(sd_event_source *src, int fd, uint32_t revents, void *userdata)
{
	struct model *m = userdata;
	int r;

	(void)src;
	(void)fd;
	(void)revents;
	r = ivshmem_client_poll(&m->link.cl, 0);
	if (r >= 0) {
		sync_guest(m);
		return 0;
	}
	log_error("server-gone", "socket=%s reason=%s", m->opt.connect_path,
		  r == -EPIPE ? "hangup" : "protocol-error");
	m->link.src = sd_event_source_disable_unref(m->link.src);
	if (peer_is_open(&m->server.guest)) {
		uint32_t id = m->server.guest.id;

		peer_close(&m->server.guest);
		model_guest_gone(m, id);
	}
	model_request_exit(m, "server-gone",
			   ota_class_exit_code(ota_status_class(OTA_MODEL_NO_SERVER)));
	return 0;
}

int link_connect(struct model *m)
{
	struct link *l = &m->link;
	uint32_t id;
	int r;

	r = ivshmem_client_connect(&l->cl, m->opt.connect_path, LINK_GREETING_TIMEOUT_MS);
	if (r == -EBUSY) {
		log_error("device-refused", "socket=%s reason=busy", m->opt.connect_path);
		return r;
	}
	if (r < 0) {
		log_error("server-connect-failed", "socket=%s errno=%d reason=\"%s\"",
			  m->opt.connect_path, -r, strerror(-r));
		return r;
	}
	id = (uint32_t)l->cl.own_id;
	/* A server that seats the device anywhere else does not speak this ABI. */
	if (id != OTA_SHM_DEVICE_PEER_ID) {
		log_error("server-join-failed", "socket=%s reason=\"device peer id %u, not %u\"",
			  m->opt.connect_path, id, OTA_SHM_DEVICE_PEER_ID);
		return -EPROTO;
	}
	r = peer_adopt(&m->server.device, id, l->cl.own_fd);
	if (r == 0) {
		/* The memory is shm.c's now: one fd of it in this process. */
		int shm_fd = l->cl.shm_fd;

		l->cl.shm_fd = -1;
		r = shm_attach(&m->shm, shm_fd);
	}
	if (r == 0)
		r = doorbell_watch(m);
	if (r == 0)
		r = sd_event_add_io(m->event, &l->src, l->cl.sock, EPOLLIN | EPOLLRDHUP, on_server,
				    m);
	if (r == 0)
		r = sd_event_source_set_priority(l->src, SD_EVENT_PRIORITY_IMPORTANT);
	if (r < 0) {
		log_error("server-join-failed", "socket=%s errno=%d", m->opt.connect_path, -r);
		return r;
	}
	sync_guest(m);
	log_info("server-connected", "socket=%s device-peer=%u guest=%s", m->opt.connect_path, id,
		 peer_is_open(&m->server.guest) ? "yes" : "no");
	return 0;
}

void link_close(struct model *m)
{
	doorbell_unwatch(m);
	m->link.src = sd_event_source_disable_unref(m->link.src);
	peer_close(&m->server.guest);
	peer_close(&m->server.device);
	ivshmem_client_close(&m->link.cl);
}
