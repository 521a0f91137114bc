// SPDX-License-Identifier: MIT
/*
 * The SHA-256 backends (libotattest/src/core/sha256_backend.h), each that
 * this CPU can run, forced in turn with ota_sha256_impls_limit: whole
 * messages and the short-message finish SLH-DSA uses against OpenSSL,
 * every lane count against the portable C on
 * the same blocks (and lanes past n untouched), and SLH-DSA signatures
 * byte-identical whichever backend made them, each verifying under every
 * other. A CPU without some backend runs the tests for those it has.
 */
#include <check.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/sha256.h"
#include "otattest/slhdsa.h"
#include "tu_main.h"
/* Internal: the backend under test. */
#include "../../libotattest/src/core/sha256_backend.h"

static const unsigned int masks[] = {
	OTA_SHA256_IMPL_PORTABLE,
	OTA_SHA256_IMPL_SHANI,
	OTA_SHA256_IMPL_AVX2,
	OTA_SHA256_IMPL_AVX512,
	OTA_SHA256_IMPL_SHANI | OTA_SHA256_IMPL_AVX2,
	OTA_SHA256_IMPL_SHANI | OTA_SHA256_IMPL_AVX512,
	~0u,
};
#define MASKS (sizeof(masks) / sizeof(masks[0]))

static bool mask_runs(unsigned int mask)
{
	return mask == ~0u || (ota_sha256_impls_available() & mask) == mask;
}

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

START_TEST(test_available_and_limit)
{
	unsigned int avail = ota_sha256_impls_available(), old;

	printf("sha256 backends on this CPU:%s%s%s%s\n",
	       (avail & OTA_SHA256_IMPL_PORTABLE) ? " portable" : "",
	       (avail & OTA_SHA256_IMPL_SHANI) ? " sha-ext" : "",
	       (avail & OTA_SHA256_IMPL_AVX2) ? " avx2" : "",
	       (avail & OTA_SHA256_IMPL_AVX512) ? " avx512" : "");
	ck_assert(avail & OTA_SHA256_IMPL_PORTABLE);
	ck_assert_uint_eq(ota_sha256_impls_active(), avail);
	/* The portable code is never limited away, and the limit comes off again. */
	old = ota_sha256_impls_limit(0);
	ck_assert_uint_eq(ota_sha256_impls_active(), OTA_SHA256_IMPL_PORTABLE);
	ck_assert_uint_eq(ota_sha256_impls_limit(old), 0);
	ck_assert_uint_eq(ota_sha256_impls_active(), avail);
}
END_TEST

/* Messages of 0..300 and some long lengths, one call and split, against OpenSSL. */
START_TEST(test_messages_against_openssl)
{
	static uint8_t msg[70000];
	unsigned int m;
	size_t len;

	rng_state = 0x2545f4914f6cdd1dull;
	for (len = 0; len < sizeof(msg); len++)
		msg[len] = (uint8_t)rng_next();
	for (m = 0; m < MASKS; m++) {
		if (!mask_runs(masks[m]))
			continue;
		ota_sha256_impls_limit(masks[m]);
		for (len = 0; len <= 300 || len == 1000 || len == 65536 || len == 69999;
		     len = len < 300 ? len + 1 : len == 300 ? 1000 : len == 1000 ? 65536 : 69999) {
			uint8_t want[32], got[32];
			unsigned int out_len = 0;
			struct ota_sha256 c;

			ck_assert_int_eq(EVP_Digest(msg, len, want, &out_len, EVP_sha256(), NULL), 1);
			ota_sha256(msg, len, got);
			ck_assert_msg(memcmp(got, want, 32) == 0, "mask %#x length %zu", masks[m], len);
			/* Blocks straight from the input and through the buffer, mixed. */
			ota_sha256_init(&c);
			ota_sha256_update(&c, msg, len / 3);
			ota_sha256_update(&c, msg + len / 3, len - len / 3);
			ota_sha256_final(&c, got);
			ck_assert_msg(memcmp(got, want, 32) == 0, "split, mask %#x length %zu", masks[m],
				      len);
			if (len == 69999)
				break;
		}
	}
	ota_sha256_impls_limit(~0u);
}
END_TEST

