// SPDX-License-Identifier: MIT
/*
 * The sender lanes. Generic netlink runs a command's handler inside the
 * sendmsg() that delivers it, and the otattest handlers wait for the
 * device's mailbox (tens of milliseconds, seconds for a rotation, the
 * driver's timeout for a silent device). So the loop encodes a request,
 * hands it to its lane's thread and goes on; the kernel queues the reply
 * on the socket, where the loop reads it (genl-recv.c). Each lane sends
 * one request at a time, in order (genl-internal.h: why three lanes).
 */
#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "genl-internal.h"

static void *sender_main(void *p)
{
	struct lane *lane = p;
	struct genl *g = lane->g;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	int fd = mnl_socket_get_fd(g->req_sock);

	for (;;) {
		struct send_item *it;
		struct send_done d;
		ssize_t n;

		pthread_mutex_lock(&g->lock);
		while (!lane->head && !g->stop)
			pthread_cond_wait(&lane->cond, &g->lock);
		if (g->stop) {
			pthread_mutex_unlock(&g->lock);
			return NULL;
		}
		it = lane->head;
		lane->head = it->next;
		if (!lane->head)
			lane->tail = &lane->head;
		pthread_mutex_unlock(&g->lock);

		/* Blocks for as long as the kernel's handler waits on the device. */
		do
			n = sendto(fd, it->buf, it->len, 0, (struct sockaddr *)&kernel, sizeof(kernel));
		while (n < 0 && errno == EINTR);
		d.seq = it->seq;
		d.err = n < 0 ? errno : 0;
		free(it);
		/*
		 * A request the kernel took has its answer (reply, ack or
		 * error) queued on the socket before sendto() returns: only a
		 * send that failed needs a word, which saves the loop a wake-up
		 * per request. A full pipe means the loop is gone.
		 */
		if (d.err && write(g->pipe_fd[1], &d, sizeof(d)) < 0)
			continue;
	}
}

int genl_lanes_start(struct genl *g)
{
	sigset_t all, old;
	int r = 0, l;

	/* The threads must not take signals the loop handles by signalfd. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (l = 0; l < GENL_LANES && r == 0; l++) {
		r = -pthread_create(&g->lanes[l].thread, NULL, sender_main, &g->lanes[l]);
		g->lanes[l].started = r == 0;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return r;
}

void genl_lanes_stop(struct genl *g)
{
	struct send_item *it;
	int l;

	pthread_mutex_lock(&g->lock);
	g->stop = true;
	for (l = 0; l < GENL_LANES; l++)
		pthread_cond_signal(&g->lanes[l].cond);
	pthread_mutex_unlock(&g->lock);
	for (l = 0; l < GENL_LANES; l++) {
		if (g->lanes[l].started)
			pthread_join(g->lanes[l].thread, NULL);
		g->lanes[l].started = false;
		while ((it = g->lanes[l].head)) {
			g->lanes[l].head = it->next;
			free(it);
		}
		g->lanes[l].tail = &g->lanes[l].head;
	}
}

void genl_lane_push(struct genl *g, enum genl_lane lane, struct send_item *it)
{
	struct lane *l = &g->lanes[lane];

	assert(lane < GENL_LANES);
	pthread_mutex_lock(&g->lock);
	*l->tail = it;
	l->tail = &it->next;
	pthread_cond_signal(&l->cond);
	pthread_mutex_unlock(&g->lock);
}

/* Drop a request its sender thread has not sent yet. */
bool genl_lane_unqueue(struct genl *g, uint32_t seq)
{
	struct send_item **pp, *it;
	bool found = false;
	int l;

	pthread_mutex_lock(&g->lock);
	for (l = 0; l < GENL_LANES && !found; l++) {
		struct lane *lane = &g->lanes[l];

		for (pp = &lane->head; (it = *pp); pp = &it->next) {
			if (it->seq != seq)
				continue;
			*pp = it->next;
			if (!*pp)
				lane->tail = pp;
			free(it);
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&g->lock);
	return found;
}

/* A sender's word: the send itself failed (the driver is not loaded, ...). */
int genl_on_pipe_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct genl *g = userdata;
	struct send_done d;

	while (read(fd, &d, sizeof(d)) == (ssize_t)sizeof(d)) {
		struct genl_req *req = genl_req_find(g, d.seq);
		struct ota_err e;

		if (!req)
			continue;
		ota_err_from_netlink(&e, d.err, 0, NULL);
		if (d.err == ENOENT || d.err == ECONNREFUSED)
			ota_err_set_statusf(&e, OTA_HOST_DEVICE_GONE, "the otattest driver is not loaded");
		genl_req_complete(g, req, &e);
	}
	return 0;
}
