// SPDX-License-Identifier: MIT
#include "genl.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <otattest/record.h>

#include "log.h"

/* Largest reply: the response region's worth of evidence plus headers. */
#define GENL_RECV_BUF (OTA_SHM_RESPONSE_SIZE + 16384u)
#define GENL_RCVBUF_BYTES (1u << 20)

struct genl_req {
	struct genl_req *next;
	struct genl *g;
	uint32_t seq;
	uint8_t cmd;
	genl_done_fn done;
	void *userdata;
	sd_event_source *timer;
	struct nlmsghdr *reply; /* copy of the family's reply message */
	uint64_t timeout_usec;
};

struct send_item {
	struct send_item *next;
	uint32_t seq;
	size_t len;
	uint8_t buf[];
};

struct send_done {
	uint32_t seq;
	int err;
};

/*
 * Two sender lanes, because the family is parallel_ops: GET_DEVICE and
 * GET_RECORD read the driver's snapshot and return at once, so they get a
 * lane of their own and a cache refresh never waits behind an attestation
 * or a rotation on the device's mailbox.
 */
enum { LANE_SNAPSHOT, LANE_MAILBOX, N_LANES };

struct lane {
	struct genl *g;
	pthread_t thread;
	bool started;
	pthread_cond_t cond;
	struct send_item *head, **tail;
};

struct genl {
	sd_event *event;
	struct genl_callbacks cb;

	struct mnl_socket *req_sock, *ev_sock;
	sd_event_source *req_src, *ev_src, *pipe_src;
	uint16_t family_id;
	bool available;
	uint32_t events_group;
	uint32_t seq;

	struct genl_req *pending;
	unsigned n_pending;

	pthread_mutex_t lock; /* the lanes' queues and stop */
	struct lane lanes[N_LANES];
	bool stop;
	int pipe_fd[2];

	uint8_t *rbuf;
};

/* ---- family resolution ---- */

struct family_info {
	uint16_t id;
	uint32_t events_group;
	char name[GENL_NAMSIZ];
};

static int mcast_grp_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(attr);

	if (type == CTRL_ATTR_MCAST_GRP_NAME && mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
		tb[type] = attr;
	else if (type == CTRL_ATTR_MCAST_GRP_ID && mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
		tb[type] = attr;
	return MNL_CB_OK;
}

static int ctrl_attr_cb(const struct nlattr *attr, void *data)
{
	struct family_info *fi = data;
	uint16_t type = mnl_attr_get_type(attr);

	switch (type) {
	case CTRL_ATTR_FAMILY_NAME:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) == 0)
			snprintf(fi->name, sizeof(fi->name), "%s", mnl_attr_get_str(attr));
		break;
	case CTRL_ATTR_FAMILY_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
			fi->id = mnl_attr_get_u16(attr);
		break;
	case CTRL_ATTR_MCAST_GROUPS: {
		const struct nlattr *grp;

		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
			break;
		mnl_attr_for_each_nested(grp, attr) {
			const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1] = { 0 };

			if (mnl_attr_parse_nested(grp, mcast_grp_cb, tb) != MNL_CB_OK)
				continue;
			if (tb[CTRL_ATTR_MCAST_GRP_NAME] && tb[CTRL_ATTR_MCAST_GRP_ID] &&
			    strcmp(mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]),
				   OTATTEST_GENL_MCGRP_EVENTS) == 0)
				fi->events_group = mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
		}
		break;
	}
	}
	return MNL_CB_OK;
}

/*
 * CTRL_CMD_GETFAMILY is answered by the kernel inside sendmsg() without any
 * device involved, so a blocking exchange on a private socket is fine here.
 * Returns 0, -ENOENT when the family is not registered, or another error.
 */
