// SPDX-License-Identifier: MIT
/*
 * ota_sha256 against the FIPS 180-4 example vectors, against OpenSSL's
 * EVP SHA-256 over many lengths and update splits, and ota_ct_equal.
 */
#include <check.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otu/hex.h>

#include "otattest/sha256.h"
#include "tu_main.h"

static void check_digest(const void *msg, size_t len, const char *hex)
{
	uint8_t want[32], got[32];

	ck_assert_int_eq(otu_hex_decode(hex, want, sizeof(want)), (ssize_t)sizeof(want));
	ota_sha256(msg, len, got);
	ck_assert_mem_eq(got, want, sizeof(want));
}

/* FIPS 180-4 / NIST CSRC "SHA256.pdf" examples. */
START_TEST(test_fips_short_vectors)
{
	check_digest("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check_digest("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* 448 bits: the padding no longer fits, so finalisation takes two blocks. */
	check_digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
		     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	check_digest("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
		     "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		     112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}
END_TEST

START_TEST(test_fips_million_a)
{
	static const char *want = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
	uint8_t chunk[1000], got[32], exp[32];
	struct ota_sha256 c;
	int i;

	memset(chunk, 'a', sizeof(chunk));
	ota_sha256_init(&c);
	for (i = 0; i < 1000; i++)
		ota_sha256_update(&c, chunk, sizeof(chunk));
	ota_sha256_final(&c, got);
	ck_assert_int_eq(otu_hex_decode(want, exp, sizeof(exp)), (ssize_t)sizeof(exp));
	ck_assert_mem_eq(got, exp, sizeof(exp));
}
END_TEST

/* Deterministic generator so a failure reproduces; not for secrets. */
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

static void openssl_sha256(const uint8_t *msg, size_t len, uint8_t out[32])
{
	unsigned int out_len = 0;

	ck_assert_int_eq(EVP_Digest(msg, len, out, &out_len, EVP_sha256(), NULL), 1);
	ck_assert_uint_eq(out_len, 32);
}

/*
 * Every length from 0 to 300 (all padding boundaries, one to four
 * blocks) and 500 random lengths up to 20000, each hashed in random
 * pieces (zero-length pieces included) and compared with OpenSSL.
 */
START_TEST(test_against_openssl_split_updates)
{
	enum { MAX_LEN = 20000 };
	uint8_t *msg = malloc(MAX_LEN);
	int iter;

	ck_assert_ptr_nonnull(msg);
	rng_state = 0x9e3779b97f4a7c15ull;
	for (iter = 0; iter < 801; iter++) {
		size_t len = iter <= 300 ? (size_t)iter : (size_t)(rng_next() % (MAX_LEN + 1));
		uint8_t want[32], got[32], once[32];
		struct ota_sha256 c;
		size_t off = 0, i;

		for (i = 0; i < len; i++)
			msg[i] = (uint8_t)rng_next();
		openssl_sha256(msg, len, want);

		ota_sha256(msg, len, once);
		ck_assert_msg(memcmp(once, want, 32) == 0, "one-shot mismatch at length %zu", len);

		ota_sha256_init(&c);
		while (off < len) {
			/* Mostly short pieces so the partial-block paths run often. */
			size_t piece = (size_t)(rng_next() % ((rng_next() & 1) ? 70u : 300u));

			if (piece > len - off)
				piece = len - off;
			ota_sha256_update(&c, msg + off, piece);
			off += piece;
		}
		ota_sha256_update(&c, msg, 0);
		ota_sha256_final(&c, got);
		ck_assert_msg(memcmp(got, want, 32) == 0, "split-update mismatch at length %zu",
			      len);
	}
	free(msg);
}
END_TEST

/* A copied context continues independently: SLH-DSA relies on this. */
START_TEST(test_context_copy_is_midstate)
{
	uint8_t block[64], tail[40], want[32], got1[32], got2[32], both[104];
	struct ota_sha256 base, a, b;

	memset(block, 0x5a, sizeof(block));
	memset(tail, 0xa5, sizeof(tail));
	ota_sha256_init(&base);
	ota_sha256_update(&base, block, sizeof(block));

	a = base;
	ota_sha256_update(&a, tail, sizeof(tail));
	ota_sha256_final(&a, got1);
	b = base;
	ota_sha256_update(&b, tail, sizeof(tail));
	ota_sha256_final(&b, got2);

	memcpy(both, block, 64);
	memcpy(both + 64, tail, 40);
	openssl_sha256(both, sizeof(both), want);
	ck_assert_mem_eq(got1, want, 32);
	ck_assert_mem_eq(got2, want, 32);
}
END_TEST

START_TEST(test_final_wipes_context)
{
	struct ota_sha256 c, zero;
	uint8_t out[32];

	ota_sha256_init(&c);
	ota_sha256_update(&c, "secret seed material", 20);
	ota_sha256_final(&c, out);
	memset(&zero, 0, sizeof(zero));
	ck_assert_mem_eq(&c, &zero, sizeof(c));
}
END_TEST

START_TEST(test_ct_equal)
{
	uint8_t a[64], b[64];
	size_t i;

	for (i = 0; i < sizeof(a); i++)
		a[i] = b[i] = (uint8_t)(i * 7 + 1);
	ck_assert(ota_ct_equal(a, b, sizeof(a)));
	ck_assert(ota_ct_equal(a, b, 0));
	/* Any single differing bit, at any position, is seen. */
	for (i = 0; i < sizeof(a) * 8; i++) {
		b[i / 8] ^= (uint8_t)(1u << (i % 8));
		ck_assert_msg(!ota_ct_equal(a, b, sizeof(a)), "bit %zu missed", i);
		b[i / 8] ^= (uint8_t)(1u << (i % 8));
	}
	/* Differences past len are not looked at. */
	b[63] ^= 1;
	ck_assert(ota_ct_equal(a, b, 63));
	ck_assert(!ota_ct_equal(a, b, 64));
}
END_TEST

static Suite *sha256_suite(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fips_short_vectors);
	tcase_add_test(tc, test_fips_million_a);
	tcase_add_test(tc, test_against_openssl_split_updates);
	tcase_add_test(tc, test_context_copy_is_midstate);
	tcase_add_test(tc, test_final_wipes_context);
	tcase_add_test(tc, test_ct_equal);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(sha256_suite)
