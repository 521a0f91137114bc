// SPDX-License-Identifier: MIT
/*
 * SLH-DSA-SHA2-128s: FIPS 205 sizes and key layout, NIST ACVP key
 * generation vectors, sign/verify round trips, determinism, and rejection
 * of any change to message, signature or public key.
 *
 * Signing costs about half a second (several under ASan), so one key
 * pair and one signature are made once in main() and inherited by every
 * forked test; the tests that need more signatures make few.
 * Interop with an independent implementation is tests/interop/slhdsa.sh.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otu/hex.h>

#include "otattest/sha256.h"
#include "otattest/slhdsa.h"
#include "tu_main.h"

#define SIG_BYTES OTA_SLHDSA_SIG_BYTES

/* The shared fixture: made once before the tests fork. */
static struct {
	uint8_t seeds[48]; /* SK.seed || SK.prf || PK.seed */
	uint8_t pk[OTA_SLHDSA_PK_BYTES];
	uint8_t sk[OTA_SLHDSA_SK_BYTES];
	uint8_t msg[1000];
	uint8_t sig[SIG_BYTES]; /* deterministic signature of msg */
} fx;

static void fixture_make(void)
{
	size_t i;

	for (i = 0; i < sizeof(fx.seeds); i++)
		fx.seeds[i] = (uint8_t)(0xa0 + i);
	for (i = 0; i < sizeof(fx.msg); i++)
		fx.msg[i] = (uint8_t)(i * 31 + 7);
	ota_slhdsa_keygen(fx.seeds, fx.seeds + 16, fx.seeds + 32, fx.pk, fx.sk);
	ota_slhdsa_sign(fx.sk, fx.msg, sizeof(fx.msg), NULL, fx.sig);
}

START_TEST(test_fips205_sizes)
{
	/* FIPS 205 Table 2, SLH-DSA-SHA2-128s. */
	ck_assert_uint_eq(OTA_SLHDSA_PK_BYTES, 32);
	ck_assert_uint_eq(OTA_SLHDSA_SK_BYTES, 64);
	ck_assert_uint_eq(OTA_SLHDSA_SIG_BYTES, 7856);
	ck_assert_uint_eq(sizeof(fx.sig), 16 + 14 * (1 + 12) * 16 + (63 + 7 * 35) * 16);
}
END_TEST

/* Outputs are written exactly: nothing before or after the arrays is touched. */
START_TEST(test_writes_stay_in_bounds)
{
	static uint8_t sig_buf[SIG_BYTES + 64];
	uint8_t pk_buf[OTA_SLHDSA_PK_BYTES + 32], sk_buf[OTA_SLHDSA_SK_BYTES + 32];
	size_t i;

	memset(pk_buf, 0xee, sizeof(pk_buf));
	memset(sk_buf, 0xee, sizeof(sk_buf));
	memset(sig_buf, 0xee, sizeof(sig_buf));
	ota_slhdsa_keygen(fx.seeds, fx.seeds + 16, fx.seeds + 32, pk_buf + 16, sk_buf + 16);
	ota_slhdsa_sign(fx.sk, fx.msg, sizeof(fx.msg), NULL, sig_buf + 32);
	for (i = 0; i < 16; i++) {
		ck_assert_uint_eq(pk_buf[i], 0xee);
		ck_assert_uint_eq(pk_buf[16 + OTA_SLHDSA_PK_BYTES + i], 0xee);
		ck_assert_uint_eq(sk_buf[i], 0xee);
		ck_assert_uint_eq(sk_buf[16 + OTA_SLHDSA_SK_BYTES + i], 0xee);
	}
	for (i = 0; i < 32; i++) {
		ck_assert_uint_eq(sig_buf[i], 0xee);
		ck_assert_uint_eq(sig_buf[32 + SIG_BYTES + i], 0xee);
	}
	ck_assert_mem_eq(pk_buf + 16, fx.pk, OTA_SLHDSA_PK_BYTES);
	ck_assert_mem_eq(sig_buf + 32, fx.sig, SIG_BYTES);
}
END_TEST

