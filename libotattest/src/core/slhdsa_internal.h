/* SPDX-License-Identifier: MIT */
/*
 * SLH-DSA-SHA2-128s internals (FIPS 205): parameters, the compressed
 * address, the tweakable hash functions and the WOTS+ / XMSS / FORS
 * building blocks. Private to libotattest/src/core/slhdsa*.c.
 *
 * Names follow FIPS 205 so each function can be read against its
 * algorithm number. Verification paths take only fixed-size arrays and
 * indices that are masked to their field width before use, so a hostile
 * signature cannot steer a read out of bounds.
 */
#ifndef OTATTEST_SLHDSA_INTERNAL_H
#define OTATTEST_SLHDSA_INTERNAL_H

#include <string.h>

#include "otattest/sha256.h"
#include "otattest/slhdsa.h"

/* FIPS 205 Table 2, SLH-DSA-SHA2-128s. */
#define SLH_N 16u
#define SLH_H 63u
#define SLH_D 7u
#define SLH_HP 9u /* h' = h / d, height of one XMSS tree */
#define SLH_A 12u
#define SLH_K 14u
#define SLH_LGW 4u
#define SLH_M 30u
#define SLH_W (1u << SLH_LGW)

/* WOTS+ lengths (FIPS 205 section 5, equations 5.1-5.4). */
#define SLH_LEN1 ((8u * SLH_N + SLH_LGW - 1u) / SLH_LGW) /* 32 message digits */
#define SLH_LEN2 3u                                       /* checksum digits */
#define SLH_LEN (SLH_LEN1 + SLH_LEN2)                     /* 35 chains */

/* Signature layout: R || SIG_FORS || SIG_HT (FIPS 205 figure 17). */
#define SLH_FORS_TREE_BYTES ((1u + SLH_A) * SLH_N)      /* sk || auth[a] */
#define SLH_FORS_SIG_BYTES (SLH_K * SLH_FORS_TREE_BYTES)
#define SLH_WOTS_SIG_BYTES (SLH_LEN * SLH_N)
#define SLH_XMSS_SIG_BYTES (SLH_WOTS_SIG_BYTES + SLH_HP * SLH_N)
#define SLH_HT_SIG_BYTES (SLH_D * SLH_XMSS_SIG_BYTES)
#define SLH_SIG_BYTES (SLH_N + SLH_FORS_SIG_BYTES + SLH_HT_SIG_BYTES)

/* Message digest split (FIPS 205 Algorithm 19, steps 7-10). */
#define SLH_MD_BYTES ((SLH_K * SLH_A + 7u) / 8u)                  /* 21 */
#define SLH_TREE_BITS (SLH_H - SLH_HP)                            /* 54 */
#define SLH_TREE_BYTES ((SLH_TREE_BITS + 7u) / 8u)                /* 7 */
#define SLH_LEAF_BYTES ((SLH_HP + 7u) / 8u)                       /* 2 */

OTA_STATIC_ASSERT(SLH_LEN1 == 32u, "len1 for n=16, lg_w=4");
OTA_STATIC_ASSERT(SLH_MD_BYTES + SLH_TREE_BYTES + SLH_LEAF_BYTES == SLH_M, "m = 30");
OTA_STATIC_ASSERT(SLH_SIG_BYTES == OTA_SLHDSA_SIG_BYTES, "7856-byte signature");
OTA_STATIC_ASSERT(2u * SLH_N == OTA_SLHDSA_PK_BYTES, "32-byte public key");
OTA_STATIC_ASSERT(4u * SLH_N == OTA_SLHDSA_SK_BYTES, "64-byte secret key");

/*
 * Address types (FIPS 205 section 4.2).
 */
enum slh_adrs_type {
	SLH_ADRS_WOTS_HASH = 0,
	SLH_ADRS_WOTS_PK = 1,
	SLH_ADRS_TREE = 2,
	SLH_ADRS_FORS_TREE = 3,
	SLH_ADRS_FORS_ROOTS = 4,
	SLH_ADRS_WOTS_PRF = 5,
	SLH_ADRS_FORS_PRF = 6,
};

