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
 * midstate is computed once in slh_ctx_init and copied per call.
 */
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

/* Copy of the seeded midstate with ADRSc absorbed: the start of every call. */
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

void slh_F(const struct slh_ctx *ctx, const struct slh_adrs *adrs, const uint8_t in[SLH_N],
	   uint8_t out[SLH_N])
{
	struct ota_sha256 t;

	slh_start(ctx, adrs, &t);
	ota_sha256_update(&t, in, SLH_N);
	slh_finish(&t, out); /* out may alias in: written only after absorbing */
}

void slh_H(const struct slh_ctx *ctx, const struct slh_adrs *adrs, const uint8_t left[SLH_N],
	   const uint8_t right[SLH_N], uint8_t out[SLH_N])
{
	struct ota_sha256 t;

	slh_start(ctx, adrs, &t);
	ota_sha256_update(&t, left, SLH_N);
	ota_sha256_update(&t, right, SLH_N);
	slh_finish(&t, out);
}

void slh_PRF(const struct slh_ctx *ctx, const struct slh_adrs *adrs, uint8_t out[SLH_N])
{
	struct ota_sha256 t;

	slh_start(ctx, adrs, &t);
	ota_sha256_update(&t, ctx->sk_seed, SLH_N);
	slh_finish(&t, out);
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