/* sk = SK.seed || SK.prf || PK.seed || PK.root and pk = PK.seed || PK.root. */
START_TEST(test_key_layout)
{
	ck_assert_mem_eq(fx.sk, fx.seeds, 48);
	ck_assert_mem_eq(fx.sk + 32, fx.pk, 32);
}
END_TEST

/*
 * NIST ACVP-Server sample vectors (gen-val/json-files/
 * SLH-DSA-keyGen-FIPS205), parameter set SLH-DSA-SHA2-128s, tcId 1-3.
 */
START_TEST(test_acvp_keygen_vectors)
{
	static const struct {
		const char *sk_seed, *sk_prf, *pk_seed, *pk_root;
	} v[] = {
		{ "AA9CC7DCA491FC86BCB15A709A15E9B3", "905C800B6E2FB9B54B6B050EE5E4DE9A",
		  "FA5464D1C661FED38B2A51CA3EAE71BA", "CAE3D1865215E3D3850E8C1B8292BF42" },
		{ "6DA324B47C1D24DA378B55FCEA263FFD", "A361BFCBB9D323F810B0FFF854F22B89",
		  "A2F150C9E9FE2DF741887FD9DE9C69B5", "AE2C1522FB1A5C903A719B01CAD2D67F" },
		{ "E1BE063C8EFB23A4EF782461BAB6BB6E", "9BC2D411807984A271002E80403EFC28",
		  "F13CC8DD3C37CCBED636778CEBE716DA", "27A2D5EF4A73F10DC1564E6C76985BEA" },
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t sk_seed[16], sk_prf[16], pk_seed[16], root[16];
		uint8_t pk[OTA_SLHDSA_PK_BYTES], sk[OTA_SLHDSA_SK_BYTES];

		ck_assert_int_eq(otu_hex_decode(v[i].sk_seed, sk_seed, 16), 16);
		ck_assert_int_eq(otu_hex_decode(v[i].sk_prf, sk_prf, 16), 16);
		ck_assert_int_eq(otu_hex_decode(v[i].pk_seed, pk_seed, 16), 16);
		ck_assert_int_eq(otu_hex_decode(v[i].pk_root, root, 16), 16);
		ota_slhdsa_keygen(sk_seed, sk_prf, pk_seed, pk, sk);
		ck_assert_msg(memcmp(pk + 16, root, 16) == 0, "ACVP vector %zu: PK.root differs",
			      i + 1);
		ck_assert_mem_eq(pk, pk_seed, 16);
		ck_assert_mem_eq(sk, sk_seed, 16);
		ck_assert_mem_eq(sk + 16, sk_prf, 16);
		ck_assert_mem_eq(sk + 32, pk, 32);
	}
}
END_TEST

START_TEST(test_fixture_signature_verifies)
{
	ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, fx.msg, sizeof(fx.msg), fx.sig), OTA_OK);
}
END_TEST

/* Empty, one byte, a block boundary, and large messages (hedged signing). */
START_TEST(test_round_trip_lengths)
{
	static const size_t lens[] = { 0, 1, 62, 100000 };
	static uint8_t sig[SIG_BYTES];
	uint8_t addrnd[16];
	size_t i, j;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		uint8_t *msg = malloc(lens[i] + 1);

		ck_assert_ptr_nonnull(msg);
		for (j = 0; j < lens[i]; j++)
			msg[j] = (uint8_t)(j ^ (j >> 8) ^ i);
		memset(addrnd, (int)(0x40 + i), sizeof(addrnd));
		ota_slhdsa_sign(fx.sk, msg, lens[i], addrnd, sig);
		ck_assert_msg(ota_slhdsa_verify(fx.pk, msg, lens[i], sig) == OTA_OK,
			      "length %zu does not verify", lens[i]);
		/* One byte more or one byte less is another message. */
		msg[lens[i]] = 0;
		ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, msg, lens[i] + 1, sig),
				  OTA_SLHDSA_INVALID);
		if (lens[i] > 0)
			ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, msg, lens[i] - 1, sig),
					  OTA_SLHDSA_INVALID);
		free(msg);
	}
}
END_TEST

/* An empty message may be passed as NULL. */
START_TEST(test_empty_message_null_pointer)
{
	static uint8_t sig[SIG_BYTES];

	ota_slhdsa_sign(fx.sk, NULL, 0, NULL, sig);
	ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, NULL, 0, sig), OTA_OK);
	ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, (const uint8_t *)"", 0, sig), OTA_OK);
	ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, fx.msg, 1, sig), OTA_SLHDSA_INVALID);
}
END_TEST

