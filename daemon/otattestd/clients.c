// SPDX-License-Identifier: MIT
#include "clients.h"

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
	t->count = 0;
}

static struct client *find(struct client_table *t, const char *sender)
{
	struct client *c;

	for (c = t->head; c; c = c->next)
		if (strcmp(c->name, sender) == 0)
			return c;
	return NULL;
}

bool client_admit(struct client_table *t, const char *sender, enum client_kind kind,
		  uint64_t now_usec, struct client **out, struct ota_err *e)
{
	struct client *c;

	if (!sender || strlen(sender) >= CLIENT_NAME_MAX) {
		ota_err_set_statusf(e, OTA_HOST_BAD_ARGUMENT, "sender name is missing or too long");
		return false;
	}
	c = find(t, sender);
	if (!c) {
		if (t->count >= t->limits.max_clients)
			client_table_gc(t, now_usec);
		if (t->count >= t->limits.max_clients) {
			/* A bound of the daemon, not of this client: LimitExceeded. */
			e->cls = OTA_CLASS_LIMIT;
			e->status = 0;
			snprintf(e->message, sizeof(e->message),
				 "too many clients have requests waiting (limit %u)",
				 t->limits.max_clients);
			return false;
		}
		c = calloc(1, sizeof(*c));
		if (!c) {
			ota_err_set_statusf(e, OTA_HOST_INTERNAL, "out of memory");
			return false;
		}
		memcpy(c->name, sender, strlen(sender) + 1);
		token_bucket_init(&c->attest, t->limits.attest_burst, t->limits.attest_per_sec, now_usec);
		c->next = t->head;
		t->head = c;
		t->count++;
	}
	if (c->queued >= t->limits.max_queued) {
		ota_err_set_statusf(e, OTA_HOST_QUEUE_FULL,
				    "too many requests queued for this client (limit %u)",
				    t->limits.max_queued);
		return false;
	}
	if (kind == CLIENT_REQ_ATTEST && !token_bucket_take(&c->attest, now_usec)) {
		uint64_t wait = token_bucket_wait_usec(&c->attest, now_usec);

		c->attests_refused++;
		ota_err_set_statusf(e, OTA_HOST_RATE_LIMITED,
				    "attestation rate limit reached (%u per second, burst %u); retry in %llu ms",
				    t->limits.attest_per_sec, t->limits.attest_burst,
				    (unsigned long long)((wait + 999) / 1000));
		return false;
	}
	c->queued++;
	*out = c;
	return true;
}

void client_release(struct client_table *t, struct client *c)
{
	(void)t;
	if (c && c->queued > 0)
		c->queued--;
}

uint32_t client_table_gc(struct client_table *t, uint64_t now_usec)
{
	struct client **pp = &t->head, *c;
	uint32_t n = 0;

	while ((c = *pp)) {
		if (c->queued == 0 && token_bucket_full(&c->attest, now_usec)) {
			*pp = c->next;
			free(c);
			t->count--;
			n++;
		} else {
			pp = &c->next;
		}
	}
	return n;
}
