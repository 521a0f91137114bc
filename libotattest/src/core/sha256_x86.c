// SPDX-License-Identifier: MIT
/*
 * The x86-64 SHA-256 backend (sha256_backend.h): the compression function
 * with the CPU's SHA extensions, and multi-buffer compression of 8 (AVX2)
 * or 16 (AVX-512) independent lanes, each chosen at run time from what
 * CPUID says the CPU and the OS support; the portable C in sha256.c is the
 * fallback. Only x86-64 builds compile anything here: the rv32imc firmware
 * build and any other target get the portable code alone.
 *
 * Each function carries its own target attribute, so the library itself
 * is still built for the baseline x86-64 ISA and no instruction beyond it
 * runs unless CPUID said it may.
 *
 * Measured on the bench machine (Xeon, Sapphire Rapids class; make
 * bench-slhdsa prints the same figures): a block costs about 250 ns in the
 * portable code, 32-37 ns with the SHA extensions (one chain or independent
 * blocks alike: the SHA unit's throughput, not its latency, is the limit,
 * so interleaving two chains gained nothing and is not done), 21 ns per
 * lane with AVX-512 over 16 lanes and 47 ns per lane with AVX2 over 8.
 * So lanes go 16 at a time through AVX-512 and the rest through the SHA
 * extensions; AVX2 is used only on CPUs without SHA extensions.
 */
#include "sha256_backend.h"

#if OTA_SHA256_X86

#include <cpuid.h>
#include <immintrin.h>
#include <string.h>

/* ---- run-time choice ------------------------------------------------------ */

/* What the CPU offers, probed once; 0 until then. Relaxed atomics: every
 * thread that probes computes the same value. */
static unsigned int impls_cpu;
/* ota_sha256_impls_limit's mask, and the set in use (0: not computed yet). */
static unsigned int impls_mask = ~0u;
static unsigned int impls_in_use;

/* XCR0: which register states the OS saves, so AVX code may run. */
static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static unsigned int probe(void)
{
	unsigned int a, b, c, d, max, found = OTA_SHA256_IMPL_PORTABLE;
	bool sse41, osxsave;
	uint64_t xcr0 = 0;

	max = __get_cpuid_max(0, NULL);
	if (max < 7 || !__get_cpuid(1, &a, &b, &c, &d))
		return found;
	sse41 = (c & bit_SSSE3) && (c & bit_SSE4_1);
	osxsave = (c & bit_OSXSAVE) != 0;
	if (osxsave)
		xcr0 = xgetbv0();
	__cpuid_count(7, 0, a, b, c, d);
	if ((b & bit_SHA) && sse41)
		found |= OTA_SHA256_IMPL_SHANI;
	/* YMM needs XCR0 bits 1-2; ZMM also 5-7 (opmask, upper halves, high registers). */
	if ((b & bit_AVX2) && (xcr0 & 0x06) == 0x06)
		found |= OTA_SHA256_IMPL_AVX2;
	if ((b & bit_AVX512F) && (xcr0 & 0xe6) == 0xe6)
		found |= OTA_SHA256_IMPL_AVX512;
	return found;
}

unsigned int ota_sha256_impls_available(void)
{
	unsigned int v = __atomic_load_n(&impls_cpu, __ATOMIC_RELAXED);

	if (v == 0) {
		v = probe();
		__atomic_store_n(&impls_cpu, v, __ATOMIC_RELAXED);
	}
	return v;
}

static unsigned int impls(void)
{
	unsigned int v = __atomic_load_n(&impls_in_use, __ATOMIC_RELAXED);

	if (v == 0) {
		v = ota_sha256_impls_available() &
		    (__atomic_load_n(&impls_mask, __ATOMIC_RELAXED) | OTA_SHA256_IMPL_PORTABLE);
		__atomic_store_n(&impls_in_use, v, __ATOMIC_RELAXED);
	}
	return v;
}

unsigned int ota_sha256_impls_active(void)
{
	return impls();
}

unsigned int ota_sha256_impls_limit(unsigned int mask)
{
	unsigned int old = __atomic_exchange_n(&impls_mask, mask, __ATOMIC_RELAXED);

	__atomic_store_n(&impls_in_use, 0, __ATOMIC_RELAXED);
	return old;
}

/* ---- SHA extensions ------------------------------------------------------- */

