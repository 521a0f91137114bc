// SPDX-License-Identifier: MIT
/*
 * The generic netlink client's life (genl.h): its sockets, requests from
 * encoding to completion, timeouts. The request socket is the one
 * systemd opened for us when there is one (otattestd.socket,
 * ListenNetlink=): the driver lets a socket opened with CAP_NET_ADMIN
 * reach the device although otattestd itself holds no capability
 * (docs/kernel-abi.md, Permissions). Run by hand, otattestd opens its own
 * and reaches the device when whoever runs it may.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "../common/macro.h"
#include "genl-internal.h"
#include "log.h"
#include "transport.h"

#define GENL_RCVBUF_BYTES (1u << 20)

/* ---- requests ---- */

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

struct genl_req *genl_req_find(struct genl *g, uint32_t seq)
{
	struct genl_req *r;

	for (r = g->pending; r; r = r->next)
		if (r->seq == seq)
			return r;
	return NULL;
}

void genl_req_complete(struct genl *g, struct genl_req *req, const struct ota_err *err)
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

void genl_fail_all(struct genl *g, ota_status_t s, const char *why)
{
	struct ota_err e;

	ota_err_set_statusf(&e, s, "%s", why);
	while (g->pending) {
		genl_lane_unqueue(g, g->pending->seq);
		genl_req_complete(g, g->pending, &e);
	}
}

static int on_timeout(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct genl_req *req = userdata;
	struct ota_err e;

	genl_lane_unqueue(req->g, req->seq);
	ota_err_set_statusf(&e, OTA_HOST_TIMEOUT, "no answer from the kernel within %llu s",
			    (unsigned long long)(req->timeout_usec / 1000000));
	genl_req_complete(req->g, req, &e);
	return 0;
}

/*
 * The mailbox command each family command sends (the kernel's handlers do
 * the same), so its lane comes from the command table's lane column
 * (otattest/mailbox.h); 0 for a command the driver answers from its own
 * snapshot.
 */
static uint32_t mbox_command_of(uint8_t cmd)
{
	switch (cmd) {
#define MBOX(name) \
	case OTATTEST_CMD_##name: return OTA_CMD_##name;
		MBOX(ATTEST)
		MBOX(STABLE_SIGN)
		MBOX(GET_CERTS)
		MBOX(ROTATE_TAGS)
		MBOX(UPDATE_RESET)
		MBOX(WARM_RESET)
		MBOX(INSTALL_BEGIN)
		MBOX(INSTALL_CHUNK)
		MBOX(INSTALL_FINISH)
		MBOX(COMMIT)
		MBOX(RATCHET)
		MBOX(REVOKE)
#undef MBOX
	}
	return 0;
}

enum genl_lane genl_lane_of(uint8_t cmd)
{
	if (cmd == OTATTEST_CMD_GET_DEVICE || cmd == OTATTEST_CMD_GET_RECORD)
		return GENL_LANE_SNAPSHOT; /* the driver's snapshot: no mailbox, no wait */
	/* An unknown command is CHANGE (ota_mbox_command_lane): never ahead of a reader. */
	return ota_mbox_command_lane(mbox_command_of(cmd)) == OTA_MBOX_LANE_READ ? GENL_LANE_READ
										  : GENL_LANE_PRIVILEGED;
}

/* The request as the kernel will read it, for a sender thread. */
static struct send_item *encode(struct genl *g, uint8_t cmd, uint32_t index, const struct genl_args *args)
{
	/* Headers and the fixed attributes fit 512; the binary ones add their own size. */
	size_t room = 512 + (args && args->chunk ? MNL_ALIGN(args->chunk_len) : 0) +
		      (args && args->revocation ? MNL_ALIGN(args->revocation_len) : 0);
	struct send_item *it = calloc(1, sizeof(*it) + room);
	struct genlmsghdr *gh;
	struct nlmsghdr *nlh;