static int query_family(const char *name, struct family_info *fi, uint32_t *notify_group)
{
	uint8_t buf[8192];
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct genlmsghdr *gh;
	uint32_t seq = (uint32_t)time(NULL), portid;
	int r = -EPROTO;
	ssize_t n;

	memset(fi, 0, sizeof(*fi));
	nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		r = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(nl);

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = CTRL_CMD_GETFAMILY;
	gh->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		r = -errno;
		goto out;
	}
	for (;;) {
		const struct nlmsghdr *m;
		int rem;

		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0) {
			r = -errno;
			goto out;
		}
		rem = (int)n;
		for (m = (const struct nlmsghdr *)buf; mnl_nlmsg_ok(m, rem); m = mnl_nlmsg_next(m, &rem)) {
			if (m->nlmsg_seq != seq || m->nlmsg_pid != portid)
				continue;
			if (m->nlmsg_type == NLMSG_ERROR) {
				struct genl_error ge;
				int err = EPROTO;

				if (genl_parse_error(m, (size_t)rem, &ge) == 0)
					err = ge.err;
				r = err ? -err : (fi->id ? 0 : -ENOENT);
				goto out;
			}
			if (m->nlmsg_type == GENL_ID_CTRL) {
				mnl_attr_parse(m, sizeof(struct genlmsghdr), ctrl_attr_cb, fi);
				if (notify_group) {
					/* nlctrl's own group is called "notify". */
					const struct nlattr *a;

					mnl_attr_for_each(a, m, sizeof(struct genlmsghdr)) {
						const struct nlattr *grp;

						if (mnl_attr_get_type(a) != CTRL_ATTR_MCAST_GROUPS ||
						    mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
							continue;
						mnl_attr_for_each_nested(grp, a) {
							const struct nlattr *tb[CTRL_ATTR_MCAST_GRP_MAX + 1] = { 0 };

							if (mnl_attr_parse_nested(grp, mcast_grp_cb, tb) == MNL_CB_OK &&
							    tb[CTRL_ATTR_MCAST_GRP_NAME] && tb[CTRL_ATTR_MCAST_GRP_ID] &&
							    strcmp(mnl_attr_get_str(tb[CTRL_ATTR_MCAST_GRP_NAME]), "notify") == 0)
								*notify_group = mnl_attr_get_u32(tb[CTRL_ATTR_MCAST_GRP_ID]);
						}
					}
				}
			}
		}
	}
out:
	mnl_socket_close(nl);
	return r;
}

static int join_group(struct genl *g, uint32_t group)
{
	int grp = (int)group;

	if (mnl_socket_setsockopt(g->ev_sock, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)) < 0)
		return -errno;
	return 0;
}

/* ---- request completion ---- */

static void req_unlink(struct genl *g, struct genl_req *req)
{
	struct genl_req **pp;

	for (pp = &g->pending; *pp; pp = &(*pp)->next)
		if (*pp == req) {
			*pp = req->next;
			g->n_pending--;
			return;
		}
}

static void req_free(struct genl_req *req)
{
	sd_event_source_disable_unref(req->timer);
	free(req->reply);
	free(req);
}

/* Drop a request that the sender thread has not sent yet. */
static bool unqueue(struct genl *g, uint32_t seq)
{
	struct send_item **pp, *it;
	bool found = false;
	int l;

	pthread_mutex_lock(&g->lock);
	for (l = 0; l < N_LANES && !found; l++) {
		struct lane *lane = &g->lanes[l];

		for (pp = &lane->head; (it = *pp); pp = &it->next) {
			if (it->seq == seq) {
				*pp = it->next;
				if (!*pp)
					lane->tail = pp;
				free(it);
				found = true;
				break;
			}
		}
	}
	pthread_mutex_unlock(&g->lock);
	return found;
}

static void req_complete(struct genl *g, struct genl_req *req, const struct ota_err *err)
{
	struct genl_result res;

	memset(&res, 0, sizeof(res));
	req_unlink(g, req);
	if (err) {
		res.err = *err;
	} else if (req->reply && genl_parse_attrs(req->reply, &res) < 0) {
		ota_err_set_statusf(&res.err, OTA_HOST_PROTOCOL,
				    "the kernel's reply to command %u has a malformed attribute", req->cmd);
	} else {
		res.ok = true;
	}
	req->done(req->userdata, &res);
	req_free(req);
}

static struct genl_req *req_find(struct genl *g, uint32_t seq)
{
	struct genl_req *r;

