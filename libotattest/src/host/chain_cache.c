// SPDX-License-Identifier: MIT
/*
 * The trust store's memory of verified chains (chain_cache.h): a
 * direct-mapped table of CHAIN_CACHE_SLOTS entries indexed by the first
 * bytes of the chain's SHA-256, so its size is bounded whatever arrives
 * (a fleet larger than the table just verifies some chains again), and
 * nothing an attacker sends gets in without a chain the CA vouches for.
 * One mutex: a lookup is a few copies, far shorter than the verification
 * that follows it.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/sha256.h"

#include "chain_cache.h"

#define CHAIN_CACHE_SLOTS 4096u

struct chain_entry {
	uint8_t key[OTA_SHA256_BYTES];
	time_t not_before, not_after;
	struct ota_chain_facts facts; /* facts.leaf: the cache's reference */
};

struct ota_chain_cache {
	pthread_mutex_t lock;
	uint64_t hits, misses;
	struct chain_entry *slot[CHAIN_CACHE_SLOTS];
};

void ota_chain_key(const uint8_t *const certs[], const size_t lens[], uint32_t count,
		   uint8_t key[OTA_SHA256_BYTES])
{
	struct ota_sha256 c;
	uint8_t n[8];
	uint32_t i, k;

	/* Lengths too, so no two different chains hash the same bytes. */
	ota_sha256_init(&c);
	for (i = 0; i < count; i++) {
		for (k = 0; k < 8; k++)
			n[k] = (uint8_t)((uint64_t)lens[i] >> (56 - 8 * k));
		ota_sha256_update(&c, n, sizeof(n));
		ota_sha256_update(&c, certs[i], lens[i]);
	}
	ota_sha256_final(&c, key);
}

static unsigned int slot_of(const uint8_t key[OTA_SHA256_BYTES])
{
	return ((unsigned int)key[0] | (unsigned int)key[1] << 8) % CHAIN_CACHE_SLOTS;
}

struct ota_chain_cache *ota_chain_cache_new(void)
{
	struct ota_chain_cache *c = calloc(1, sizeof(*c));

	if (c && pthread_mutex_init(&c->lock, NULL) != 0) {
		free(c);
		c = NULL;
	}
	return c;
}

static void entry_free(struct chain_entry *e)
{
	if (e == NULL)
		return;
	EVP_PKEY_free(e->facts.leaf);
	free(e);
}

void ota_chain_cache_free(struct ota_chain_cache *c)
{
	unsigned int i;

	if (c == NULL)
		return;
	for (i = 0; i < CHAIN_CACHE_SLOTS; i++)
		entry_free(c->slot[i]);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

bool ota_chain_cache_get(struct ota_chain_cache *c, const uint8_t key[OTA_SHA256_BYTES],
			 time_t now, struct ota_chain_facts *out)
{
	struct chain_entry *e;
	bool hit = false;

	pthread_mutex_lock(&c->lock);
	e = c->slot[slot_of(key)];
	if (e && !memcmp(e->key, key, OTA_SHA256_BYTES) && now >= e->not_before &&
	    now <= e->not_after && EVP_PKEY_up_ref(e->facts.leaf) == 1) {
		*out = e->facts;
		hit = true;
	}
	if (hit)
		c->hits++;
	else
		c->misses++;
	pthread_mutex_unlock(&c->lock);
	return hit;
}

void ota_chain_cache_put(struct ota_chain_cache *c, const uint8_t key[OTA_SHA256_BYTES],
			 const struct ota_chain_facts *facts, time_t not_before, time_t not_after)
{
	struct chain_entry *e = calloc(1, sizeof(*e)), *old;

	if (e == NULL || EVP_PKEY_up_ref(facts->leaf) != 1) {
		free(e);
		return; /* not remembered: the next evidence verifies the chain again */
	}
	memcpy(e->key, key, OTA_SHA256_BYTES);
	e->not_before = not_before;
	e->not_after = not_after;
	e->facts = *facts;
	pthread_mutex_lock(&c->lock);
	old = c->slot[slot_of(key)];
	c->slot[slot_of(key)] = e;
	pthread_mutex_unlock(&c->lock);
	entry_free(old);
}

void ota_chain_cache_stats(struct ota_chain_cache *c, uint64_t *hits, uint64_t *misses)
{
	pthread_mutex_lock(&c->lock);
	*hits = c->hits;
	*misses = c->misses;
	pthread_mutex_unlock(&c->lock);
}
