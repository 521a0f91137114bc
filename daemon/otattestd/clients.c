// SPDX-License-Identifier: MIT
#include "clients.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void client_table_init(struct client_table *t, const struct client_limits *limits)
{
	memset(t, 0, sizeof(*t));
	t->limits = *limits;
}

void client_table_free(struct client_table *t)
{
	struct client *c, *n;

	for (c = t->head; c; c = n) {
		n = c->next;
		free(c);
	}
	t->head = NULL;
	memset(t->count, 0, sizeof(t->count));
}

static enum client_lane lane_of(enum client_kind kind)
{
	return kind == CLIENT_REQ_PRIVILEGED ? CLIENT_LANE_PRIVILEGED : CLIENT_LANE_READ;
}

static struct client *find(struct client_table *t, uid_t uid)
{
	struct client *c;

	for (c = t->head; c; c = c->next)
		if (c->uid == uid)
			return c;
	return NULL;
}

static struct client *add(struct client_table *t, uid_t uid, enum client_class cls, uint64_t now_usec,
			  struct ota_err *e)
{
	uint32_t max = cls == CLIENT_CLASS_PRIVILEGED ? t->limits.max_privileged_clients
						      : t->limits.max_clients;
	struct client *c;

	if (t->count[cls] >= max)
		client_table_gc(t, now_usec);
	if (t->count[cls] >= max) {
		/* A bound of the daemon, not of this user: LimitExceeded. */
		e->cls = OTA_CLASS_LIMIT;
		e->status = 0;
		snprintf(e->message, sizeof(e->message),
			 "too many %susers have requests waiting (limit %u)",
			 cls == CLIENT_CLASS_PRIVILEGED ? "privileged " : "", max);
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		ota_err_set_statusf(e, OTA_HOST_INTERNAL, "out of memory");
		return NULL;
	}
	c->uid = uid;
	c->cls = cls;
	token_bucket_init(&c->attest, t->limits.attest_burst, t->limits.attest_per_sec, now_usec);
	token_bucket_init(&c->history, t->limits.history_burst, t->limits.history_per_sec, now_usec);
	c->next = t->head;
	t->head = c;
	t->count[cls]++;
	return c;
}

bool client_admit(struct client_table *t, uid_t uid, enum client_class cls, enum client_kind kind,
		  uint64_t now_usec, struct client **out, struct ota_err *e)
{
	enum client_lane lane = lane_of(kind);
	struct client *c;

	assert(t);
	assert(out);
	assert(e);
	assert(cls < CLIENT_CLASSES);
	c = find(t, uid);
	if (!c)
		c = add(t, uid, cls, now_usec, e);
	if (!c)
		return false;
	if (kind == CLIENT_REQ_HISTORY) {
		/* Answered at once from memory: a rate, no queue. */
		if (!token_bucket_take(&c->history, now_usec)) {
			uint64_t wait = token_bucket_wait_usec(&c->history, now_usec);

			c->refused++;
			ota_err_set_statusf(e, OTA_HOST_RATE_LIMITED,
					    "history rate limit reached (%u pages per second, burst %u); "
					    "retry in %llu ms",
					    t->limits.history_per_sec, t->limits.history_burst,
					    (unsigned long long)((wait + 999) / 1000));
			return false;
		}
		*out = c;
		return true;
	}
	if (c->queued[lane] >= t->limits.max_queued) {
		c->refused++;
		ota_err_set_statusf(e, OTA_HOST_QUEUE_FULL,
				    "too many requests queued for this user (limit %u)",
				    t->limits.max_queued);
		return false;
	}
	if (kind == CLIENT_REQ_ATTEST && !token_bucket_take(&c->attest, now_usec)) {
		uint64_t wait = token_bucket_wait_usec(&c->attest, now_usec);

		c->refused++;
		ota_err_set_statusf(e, OTA_HOST_RATE_LIMITED,
				    "attestation rate limit reached (%u per second, burst %u); retry in %llu ms",
				    t->limits.attest_per_sec, t->limits.attest_burst,
				    (unsigned long long)((wait + 999) / 1000));
		return false;
	}
	c->queued[lane]++;
	*out = c;
	return true;
}

void client_release(struct client *c, enum client_kind kind)
{
	enum client_lane lane = lane_of(kind);

	assert(c);
	assert(kind != CLIENT_REQ_HISTORY); /* nothing queued */
	assert(c->queued[lane] > 0);
	c->queued[lane]--;
}

uint32_t client_table_gc(struct client_table *t, uint64_t now_usec)
{
	struct client **pp = &t->head, *c;
	uint32_t n = 0;

	while ((c = *pp)) {
		if (!c->queued[CLIENT_LANE_READ] && !c->queued[CLIENT_LANE_PRIVILEGED] &&
		    token_bucket_full(&c->attest, now_usec) && token_bucket_full(&c->history, now_usec)) {
			*pp = c->next;
			t->count[c->cls]--;
			free(c);
			n++;
		} else {
			pp = &c->next;
		}
	}
	return n;
}