#define SHANI_FN __attribute__((target("sha,ssse3,sse4.1")))
#define SHANI_INLINE static inline __attribute__((always_inline, target("sha,ssse3,sse4.1")))

/* Four big-endian message words of a block, as the SHA instructions want them. */
SHANI_INLINE __m128i shani_load_be(const uint8_t *p)
{
	const __m128i swap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);

	return _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p), swap);
}

/*
 * Rounds 4g..4g+3. SHA256RNDS2 runs two rounds on the state split as
 * (A, B, E, F) and (C, D, G, H) and returns the new (A, B, E, F); after two
 * rounds the old (A, B, E, F) is the new (C, D, G, H), so the two halves
 * trade places each call and are back in place after four rounds.
 */
SHANI_INLINE void shani_rounds4(__m128i *abef, __m128i *cdgh, __m128i w, unsigned int g)
{
	__m128i wk = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *)&ota_sha256_k[4u * g]));

	*cdgh = _mm_sha256rnds2_epu32(*cdgh, *abef, wk);
	*abef = _mm_sha256rnds2_epu32(*abef, *cdgh, _mm_shuffle_epi32(wk, 0x0e));
}

/*
 * W[t..t+3] from the four groups before: MSG1 adds s0(W[t-15]) to W[t-16],
 * the alignment supplies W[t-7], MSG2 adds s1(W[t-2]) (computing the two
 * words it needs from the group itself).
 */
SHANI_INLINE __m128i shani_schedule(__m128i w16, __m128i w12, __m128i w8, __m128i w4)
{
	__m128i x = _mm_add_epi32(_mm_sha256msg1_epu32(w16, w12), _mm_alignr_epi8(w4, w8, 4));

	return _mm_sha256msg2_epu32(x, w4);
}

/* The state as the SHA instructions split it: (A, B, E, F) and (C, D, G, H). */
SHANI_INLINE void shani_state_in(const uint32_t h[8], __m128i *abef, __m128i *cdgh)
{
	*abef = _mm_set_epi32((int)h[0], (int)h[1], (int)h[4], (int)h[5]);
	*cdgh = _mm_set_epi32((int)h[2], (int)h[3], (int)h[6], (int)h[7]);
}

SHANI_INLINE void shani_state_out(uint32_t h[8], __m128i abef, __m128i cdgh)
{
	h[0] = (uint32_t)_mm_extract_epi32(abef, 3);
	h[1] = (uint32_t)_mm_extract_epi32(abef, 2);
	h[4] = (uint32_t)_mm_extract_epi32(abef, 1);
	h[5] = (uint32_t)_mm_extract_epi32(abef, 0);
	h[2] = (uint32_t)_mm_extract_epi32(cdgh, 3);
	h[3] = (uint32_t)_mm_extract_epi32(cdgh, 2);
	h[6] = (uint32_t)_mm_extract_epi32(cdgh, 1);
	h[7] = (uint32_t)_mm_extract_epi32(cdgh, 0);
}

/* The 64 rounds of one block whose first 16 message words are w0..w3. */
SHANI_INLINE void shani_block(__m128i *abef, __m128i *cdgh, __m128i w0, __m128i w1, __m128i w2,
			      __m128i w3)
{
	__m128i abef0 = *abef, cdgh0 = *cdgh;
	unsigned int g;

	shani_rounds4(abef, cdgh, w0, 0);
	shani_rounds4(abef, cdgh, w1, 1);
	shani_rounds4(abef, cdgh, w2, 2);
	shani_rounds4(abef, cdgh, w3, 3);
	for (g = 4; g < 16; g++) {
		__m128i w4 = shani_schedule(w0, w1, w2, w3);

		shani_rounds4(abef, cdgh, w4, g);
		w0 = w1;
		w1 = w2;
		w2 = w3;
		w3 = w4;
	}
	*abef = _mm_add_epi32(*abef, abef0);
	*cdgh = _mm_add_epi32(*cdgh, cdgh0);
}

SHANI_FN static void shani_compress(uint32_t h[8], const uint8_t *p, size_t n)
{
	__m128i abef, cdgh;

	shani_state_in(h, &abef, &cdgh);
	for (; n != 0; n--, p += OTA_SHA256_BLOCK_BYTES)
		shani_block(&abef, &cdgh, shani_load_be(p), shani_load_be(p + 16),
			    shani_load_be(p + 32), shani_load_be(p + 48));
	shani_state_out(h, abef, cdgh);
}