/*
 * The SHA2 instantiation only ever hashes the 22-byte compressed address
 * ADRSc (FIPS 205 section 11.2), so that is the only form kept:
 *   [0] layer  [1..8] tree (low 64 bits, big-endian)  [9] type
 *   [10..13] key pair  [14..17] chain / tree height  [18..21] hash / tree index
 */
#define SLH_ADRSC_BYTES 22u

struct slh_adrs {
	uint8_t c[SLH_ADRSC_BYTES];
};

static inline void slh_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline uint32_t slh_get_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) |
	       (uint32_t)p[3];
}

/*
 * Clear secret material. Through volatile so the stores survive even
 * though the buffer is dead afterwards (memset there may be elided).
 */
static inline void slh_wipe(void *buf, size_t len)
{
	volatile uint8_t *p = (volatile uint8_t *)buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = 0;
}

static inline void slh_adrs_zero(struct slh_adrs *a)
{
	memset(a->c, 0, sizeof(a->c));
}

static inline void slh_adrs_set_layer(struct slh_adrs *a, uint32_t layer)
{
	a->c[0] = (uint8_t)layer; /* layer < d = 7 */
}

/* Two 32-bit halves: no 64-bit shift helper calls on rv32. */
static inline void slh_adrs_set_tree(struct slh_adrs *a, uint64_t tree)
{
	slh_put_be32(a->c + 1, (uint32_t)(tree >> 32));
	slh_put_be32(a->c + 5, (uint32_t)tree);
}

/* setTypeAndClear: the three words after the type become zero. */
static inline void slh_adrs_set_type(struct slh_adrs *a, enum slh_adrs_type type)
{
	a->c[9] = (uint8_t)type;
	memset(a->c + 10, 0, 12);
}

static inline void slh_adrs_set_keypair(struct slh_adrs *a, uint32_t kp)
{
	slh_put_be32(a->c + 10, kp);
}

static inline uint32_t slh_adrs_keypair(const struct slh_adrs *a)
{
	return slh_get_be32(a->c + 10);
}

/* Offsets of the two words that run through a chain or a tree. */
#define SLH_ADRS_CHAIN_WORD 14u /* chain address (WOTS+), tree height (XMSS, FORS) */
#define SLH_ADRS_HASH_WORD 18u  /* hash address (WOTS+), tree index (XMSS, FORS) */

/* Chain address (WOTS+) and tree height (XMSS, FORS) share a word. */
static inline void slh_adrs_set_chain(struct slh_adrs *a, uint32_t v)
{
	slh_put_be32(a->c + SLH_ADRS_CHAIN_WORD, v);
}
#define slh_adrs_set_height slh_adrs_set_chain

/* Hash address (WOTS+) and tree index (XMSS, FORS) share a word. */
static inline void slh_adrs_set_hash(struct slh_adrs *a, uint32_t v)
{
	slh_put_be32(a->c + SLH_ADRS_HASH_WORD, v);
}
#define slh_adrs_set_index slh_adrs_set_hash

/*
 * Per-operation hash state. PRF, F, H and T_l all start with the block
 * PK.seed || 0^(64-n); `seeded` holds SHA-256 after that block, computed
 * once per key operation and copied for each call. This saves one of
 * the two compressions in every F and H, which is most of the work; the
 * rest of F, H and PRF fits one more block, which slhdsa_hash.c lays out
 * itself and hands to the compression function directly.
 */
struct slh_ctx {
	struct ota_sha256 seeded;
	uint8_t pk_seed[SLH_N];
	uint8_t sk_seed[SLH_N]; /* zero when only verifying */
};

/* A message in two pieces: the FIPS 205 domain prefix and the caller's M. */
struct slh_msg {
	const uint8_t *prefix;
	size_t prefix_len;
	const uint8_t *m;
	size_t m_len;
};

