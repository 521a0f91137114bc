/* SPDX-License-Identifier: MIT */
/*
 * Token bucket: `burst` requests at once, refilled at `per_sec` requests a
 * second. Time comes from the caller (CLOCK_MONOTONIC microseconds) so the
 * limiter is a pure function of its inputs and tests need no sleeping.
 * Arithmetic is in micro-tokens, integer only, and cannot overflow for any
 * elapsed time.
 */
#ifndef OTATTESTD_RATELIMIT_H
#define OTATTESTD_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

struct token_bucket {
	uint64_t micro_tokens; /* tokens * 1e6 */
	uint64_t last_usec;
	uint32_t burst;
	uint32_t per_sec;
};

void token_bucket_init(struct token_bucket *b, uint32_t burst, uint32_t per_sec, uint64_t now_usec);

/* Take one token if there is one. */
bool token_bucket_take(struct token_bucket *b, uint64_t now_usec);

/* Microseconds until a token is available (0: now). */
uint64_t token_bucket_wait_usec(const struct token_bucket *b, uint64_t now_usec);

/* True when the bucket is full (the client can be forgotten). */
bool token_bucket_full(const struct token_bucket *b, uint64_t now_usec);

#endif /* OTATTESTD_RATELIMIT_H */