	for (r = g->pending; r; r = r->next)
		if (r->seq == seq)
			return r;
	return NULL;
}

static void fail_all(struct genl *g, ota_status_t s, const char *why)
{
	struct ota_err e;

	ota_err_set_statusf(&e, s, "%s", why);
	while (g->pending) {
		unqueue(g, g->pending->seq);
		req_complete(g, g->pending, &e);
	}
}

static int on_timeout(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct genl_req *req = userdata;
	struct genl *g = req->g;
	struct ota_err e;

	(void)s;
	(void)usec;
	unqueue(g, req->seq);
	ota_err_set_statusf(&e, OTA_HOST_TIMEOUT, "no answer from the kernel within %llu s",
			    (unsigned long long)(req->timeout_usec / 1000000));
	req_complete(g, req, &e);
	return 0;
}

/* ---- receiving ---- */

static void handle_reply(struct genl *g, const struct nlmsghdr *nlh, size_t rem)
{
	struct genl_req *req = req_find(g, nlh->nlmsg_seq);
	struct ota_err e;

	if (!req) {
		/* Late answer to a request that already timed out. */
		log_debug("ignoring netlink message with stale sequence %u", nlh->nlmsg_seq);
		return;
	}
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		struct genl_error ge;

		if (genl_parse_error(nlh, rem, &ge) < 0) {
			ota_err_set_statusf(&e, OTA_HOST_PROTOCOL, "malformed netlink error message");
			req_complete(g, req, &e);
			return;
		}
		if (ge.err == 0) {
			req_complete(g, req, NULL);
			return;
		}
		ota_err_from_netlink(&e, ge.err, ge.status, ge.msg);
		req_complete(g, req, &e);
		return;
	}
	if (nlh->nlmsg_type == NLMSG_DONE) {
		req_complete(g, req, NULL);
		return;
	}
	if (nlh->nlmsg_type == g->family_id) {
		struct nlmsghdr *copy = malloc(nlh->nlmsg_len);

		if (!copy) {
			ota_err_set_statusf(&e, OTA_HOST_INTERNAL, "out of memory");
			req_complete(g, req, &e);
			return;
		}
		memcpy(copy, nlh, nlh->nlmsg_len);
		free(req->reply);
		req->reply = copy;
	}
}

static int recv_some(int fd, uint8_t *buf, size_t size, ssize_t *out)
{
	struct sockaddr_nl addr;
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	struct msghdr mh = { .msg_name = &addr, .msg_namelen = sizeof(addr), .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	n = recvmsg(fd, &mh, MSG_DONTWAIT);
	if (n < 0)
		return -errno;
	if (addr.nl_pid != 0) {
		/* Only the kernel talks to us; anything else is not an answer. */
		*out = 0;
		return 0;
	}
	if (mh.msg_flags & MSG_TRUNC)
		return -EMSGSIZE;
	*out = n;
	return 0;
}

static int on_req_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct genl *g = userdata;

	(void)s;
	(void)revents;
	for (;;) {
		const struct nlmsghdr *nlh;
		ssize_t n;
		int rem, r;

		r = recv_some(fd, g->rbuf, GENL_RECV_BUF, &n);
		if (r == -EAGAIN || r == -EWOULDBLOCK)
			return 0;
		if (r == -ENOBUFS) {
			/* Replies were dropped; their requests end by timeout. */
			log_warning("netlink receive queue overflowed; waiting requests will time out");
			continue;
		}
		if (r == -EMSGSIZE) {
			const struct nlmsghdr *h = (const struct nlmsghdr *)g->rbuf;
			struct genl_req *req = req_find(g, h->nlmsg_seq);
			struct ota_err e;

			if (req) {
				ota_err_set_statusf(&e, OTA_HOST_PROTOCOL, "the kernel's reply is larger than %u bytes",
						    GENL_RECV_BUF);
				req_complete(g, req, &e);
			}
			continue;
		}
		if (r < 0) {
			log_warning_errno(r, "netlink receive failed: %m");
			return 0;
		}
		rem = (int)n;
		for (nlh = (const struct nlmsghdr *)g->rbuf; mnl_nlmsg_ok(nlh, rem);
		     nlh = mnl_nlmsg_next(nlh, &rem))
			handle_reply(g, nlh, (size_t)rem);
	}
}