/*
 * ota_sha256_finish_trunc16 against OpenSSL, under every backend: the
 * shapes an accelerated backend lays out in registers (22 + 16 and
 * 22 + 32 bytes after one block: SLH-DSA's F, PRF and H) and others
 * around them, for random contents.
 */
START_TEST(test_finish_trunc16_against_openssl)
{
	static const size_t shapes[][2] = { { 22, 16 }, { 22, 32 }, { 0, 0 },  { 22, 0 },
					    { 0, 16 },  { 21, 16 }, { 23, 32 }, { 22, 33 },
					    { 55, 0 },  { 30, 25 } };
	uint8_t msg[64 + 56], want[32], got[16], out_guard[20];
	uint32_t iv[8], h[8];
	unsigned int m, k, rep;

	rng_state = 0x51ed2701a5a5a5a5ull;
	for (m = 0; m < MASKS; m++) {
		if (!mask_runs(masks[m]))
			continue;
		ota_sha256_impls_limit(masks[m]);
		for (k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++)
			for (rep = 0; rep < 20; rep++) {
				size_t a_len = shapes[k][0], b_len = shapes[k][1], i;
				unsigned int out_len = 0;
				struct ota_sha256 c;

				for (i = 0; i < sizeof(msg); i++)
					msg[i] = (uint8_t)rng_next();
				ck_assert_int_eq(EVP_Digest(msg, 64 + a_len + b_len, want, &out_len,
							    EVP_sha256(), NULL),
						 1);
				/* The state after the first block, as SLH-DSA's midstate. */
				ota_sha256_init(&c);
				ota_sha256_update(&c, msg, 64);
				memcpy(iv, c.h, sizeof(iv));
				memcpy(h, iv, sizeof(h));
				memset(out_guard, 0x5a, sizeof(out_guard));
				ota_sha256_finish_trunc16(h, 64, msg + 64, a_len, msg + 64 + a_len, b_len,
							  out_guard + 2);
				memcpy(got, out_guard + 2, 16);
				ck_assert_msg(memcmp(got, want, 16) == 0, "mask %#x shape %zu+%zu",
					      masks[m], a_len, b_len);
				ck_assert(out_guard[0] == 0x5a && out_guard[1] == 0x5a &&
					  out_guard[18] == 0x5a && out_guard[19] == 0x5a);
				ck_assert_mem_eq(h, iv, sizeof(h)); /* the state is not changed */
			}
		/* In place: the output overwrites the input it was made from. */
		for (k = 0; k < 16; k++)
			msg[64 + 22 + k] = (uint8_t)(k * 3);
		ck_assert_int_eq(EVP_Digest(msg, 64 + 22 + 16, want, NULL, EVP_sha256(), NULL), 1);
		ota_sha256_finish_trunc16(iv, 64, msg + 64, 22, msg + 64 + 22, 16, msg + 64 + 22);
		ck_assert_mem_eq(msg + 64 + 22, want, 16);
	}
	ota_sha256_impls_limit(~0u);
}
END_TEST

static uint32_t load_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/*
 * Every lane count 0..16 under every backend: lanes 0..n-1 compressed as
 * the portable code compresses the same block from the same state, lanes
 * n..15 (state and words) exactly as they were.
 */