/* The digest's first four words, big-endian, with one 16-byte store. */
SHANI_INLINE void shani_store_trunc16(uint8_t out[16], __m128i abef, __m128i cdgh)
{
	const __m128i swap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
	/* (A, B, E, F) and (C, D, G, H) give (B, A, D, C) from their high halves. */
	__m128i badc = _mm_unpackhi_epi64(abef, cdgh);

	_mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(_mm_shuffle_epi32(badc, 0xb1), swap));
}

/*
 * The last block of a 64 + 22 + 16 (or + 32) byte message, laid out in
 * registers: a's bytes 0..15 with one load, its bytes 16..21 with a 2-byte
 * and a 4-byte load (SLH-DSA has just set bytes 18..21, the hash address,
 * with one 4-byte store: a load of exactly those bytes is forwarded from
 * the store, a wider one would wait for it to reach the cache), b with
 * 16-byte loads (the last call's output, stored the same way). Then the
 * padding: 0x80 after b, zeros, the length in bits.
 */
SHANI_FN static void shani_finish_slh(const uint32_t h[8], uint64_t done_len, const uint8_t *a,
				      const uint8_t *b, size_t b_len, uint8_t out[16])
{
	const __m128i swap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
	uint64_t bits = (done_len + 22u + b_len) * 8u;
	uint16_t a16;
	uint32_t a18;
	__m128i abef, cdgh, atail, b0, c1, c2, c3;

	memcpy(&a16, a + 16, sizeof(a16));
	memcpy(&a18, a + 18, sizeof(a18));
	atail = _mm_cvtsi64_si128((long long)((uint64_t)a16 | (uint64_t)a18 << 16));
	b0 = _mm_loadu_si128((const __m128i *)b);
	/* bytes 16..31: a[16..21], b[0..9] */
	c1 = _mm_or_si128(atail, _mm_slli_si128(b0, 6));
	if (b_len == 16u) {
		/* bytes 32..47: b[10..15], 0x80, zeros; 48..63: zeros, the length */
		c2 = _mm_or_si128(_mm_srli_si128(b0, 10), _mm_set_epi32(0, 0, 0x800000, 0) );
		c3 = _mm_set_epi64x((long long)__builtin_bswap64(bits), 0);
	} else {
		__m128i b1 = _mm_loadu_si128((const __m128i *)(b + 16));

		/* bytes 32..47: b[10..25]; 48..63: b[26..31], 0x80, zero, the length */
		c2 = _mm_alignr_epi8(b1, b0, 10);
		c3 = _mm_or_si128(_mm_srli_si128(b1, 10),
				  _mm_set_epi64x((long long)__builtin_bswap64(bits), 0x80000000000000ll));
	}
	shani_state_in(h, &abef, &cdgh);
	shani_block(&abef, &cdgh, _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)a), swap),
		    _mm_shuffle_epi8(c1, swap), _mm_shuffle_epi8(c2, swap),
		    _mm_shuffle_epi8(c3, swap));
	shani_store_trunc16(out, abef, cdgh);
}

/* Lanes one by one: the SHA unit's throughput is the same either way. */
SHANI_FN static void shani_lanes(struct ota_sha256_lanes *l, unsigned int from, unsigned int n)
{
	unsigned int i, j;

	for (j = from; j < n; j++) {
		__m128i abef, cdgh, w[4];
		uint32_t h[8];

		for (i = 0; i < 8; i++)
			h[i] = l->h[i][j];
		for (i = 0; i < 4; i++)
			w[i] = _mm_setr_epi32((int)l->w[4 * i][j], (int)l->w[4 * i + 1][j],
					      (int)l->w[4 * i + 2][j], (int)l->w[4 * i + 3][j]);
		shani_state_in(h, &abef, &cdgh);
		shani_block(&abef, &cdgh, w[0], w[1], w[2], w[3]);
		shani_state_out(h, abef, cdgh);
		for (i = 0; i < 8; i++)
			l->h[i][j] = h[i];
	}
}

/* ---- AVX-512: 16 lanes ---------------------------------------------------- */

/*
 * One lane per 32-bit element: vector i of the state holds word i of 16
 * states, vector t of the schedule word t of 16 blocks, each loaded whole
 * from the word-major lanes. AVX-512F has the rotate (VPRORD) and
 * three-input logic (VPTERNLOGD: 0x96 is a ^ b ^ c, 0xca is Ch, 0xe8 Maj).
 */