static void handle_ctrl(struct genl *g, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *gh = mnl_nlmsg_get_payload(nlh);
	struct family_info fi = { 0 };

	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*gh))
		return;
	mnl_attr_parse(nlh, sizeof(*gh), ctrl_attr_cb, &fi);
	if (strcmp(fi.name, OTATTEST_GENL_NAME) != 0)
		return;
	if (gh->cmd == CTRL_CMD_DELFAMILY) {
		if (g->available) {
			g->available = false;
			log_notice("generic netlink family \"%s\" went away", OTATTEST_GENL_NAME);
			fail_all(g, OTA_HOST_DEVICE_GONE, "the otattest driver went away");
			if (g->cb.family)
				g->cb.family(g->cb.userdata, false);
		}
	} else if (gh->cmd == CTRL_CMD_NEWFAMILY || gh->cmd == CTRL_CMD_NEWMCAST_GRP) {
		genl_resolve(g);
	}
}

static void handle_event(struct genl *g, const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *gh;
	struct genl_result res;

	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*gh))
		return;
	gh = mnl_nlmsg_get_payload(nlh);
	if (gh->cmd != OTATTEST_CMD_EVENT)
		return;
	if (genl_parse_attrs(nlh, &res) < 0) {
		log_warning("ignoring a malformed otattest event");
		return;
	}
	if (!res.tb[OTATTEST_A_EVENT])
		return;
	if (g->cb.event)
		g->cb.event(g->cb.userdata, mnl_attr_get_u32(res.tb[OTATTEST_A_EVENT]), res.tb);
}

static int on_ev_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct genl *g = userdata;

	(void)s;
	(void)revents;
	for (;;) {
		const struct nlmsghdr *nlh;
		ssize_t n;
		int rem, r;

		r = recv_some(fd, g->rbuf, GENL_RECV_BUF, &n);
		if (r == -EAGAIN || r == -EWOULDBLOCK)
			return 0;
		if (r == -ENOBUFS) {
			/*
			 * Events were lost: we no longer know what changed, so
			 * behave as if everything did.
			 */
			log_warning("netlink event queue overflowed; refreshing every device");
			if (g->cb.event)
				g->cb.event(g->cb.userdata, 0, NULL);
			continue;
		}
		if (r < 0 && r != -EMSGSIZE) {
			log_warning_errno(r, "netlink event receive failed: %m");
			return 0;
		}
		if (r < 0)
			continue;
		rem = (int)n;
		for (nlh = (const struct nlmsghdr *)g->rbuf; mnl_nlmsg_ok(nlh, rem);
		     nlh = mnl_nlmsg_next(nlh, &rem)) {
			if (nlh->nlmsg_type == GENL_ID_CTRL)
				handle_ctrl(g, nlh);
			else if (g->available && nlh->nlmsg_type == g->family_id)
				handle_event(g, nlh);
		}
	}
}

/* ---- sending ---- */

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
		 * error) queued on the socket before sendto() returns, and the
		 * loop reads it there: only a send that failed needs a word.
		 * Skipping the pipe saves the loop a wake-up per request.
		 */
		if (!d.err)
			continue;
		/* A full pipe means the loop is gone; the result no longer matters. */
		if (write(g->pipe_fd[1], &d, sizeof(d)) < 0)
			continue;
	}
}

static int on_pipe_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct genl *g = userdata;
	struct send_done d;

	(void)s;
	(void)revents;
	while (read(fd, &d, sizeof(d)) == (ssize_t)sizeof(d)) {
		struct genl_req *req;
		struct ota_err e;

		req = req_find(g, d.seq);
		if (!req)
			continue;
		ota_err_from_netlink(&e, d.err, 0, NULL);
		if (d.err == ENOENT || d.err == ECONNREFUSED)
			ota_err_set_statusf(&e, OTA_HOST_DEVICE_GONE, "the otattest driver is not loaded");
		req_complete(g, req, &e);
	}
	return 0;
}

