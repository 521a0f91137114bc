/* SPDX-License-Identifier: MIT */
/*
 * Per-user bounds. A client is a user, the uid the bus vouches for
 * (peer.h), not a connection: opening more connections buys a caller
 * nothing, and a user flooding from many connections or processes holds
 * back only itself. Each user has a count of its requests waiting on the
 * device in each lane (reads; privileged operations have their own, so a
 * user's own reads never hold back its rotation) and a token bucket for
 * attestations and stable-key signatures. The table is bounded too: a
 * full one (as many users with requests waiting as the bound) refuses
 * another user with LimitExceeded, not an unbounded heap; idle users are
 * forgotten. Pure bookkeeping with time passed in: unit-tested without a
 * bus.
 */
#ifndef OTATTESTD_CLIENTS_H
#define OTATTESTD_CLIENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "ratelimit.h"
#include "../common/errmap.h"

struct client_limits {
	uint32_t max_queued;     /* requests in flight per user and lane */
	uint32_t attest_burst;   /* attestations at once */
	uint32_t attest_per_sec; /* sustained attestations per second */
	uint32_t max_clients;    /* ordinary users tracked at once */
	uint32_t max_privileged_clients; /* privileged users (root, the groups) tracked at once */
	uint32_t history_burst;   /* GetHistory pages at once */
	uint32_t history_per_sec; /* sustained GetHistory pages per second */
};

#define CLIENT_LIMITS_DEFAULT                                                                \
	{ .max_queued = 4, .attest_burst = 8, .attest_per_sec = 4, .max_clients = 256,       \
	  .max_privileged_clients = 32, .history_burst = 32, .history_per_sec = 8 }

/*
 * Who a user is, from the credentials the bus vouches for (peer.h): root
 * or a member of otattest-update or otattest-sign is privileged. Each
 * class has its own share of the table, so ordinary users, however many,
 * never lock the update agent out.
 */
enum client_class {
	CLIENT_CLASS_USER,
	CLIENT_CLASS_PRIVILEGED,
	CLIENT_CLASSES
};

enum client_kind {
	CLIENT_REQ_PLAIN,      /* read lane, queue only */
	CLIENT_REQ_ATTEST,     /* read lane, also takes an attestation token */
	CLIENT_REQ_PRIVILEGED, /* privileged lane (rotation, update reset) */
	CLIENT_REQ_HISTORY,    /* a GetHistory page: a history token, nothing queued, no release */
};

enum client_lane {
	CLIENT_LANE_READ,
	CLIENT_LANE_PRIVILEGED,
	CLIENT_LANES
};

struct client {
	struct client *next;
	uid_t uid;
	enum client_class cls;
	uint32_t queued[CLIENT_LANES];
	struct token_bucket attest;
	struct token_bucket history;
	uint64_t refused; /* for the log and metrics */
};

struct client_table {
	struct client_limits limits;
	struct client *head;
	uint32_t count[CLIENT_CLASSES];
};

void client_table_init(struct client_table *t, const struct client_limits *limits);
void client_table_free(struct client_table *t);

/*
 * Admit one request of `kind` from user `uid` of class `cls`: find or
 * create its entry (in its class's share of the table), check its queue in
 * the kind's lane and (for attestations, history pages) its bucket.
 * On success the request is counted and *out names the entry to release
 * later; on refusal `e` says which bound was hit (HOST_QUEUE_FULL,
 * HOST_RATE_LIMITED, or LimitExceeded for a full table) and nothing
 * changes but the bucket and the refusal count.
 */
bool client_admit(struct client_table *t, uid_t uid, enum client_class cls, enum client_kind kind,
		  uint64_t now_usec, struct client **out, struct ota_err *e);

/* The request of `kind` admitted for c finished (answered or failed). */
void client_release(struct client *c, enum client_kind kind);

/* Forget idle users (nothing queued, bucket full). Returns how many. */
uint32_t client_table_gc(struct client_table *t, uint64_t now_usec);

#endif /* OTATTESTD_CLIENTS_H */
