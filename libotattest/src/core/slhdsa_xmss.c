// SPDX-License-Identifier: MIT
/*
 * XMSS trees and the hypertree (FIPS 205 sections 6 and 7, Algorithms
 * 9-13): d = 7 layers of XMSS trees of height h' = 9, each tree's WOTS+
 * key signing the root of the tree below it.
 */
#include "slhdsa_internal.h"

#define SLH_HP_MASK ((1u << SLH_HP) - 1u)

/* Leaves of an XMSS tree: the WOTS+ public keys of key pairs first.. (lanes inside each). */
static void xmss_leaves(const struct slh_ctx *ctx, uint32_t first, uint32_t count, void *arg,
			uint8_t (*out)[SLH_N])
{
	struct slh_adrs wots_adrs = *(const struct slh_adrs *)arg;
	uint32_t i;

	slh_adrs_set_type(&wots_adrs, SLH_ADRS_WOTS_HASH);
	for (i = 0; i < count; i++) {
		slh_adrs_set_keypair(&wots_adrs, first + i);
		slh_wots_pkgen(ctx, &wots_adrs, out[i]);
	}
}

/*
 * xmss_sign (Algorithm 10) fused with xmss_node(0, h'): one pass gives
 * the authentication path and the root the next layer signs. adrs holds
 * the layer and tree address. msg may alias root.
 */
void slh_xmss_sign(const struct slh_ctx *ctx, struct slh_adrs *adrs, uint32_t idx,
		   const uint8_t msg[SLH_N], uint8_t sig[SLH_XMSS_SIG_BYTES],
		   uint8_t root[SLH_N])
{
	struct slh_adrs wots_adrs = *adrs, node_adrs = *adrs;

	idx &= SLH_HP_MASK;
	slh_adrs_set_type(&wots_adrs, SLH_ADRS_WOTS_HASH);
	slh_adrs_set_keypair(&wots_adrs, idx);
	slh_wots_sign(ctx, &wots_adrs, msg, sig); /* before root is written */

	slh_adrs_set_type(&node_adrs, SLH_ADRS_TREE);
	slh_treehash(ctx, &node_adrs, SLH_HP, 0, idx, xmss_leaves, adrs, root,
		     sig + SLH_WOTS_SIG_BYTES);
}

/* xmss_pkFromSig (Algorithm 11). msg may alias root. */
void slh_xmss_pk_from_sig(const struct slh_ctx *ctx, struct slh_adrs *adrs, uint32_t idx,
			  const uint8_t sig[SLH_XMSS_SIG_BYTES], const uint8_t msg[SLH_N],
			  uint8_t root[SLH_N])
{
	struct slh_adrs wots_adrs = *adrs, node_adrs = *adrs;
	uint8_t leaf[SLH_N];

	idx &= SLH_HP_MASK;
	slh_adrs_set_type(&wots_adrs, SLH_ADRS_WOTS_HASH);
	slh_adrs_set_keypair(&wots_adrs, idx);
	slh_wots_pk_from_sig(ctx, &wots_adrs, sig, msg, leaf);

	slh_adrs_set_type(&node_adrs, SLH_ADRS_TREE);
	slh_root_from_auth(ctx, &node_adrs, SLH_HP, 0, idx, leaf, sig + SLH_WOTS_SIG_BYTES, root);
}

/* PK.root: xmss_node(SK.seed, 0, h', PK.seed, ADRS) at layer d - 1 (Algorithm 18). */
void slh_xmss_top_root(const struct slh_ctx *ctx, uint8_t root[SLH_N])
{
	struct slh_adrs adrs, node_adrs;

	slh_adrs_zero(&adrs);
	slh_adrs_set_layer(&adrs, SLH_D - 1u);
	node_adrs = adrs;
	slh_adrs_set_type(&node_adrs, SLH_ADRS_TREE);
	/* A leaf index past the tree matches no sibling: no path is kept. */
	slh_treehash(ctx, &node_adrs, SLH_HP, 0, 1u << SLH_HP, xmss_leaves, &adrs, root, NULL);
}

/* ht_sign (Algorithm 12). */
void slh_ht_sign(const struct slh_ctx *ctx, const uint8_t msg[SLH_N], uint64_t idx_tree,
		 uint32_t idx_leaf, uint8_t sig[SLH_HT_SIG_BYTES])
{
	struct slh_adrs adrs;
	uint8_t root[SLH_N];
	uint32_t j;

	slh_adrs_zero(&adrs);
	slh_adrs_set_tree(&adrs, idx_tree);
	slh_xmss_sign(ctx, &adrs, idx_leaf, msg, sig, root);
	for (j = 1; j < SLH_D; j++) {
		idx_leaf = (uint32_t)(idx_tree & SLH_HP_MASK);
		idx_tree >>= SLH_HP;
		slh_adrs_set_layer(&adrs, j);
		slh_adrs_set_tree(&adrs, idx_tree);
		slh_xmss_sign(ctx, &adrs, idx_leaf, root, sig + j * SLH_XMSS_SIG_BYTES, root);
	}
}

/* ht_verify (Algorithm 13) up to the final comparison, which the caller makes. */
void slh_ht_root(const struct slh_ctx *ctx, const uint8_t msg[SLH_N],
		 const uint8_t sig[SLH_HT_SIG_BYTES], uint64_t idx_tree, uint32_t idx_leaf,
		 uint8_t root[SLH_N])
{
	struct slh_adrs adrs;
	uint32_t j;

	slh_adrs_zero(&adrs);
	slh_adrs_set_tree(&adrs, idx_tree);
	slh_xmss_pk_from_sig(ctx, &adrs, idx_leaf, sig, msg, root);
	for (j = 1; j < SLH_D; j++) {
		idx_leaf = (uint32_t)(idx_tree & SLH_HP_MASK);
		idx_tree >>= SLH_HP;
		slh_adrs_set_layer(&adrs, j);
		slh_adrs_set_tree(&adrs, idx_tree);
		slh_xmss_pk_from_sig(ctx, &adrs, idx_leaf, sig + j * SLH_XMSS_SIG_BYTES, root, root);
	}
}