/*
 * Deterministic signing (opt_rand = PK.seed) repeats exactly and equals
 * hedged signing with addrnd = PK.seed; other addrnd values give other
 * signatures that also verify.
 */
START_TEST(test_deterministic_and_hedged)
{
	static uint8_t again[SIG_BYTES], with_pkseed[SIG_BYTES], hedged[SIG_BYTES];
	uint8_t addrnd[16];

	ota_slhdsa_sign(fx.sk, fx.msg, sizeof(fx.msg), NULL, again);
	ck_assert_mem_eq(again, fx.sig, SIG_BYTES);

	ota_slhdsa_sign(fx.sk, fx.msg, sizeof(fx.msg), fx.pk, with_pkseed);
	ck_assert_mem_eq(with_pkseed, fx.sig, SIG_BYTES);

	memset(addrnd, 0x5a, sizeof(addrnd));
	ota_slhdsa_sign(fx.sk, fx.msg, sizeof(fx.msg), addrnd, hedged);
	ck_assert(memcmp(hedged, fx.sig, 16) != 0); /* R differs */
	ck_assert(memcmp(hedged, fx.sig, SIG_BYTES) != 0);
	ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, fx.msg, sizeof(fx.msg), hedged), OTA_OK);
}
END_TEST

/* Every bit of the message, in turn (the first 64 bytes), and the last byte. */
START_TEST(test_flipped_message_bit_fails)
{
	uint8_t msg[sizeof(fx.msg)];
	size_t bit;

	memcpy(msg, fx.msg, sizeof(msg));
	for (bit = 0; bit < 64 * 8; bit += 7) {
		msg[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		ck_assert_msg(ota_slhdsa_verify(fx.pk, msg, sizeof(msg), fx.sig) ==
				      OTA_SLHDSA_INVALID,
			      "message bit %zu flipped still verifies", bit);
		msg[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	msg[sizeof(msg) - 1] ^= 0x80;
	ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, msg, sizeof(msg), fx.sig), OTA_SLHDSA_INVALID);
}
END_TEST

static void expect_sig_bit_fails(uint8_t *sig, size_t bit)
{
	sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	ck_assert_msg(ota_slhdsa_verify(fx.pk, fx.msg, sizeof(fx.msg), sig) == OTA_SLHDSA_INVALID,
		      "signature bit %zu (byte %zu) flipped still verifies", bit, bit / 8);
	sig[bit / 8] ^= (uint8_t)(1u << (bit % 8));
}

/*
 * A flipped bit anywhere in the signature fails: every bit of R, the
 * first and last bit of every 16-byte value (each FORS secret and auth
 * node, each WOTS+ chain value and XMSS auth node of every layer), and
 * a stride over the rest.
 */
START_TEST(test_flipped_signature_bit_fails)
{
	static uint8_t sig[SIG_BYTES];
	size_t bit, node;

	memcpy(sig, fx.sig, sizeof(sig));
	for (bit = 0; bit < 128; bit++)
		expect_sig_bit_fails(sig, bit);
	for (node = 1; node < SIG_BYTES / 16; node++) {
		expect_sig_bit_fails(sig, node * 128);
		expect_sig_bit_fails(sig, node * 128 + 127);
	}
	for (bit = 128; bit < SIG_BYTES * 8; bit += 97)
		expect_sig_bit_fails(sig, bit);
	ck_assert_mem_eq(sig, fx.sig, SIG_BYTES); /* verify changed nothing */
}
END_TEST

START_TEST(test_flipped_public_key_bit_fails)
{
	uint8_t pk[OTA_SLHDSA_PK_BYTES];
	size_t bit;

	memcpy(pk, fx.pk, sizeof(pk));
	for (bit = 0; bit < sizeof(pk) * 8; bit++) {
		pk[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		ck_assert_msg(ota_slhdsa_verify(pk, fx.msg, sizeof(fx.msg), fx.sig) ==
				      OTA_SLHDSA_INVALID,
			      "public key bit %zu flipped still verifies", bit);
		pk[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
}
END_TEST

/* Another key pair's public key, and structurally degenerate signatures. */
START_TEST(test_wrong_key_and_degenerate_signatures_fail)
{
	static uint8_t sig[SIG_BYTES];
	uint8_t seeds[48], pk[OTA_SLHDSA_PK_BYTES], sk[OTA_SLHDSA_SK_BYTES];

	memcpy(seeds, fx.seeds, sizeof(seeds));
	seeds[0] ^= 1; /* another SK.seed, same PK.seed */
	ota_slhdsa_keygen(seeds, seeds + 16, seeds + 32, pk, sk);
	ck_assert(memcmp(pk, fx.pk, sizeof(pk)) != 0);
	ck_assert_uint_eq(ota_slhdsa_verify(pk, fx.msg, sizeof(fx.msg), fx.sig),
			  OTA_SLHDSA_INVALID);

	memset(sig, 0, sizeof(sig));
	ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, fx.msg, sizeof(fx.msg), sig),
			  OTA_SLHDSA_INVALID);
	memset(sig, 0xff, sizeof(sig));
	ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, fx.msg, sizeof(fx.msg), sig),
			  OTA_SLHDSA_INVALID);
	/* A shorter signature zero-padded to size: the hypertree tail is gone. */
	memcpy(sig, fx.sig, sizeof(sig));
	memset(sig + SIG_BYTES - 16 * 44, 0, 16 * 44);
	ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, fx.msg, sizeof(fx.msg), sig),
			  OTA_SLHDSA_INVALID);
}
END_TEST

