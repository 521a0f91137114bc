// SPDX-License-Identifier: MIT
/*
 * SLH-DSA-SHA2-128s key generation, signing and verification (FIPS 205
 * Algorithms 18-20), exposed in pure mode with an empty context string
 * (Algorithms 22 and 24): the signed message is M' = 0x00 || 0x00 || M,
 * the first byte saying "pure" and the second the context length.
 *
 * Verification is the firmware's hybrid check: it takes fixed-size key
 * and signature arrays, uses no heap and no recursion, and every index
 * it derives from the signature or digest is masked to its field width
 * (FORS leaf < 2^a, tree < 2^54, XMSS leaf < 2^h', WOTS digit < w) before
 * it selects anything.
 */
#include "slhdsa_internal.h"

/* Domain separator of M' for pure signing with ctx = "" (FIPS 205 section 10.2). */
static const uint8_t pure_empty_ctx_prefix[2] = { 0x00, 0x00 };

struct slh_digest_split {
	uint8_t md[SLH_MD_BYTES];
	uint64_t idx_tree;
	uint32_t idx_leaf;
};

/* Algorithm 19 steps 7-12 (and Algorithm 20 steps 6-11). */
static void split_digest(const uint8_t digest[SLH_M], struct slh_digest_split *out)
{
	uint64_t tree = 0;
	uint32_t leaf = 0;
	unsigned int i;

	memcpy(out->md, digest, SLH_MD_BYTES);
	for (i = 0; i < SLH_TREE_BYTES; i++)
		tree = (tree << 8) | digest[SLH_MD_BYTES + i];
	for (i = 0; i < SLH_LEAF_BYTES; i++)
		leaf = (leaf << 8) | digest[SLH_MD_BYTES + SLH_TREE_BYTES + i];
	out->idx_tree = tree & ((UINT64_C(1) << SLH_TREE_BITS) - 1u);
	out->idx_leaf = leaf & ((1u << SLH_HP) - 1u);
}

static void fors_adrs(const struct slh_digest_split *d, struct slh_adrs *adrs)
{
	slh_adrs_zero(adrs);
	slh_adrs_set_tree(adrs, d->idx_tree);
	slh_adrs_set_type(adrs, SLH_ADRS_FORS_TREE);
	slh_adrs_set_keypair(adrs, d->idx_leaf);
}

void ota_slhdsa_keygen(const uint8_t sk_seed[16], const uint8_t sk_prf[16],
		       const uint8_t pk_seed[16], uint8_t pk[OTA_SLHDSA_PK_BYTES],
		       uint8_t sk[OTA_SLHDSA_SK_BYTES])
{
	struct slh_ctx ctx;
	uint8_t root[SLH_N];

	slh_ctx_init(&ctx, pk_seed, sk_seed);
	slh_xmss_top_root(&ctx, root);
	slh_ctx_wipe(&ctx);

	/* Copy seeds last: the outputs may alias the inputs. */
	memmove(sk, sk_seed, SLH_N);
	memmove(sk + SLH_N, sk_prf, SLH_N);
	memmove(sk + 2u * SLH_N, pk_seed, SLH_N);
	memcpy(sk + 3u * SLH_N, root, SLH_N);
	memmove(pk, sk + 2u * SLH_N, 2u * SLH_N);
}

void ota_slhdsa_sign(const uint8_t sk[OTA_SLHDSA_SK_BYTES], const uint8_t *msg,
		     size_t msg_len, const uint8_t *addrnd, uint8_t sig[OTA_SLHDSA_SIG_BYTES])
{
	const uint8_t *sk_seed = sk, *sk_prf = sk + SLH_N, *pk = sk + 2u * SLH_N;
	const struct slh_msg m = { pure_empty_ctx_prefix, sizeof(pure_empty_ctx_prefix), msg,
				   msg_len };
	struct slh_digest_split split;
	uint8_t digest[SLH_M], pk_fors[SLH_N];
	struct slh_adrs adrs;
	struct slh_ctx ctx;

	/* Deterministic variant: opt_rand = PK.seed (Algorithm 22 step 4). */
	slh_PRF_msg(sk_prf, addrnd ? addrnd : pk, &m, sig);
	slh_H_msg(sig, pk, &m, digest);
	split_digest(digest, &split);

	slh_ctx_init(&ctx, pk, sk_seed);
	fors_adrs(&split, &adrs);
	slh_fors_sign(&ctx, &adrs, split.md, sig + SLH_N, pk_fors);
	slh_ht_sign(&ctx, pk_fors, split.idx_tree, split.idx_leaf,
		    sig + SLH_N + SLH_FORS_SIG_BYTES);
	slh_ctx_wipe(&ctx);
}

ota_status_t ota_slhdsa_verify(const uint8_t pk[OTA_SLHDSA_PK_BYTES], const uint8_t *msg,
			       size_t msg_len, const uint8_t sig[OTA_SLHDSA_SIG_BYTES])
{
	const struct slh_msg m = { pure_empty_ctx_prefix, sizeof(pure_empty_ctx_prefix), msg,
				   msg_len };
	struct slh_digest_split split;
	uint8_t r[SLH_N], digest[SLH_M], pk_fors[SLH_N], root[SLH_N];
	struct slh_adrs adrs;
	struct slh_ctx ctx;
	ota_status_t status = OTA_SLHDSA_INVALID;

	if (!pk || !sig || (!msg && msg_len != 0))
		return OTA_SLHDSA_INVALID;

	/* R is read twice by H_msg: take one copy so both reads agree. */
	memcpy(r, sig, SLH_N);
	slh_H_msg(r, pk, &m, digest);
	split_digest(digest, &split);

	slh_ctx_init(&ctx, pk, NULL);
	fors_adrs(&split, &adrs);
	slh_fors_pk_from_sig(&ctx, &adrs, sig + SLH_N, split.md, pk_fors);
	slh_ht_root(&ctx, pk_fors, sig + SLH_N + SLH_FORS_SIG_BYTES, split.idx_tree,
		    split.idx_leaf, root);

	if (ota_ct_equal(root, pk + SLH_N, SLH_N))
		status = OTA_OK;
	/*
	 * A second, independent comparison (volatile reads, so it cannot be
	 * merged with the first): one skipped branch must not turn a
	 * forgery into OTA_OK.
	 */
	if (!ota_ct_equal(pk + SLH_N, root, SLH_N))
		status = OTA_SLHDSA_INVALID;
	return status;
}