#define AVX512_FN __attribute__((target("avx512f")))

#define X16_XOR3(a, b, c) _mm512_ternarylogic_epi32(a, b, c, 0x96)
#define X16_BSIG0(x) X16_XOR3(_mm512_ror_epi32(x, 2), _mm512_ror_epi32(x, 13), _mm512_ror_epi32(x, 22))
#define X16_BSIG1(x) X16_XOR3(_mm512_ror_epi32(x, 6), _mm512_ror_epi32(x, 11), _mm512_ror_epi32(x, 25))
#define X16_SSIG0(x) X16_XOR3(_mm512_ror_epi32(x, 7), _mm512_ror_epi32(x, 18), _mm512_srli_epi32(x, 3))
#define X16_SSIG1(x) X16_XOR3(_mm512_ror_epi32(x, 17), _mm512_ror_epi32(x, 19), _mm512_srli_epi32(x, 10))

AVX512_FN static void avx512_lanes16(struct ota_sha256_lanes *l, unsigned int n)
{
	/* Lanes n..15 are not the caller's: loaded as zero, never stored. */
	const __mmask16 used = (__mmask16)((1u << n) - 1u);
	__m512i w[16], in[8], v[8];
	unsigned int t, i;

	for (i = 0; i < 8; i++)
		in[i] = v[i] = _mm512_maskz_loadu_epi32(used, l->h[i]);
	for (t = 0; t < 16; t++)
		w[t] = _mm512_maskz_loadu_epi32(used, l->w[t]);

	for (t = 0; t < 64; t++) {
		__m512i wt, t1, t2;

		if (t < 16) {
			wt = w[t];
		} else {
			wt = _mm512_add_epi32(
				_mm512_add_epi32(w[t & 15u], X16_SSIG0(w[(t - 15u) & 15u])),
				_mm512_add_epi32(w[(t - 7u) & 15u], X16_SSIG1(w[(t - 2u) & 15u])));
			w[t & 15u] = wt;
		}
		t1 = _mm512_add_epi32(
			_mm512_add_epi32(v[7], X16_BSIG1(v[4])),
			_mm512_add_epi32(_mm512_ternarylogic_epi32(v[4], v[5], v[6], 0xca),
					 _mm512_add_epi32(wt, _mm512_set1_epi32((int)ota_sha256_k[t]))));
		t2 = _mm512_add_epi32(X16_BSIG0(v[0]),
				      _mm512_ternarylogic_epi32(v[0], v[1], v[2], 0xe8));
		v[7] = v[6];
		v[6] = v[5];
		v[5] = v[4];
		v[4] = _mm512_add_epi32(v[3], t1);
		v[3] = v[2];
		v[2] = v[1];
		v[1] = v[0];
		v[0] = _mm512_add_epi32(t1, t2);
	}

	for (i = 0; i < 8; i++)
		_mm512_mask_storeu_epi32(l->h[i], used, _mm512_add_epi32(v[i], in[i]));
}

/* ---- AVX2: 8 lanes (no rotate, no three-input logic) ------------------------ */

#define AVX2_FN __attribute__((target("avx2")))

#define X8_ROR(x, n) _mm256_or_si256(_mm256_srli_epi32(x, n), _mm256_slli_epi32(x, 32 - (n)))
#define X8_XOR3(a, b, c) _mm256_xor_si256(_mm256_xor_si256(a, b), c)
#define X8_BSIG0(x) X8_XOR3(X8_ROR(x, 2), X8_ROR(x, 13), X8_ROR(x, 22))
#define X8_BSIG1(x) X8_XOR3(X8_ROR(x, 6), X8_ROR(x, 11), X8_ROR(x, 25))
#define X8_SSIG0(x) X8_XOR3(X8_ROR(x, 7), X8_ROR(x, 18), _mm256_srli_epi32(x, 3))
#define X8_SSIG1(x) X8_XOR3(X8_ROR(x, 17), X8_ROR(x, 19), _mm256_srli_epi32(x, 10))