	if (!it)
		return NULL;
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
	if (args && args->has_stage)
		mnl_attr_put_u32(nlh, OTATTEST_A_STAGE, args->stage);
	if (args && args->has_image_length)
		mnl_attr_put_u32(nlh, OTATTEST_A_IMAGE_LENGTH, args->image_length);
	if (args && args->has_install_flags)
		mnl_attr_put_u32(nlh, OTATTEST_A_INSTALL_FLAGS, args->install_flags);
	if (args && args->has_floor)
		mnl_attr_put_u32(nlh, OTATTEST_A_FLOOR, args->floor);
	if (args && args->has_ratchet_flags)
		mnl_attr_put_u32(nlh, OTATTEST_A_RATCHET_FLAGS, args->ratchet_flags);
	if (args && args->chunk) {
		mnl_attr_put_u32(nlh, OTATTEST_A_IMAGE_OFFSET, args->image_offset);
		mnl_attr_put(nlh, OTATTEST_A_IMAGE_CHUNK, args->chunk_len, args->chunk);
	}
	if (args && args->revocation)
		mnl_attr_put(nlh,
			     args->revocation_len == OTATTEST_REVOCATION_HYBRID_LEN
				     ? OTATTEST_A_REVOCATION_HYBRID
				     : OTATTEST_A_REVOCATION,
			     args->revocation_len, args->revocation);
	it->len = nlh->nlmsg_len;
	it->seq = g->seq;
	return it;
}

int genl_request(struct genl *g, uint8_t cmd, uint32_t index, const struct genl_args *args,
		 uint64_t timeout_usec, genl_done_fn done, void *userdata)
{
	_cleanup_free_ struct send_item *it = NULL;
	_cleanup_free_ struct genl_req *req = NULL;
	int r;

	assert(g);
	assert(done);
	assert(!args || !args->nonce || args->nonce_len <= OTA_NONCE_MAX);
	assert(!args || !args->chunk || args->chunk_len <= OTA_INSTALL_CHUNK_MAX);
	if (!g->available)
		return -ENOENT;
	req = calloc(1, sizeof(*req));
	it = encode(g, cmd, index, args);
	if (!it || !req)
		return -ENOMEM;
	*req = (struct genl_req){ .g = g, .seq = it->seq, .cmd = cmd, .done = done,
				  .userdata = userdata, .timeout_usec = timeout_usec };
	r = sd_event_add_time_relative(g->event, &req->timer, CLOCK_MONOTONIC, timeout_usec, 0,
				       on_timeout, req);
	if (r < 0)
		return r;
	req->next = g->pending;
	g->pending = req;
	g->n_pending++;
	req = NULL;
	genl_lane_push(g, genl_lane_of(cmd), it);
	it = NULL;
	return 0;
}

unsigned genl_pending(const struct genl *g)
{
	return g->n_pending;
}

/* ---- sockets ---- */

/* The generic netlink socket systemd passed us (ListenNetlink=generic), or -1. */
static int passed_socket(void)
{
	int n = sd_listen_fds(true), fd, proto;
	socklen_t len = sizeof(proto);

	for (fd = SD_LISTEN_FDS_START; n > 0 && fd < SD_LISTEN_FDS_START + n; fd++) {
		if (sd_is_socket(fd, AF_NETLINK, SOCK_RAW, -1) <= 0)
			continue;
		if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) == 0 &&
		    proto == NETLINK_GENERIC)
			return fd;
	}
	return -1;
}

static struct mnl_socket *setup_socket(struct mnl_socket *nl)
{
	int fd = mnl_socket_get_fd(nl), one = 1, size = GENL_RCVBUF_BYTES;

	/* Extended acks carry the status; no echo of our request. */
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl, NETLINK_CAP_ACK, &one, sizeof(one));
	/* A passed socket's buffer is its unit's (ReceiveBuffer=); we may not force one. */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	return nl;
}