/*
 * The API takes fixed-size arrays, so a key or signature of the wrong
 * length cannot be expressed; what remains is NULL, which is refused
 * with the same status instead of crashing.
 */
START_TEST(test_null_arguments_refused)
{
	ck_assert_uint_eq(ota_slhdsa_verify(NULL, fx.msg, sizeof(fx.msg), fx.sig),
			  OTA_SLHDSA_INVALID);
	ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, fx.msg, sizeof(fx.msg), NULL),
			  OTA_SLHDSA_INVALID);
	ck_assert_uint_eq(ota_slhdsa_verify(fx.pk, NULL, 5, fx.sig), OTA_SLHDSA_INVALID);
	/* The failure status is a verification failure, never success by accident. */
	ck_assert_uint_ne(OTA_SLHDSA_INVALID, OTA_OK);
	ck_assert_uint_eq(ota_status_class(OTA_SLHDSA_INVALID), OTA_CLASS_VERIFICATION);
}
END_TEST

/* keygen may write its outputs over its inputs (sk over the seeds). */
START_TEST(test_keygen_in_place)
{
	uint8_t buf[64], pk[OTA_SLHDSA_PK_BYTES];

	memcpy(buf, fx.seeds, 48);
	ota_slhdsa_keygen(buf, buf + 16, buf + 32, pk, buf);
	ck_assert_mem_eq(buf, fx.sk, 64);
	ck_assert_mem_eq(pk, fx.pk, 32);
}
END_TEST

static Suite *slhdsa_suite(void)
{
	Suite *s = suite_create("slhdsa");
	TCase *tc = tcase_create("core");

	/* Signing under ASan+UBSan takes seconds; nothing here is timed. */
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, test_fips205_sizes);
	tcase_add_test(tc, test_writes_stay_in_bounds);
	tcase_add_test(tc, test_key_layout);
	tcase_add_test(tc, test_acvp_keygen_vectors);
	tcase_add_test(tc, test_fixture_signature_verifies);
	tcase_add_test(tc, test_round_trip_lengths);
	tcase_add_test(tc, test_empty_message_null_pointer);
	tcase_add_test(tc, test_deterministic_and_hedged);
	tcase_add_test(tc, test_flipped_message_bit_fails);
	tcase_add_test(tc, test_flipped_signature_bit_fails);
	tcase_add_test(tc, test_flipped_public_key_bit_fails);
	tcase_add_test(tc, test_wrong_key_and_degenerate_signatures_fail);
	tcase_add_test(tc, test_null_arguments_refused);
	tcase_add_test(tc, test_keygen_in_place);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN_PREPARED(fixture_make(), slhdsa_suite)