START_TEST(test_lanes_every_count)
{
	struct ota_sha256_lanes l, before;
	uint8_t block[16][64];
	unsigned int m, n, i, j, t;

	rng_state = 0x9e3779b97f4a7c15ull;
	for (m = 0; m < MASKS; m++) {
		if (!mask_runs(masks[m]))
			continue;
		ota_sha256_impls_limit(masks[m]);
		for (n = 0; n <= 16; n++) {
			for (j = 0; j < 16; j++) {
				for (t = 0; t < 64; t++)
					block[j][t] = (uint8_t)rng_next();
				for (t = 0; t < 16; t++)
					l.w[t][j] = load_be32(block[j] + 4 * t);
				for (i = 0; i < 8; i++)
					l.h[i][j] = (uint32_t)rng_next();
			}
			before = l;
			ota_sha256_compress_lanes(&l, n);
			for (j = 0; j < 16; j++) {
				uint32_t h[8];

				for (i = 0; i < 8; i++)
					h[i] = before.h[i][j];
				if (j < n)
					ota_sha256_compress_portable(h, block[j], 1);
				for (i = 0; i < 8; i++)
					ck_assert_msg(l.h[i][j] == h[i], "mask %#x n %u lane %u word %u",
						      masks[m], n, j, i);
				for (t = 0; t < 16; t++)
					ck_assert_uint_eq(l.w[t][j], before.w[t][j]);
			}
		}
	}
	ota_sha256_impls_limit(~0u);
}
END_TEST

/*
 * SLH-DSA over every backend: the deterministic signature is the same
 * bytes (signing runs its hashes as lanes, verifying one by one), and
 * verifies under every backend.
 */
START_TEST(test_slhdsa_same_under_every_backend)
{
	static uint8_t sig[MASKS][OTA_SLHDSA_SIG_BYTES];
	uint8_t seeds[48], pk[OTA_SLHDSA_PK_BYTES], sk[OTA_SLHDSA_SK_BYTES], msg[100];
	unsigned int m, v, ref = MASKS;

	for (m = 0; m < sizeof(seeds); m++)
		seeds[m] = (uint8_t)(m * 13 + 5);
	memset(msg, 0x42, sizeof(msg));
	for (m = 0; m < MASKS; m++) {
		uint8_t pk_m[OTA_SLHDSA_PK_BYTES], sk_m[OTA_SLHDSA_SK_BYTES];

		if (!mask_runs(masks[m]))
			continue;
		ota_sha256_impls_limit(masks[m]);
		ota_slhdsa_keygen(seeds, seeds + 16, seeds + 32, pk_m, sk_m);
		ota_slhdsa_sign(sk_m, msg, sizeof(msg), NULL, sig[m]);
		if (ref == MASKS) {
			ref = m;
			memcpy(pk, pk_m, sizeof(pk));
			memcpy(sk, sk_m, sizeof(sk));
		}
		ck_assert_msg(memcmp(pk_m, pk, sizeof(pk)) == 0 && memcmp(sk_m, sk, sizeof(sk)) == 0,
			      "keys differ under mask %#x", masks[m]);
		ck_assert_msg(memcmp(sig[m], sig[ref], sizeof(sig[m])) == 0,
			      "signature differs under mask %#x", masks[m]);
	}
	for (v = 0; v < MASKS; v++) {
		if (!mask_runs(masks[v]))
			continue;
		ota_sha256_impls_limit(masks[v]);
		ck_assert_uint_eq(ota_slhdsa_verify(pk, msg, sizeof(msg), sig[ref]), OTA_OK);
		msg[7] ^= 1;
		ck_assert_uint_eq(ota_slhdsa_verify(pk, msg, sizeof(msg), sig[ref]),
				  OTA_SLHDSA_INVALID);
		msg[7] ^= 1;
	}
	ota_sha256_impls_limit(~0u);
}
END_TEST

static Suite *backend_suite(void)
{
	Suite *s = suite_create("sha256-backend");
	TCase *tc = tcase_create("core");

	/* Signing once per backend, portable C and ASan included. */
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_available_and_limit);
	tcase_add_test(tc, test_messages_against_openssl);
	tcase_add_test(tc, test_finish_trunc16_against_openssl);
	tcase_add_test(tc, test_lanes_every_count);
	tcase_add_test(tc, test_slhdsa_same_under_every_backend);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(backend_suite)
