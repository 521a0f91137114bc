/* SPDX-License-Identifier: MIT */
/*
 * Inside the generic netlink client (genl.h): the state its four files
 * share. Each file has one job:
 *
 *   genl.c         the client's life, requests and their completion
 *   genl-family.c  finding the family by name, following it through
 *                  nlctrl's notifications (insmod, rmmod)
 *   genl-send.c    the sender lanes: threads that block in sendto()
 *   genl-recv.c    reading replies and events off the sockets
 *
 * (genl-parse.c, the parser of what the kernel sends, is shared with the
 * unit tests and the fuzz target.)
 */
#ifndef OTATTESTD_GENL_INTERNAL_H
#define OTATTESTD_GENL_INTERNAL_H

#include <linux/genetlink.h>
#include <pthread.h>

#include "genl.h"

/*
 * Three sender lanes, because the family is parallel_ops: GET_DEVICE and
 * GET_RECORD read the driver's snapshot and return at once, so a cache
 * refresh never waits behind the device; device reads (ATTEST,
 * STABLE_SIGN, GET_CERTS) wait for the mailbox one at a time; and
 * rotation and update reset have a lane of their own, so a privileged
 * request reaches the kernel (whose mailbox serves it before any waiting
 * reader) without waiting behind queued reads here either.
 */
enum genl_lane {
	GENL_LANE_SNAPSHOT,
	GENL_LANE_READ,
	GENL_LANE_PRIVILEGED,
	GENL_LANES
};

/* The lane of a family command: its mailbox command's lane column, or the snapshot lane. */
enum genl_lane genl_lane_of(uint8_t cmd);

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

/* An encoded request on its way to a sender thread. */
struct send_item {
	struct send_item *next;
	uint32_t seq;
	size_t len;
	uint8_t buf[];
};

/* A sender thread's word to the loop: only sends that failed need one. */
struct send_done {
	uint32_t seq;
	int err;
};

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
	bool events_joined; /* the family's "events" group is joined */
	uint32_t events_group;
	uint32_t seq;

	struct genl_req *pending;
	unsigned n_pending;

	pthread_mutex_t lock; /* the lanes' queues and stop */
	struct lane lanes[GENL_LANES];
	bool stop;
	int pipe_fd[2];

	uint8_t *rbuf;
};

/* Largest message we read: the response region's worth of evidence plus headers. */
#define GENL_RECV_BUF (OTA_SHM_RESPONSE_SIZE + 16384u)

/* genl.c */
struct genl_req *genl_req_find(struct genl *g, uint32_t seq);
void genl_req_complete(struct genl *g, struct genl_req *req, const struct ota_err *err);
void genl_fail_all(struct genl *g, ota_status_t s, const char *why);

/* genl-family.c */
int genl_family_subscribe(struct genl *g);
void genl_family_on_ctrl(struct genl *g, const struct nlmsghdr *nlh);

/* genl-send.c */
int genl_lanes_start(struct genl *g);
void genl_lanes_stop(struct genl *g);
void genl_lane_push(struct genl *g, enum genl_lane lane, struct send_item *it);
bool genl_lane_unqueue(struct genl *g, uint32_t seq);
int genl_on_pipe_io(sd_event_source *s, int fd, uint32_t revents, void *userdata);

/* genl-recv.c */
int genl_on_req_io(sd_event_source *s, int fd, uint32_t revents, void *userdata);
int genl_on_ev_io(sd_event_source *s, int fd, uint32_t revents, void *userdata);

#endif /* OTATTESTD_GENL_INTERNAL_H */
