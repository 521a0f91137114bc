// SPDX-License-Identifier: MIT
/*
 * The SHA2 hash backend of SLH-DSA for security category 1 (FIPS 205
 * section 11.2.1), over ota_sha256:
 *
 *   PRF(PK.seed, SK.seed, ADRS) = Trunc_n(SHA-256(PK.seed || 0^(64-n) || ADRSc || SK.seed))
 *   F / H / T_l(PK.seed, ADRS, M) = Trunc_n(SHA-256(PK.seed || 0^(64-n) || ADRSc || M))
 *   PRF_msg(SK.prf, opt_rand, M) = Trunc_n(HMAC-SHA-256(SK.prf, opt_rand || M))
 *   H_msg(R, PK.seed, PK.root, M) =
 *       MGF1-SHA-256(R || PK.seed || SHA-256(R || PK.seed || PK.root || M), m)
 *
 * The first four share the 64-byte block PK.seed || 0^(64-n): its
 * midstate is computed once in slh_ctx_init and copied per call. The
 * compressions go to the SHA-256 backend (sha256_backend.h): the CPU's SHA
 * extensions or lanes of AVX-512 on x86-64 hosts, portable C elsewhere.
 */
#include "sha256_backend.h"
#include "slhdsa_internal.h"

void slh_ctx_init(struct slh_ctx *ctx, const uint8_t pk_seed[SLH_N], const uint8_t *sk_seed)
{
	static const uint8_t zeros[64 - SLH_N];

	memcpy(ctx->pk_seed, pk_seed, SLH_N);
	if (sk_seed)
		memcpy(ctx->sk_seed, sk_seed, SLH_N);
	else
		memset(ctx->sk_seed, 0, SLH_N);
	ota_sha256_init(&ctx->seeded);
	ota_sha256_update(&ctx->seeded, pk_seed, SLH_N);
	ota_sha256_update(&ctx->seeded, zeros, sizeof(zeros));
}

void slh_ctx_wipe(struct slh_ctx *ctx)
{
	slh_wipe(ctx, sizeof(*ctx));
}

/* Copy of the seeded midstate with ADRSc absorbed: the start of T_l. */
static inline void slh_start(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
			     struct ota_sha256 *t)
{
	*t = ctx->seeded;
	ota_sha256_update(t, adrs->c, SLH_ADRSC_BYTES);
}

static inline void slh_finish(struct ota_sha256 *t, uint8_t out[SLH_N])
{
	uint8_t full[OTA_SHA256_BYTES];

	ota_sha256_final(t, full);
	memcpy(out, full, SLH_N);
}

/*
 * F, H and PRF hash 64 + 22 + 16 or 32 bytes: after the seeded block, one
 * more block holds ADRSc, the input and the padding (22 + 32 + 9 = 63
 * bytes at most). The backend finishes the hash from a copy of the
 * midstate and hands back Trunc_n, the digest's first 16 bytes: no hashing
 * context, no buffering, and on x86-64 the block never goes through
 * memory (sha256_backend.h).
 */
static void slh_hash_block(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
			   const uint8_t *in, uint32_t in_len, uint8_t out[SLH_N])
{
	OTA_STATIC_ASSERT(SLH_N == 16u, "Trunc_n is the digest's first 16 bytes");
	/* out may alias in: the backend reads all of in before it writes out. */
	ota_sha256_finish_trunc16(ctx->seeded.h, OTA_SHA256_BLOCK_BYTES, adrs->c, SLH_ADRSC_BYTES,
				  in, in_len, out);
}

void slh_F(const struct slh_ctx *ctx, const struct slh_adrs *adrs, const uint8_t in[SLH_N],
	   uint8_t out[SLH_N])
{
	slh_hash_block(ctx, adrs, in, SLH_N, out);
}

void slh_H(const struct slh_ctx *ctx, const struct slh_adrs *adrs, const uint8_t left[SLH_N],
	   const uint8_t right[SLH_N], uint8_t out[SLH_N])
{
	uint8_t in[2u * SLH_N];

	memcpy(in, left, SLH_N);
	memcpy(in + SLH_N, right, SLH_N);
	slh_hash_block(ctx, adrs, in, sizeof(in), out);
}

void slh_PRF(const struct slh_ctx *ctx, const struct slh_adrs *adrs, uint8_t out[SLH_N])
{
	/* The portable backend wipes the block that held SK.seed. */
	slh_hash_block(ctx, adrs, ctx->sk_seed, SLH_N, out);
}

/*
 * Lanes (signing): the same block as slh_hash_block's, built straight as message
 * words in the backend's word-major lanes. ADRSc is 22 bytes, so every
 * input word straddles two message words: W5 holds ADRSc bytes 20-21 and
 * the input's first two bytes, W6..W8 the next twelve, W9 the last two,
 * 0x80 and a zero byte; W10..W14 are zero and W15 the bit length
 * (64 + 22 + 16 bytes = 816 bits).
 */