static struct mnl_socket *open_socket(void)
{
	struct mnl_socket *nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC | SOCK_NONBLOCK);

	if (!nl)
		return NULL;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		mnl_socket_close(nl);
		return NULL;
	}
	return setup_socket(nl);
}

/* The request socket: systemd's, made non-blocking for the loop, or our own. */
static struct mnl_socket *request_socket(void)
{
	struct mnl_socket *nl;
	int fd = passed_socket();

	if (fd < 0)
		return open_socket();
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) < 0 || !(nl = mnl_socket_fdopen(fd))) {
		close(fd);
		return NULL;
	}
	log_debug("using the generic netlink socket systemd passed (fd %d)", fd);
	return setup_socket(nl);
}

int genl_new(struct genl **ret, sd_event *event, const struct genl_callbacks *cb)
{
	struct genl *g;
	int r, l;

	assert(ret);
	assert(event);
	assert(cb);
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->event = sd_event_ref(event);
	g->cb = *cb;
	g->pipe_fd[0] = g->pipe_fd[1] = -1;
	/*
	 * A random start: a socket systemd keeps across restarts may still
	 * receive a killed instance's replies, which must not match ours.
	 */
	if (getrandom(&g->seq, sizeof(g->seq), GRND_NONBLOCK) != sizeof(g->seq))
		g->seq = (uint32_t)time(NULL);
	pthread_mutex_init(&g->lock, NULL);
	for (l = 0; l < GENL_LANES; l++) {
		g->lanes[l].g = g;
		g->lanes[l].tail = &g->lanes[l].head;
		pthread_cond_init(&g->lanes[l].cond, NULL);
	}

	g->rbuf = malloc(GENL_RECV_BUF);
	g->req_sock = request_socket();
	g->ev_sock = open_socket();
	if (!g->rbuf || !g->req_sock || !g->ev_sock) {
		r = errno ? -errno : -ENOMEM;
		goto fail;
	}
	/* Each sender's word is 8 bytes < PIPE_BUF: written whole, never blocking. */
	if (pipe2(g->pipe_fd, O_CLOEXEC | O_NONBLOCK) < 0) {
		r = -errno;
		goto fail;
	}
	r = sd_event_add_io(event, &g->req_src, mnl_socket_get_fd(g->req_sock), EPOLLIN,
			    genl_on_req_io, g);
	if (r >= 0)
		r = sd_event_add_io(event, &g->ev_src, mnl_socket_get_fd(g->ev_sock), EPOLLIN,
				    genl_on_ev_io, g);
	if (r >= 0)
		r = sd_event_add_io(event, &g->pipe_src, g->pipe_fd[0], EPOLLIN, genl_on_pipe_io, g);
	if (r < 0)
		goto fail;
	genl_family_subscribe(g);
	r = genl_lanes_start(g);
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
	int l;

	if (!g)
		return NULL;
	genl_fail_all(g, OTA_HOST_DEVICE_GONE, "otattestd is shutting down");
	genl_lanes_stop(g);
	for (l = 0; l < GENL_LANES; l++)
		pthread_cond_destroy(&g->lanes[l].cond);
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

/* ---- as otattestd's transport (transport.h) ---- */

static int transport_genl_request(void *impl, uint8_t cmd, uint32_t index, const struct genl_args *args,
				  uint64_t timeout_usec, genl_done_fn done, void *userdata)
{
	return genl_request(impl, cmd, index, args, timeout_usec, done, userdata);
}

static bool transport_genl_available(const void *impl)
{
	return genl_available(impl);
}

static bool transport_genl_events_joined(const void *impl)
{
	return genl_events_joined(impl);
}

static int transport_genl_resolve(void *impl)
{
	return genl_resolve(impl);
}

const struct transport_ops genl_transport_ops = {
	.request = transport_genl_request,
	.available = transport_genl_available,
	.events_joined = transport_genl_events_joined,
	.resolve = transport_genl_resolve,
};
