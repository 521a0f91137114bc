// SPDX-License-Identifier: MIT
/*
 * FORS few-time signatures (FIPS 205 section 8, Algorithms 14-17): k = 14
 * trees of height a = 12; the message digest picks one leaf per tree.
 * The k roots are streamed into T_k as each tree finishes.
 */
#include "slhdsa_internal.h"

#define SLH_A_MASK ((1u << SLH_A) - 1u)

/* fors_skGen (Algorithm 14) for leaf `global` of the joint index space. */
static void fors_sk(const struct slh_ctx *ctx, const struct slh_adrs *adrs, uint32_t global,
		    uint8_t out[SLH_N])
{
	struct slh_adrs sk_adrs = *adrs;

	slh_adrs_set_type(&sk_adrs, SLH_ADRS_FORS_PRF);
	slh_adrs_set_keypair(&sk_adrs, slh_adrs_keypair(adrs));
	slh_adrs_set_index(&sk_adrs, global);
	slh_PRF(ctx, &sk_adrs, out);
}

/* F over a secret value at height 0 (Algorithm 15 step 3, Algorithm 17 step 5). */
static void fors_leaf_from_sk(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
			      uint32_t global, const uint8_t sk[SLH_N], uint8_t out[SLH_N])
{
	struct slh_adrs leaf_adrs = *adrs;

	slh_adrs_set_height(&leaf_adrs, 0);
	slh_adrs_set_index(&leaf_adrs, global);
	slh_F(ctx, &leaf_adrs, sk, out);
}

struct fors_leaf_arg {
	const struct slh_adrs *adrs; /* type FORS_TREE, key pair set */
	uint32_t tree;
};

/*
 * Leaves first.. of tree arg->tree (Algorithm 15 at height 0): the secret
 * values by PRF, then F of each, both as lanes.
 */
static void fors_leaves(const struct slh_ctx *ctx, uint32_t first, uint32_t count, void *argp,
			uint8_t (*out)[SLH_N])
{
	const struct fors_leaf_arg *arg = (const struct fors_leaf_arg *)argp;
	uint32_t global = (arg->tree << SLH_A) + first;
	struct slh_adrs sk_adrs = *arg->adrs, leaf_adrs = *arg->adrs;
	uint32_t x[SLH_LEAF_BATCH][4];

	if (count > SLH_LEAF_BATCH)
		return; /* slh_treehash never asks for more */
	slh_adrs_set_type(&sk_adrs, SLH_ADRS_FORS_PRF);
	slh_adrs_set_keypair(&sk_adrs, slh_adrs_keypair(arg->adrs));
	slh_PRF_lanes(ctx, &sk_adrs, SLH_ADRS_HASH_WORD, global, x, count);
	slh_adrs_set_height(&leaf_adrs, 0);
	slh_F_lanes(ctx, &leaf_adrs, SLH_ADRS_HASH_WORD, global, (const uint32_t (*)[4])x, x, count);
	slh_words_to_bytes((const uint32_t (*)[4])x, out[0], count);
}

static void fors_roots_start(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
			     struct ota_sha256 *t)
{
	struct slh_adrs roots_adrs = *adrs;

	slh_adrs_set_type(&roots_adrs, SLH_ADRS_FORS_ROOTS);
	slh_adrs_set_keypair(&roots_adrs, slh_adrs_keypair(adrs));
	slh_T_start(ctx, &roots_adrs, t);
}

/*
 * fors_sign (Algorithm 16) fused with fors_pkFromSig: each tree's pass
 * also yields its root, so the FORS public key needs no second walk.
 */
void slh_fors_sign(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
		   const uint8_t md[SLH_MD_BYTES], uint8_t sig[SLH_FORS_SIG_BYTES],
		   uint8_t pk[SLH_N])
{
	uint32_t indices[SLH_K];
	struct ota_sha256 t;
	uint32_t i;

	slh_base_2b(md, SLH_A, SLH_K, indices);
	fors_roots_start(ctx, adrs, &t);
	for (i = 0; i < SLH_K; i++) {
		struct fors_leaf_arg arg = { adrs, i };
		struct slh_adrs node_adrs = *adrs;
		uint8_t *tree_sig = sig + i * SLH_FORS_TREE_BYTES;
		uint8_t root[SLH_N];

		fors_sk(ctx, adrs, (i << SLH_A) + indices[i], tree_sig);
		slh_treehash(ctx, &node_adrs, SLH_A, i, indices[i], fors_leaves, &arg, root,
			     tree_sig + SLH_N);
		ota_sha256_update(&t, root, SLH_N);
	}
	slh_T_finish(&t, pk);
}

/* fors_pkFromSig (Algorithm 17). */
void slh_fors_pk_from_sig(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
			  const uint8_t sig[SLH_FORS_SIG_BYTES], const uint8_t md[SLH_MD_BYTES],
			  uint8_t pk[SLH_N])
{
	uint32_t indices[SLH_K];
	struct ota_sha256 t;
	uint32_t i;

	slh_base_2b(md, SLH_A, SLH_K, indices);
	fors_roots_start(ctx, adrs, &t);
	for (i = 0; i < SLH_K; i++) {
		const uint8_t *tree_sig = sig + i * SLH_FORS_TREE_BYTES;
		uint32_t idx = indices[i] & SLH_A_MASK;
		struct slh_adrs node_adrs = *adrs;
		uint8_t node[SLH_N];

		fors_leaf_from_sk(ctx, adrs, (i << SLH_A) + idx, tree_sig, node);
		slh_root_from_auth(ctx, &node_adrs, SLH_A, i, idx, node, tree_sig + SLH_N, node);
		ota_sha256_update(&t, node, SLH_N);
	}
	slh_T_finish(&t, pk);
}
