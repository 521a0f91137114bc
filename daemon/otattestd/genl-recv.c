// SPDX-License-Identifier: MIT
/*
 * Reading what the kernel sends, on the event loop: replies (and acks and
 * errors) on the request socket, matched to their request by sequence
 * number; events of the family and nlctrl's notifications on the event
 * socket. Every message is parsed by genl-parse.c before anything uses it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "genl-internal.h"
#include "log.h"

static void handle_reply(struct genl *g, const struct nlmsghdr *nlh, size_t rem)
{
	struct genl_req *req = genl_req_find(g, nlh->nlmsg_seq);
	struct genl_error ge;
	struct ota_err e;

	if (!req) {
		/* Late answer to a request that already timed out. */
		log_debug("ignoring netlink message with stale sequence %u", nlh->nlmsg_seq);
		return;
	}
	switch (nlh->nlmsg_type) {
	case NLMSG_ERROR:
		if (genl_parse_error(nlh, rem, &ge) < 0) {
			ota_err_set_statusf(&e, OTA_HOST_PROTOCOL, "malformed netlink error message");
			genl_req_complete(g, req, &e);
		} else if (ge.err == 0) {
			genl_req_complete(g, req, NULL);
		} else {
			ota_err_from_netlink(&e, ge.err, ge.status, ge.msg);
			genl_req_complete(g, req, &e);
		}
		return;
	case NLMSG_DONE:
		genl_req_complete(g, req, NULL);
		return;
	}
	if (nlh->nlmsg_type == g->family_id) {
		struct nlmsghdr *copy = malloc(nlh->nlmsg_len);

		if (!copy) {
			ota_err_set_statusf(&e, OTA_HOST_INTERNAL, "out of memory");
			genl_req_complete(g, req, &e);
			return;
		}
		memcpy(copy, nlh, nlh->nlmsg_len);
		free(req->reply);
		req->reply = copy;
	}
}

/* One datagram into buf; only the kernel's (port 0) count. */
static int recv_some(int fd, uint8_t *buf, size_t size, ssize_t *out)
{
	struct sockaddr_nl addr;
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	struct msghdr mh = { .msg_name = &addr, .msg_namelen = sizeof(addr), .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	n = recvmsg(fd, &mh, MSG_DONTWAIT);
	if (n < 0)
		return -errno;
	*out = addr.nl_pid == 0 ? n : 0;
	if (addr.nl_pid == 0 && (mh.msg_flags & MSG_TRUNC))
		return -EMSGSIZE;
	return 0;
}

/* What a socket's reader does with a message, a lost batch, a truncated one. */
struct drain_ops {
	void (*message)(struct genl *g, const struct nlmsghdr *nlh, size_t rem);
	void (*overflow)(struct genl *g);  /* ENOBUFS: the kernel dropped messages */
	void (*truncated)(struct genl *g); /* larger than GENL_RECV_BUF */
	const char *what;
};

/* Read every datagram queued on fd, each message to ops->message. */
static int drain(struct genl *g, int fd, const struct drain_ops *ops)
{
	for (;;) {
		const struct nlmsghdr *nlh;
		ssize_t n = 0;
		int rem, r;

		r = recv_some(fd, g->rbuf, GENL_RECV_BUF, &n);
		if (r == -EAGAIN || r == -EWOULDBLOCK)
			return 0;
		if (r == -ENOBUFS) {
			ops->overflow(g);
			continue;
		}
		if (r == -EMSGSIZE) {
			ops->truncated(g);
			continue;
		}
		if (r < 0) {
			log_warning_errno(r, "netlink %s receive failed: %m", ops->what);
			return 0;
		}
		rem = (int)n;
		for (nlh = (const struct nlmsghdr *)g->rbuf; mnl_nlmsg_ok(nlh, rem);
		     nlh = mnl_nlmsg_next(nlh, &rem))
			ops->message(g, nlh, (size_t)rem);
	}
}

static void replies_lost(struct genl *g)
{
	/* Their requests end by timeout. */
	log_warning("netlink receive queue overflowed; waiting requests will time out");
}

static void reply_truncated(struct genl *g)
{
	const struct nlmsghdr *h = (const struct nlmsghdr *)g->rbuf;
	struct genl_req *req = genl_req_find(g, h->nlmsg_seq);
	struct ota_err e;

	if (!req)
		return;
	ota_err_set_statusf(&e, OTA_HOST_PROTOCOL, "the kernel's reply is larger than %u bytes",
			    GENL_RECV_BUF);
	genl_req_complete(g, req, &e);
}

int genl_on_req_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	static const struct drain_ops ops = {
		.message = handle_reply,
		.overflow = replies_lost,
		.truncated = reply_truncated,
		.what = "reply",
	};

	return drain(userdata, fd, &ops);
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
	if (res.tb[OTATTEST_A_EVENT] && g->cb.event)
		g->cb.event(g->cb.userdata, mnl_attr_get_u32(res.tb[OTATTEST_A_EVENT]), res.tb);
}

static void events_lost(struct genl *g)
{
	/* We no longer know what changed: behave as if everything did. */
	log_warning("netlink event queue overflowed; refreshing every device");
	if (g->cb.event)
		g->cb.event(g->cb.userdata, 0, NULL);
}

static void event_truncated(struct genl *g)
{
}

static void handle_multicast(struct genl *g, const struct nlmsghdr *nlh, size_t rem)
{
	if (nlh->nlmsg_type == GENL_ID_CTRL)
		genl_family_on_ctrl(g, nlh);
	else if (g->available && nlh->nlmsg_type == g->family_id)
		handle_event(g, nlh);
}

int genl_on_ev_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	static const struct drain_ops ops = {
		.message = handle_multicast,
		.overflow = events_lost,
		.truncated = event_truncated,
		.what = "event",
	};

	return drain(userdata, fd, &ops);
}