int genl_request(struct genl *g, uint8_t cmd, uint32_t index, const struct genl_args *args,
		 uint64_t timeout_usec, genl_done_fn done, void *userdata)
{
	struct send_item *it;
	struct genl_req *req;
	struct nlmsghdr *nlh;
	struct genlmsghdr *gh;
	int r;

	if (!g->available)
		return -ENOENT;
	it = calloc(1, sizeof(*it) + 512);
	req = calloc(1, sizeof(*req));
	if (!it || !req) {
		free(it);
		free(req);
		return -ENOMEM;
	}
	if (++g->seq == 0)
		g->seq = 1;

	nlh = mnl_nlmsg_put_header(it->buf);
	nlh->nlmsg_type = g->family_id;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = g->seq;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = OTATTEST_GENL_VERSION;
	mnl_attr_put_u32(nlh, OTATTEST_A_DEVICE, index);
	if (args && args->nonce)
		mnl_attr_put(nlh, OTATTEST_A_NONCE, args->nonce_len, args->nonce);
	if (args && args->has_svn)
		mnl_attr_put_u32(nlh, OTATTEST_A_SVN, args->svn);
	if (args && args->has_slot)
		mnl_attr_put_u32(nlh, OTATTEST_A_SLOT, args->slot);
	it->len = nlh->nlmsg_len;
	it->seq = g->seq;

	req->g = g;
	req->seq = g->seq;
	req->cmd = cmd;
	req->done = done;
	req->userdata = userdata;
	req->timeout_usec = timeout_usec;
	r = sd_event_add_time_relative(g->event, &req->timer, CLOCK_MONOTONIC, timeout_usec, 0,
				       on_timeout, req);
	if (r < 0) {
		free(it);
		free(req);
		return r;
	}
	req->next = g->pending;
	g->pending = req;
	g->n_pending++;

	{
		struct lane *lane = &g->lanes[cmd == OTATTEST_CMD_GET_DEVICE || cmd == OTATTEST_CMD_GET_RECORD
						      ? LANE_SNAPSHOT
						      : LANE_MAILBOX];

		pthread_mutex_lock(&g->lock);
		*lane->tail = it;
		lane->tail = &it->next;
		pthread_cond_signal(&lane->cond);
		pthread_mutex_unlock(&g->lock);
	}
	return 0;
}

unsigned genl_pending(const struct genl *g)
{
	return g->n_pending;
}

bool genl_available(const struct genl *g)
{
	return g && g->available;
}

int genl_resolve(struct genl *g)
{
	struct family_info fi;
	int r;

	r = query_family(OTATTEST_GENL_NAME, &fi, NULL);
	if (r < 0) {
		if (g->available) {
			g->available = false;
			fail_all(g, OTA_HOST_DEVICE_GONE, "the otattest driver went away");
			if (g->cb.family)
				g->cb.family(g->cb.userdata, false);
		}
		return r;
	}
	if (g->available && fi.id == g->family_id && fi.events_group == g->events_group)
		return 0;
	g->family_id = fi.id;
	g->events_group = fi.events_group;
	if (fi.events_group) {
		r = join_group(g, fi.events_group);
		if (r < 0)
			log_warning_errno(r, "cannot join the otattest events group: %m");
	} else {
		log_warning("family \"%s\" has no \"%s\" multicast group; relying on uevents",
			    OTATTEST_GENL_NAME, OTATTEST_GENL_MCGRP_EVENTS);
	}
	g->available = true;
	log_info("generic netlink family \"%s\" is id %u, events group %u", OTATTEST_GENL_NAME,
		 fi.id, fi.events_group);
	if (g->cb.family)
		g->cb.family(g->cb.userdata, true);
	return 0;
}

static struct mnl_socket *open_socket(void)
{
	struct mnl_socket *nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC | SOCK_NONBLOCK);
	int one = 1, size = GENL_RCVBUF_BYTES;

	if (!nl)
		return NULL;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		mnl_socket_close(nl);
		return NULL;
	}
	/* Extended acks carry the status message; no echo of our request. */
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one));
	/* Force needs CAP_NET_ADMIN, which we have; fall back without it. */
	if (setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	return nl;
}

