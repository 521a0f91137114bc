/* SPDX-License-Identifier: MIT */
/*
 * The SHA-256 compression function behind ota_sha256 and SLH-DSA, private
 * to libotattest/src/core (and the tests and benchmarks that measure it).
 *
 * Entry points by the kind of work, so the backend can pick the fastest
 * way to do it on this CPU:
 *
 *   ota_sha256_compress        n consecutive blocks of one message, one
 *                              chain (every block depends on the last);
 *   ota_sha256_finish_trunc16  the last block of a short message and 16
 *                              bytes of its digest;
 *   ota_sha256_compress_lanes  up to 16 independent (state, block) pairs:
 *                              lanes that multi-buffer code runs side by
 *                              side.
 *
 * Which backend exists is decided when the library is built: an x86-64
 * build also compiles sha256_x86.c (SHA extensions, AVX2 and AVX-512, each
 * used only when the CPU reports it at run time); every other build
 * (rv32imc firmware among them) has only the portable C in sha256.c.
 */
#ifndef OTATTEST_SHA256_BACKEND_H
#define OTATTEST_SHA256_BACKEND_H

#include "otattest/types.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
	!defined(OTA_SHA256_PORTABLE_ONLY)
#define OTA_SHA256_X86 1
#else
#define OTA_SHA256_X86 0
#endif

#define OTA_SHA256_BLOCK_BYTES 64u

void ota_sha256_compress(uint32_t h[8], const uint8_t *blocks, size_t n);
/*
 * SHA-256 finished from the state h after done_len bytes (a multiple of
 * 64): the rest of the message is a (a_len bytes) then b (b_len bytes),
 * with a_len + b_len <= 55 so that it and the padding fill one block; the
 * digest's first 16 bytes (state words 0..3, big-endian) go to out, h is
 * not changed. This is the whole of SLH-DSA's F, H and PRF after their
 * midstate (a = ADRSc, b = the input), and an accelerated backend lays
 * that block out in registers: bytes just stored (the last call's output,
 * the address word just set) are read back by loads the CPU can forward
 * from those stores, instead of by the wider loads of a block in memory.
 */
void ota_sha256_finish_trunc16(const uint32_t h[8], uint64_t done_len, const uint8_t *a,
			       size_t a_len, const uint8_t *b, size_t b_len, uint8_t out[16]);

/*
 * Lanes are word-major, so vector code loads one word of every lane at
 * once and nothing is gathered or transposed: h[i][j] is state word i of
 * lane j, w[t][j] message word t of lane j's block, as the number FIPS
 * 180-4 calls W_t (the block's bytes t*4..t*4+3 read big-endian). Callers
 * that make their blocks from words (SLH-DSA) never swap bytes at all.
 * ota_sha256_compress_lanes compresses lanes 0..n-1 (n <= 16) in place;
 * other lanes are neither read nor written.
 */
#define OTA_SHA256_LANES 16u
struct ota_sha256_lanes {
	_Alignas(64) uint32_t h[8][OTA_SHA256_LANES];
	uint32_t w[16][OTA_SHA256_LANES];
};
void ota_sha256_compress_lanes(struct ota_sha256_lanes *l, unsigned int n);

/* The round constants K0..K63 (sha256.c). */
extern const uint32_t ota_sha256_k[64];

/* The portable C compressions (sha256.c); every build has them. */
void ota_sha256_compress_portable(uint32_t h[8], const uint8_t *blocks, size_t n);
void ota_sha256_finish_trunc16_portable(const uint32_t h[8], uint64_t done_len,
					const uint8_t *a, size_t a_len, const uint8_t *b,
					size_t b_len, uint8_t out[16]);
void ota_sha256_compress_lanes_portable(struct ota_sha256_lanes *l, unsigned int from,
					unsigned int n);

/*
 * Implementations, as bits of a set. PORTABLE is always there; the others
 * exist in x86-64 builds and are used when the CPU (and the OS, for the
 * AVX register state) supports them. SHANI serves both entry points;
 * AVX2 (8 lanes) and AVX512 (16 lanes) only the lanes.
 */
enum ota_sha256_impl {
	OTA_SHA256_IMPL_PORTABLE = 1u << 0,
	OTA_SHA256_IMPL_SHANI = 1u << 1,
	OTA_SHA256_IMPL_AVX2 = 1u << 2,
	OTA_SHA256_IMPL_AVX512 = 1u << 3,
};

/* The implementations this build has and this CPU can run. */
unsigned int ota_sha256_impls_available(void);
/* The ones in use: what is available within the last ota_sha256_impls_limit mask. */
unsigned int ota_sha256_impls_active(void);
/*
 * For tests and benchmarks only, never while other threads hash: use at
 * most the implementations in mask (PORTABLE is always kept). Returns the
 * previous mask; ~0u lifts the limit.
 */
unsigned int ota_sha256_impls_limit(unsigned int mask);

#endif /* OTATTEST_SHA256_BACKEND_H */