#define SLH_LANE_BITS ((OTA_SHA256_BLOCK_BYTES + SLH_ADRSC_BYTES + SLH_N) * 8u)
OTA_STATIC_ASSERT(SLH_LANES == OTA_SHA256_LANES, "one hash lane per backend lane");
OTA_STATIC_ASSERT(SLH_ADRSC_BYTES == 22u && SLH_N == 16u, "the word layout below");

/*
 * ADRSc words W0..W4 and the top half of W5 for lanes 0..n-1, with the
 * ADRS word at `word` set to first + j in lane j; the padding words.
 */
static void lanes_begin(struct ota_sha256_lanes *l, const struct slh_adrs *adrs, unsigned int word,
			uint32_t first, uint32_t n)
{
	struct slh_adrs a = *adrs;
	uint32_t j, t;

	for (j = 0; j < n; j++) {
		slh_put_be32(a.c + word, first + j);
		for (t = 0; t < 5; t++)
			l->w[t][j] = slh_get_be32(a.c + 4u * t);
		l->w[5][j] = ((uint32_t)a.c[20] << 24) | ((uint32_t)a.c[21] << 16);
		for (t = 10; t < 15; t++)
			l->w[t][j] = 0;
		l->w[15][j] = SLH_LANE_BITS;
	}
}

/* The WOTS+ hash address (ADRSc bytes 18..21) of every lane: W4's low and W5's high half. */
static void lanes_set_hash(struct ota_sha256_lanes *l, uint32_t hash, uint32_t n)
{
	uint32_t j;

	for (j = 0; j < n; j++) {
		l->w[4][j] = (l->w[4][j] & 0xffff0000u) | (hash >> 16);
		l->w[5][j] = (hash << 16) | (l->w[5][j] & 0xffffu);
	}
}

/* Lane j's input: four big-endian words x0..x3, shifted two bytes into W5..W9. */
static inline void lanes_input(struct ota_sha256_lanes *l, uint32_t j, const uint32_t x[4])
{
	l->w[5][j] = (l->w[5][j] & 0xffff0000u) | (x[0] >> 16);
	l->w[6][j] = (x[0] << 16) | (x[1] >> 16);
	l->w[7][j] = (x[1] << 16) | (x[2] >> 16);
	l->w[8][j] = (x[2] << 16) | (x[3] >> 16);
	l->w[9][j] = (x[3] << 16) | 0x8000u;
}

/* Every lane from the seeded midstate, compressed; Trunc_n is state words 0..3. */
static void lanes_run(const struct slh_ctx *ctx, struct ota_sha256_lanes *l, uint32_t n)
{
	uint32_t i, j;

	for (i = 0; i < 8; i++)
		for (j = 0; j < n; j++)
			l->h[i][j] = ctx->seeded.h[i];
	ota_sha256_compress_lanes(l, n);
}

static void lanes_output(const struct ota_sha256_lanes *l, uint32_t (*out)[4], uint32_t n)
{
	uint32_t i, j;

	for (j = 0; j < n; j++)
		for (i = 0; i < 4; i++)
			out[j][i] = l->h[i][j];
}

void slh_F_lanes(const struct slh_ctx *ctx, const struct slh_adrs *adrs, unsigned int word,
		 uint32_t first, const uint32_t (*in)[4], uint32_t (*out)[4], uint32_t n)
{
	struct ota_sha256_lanes l;
	uint32_t done, j, lanes;

	for (done = 0; done < n; done += lanes) {
		lanes = n - done < SLH_LANES ? n - done : SLH_LANES;
		lanes_begin(&l, adrs, word, first + done, lanes);
		for (j = 0; j < lanes; j++)
			lanes_input(&l, j, in[done + j]);
		lanes_run(ctx, &l, lanes);
		lanes_output(&l, out + done, lanes);
	}
}

void slh_PRF_lanes(const struct slh_ctx *ctx, const struct slh_adrs *adrs, unsigned int word,
		   uint32_t first, uint32_t (*out)[4], uint32_t n)
{
	struct ota_sha256_lanes l;
	uint32_t seed[4], done, j, lanes;

	for (j = 0; j < 4; j++)
		seed[j] = slh_get_be32(ctx->sk_seed + 4u * j);
	for (done = 0; done < n; done += lanes) {
		lanes = n - done < SLH_LANES ? n - done : SLH_LANES;
		lanes_begin(&l, adrs, word, first + done, lanes);
		for (j = 0; j < lanes; j++)
			lanes_input(&l, j, seed);
		lanes_run(ctx, &l, lanes);
		lanes_output(&l, out + done, lanes);
	}
	/* The message words held SK.seed. */
	slh_wipe(seed, sizeof(seed));
	slh_wipe(&l, sizeof(l));
}