int genl_new(struct genl **ret, sd_event *event, const struct genl_callbacks *cb)
{
	struct family_info ctrl;
	uint32_t notify = 0;
	sigset_t all, old;
	struct genl *g;
	int r, l;

	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->event = sd_event_ref(event);
	g->cb = *cb;
	g->pipe_fd[0] = g->pipe_fd[1] = -1;
	g->seq = (uint32_t)time(NULL);
	pthread_mutex_init(&g->lock, NULL);
	for (l = 0; l < N_LANES; l++) {
		g->lanes[l].g = g;
		g->lanes[l].tail = &g->lanes[l].head;
		pthread_cond_init(&g->lanes[l].cond, NULL);
	}

	g->rbuf = malloc(GENL_RECV_BUF);
	g->req_sock = open_socket();
	g->ev_sock = open_socket();
	if (!g->rbuf || !g->req_sock || !g->ev_sock) {
		r = errno ? -errno : -ENOMEM;
		goto fail;
	}
	if (pipe2(g->pipe_fd, O_CLOEXEC | O_NONBLOCK) < 0) {
		r = -errno;
		goto fail;
	}
	/* The sender writes blocking-free: each result is 8 bytes < PIPE_BUF. */

	r = sd_event_add_io(event, &g->req_src, mnl_socket_get_fd(g->req_sock), EPOLLIN, on_req_io, g);
	if (r < 0)
		goto fail;
	r = sd_event_add_io(event, &g->ev_src, mnl_socket_get_fd(g->ev_sock), EPOLLIN, on_ev_io, g);
	if (r < 0)
		goto fail;
	r = sd_event_add_io(event, &g->pipe_src, g->pipe_fd[0], EPOLLIN, on_pipe_io, g);
	if (r < 0)
		goto fail;

	/* nlctrl's notify group tells us when our family comes and goes. */
	r = query_family("nlctrl", &ctrl, &notify);
	if (r == 0 && notify)
		join_group(g, notify);
	else
		log_warning("cannot subscribe to nlctrl notifications; driver reloads are noticed late");

	/* The threads must not take signals the loop handles by signalfd. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (l = 0, r = 0; l < N_LANES && r == 0; l++) {
		r = -pthread_create(&g->lanes[l].thread, NULL, sender_main, &g->lanes[l]);
		g->lanes[l].started = r == 0;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r < 0)
		goto fail;

	genl_resolve(g);
	*ret = g;
	return 0;
fail:
	genl_free(g);
	return r;
}

struct genl *genl_free(struct genl *g)
{
	struct send_item *it;
	int l;

	if (!g)
		return NULL;
	fail_all(g, OTA_HOST_DEVICE_GONE, "otattestd is shutting down");
	pthread_mutex_lock(&g->lock);
	g->stop = true;
	for (l = 0; l < N_LANES; l++)
		pthread_cond_signal(&g->lanes[l].cond);
	pthread_mutex_unlock(&g->lock);
	for (l = 0; l < N_LANES; l++) {
		if (g->lanes[l].started)
			pthread_join(g->lanes[l].thread, NULL);
		while ((it = g->lanes[l].head)) {
			g->lanes[l].head = it->next;
			free(it);
		}
		pthread_cond_destroy(&g->lanes[l].cond);
	}
	sd_event_source_disable_unref(g->req_src);
	sd_event_source_disable_unref(g->ev_src);
	sd_event_source_disable_unref(g->pipe_src);
	if (g->req_sock)
		mnl_socket_close(g->req_sock);
	if (g->ev_sock)
		mnl_socket_close(g->ev_sock);
	if (g->pipe_fd[0] >= 0)
		close(g->pipe_fd[0]);
	if (g->pipe_fd[1] >= 0)
		close(g->pipe_fd[1]);
	free(g->rbuf);
	pthread_mutex_destroy(&g->lock);
	sd_event_unref(g->event);
	free(g);
	return NULL;
}
