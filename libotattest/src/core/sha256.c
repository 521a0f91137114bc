// SPDX-License-Identifier: MIT
/*
 * SHA-256 (FIPS 180-4), freestanding: no heap, no libc beyond memcpy and
 * memset, one 64-byte block buffer in the caller's context.
 *
 * The portable compression function lives here, written for clarity: it
 * works on a local copy of the state and a 16-word rolling message
 * schedule, so it needs 64 bytes of schedule on the stack instead of 256.
 * Hashing goes through ota_sha256_compress (sha256_backend.h), which an
 * x86-64 build serves from sha256_x86.c with the CPU's SHA extensions when
 * it has them, and every other build from the portable code below.
 */
#include <string.h>

#include "otattest/sha256.h"
#include "sha256_backend.h"

/* FIPS 180-4 section 4.2.2; sha256_x86.c loads the same table. */
const uint32_t ota_sha256_k[64] = {
	0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u,
	0x923f82a4u, 0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u,
	0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u,
	0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
	0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u,
	0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u,
	0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
	0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
	0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au,
	0x5b9cca4fu, 0x682e6ff3u, 0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u,
	0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

static inline uint32_t ror32(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32u - n));
}

static inline uint32_t load_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) |
	       (uint32_t)p[3];
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/*
 * One compression into h (FIPS 180-4 section 6.2.2) of the block whose
 * message words W0..W15 are in w; w is overwritten (the rolling schedule).
 */
static void sha256_compress_words(uint32_t h[8], uint32_t w[16])
{
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
	uint32_t e = h[4], f = h[5], g = h[6], hh = h[7];
	unsigned int t;

	for (t = 0; t < 64; t++) {
		uint32_t wt, t1, t2;

		if (t < 16) {
			wt = w[t];
		} else {
			/* W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16], in place. */
			uint32_t w15 = w[(t - 15u) & 15u], w2 = w[(t - 2u) & 15u];
			uint32_t s0 = ror32(w15, 7) ^ ror32(w15, 18) ^ (w15 >> 3);
			uint32_t s1 = ror32(w2, 17) ^ ror32(w2, 19) ^ (w2 >> 10);

			wt = w[t & 15u] + s0 + w[(t - 7u) & 15u] + s1;
			w[t & 15u] = wt;
		}
		t1 = hh + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) +
		     ota_sha256_k[t] + wt;
		t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}

	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += hh;
}

void ota_sha256_compress_portable(uint32_t h[8], const uint8_t *blocks, size_t n)
{
	uint32_t w[16];
	unsigned int t;

	for (; n != 0; n--, blocks += OTA_SHA256_BLOCK_BYTES) {
		for (t = 0; t < 16; t++)
			w[t] = load_be32(blocks + 4u * t);
		sha256_compress_words(h, w);
	}
}

void ota_sha256_compress_lanes_portable(struct ota_sha256_lanes *l, unsigned int from,
					unsigned int n)
{
	uint32_t h[8], w[16];
	unsigned int i, j;

	for (j = from; j < n; j++) {
		for (i = 0; i < 8; i++)
			h[i] = l->h[i][j];
		for (i = 0; i < 16; i++)
			w[i] = l->w[i][j];
		sha256_compress_words(h, w);
		for (i = 0; i < 8; i++)
			l->h[i][j] = h[i];
	}
}

void ota_sha256_finish_trunc16_portable(const uint32_t h[8], uint64_t done_len,
					const uint8_t *a, size_t a_len, const uint8_t *b,
					size_t b_len, uint8_t out[16])
{
	uint8_t block[OTA_SHA256_BLOCK_BYTES];
	uint64_t bits = (done_len + a_len + b_len) * 8u;
	uint32_t s[8];
	unsigned int i;

	if (a_len + b_len > 55u)
		return; /* callers pass one block's worth; never reached */
	memcpy(block, a, a_len);
	memcpy(block + a_len, b, b_len);
	block[a_len + b_len] = 0x80;
	memset(block + a_len + b_len + 1u, 0, 56u - (a_len + b_len + 1u));
	store_be32(block + 56, (uint32_t)(bits >> 32));
	store_be32(block + 60, (uint32_t)bits);
	memcpy(s, h, sizeof(s));
	ota_sha256_compress(s, block, 1);
	for (i = 0; i < 4; i++)
		store_be32(out + 4u * i, s[i]);
	/* The block may hold secrets (SLH-DSA's SK.seed for PRF): volatile, or it is a dead store. */
	for (i = 0; i < sizeof(block); i++)
		((volatile uint8_t *)block)[i] = 0;
}

