/* SPDX-License-Identifier: MIT */
/*
 * Per-client bounds. A client is a D-Bus sender (its unique name). Each has
 * a count of requests it has waiting on the device and a token bucket for
 * attestations, so one busy or hostile caller can neither fill the device's
 * queue nor starve the others. The table itself is bounded too: a caller
 * cycling through connections meets LimitExceeded, not an unbounded heap.
 * Pure bookkeeping with time passed in: unit-tested without a bus.
 */
#ifndef OTATTESTD_CLIENTS_H
#define OTATTESTD_CLIENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "ratelimit.h"
#include "../common/errmap.h"

#define CLIENT_NAME_MAX 256 /* D-Bus names are at most 255 bytes */

struct client_limits {
	uint32_t max_queued;    /* requests in flight per client */
	uint32_t attest_burst;  /* attestations at once */
	uint32_t attest_per_sec; /* sustained attestations per second */
	uint32_t max_clients;   /* clients tracked at once */
};

#define CLIENT_LIMITS_DEFAULT { .max_queued = 4, .attest_burst = 8, .attest_per_sec = 4, .max_clients = 256 }

struct client {
	struct client *next;
	char name[CLIENT_NAME_MAX];
	uint32_t queued;
	struct token_bucket attest;
	uint64_t attests_refused; /* for the log and metrics */
};

struct client_table {
	struct client_limits limits;
	struct client *head;
	uint32_t count;
};

enum client_kind {
	CLIENT_REQ_PLAIN,  /* counts against the queue only */
	CLIENT_REQ_ATTEST, /* also takes an attestation token */
};

void client_table_init(struct client_table *t, const struct client_limits *limits);
void client_table_free(struct client_table *t);

/*
 * Admit one request from `sender`: find or create its entry, check its
 * queue and (for attestations) its bucket. On success the request is
 * counted as queued and *out names the entry to release later; on refusal
 * `e` says which bound was hit (HOST_QUEUE_FULL, HOST_RATE_LIMITED, or
 * LimitExceeded for a full table) and nothing changes but the bucket.
 */
bool client_admit(struct client_table *t, const char *sender, enum client_kind kind,
		  uint64_t now_usec, struct client **out, struct ota_err *e);

/* The request admitted for c finished (answered or failed). */
void client_release(struct client_table *t, struct client *c);

/* Forget idle clients (nothing queued, bucket full). Returns how many. */
uint32_t client_table_gc(struct client_table *t, uint64_t now_usec);

#endif /* OTATTESTD_CLIENTS_H */