/* Lanes from..from+7 (those below n). */
AVX2_FN static void avx2_lanes8(struct ota_sha256_lanes *l, unsigned int from, unsigned int n)
{
	const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	/* All ones in the elements of lanes below n: maskload/maskstore leave the rest. */
	const __m256i used = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n - from)), lane);
	__m256i w[16], in[8], v[8];
	unsigned int t, i;

	for (i = 0; i < 8; i++)
		in[i] = v[i] = _mm256_maskload_epi32((const int *)&l->h[i][from], used);
	for (t = 0; t < 16; t++)
		w[t] = _mm256_maskload_epi32((const int *)&l->w[t][from], used);

	for (t = 0; t < 64; t++) {
		__m256i wt, t1, t2, ch, maj;

		if (t < 16) {
			wt = w[t];
		} else {
			wt = _mm256_add_epi32(
				_mm256_add_epi32(w[t & 15u], X8_SSIG0(w[(t - 15u) & 15u])),
				_mm256_add_epi32(w[(t - 7u) & 15u], X8_SSIG1(w[(t - 2u) & 15u])));
			w[t & 15u] = wt;
		}
		ch = _mm256_xor_si256(_mm256_and_si256(v[4], v[5]), _mm256_andnot_si256(v[4], v[6]));
		maj = _mm256_or_si256(_mm256_and_si256(v[0], v[1]),
				      _mm256_and_si256(v[2], _mm256_or_si256(v[0], v[1])));
		t1 = _mm256_add_epi32(_mm256_add_epi32(v[7], X8_BSIG1(v[4])),
				      _mm256_add_epi32(ch, _mm256_add_epi32(
							       wt, _mm256_set1_epi32((int)ota_sha256_k[t]))));
		t2 = _mm256_add_epi32(X8_BSIG0(v[0]), maj);
		v[7] = v[6];
		v[6] = v[5];
		v[5] = v[4];
		v[4] = _mm256_add_epi32(v[3], t1);
		v[3] = v[2];
		v[2] = v[1];
		v[1] = v[0];
		v[0] = _mm256_add_epi32(t1, t2);
	}

	for (i = 0; i < 8; i++)
		_mm256_maskstore_epi32((int *)&l->h[i][from], used, _mm256_add_epi32(v[i], in[i]));
}

/* ---- the entry points ----------------------------------------------------- */

void ota_sha256_compress(uint32_t h[8], const uint8_t *blocks, size_t n)
{
	if (impls() & OTA_SHA256_IMPL_SHANI)
		shani_compress(h, blocks, n);
	else
		ota_sha256_compress_portable(h, blocks, n);
}

void ota_sha256_finish_trunc16(const uint32_t h[8], uint64_t done_len, const uint8_t *a,
			       size_t a_len, const uint8_t *b, size_t b_len, uint8_t out[16])
{
	if ((impls() & OTA_SHA256_IMPL_SHANI) && a_len == 22u && (b_len == 16u || b_len == 32u))
		shani_finish_slh(h, done_len, a, b, b_len, out);
	else
		ota_sha256_finish_trunc16_portable(h, done_len, a, a_len, b, b_len, out);
}

/*
 * Lanes by measured cost per lane (top of file): all 16 through AVX-512
 * when that beats the SHA extensions one by one, which at 21 against
 * 32-37 ns a lane it does from 11 lanes on (a 16-lane call costs the same
 * however many lanes are used). Without SHA extensions: AVX-512, else
 * AVX2 8 at a time (a single lane is cheaper in portable C).
 */
#define AVX512_MIN_LANES_WITH_SHANI 11u

void ota_sha256_compress_lanes(struct ota_sha256_lanes *l, unsigned int n)
{
	unsigned int use = impls(), from;

	if (n > OTA_SHA256_LANES)
		n = OTA_SHA256_LANES; /* the struct has no more */
	if (n == 0)
		return;
	if ((use & OTA_SHA256_IMPL_AVX512) &&
	    (!(use & OTA_SHA256_IMPL_SHANI) || n >= AVX512_MIN_LANES_WITH_SHANI)) {
		avx512_lanes16(l, n);
		return;
	}
	if (use & OTA_SHA256_IMPL_SHANI) {
		shani_lanes(l, 0, n);
		return;
	}
	if (use & OTA_SHA256_IMPL_AVX2) {
		for (from = 0; from < n && n - from >= 2; from += 8)
			avx2_lanes8(l, from, n);
		ota_sha256_compress_lanes_portable(l, from, n);
		return;
	}
	ota_sha256_compress_lanes_portable(l, 0, n);
}

#endif /* OTA_SHA256_X86 */