#if !OTA_SHA256_X86
/* No accelerated backend in this build: every entry point is the portable code. */
void ota_sha256_compress(uint32_t h[8], const uint8_t *blocks, size_t n)
{
	ota_sha256_compress_portable(h, blocks, n);
}

void ota_sha256_finish_trunc16(const uint32_t h[8], uint64_t done_len, const uint8_t *a,
			       size_t a_len, const uint8_t *b, size_t b_len, uint8_t out[16])
{
	ota_sha256_finish_trunc16_portable(h, done_len, a, a_len, b, b_len, out);
}

void ota_sha256_compress_lanes(struct ota_sha256_lanes *l, unsigned int n)
{
	ota_sha256_compress_lanes_portable(l, 0, n);
}

unsigned int ota_sha256_impls_available(void)
{
	return OTA_SHA256_IMPL_PORTABLE;
}

unsigned int ota_sha256_impls_active(void)
{
	return OTA_SHA256_IMPL_PORTABLE;
}

unsigned int ota_sha256_impls_limit(unsigned int mask)
{
	(void)mask;
	return ~0u;
}
#endif

void ota_sha256_init(struct ota_sha256 *c)
{
	static const uint32_t iv[8] = {
		0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
		0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
	};

	memcpy(c->h, iv, sizeof(iv));
	c->bytes = 0;
	c->buf_len = 0;
}

void ota_sha256_update(struct ota_sha256 *c, const void *data, size_t len)
{
	const uint8_t *p = (const uint8_t *)data;

	if (len == 0)
		return;
	c->bytes += len;

	/* Top up a partial block first. buf_len < 64 is an invariant. */
	if (c->buf_len != 0) {
		size_t take = 64u - c->buf_len;

		if (take > len)
			take = len;
		memcpy(c->buf + c->buf_len, p, take);
		c->buf_len += (uint32_t)take;
		p += take;
		len -= take;
		if (c->buf_len < 64u)
			return;
		ota_sha256_compress(c->h, c->buf, 1);
		c->buf_len = 0;
	}

	/* Whole blocks straight from the input, no copy, in one call: an
	 * accelerated backend keeps the state in registers across them. */
	if (len >= 64u) {
		size_t blocks = len / 64u;

		ota_sha256_compress(c->h, p, blocks);
		p += blocks * 64u;
		len -= blocks * 64u;
	}

	if (len != 0) {
		memcpy(c->buf, p, len);
		c->buf_len = (uint32_t)len;
	}
}

void ota_sha256_final(struct ota_sha256 *c, uint8_t out[OTA_SHA256_BYTES])
{
	uint64_t bits = c->bytes * 8u;
	uint32_t n = c->buf_len;
	unsigned int i;

	/* Padding: 0x80, zeros, then the 64-bit big-endian bit length. */
	c->buf[n++] = 0x80u;
	if (n > 56u) {
		memset(c->buf + n, 0, 64u - n);
		ota_sha256_compress(c->h, c->buf, 1);
		n = 0;
	}
	memset(c->buf + n, 0, 56u - n);
	store_be32(c->buf + 56, (uint32_t)(bits >> 32));
	store_be32(c->buf + 60, (uint32_t)bits);
	ota_sha256_compress(c->h, c->buf, 1);

	for (i = 0; i < 8; i++)
		store_be32(out + 4u * i, c->h[i]);

	/* The context may have absorbed secrets (SLH-DSA seeds): clear it. */
	memset(c, 0, sizeof(*c));
}

void ota_sha256(const void *data, size_t len, uint8_t out[OTA_SHA256_BYTES])
{
	struct ota_sha256 c;

	ota_sha256_init(&c);
	ota_sha256_update(&c, data, len);
	ota_sha256_final(&c, out);
}

bool ota_ct_equal(const void *a, const void *b, size_t len)
{
	/*
	 * volatile keeps the compiler from turning the loop into memcmp or
	 * stopping at the first difference: the time taken depends on len
	 * only, never on where the inputs differ.
	 */
	const volatile uint8_t *pa = (const volatile uint8_t *)a;
	const volatile uint8_t *pb = (const volatile uint8_t *)b;
	uint8_t diff = 0;
	size_t i;

	for (i = 0; i < len; i++)
		diff |= (uint8_t)(pa[i] ^ pb[i]);
	return diff == 0;
}
