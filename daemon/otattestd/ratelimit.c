// SPDX-License-Identifier: MIT
#include "ratelimit.h"

#define MICRO 1000000ull

static uint64_t cap(const struct token_bucket *b)
{
	return (uint64_t)b->burst * MICRO;
}

/* Tokens the bucket would hold at `now`, without changing it. */
static uint64_t level(const struct token_bucket *b, uint64_t now_usec)
{
	uint64_t elapsed, add;

	/* A clock that went backwards refills nothing. */
	if (now_usec <= b->last_usec)
		return b->micro_tokens;
	elapsed = now_usec - b->last_usec;
	/* per_sec micro-tokens per microsecond; bound elapsed so it cannot overflow. */
	if (b->per_sec == 0)
		return b->micro_tokens;
	if (elapsed >= cap(b) / b->per_sec + 1)
		return cap(b);
	add = elapsed * b->per_sec;
	return b->micro_tokens + add >= cap(b) ? cap(b) : b->micro_tokens + add;
}

void token_bucket_init(struct token_bucket *b, uint32_t burst, uint32_t per_sec, uint64_t now_usec)
{
	b->burst = burst;
	b->per_sec = per_sec;
	b->last_usec = now_usec;
	b->micro_tokens = cap(b);
}

bool token_bucket_take(struct token_bucket *b, uint64_t now_usec)
{
	uint64_t l = level(b, now_usec);

	if (now_usec > b->last_usec)
		b->last_usec = now_usec;
	b->micro_tokens = l;
	if (l < MICRO)
		return false;
	b->micro_tokens = l - MICRO;
	return true;
}

uint64_t token_bucket_wait_usec(const struct token_bucket *b, uint64_t now_usec)
{
	uint64_t l = level(b, now_usec);

	if (l >= MICRO)
		return 0;
	if (b->per_sec == 0)
		return UINT64_MAX;
	return (MICRO - l + b->per_sec - 1) / b->per_sec;
}

bool token_bucket_full(const struct token_bucket *b, uint64_t now_usec)
{
	return level(b, now_usec) >= cap(b);
}