/* slhdsa_hash.c: FIPS 205 section 11.2.1 (security category 1). */
void slh_ctx_init(struct slh_ctx *ctx, const uint8_t pk_seed[SLH_N], const uint8_t *sk_seed);
void slh_ctx_wipe(struct slh_ctx *ctx);
void slh_F(const struct slh_ctx *ctx, const struct slh_adrs *adrs, const uint8_t in[SLH_N],
	   uint8_t out[SLH_N]);
void slh_H(const struct slh_ctx *ctx, const struct slh_adrs *adrs, const uint8_t left[SLH_N],
	   const uint8_t right[SLH_N], uint8_t out[SLH_N]);
void slh_PRF(const struct slh_ctx *ctx, const struct slh_adrs *adrs, uint8_t out[SLH_N]);
/*
 * Lanes, for signing: n independent calls at once, their n-byte values as
 * four big-endian words (a digest's first state words, no bytes in
 * between). Lane i hashes with the ADRS word at `word`
 * (SLH_ADRS_CHAIN_WORD or SLH_ADRS_HASH_WORD) set to first + i: F of
 * in[i], or PRF, into out[i] (out may be in). They go SLH_LANES at a time
 * to ota_sha256_compress_lanes, which runs them side by side where the
 * CPU can (sha256_backend.h).
 */
#define SLH_LANES 16u
void slh_F_lanes(const struct slh_ctx *ctx, const struct slh_adrs *adrs, unsigned int word,
		 uint32_t first, const uint32_t (*in)[4], uint32_t (*out)[4], uint32_t n);
void slh_PRF_lanes(const struct slh_ctx *ctx, const struct slh_adrs *adrs, unsigned int word,
		   uint32_t first, uint32_t (*out)[4], uint32_t n);
/*
 * WOTS+ chains first..first+n-1 of adrs (type WOTS_HASH, key pair set),
 * each `steps` F iterations from hash address 0 (FIPS 205 Algorithm 5
 * with i = 0), side by side: x[i] in, chain end out.
 */
void slh_chains_lanes(const struct slh_ctx *ctx, const struct slh_adrs *adrs, uint32_t first,
		      uint32_t (*x)[4], uint32_t n, uint32_t steps);
static inline void slh_words_to_bytes(const uint32_t (*x)[4], uint8_t *out, uint32_t n)
{
	uint32_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < 4; k++)
			slh_put_be32(out + i * SLH_N + 4u * k, x[i][k]);
}
/* T_l streamed: start, absorb l n-byte blocks in order, finish. */
void slh_T_start(const struct slh_ctx *ctx, const struct slh_adrs *adrs, struct ota_sha256 *t);
void slh_T_finish(struct ota_sha256 *t, uint8_t out[SLH_N]);
void slh_PRF_msg(const uint8_t sk_prf[SLH_N], const uint8_t opt_rand[SLH_N],
		 const struct slh_msg *msg, uint8_t out[SLH_N]);
void slh_H_msg(const uint8_t r[SLH_N], const uint8_t pk[OTA_SLHDSA_PK_BYTES],
	       const struct slh_msg *msg, uint8_t out[SLH_M]);

/* slhdsa_wots.c: FIPS 205 Algorithms 6-8. */
void slh_wots_pkgen(const struct slh_ctx *ctx, const struct slh_adrs *adrs, uint8_t pk[SLH_N]);
void slh_wots_sign(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
		   const uint8_t msg[SLH_N], uint8_t sig[SLH_WOTS_SIG_BYTES]);
void slh_wots_pk_from_sig(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
			  const uint8_t sig[SLH_WOTS_SIG_BYTES], const uint8_t msg[SLH_N],
			  uint8_t pk[SLH_N]);

