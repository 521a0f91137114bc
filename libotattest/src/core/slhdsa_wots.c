// SPDX-License-Identifier: MIT
/*
 * WOTS+ one-time signatures (FIPS 205 section 5, Algorithms 5-8).
 *
 * Each of the len = 35 chains is a run of F calls; the public key is
 * T_len over the 35 chain ends. Verification (the firmware's path) streams
 * the chain ends into T_len as they are produced instead of collecting
 * them in a 560-byte array: same result, less stack. Key generation and
 * signing (host only) run the chains side by side and keep the array.
 */
#include "slhdsa_internal.h"

OTA_STATIC_ASSERT((SLH_LEN2 * SLH_LGW + 7u) / 8u == 2u, "checksum fits two bytes");

/* Message digits plus checksum digits (Algorithm 7, steps 1-9). */
static void wots_digits(const uint8_t msg[SLH_N], uint32_t digits[SLH_LEN])
{
	uint32_t csum = 0;
	uint8_t csum_bytes[2];
	unsigned int i;

	slh_base_2b(msg, SLH_LGW, SLH_LEN1, digits);
	for (i = 0; i < SLH_LEN1; i++)
		csum += SLH_W - 1u - digits[i];
	/* Left-align the len2 * lg_w = 12 checksum bits in two bytes. */
	csum <<= (8u - ((SLH_LEN2 * SLH_LGW) % 8u)) % 8u;
	csum_bytes[0] = (uint8_t)(csum >> 8);
	csum_bytes[1] = (uint8_t)csum;
	slh_base_2b(csum_bytes, SLH_LGW, SLH_LEN2, digits + SLH_LEN1);
}

/*
 * chain (Algorithm 5): s iterations of F from position start. Callers
 * pass start + steps <= w - 1, which holds because every digit is < w.
 */
static void wots_chain(const struct slh_ctx *ctx, struct slh_adrs *adrs, uint8_t x[SLH_N],
		       uint32_t start, uint32_t steps)
{
	uint32_t j;

	for (j = start; j < start + steps; j++) {
		slh_adrs_set_hash(adrs, j);
		slh_F(ctx, adrs, x, x);
	}
}

/* Address of the PRF that yields chain i's secret (Algorithm 6, steps 1-3). */
static void wots_sk_adrs(const struct slh_adrs *adrs, struct slh_adrs *sk_adrs)
{
	*sk_adrs = *adrs;
	slh_adrs_set_type(sk_adrs, SLH_ADRS_WOTS_PRF);
	slh_adrs_set_keypair(sk_adrs, slh_adrs_keypair(adrs));
}

static void wots_pk_start(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
			  struct ota_sha256 *t)
{
	struct slh_adrs pk_adrs = *adrs;

	slh_adrs_set_type(&pk_adrs, SLH_ADRS_WOTS_PK);
	slh_adrs_set_keypair(&pk_adrs, slh_adrs_keypair(adrs));
	slh_T_start(ctx, &pk_adrs, t);
}

/*
 * wots_pkGen (Algorithm 6). adrs: type WOTS_HASH with the key pair set.
 * Signing's bulk (7 x 512 leaves, over 90 % of its hashing): the 35 chains
 * have the same length, so they advance together, step by step, as lanes
 * (slh_chains_lanes), and their ends go into T_len in one piece.
 */
void slh_wots_pkgen(const struct slh_ctx *ctx, const struct slh_adrs *adrs, uint8_t pk[SLH_N])
{
	struct slh_adrs sk_adrs;
	uint32_t x[SLH_LEN][4];
	uint8_t ends[SLH_LEN * SLH_N];
	struct ota_sha256 t;

	wots_sk_adrs(adrs, &sk_adrs);
	slh_PRF_lanes(ctx, &sk_adrs, SLH_ADRS_CHAIN_WORD, 0, x, SLH_LEN);
	slh_chains_lanes(ctx, adrs, 0, x, SLH_LEN, SLH_W - 1u);
	slh_words_to_bytes((const uint32_t (*)[4])x, ends, SLH_LEN);
	wots_pk_start(ctx, adrs, &t);
	ota_sha256_update(&t, ends, sizeof(ends));
	slh_T_finish(&t, pk);
}

/* wots_sign (Algorithm 7). */
void slh_wots_sign(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
		   const uint8_t msg[SLH_N], uint8_t sig[SLH_WOTS_SIG_BYTES])
{
	struct slh_adrs sk_adrs, hash_adrs = *adrs;
	uint32_t digits[SLH_LEN];
	uint32_t i;

	wots_digits(msg, digits);
	wots_sk_adrs(adrs, &sk_adrs);
	for (i = 0; i < SLH_LEN; i++) {
		uint8_t *x = sig + i * SLH_N;

		slh_adrs_set_chain(&sk_adrs, i);
		slh_PRF(ctx, &sk_adrs, x);
		slh_adrs_set_chain(&hash_adrs, i);
		wots_chain(ctx, &hash_adrs, x, 0, digits[i]);
	}
}

/* wots_pkFromSig (Algorithm 8). msg may alias pk. */
void slh_wots_pk_from_sig(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
			  const uint8_t sig[SLH_WOTS_SIG_BYTES], const uint8_t msg[SLH_N],
			  uint8_t pk[SLH_N])
{
	struct slh_adrs hash_adrs = *adrs;
	uint32_t digits[SLH_LEN];
	struct ota_sha256 t;
	uint8_t x[SLH_N];
	uint32_t i;

	wots_digits(msg, digits);
	wots_pk_start(ctx, adrs, &t);
	for (i = 0; i < SLH_LEN; i++) {
		memcpy(x, sig + i * SLH_N, SLH_N);
		slh_adrs_set_chain(&hash_adrs, i);
		wots_chain(ctx, &hash_adrs, x, digits[i], SLH_W - 1u - digits[i]);
		ota_sha256_update(&t, x, SLH_N);
	}
	slh_T_finish(&t, pk);
}
