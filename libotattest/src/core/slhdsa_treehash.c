// SPDX-License-Identifier: MIT
/*
 * Merkle trees for XMSS and FORS without recursion.
 *
 * FIPS 205 defines xmss_node and fors_node recursively and computes each
 * authentication-path node separately. One left-to-right pass with a
 * stack of at most height + 1 nodes gives the root and the whole path at
 * the same cost as the root alone, and bounds stack use by the height
 * (at most a = 12 here) instead of by recursion depth.
 */
#include "slhdsa_internal.h"

/*
 * Tree index of node j at height z of tree tree_num, for a tree of the
 * given height: FORS numbers the nodes of all k trees in one space
 * (FIPS 205 Algorithm 15), XMSS has tree_num = 0.
 */
static inline uint32_t node_index(uint32_t height, uint32_t tree_num, uint32_t z, uint32_t j)
{
	return (tree_num << (height - z)) + j;
}

void slh_treehash(const struct slh_ctx *ctx, struct slh_adrs *node_adrs, uint32_t height,
		  uint32_t tree_num, uint32_t leaf_idx, slh_leaf_fn leaf, void *arg,
		  uint8_t root[SLH_N], uint8_t *auth)
{
	uint8_t stack[(SLH_A + 1u) * SLH_N];
	uint8_t leaves[SLH_LEAF_BATCH][SLH_N];
	uint32_t stack_height[SLH_A + 1u];
	uint32_t sp = 0, i, b, batch;

	OTA_STATIC_ASSERT(SLH_A >= SLH_HP, "stack sized for the taller tree");
	OTA_STATIC_ASSERT(((1u << SLH_HP) % SLH_LEAF_BATCH) == 0, "whole batches");
	if (height > SLH_A)
		return; /* internal callers pass h' or a; never reached */
	batch = (1u << height) < SLH_LEAF_BATCH ? (1u << height) : SLH_LEAF_BATCH;

	for (b = 0; b < (1u << height); b += batch) {
		leaf(ctx, b, batch, arg, leaves);
		for (i = b; i < b + batch; i++) {
			uint8_t *node = leaves[i - b];
			uint32_t z = 0, j = i;

			for (;;) {
				/* The sibling of leaf_idx's ancestor at height z is on the path. */
				if (auth && z < height && j == ((leaf_idx >> z) ^ 1u))
					memcpy(auth + z * SLH_N, node, SLH_N);
				if (sp == 0 || stack_height[sp - 1u] != z)
					break;
				/* Equal heights on top: the stacked node is the left sibling. */
				sp--;
				z++;
				j >>= 1;
				slh_adrs_set_height(node_adrs, z);
				slh_adrs_set_index(node_adrs, node_index(height, tree_num, z, j));
				slh_H(ctx, node_adrs, stack + sp * SLH_N, node, node);
			}
			/* Heights on the stack strictly decrease, so sp <= height here. */
			memcpy(stack + sp * SLH_N, node, SLH_N);
			stack_height[sp] = z;
			sp++;
		}
	}
	memcpy(root, stack, SLH_N);
}

void slh_root_from_auth(const struct slh_ctx *ctx, struct slh_adrs *node_adrs, uint32_t height,
			uint32_t tree_num, uint32_t leaf_idx, const uint8_t leaf[SLH_N],
			const uint8_t *auth, uint8_t root[SLH_N])
{
	uint8_t node[SLH_N];
	uint32_t z;

	if (height > SLH_A)
		height = SLH_A; /* internal callers pass h' or a */
	leaf_idx &= (1u << height) - 1u;
	memcpy(node, leaf, SLH_N);
	for (z = 0; z < height; z++) {
		const uint8_t *sibling = auth + z * SLH_N;

		slh_adrs_set_height(node_adrs, z + 1u);
		slh_adrs_set_index(node_adrs, node_index(height, tree_num, z + 1u, leaf_idx >> (z + 1u)));
		if (((leaf_idx >> z) & 1u) == 0)
			slh_H(ctx, node_adrs, node, sibling, node);
		else
			slh_H(ctx, node_adrs, sibling, node, node);
	}
	memcpy(root, node, SLH_N);
}