void slh_chains_lanes(const struct slh_ctx *ctx, const struct slh_adrs *adrs, uint32_t first,
		      uint32_t (*x)[4], uint32_t n, uint32_t steps)
{
	struct ota_sha256_lanes l;
	uint32_t done, j, lanes, step;

	for (done = 0; done < n; done += lanes) {
		lanes = n - done < SLH_LANES ? n - done : SLH_LANES;
		lanes_begin(&l, adrs, SLH_ADRS_CHAIN_WORD, first + done, lanes);
		for (step = 0; step < steps; step++) {
			uint32_t v[4];

			lanes_set_hash(&l, step, lanes);
			for (j = 0; j < lanes; j++) {
				/* Step 0 starts from x; each later one from the last digest. */
				if (step == 0) {
					lanes_input(&l, j, x[done + j]);
					continue;
				}
				v[0] = l.h[0][j];
				v[1] = l.h[1][j];
				v[2] = l.h[2][j];
				v[3] = l.h[3][j];
				lanes_input(&l, j, v);
			}
			lanes_run(ctx, &l, lanes);
		}
		lanes_output(&l, x + done, lanes);
	}
}

void slh_T_start(const struct slh_ctx *ctx, const struct slh_adrs *adrs, struct ota_sha256 *t)
{
	slh_start(ctx, adrs, t);
}

void slh_T_finish(struct ota_sha256 *t, uint8_t out[SLH_N])
{
	slh_finish(t, out);
}

static void slh_msg_absorb(struct ota_sha256 *t, const struct slh_msg *msg)
{
	ota_sha256_update(t, msg->prefix, msg->prefix_len);
	ota_sha256_update(t, msg->m, msg->m_len);
}

/* HMAC-SHA-256 (FIPS 198-1) with the n-byte key SK.prf, truncated to n. */
void slh_PRF_msg(const uint8_t sk_prf[SLH_N], const uint8_t opt_rand[SLH_N],
		 const struct slh_msg *msg, uint8_t out[SLH_N])
{
	uint8_t pad[64], inner[OTA_SHA256_BYTES], full[OTA_SHA256_BYTES];
	struct ota_sha256 t;
	unsigned int i;

	/* The key is shorter than the block: zero-padded, never hashed. */
	memset(pad, 0x36, sizeof(pad));
	for (i = 0; i < SLH_N; i++)
		pad[i] ^= sk_prf[i];
	ota_sha256_init(&t);
	ota_sha256_update(&t, pad, sizeof(pad));
	ota_sha256_update(&t, opt_rand, SLH_N);
	slh_msg_absorb(&t, msg);
	ota_sha256_final(&t, inner);

	memset(pad, 0x5c, sizeof(pad));
	for (i = 0; i < SLH_N; i++)
		pad[i] ^= sk_prf[i];
	ota_sha256_init(&t);
	ota_sha256_update(&t, pad, sizeof(pad));
	ota_sha256_update(&t, inner, sizeof(inner));
	ota_sha256_final(&t, full);
	memcpy(out, full, SLH_N);

	/* pad held SK.prf ^ opad, inner a function of SK.prf. */
	slh_wipe(pad, sizeof(pad));
	slh_wipe(inner, sizeof(inner));
}

/* MGF1-SHA-256 (RFC 8017 B.2.1) of a 64-byte seed; m = 30 needs one counter block. */
void slh_H_msg(const uint8_t r[SLH_N], const uint8_t pk[OTA_SLHDSA_PK_BYTES],
	       const struct slh_msg *msg, uint8_t out[SLH_M])
{
	static const uint8_t counter0[4] = { 0, 0, 0, 0 };
	uint8_t inner[OTA_SHA256_BYTES], full[OTA_SHA256_BYTES];
	struct ota_sha256 t;

	OTA_STATIC_ASSERT(SLH_M <= OTA_SHA256_BYTES, "H_msg needs one MGF1 block");

	ota_sha256_init(&t);
	ota_sha256_update(&t, r, SLH_N);
	ota_sha256_update(&t, pk, OTA_SLHDSA_PK_BYTES); /* PK.seed || PK.root */
	slh_msg_absorb(&t, msg);
	ota_sha256_final(&t, inner);

	ota_sha256_init(&t);
	ota_sha256_update(&t, r, SLH_N);
	ota_sha256_update(&t, pk, SLH_N); /* PK.seed */
	ota_sha256_update(&t, inner, sizeof(inner));
	ota_sha256_update(&t, counter0, sizeof(counter0));
	ota_sha256_final(&t, full);
	memcpy(out, full, SLH_M);
}