/*
 * slhdsa_treehash.c: one pass over the 2^height leaves of a Merkle tree
 * that yields its root and, for leaf `leaf_idx`, the authentication path
 * (FIPS 205 xmss_node / fors_node, without recursion). `leaf` computes
 * leaves first .. first + count - 1 (count <= SLH_LEAF_BATCH, so a leaf
 * function can hash a batch as lanes); `node_adrs` is the caller's
 * address with type already set, whose height and index words the pass
 * overwrites; `index_base` offsets the tree index (FORS trees share one
 * index space). auth may be NULL.
 */
#define SLH_LEAF_BATCH SLH_LANES
typedef void (*slh_leaf_fn)(const struct slh_ctx *ctx, uint32_t first, uint32_t count, void *arg,
			    uint8_t (*out)[SLH_N]);
void slh_treehash(const struct slh_ctx *ctx, struct slh_adrs *node_adrs, uint32_t height,
		  uint32_t index_base, uint32_t leaf_idx, slh_leaf_fn leaf, void *arg,
		  uint8_t root[SLH_N], uint8_t *auth);
/* Root from a leaf and its authentication path (Algorithms 11 and 17). */
void slh_root_from_auth(const struct slh_ctx *ctx, struct slh_adrs *node_adrs, uint32_t height,
			uint32_t index_base, uint32_t leaf_idx, const uint8_t leaf[SLH_N],
			const uint8_t *auth, uint8_t root[SLH_N]);

/* slhdsa_xmss.c: FIPS 205 Algorithms 9-13. */
void slh_xmss_sign(const struct slh_ctx *ctx, struct slh_adrs *adrs, uint32_t idx,
		   const uint8_t msg[SLH_N], uint8_t sig[SLH_XMSS_SIG_BYTES],
		   uint8_t root[SLH_N]);
void slh_xmss_pk_from_sig(const struct slh_ctx *ctx, struct slh_adrs *adrs, uint32_t idx,
			  const uint8_t sig[SLH_XMSS_SIG_BYTES], const uint8_t msg[SLH_N],
			  uint8_t root[SLH_N]);
/* PK.root: the root of the single XMSS tree at layer d - 1. */
void slh_xmss_top_root(const struct slh_ctx *ctx, uint8_t root[SLH_N]);
void slh_ht_sign(const struct slh_ctx *ctx, const uint8_t msg[SLH_N], uint64_t idx_tree,
		 uint32_t idx_leaf, uint8_t sig[SLH_HT_SIG_BYTES]);
/* Returns the recomputed root; the caller compares it with PK.root. */
void slh_ht_root(const struct slh_ctx *ctx, const uint8_t msg[SLH_N],
		 const uint8_t sig[SLH_HT_SIG_BYTES], uint64_t idx_tree, uint32_t idx_leaf,
		 uint8_t root[SLH_N]);

/* slhdsa_fors.c: FIPS 205 Algorithms 14-17. */
void slh_fors_sign(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
		   const uint8_t md[SLH_MD_BYTES], uint8_t sig[SLH_FORS_SIG_BYTES],
		   uint8_t pk[SLH_N]);
void slh_fors_pk_from_sig(const struct slh_ctx *ctx, const struct slh_adrs *adrs,
			  const uint8_t sig[SLH_FORS_SIG_BYTES], const uint8_t md[SLH_MD_BYTES],
			  uint8_t pk[SLH_N]);

/*
 * base_2b (FIPS 205 Algorithm 4): out_len digits of b bits each from x,
 * most significant first. Every digit is < 2^b by construction, which
 * is what bounds the chain lengths and tree indices taken from a
 * signature or digest. x must hold ceil(out_len * b / 8) bytes.
 */
static inline void slh_base_2b(const uint8_t *x, unsigned int b, unsigned int out_len,
			       uint32_t *out)
{
	uint32_t total = 0;
	unsigned int bits = 0, in = 0, i;

	for (i = 0; i < out_len; i++) {
		while (bits < b) {
			total = (total << 8) | x[in++];
			bits += 8;
		}
		bits -= b;
		out[i] = (total >> bits) & ((1u << b) - 1u);
	}
}

#endif /* OTATTEST_SLHDSA_INTERNAL_H */
