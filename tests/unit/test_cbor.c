// SPDX-License-Identifier: MIT
/*
 * The freestanding CBOR encoder (exact bytes against RFC 8949 appendix A
 * examples), the strict decoder (round trips, and each refusal on its
 * own), the COSE_Sign1 framing, and the DER writer.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "otattest/cbor.h"
#include "otattest/verify.h"
#include "otattest/x509.h"
#include "tu_main.h"

static const struct ota_cbor_limits lim = { .max_depth = 4, .max_string = 64, .max_count = 8 };

static void expect_uint(uint64_t v, const uint8_t *want, uint32_t n)
{
	uint8_t buf[16];
	struct ota_cbor_enc e;
	struct ota_cbor_dec d;
	uint32_t len;
	uint64_t back;

	ota_cbor_enc_init(&e, buf, sizeof(buf));
	ota_cbor_put_uint(&e, v);
	ck_assert_uint_eq(ota_cbor_enc_finish(&e, &len), OTA_OK);
	ck_assert_uint_eq(len, n);
	ck_assert_mem_eq(buf, want, n);
	ck_assert_uint_eq(ota_cbor_check(buf, len, &lim), OTA_OK);
	ota_cbor_dec_init(&d, buf, len);
	ck_assert_uint_eq(ota_cbor_get_uint(&d, &back), OTA_OK);
	ck_assert_uint_eq(back, v);
}

/* RFC 8949 appendix A: every argument width at its boundaries. */
START_TEST(test_encode_uint_shortest)
{
	expect_uint(0, (const uint8_t[]){ 0x00 }, 1);
	expect_uint(23, (const uint8_t[]){ 0x17 }, 1);
	expect_uint(24, (const uint8_t[]){ 0x18, 0x18 }, 2);
	expect_uint(255, (const uint8_t[]){ 0x18, 0xff }, 2);
	expect_uint(256, (const uint8_t[]){ 0x19, 0x01, 0x00 }, 3);
	expect_uint(65535, (const uint8_t[]){ 0x19, 0xff, 0xff }, 3);
	expect_uint(65536, (const uint8_t[]){ 0x1a, 0x00, 0x01, 0x00, 0x00 }, 5);
	expect_uint(1000000, (const uint8_t[]){ 0x1a, 0x00, 0x0f, 0x42, 0x40 }, 5);
	expect_uint(0xffffffffu, (const uint8_t[]){ 0x1a, 0xff, 0xff, 0xff, 0xff }, 5);
	expect_uint(1000000000000ull,
		    (const uint8_t[]){ 0x1b, 0x00, 0x00, 0x00, 0xe8, 0xd4, 0xa5, 0x10, 0x00 }, 9);
	expect_uint(UINT64_MAX,
		    (const uint8_t[]){ 0x1b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, 9);
}
END_TEST

START_TEST(test_encode_negative_and_strings)
{
	uint8_t buf[64];
	struct ota_cbor_enc e;
	struct ota_cbor_dec d;
	const uint8_t *p;
	const char *t;
	size_t n;
	uint32_t len;
	int64_t v;
	static const uint8_t want[] = {
		0x20,                         /* -1 */
		0x38, 0x63,                   /* -100 */
		0x39, 0x03, 0xe7,             /* -1000 */
		0x3a, 0x00, 0x01, 0x24, 0xf8, /* -75001 */
		0x44, 0x01, 0x02, 0x03, 0x04, /* h'01020304' */
		0x64, 0x49, 0x45, 0x54, 0x46, /* "IETF" */
		0x40,                         /* h'' */
	};

	ota_cbor_enc_init(&e, buf, sizeof(buf));
	ota_cbor_put_int(&e, -1);
	ota_cbor_put_int(&e, -100);
	ota_cbor_put_int(&e, -1000);
	ota_cbor_put_int(&e, -75001);
	ota_cbor_put_bytes(&e, "\x01\x02\x03\x04", 4);
	ota_cbor_put_text(&e, "IETF", 4);
	ota_cbor_put_bytes(&e, NULL, 0);
	ck_assert_uint_eq(ota_cbor_enc_finish(&e, &len), OTA_OK);
	ck_assert_uint_eq(len, sizeof(want));
	ck_assert_mem_eq(buf, want, sizeof(want));

	ota_cbor_dec_init(&d, buf, len);
	ck_assert_uint_eq(ota_cbor_get_int(&d, &v), OTA_OK);
	ck_assert_int_eq(v, -1);
	ck_assert_uint_eq(ota_cbor_get_int(&d, &v), OTA_OK);
	ck_assert_int_eq(v, -100);
	ck_assert_uint_eq(ota_cbor_get_int(&d, &v), OTA_OK);
	ck_assert_int_eq(v, -1000);
	ck_assert_uint_eq(ota_cbor_get_int(&d, &v), OTA_OK);
	ck_assert_int_eq(v, -75001);
	/* Wrong type: the cursor does not move. */
	ck_assert_uint_eq(ota_cbor_get_text(&d, &t, &n), OTA_CBOR_TYPE);
	ck_assert_uint_eq(ota_cbor_get_bytes(&d, &p, &n), OTA_OK);
	ck_assert_uint_eq(n, 4);
	ck_assert_mem_eq(p, "\x01\x02\x03\x04", 4);
	ck_assert_uint_eq(ota_cbor_get_text(&d, &t, &n), OTA_OK);
	ck_assert_uint_eq(n, 4);
	ck_assert_mem_eq(t, "IETF", 4);
}
END_TEST

START_TEST(test_encode_containers_round_trip)
{
	/* {1: [1, 2, h'ff'], -7: 18({})} */
	static const uint8_t want[] = { 0xa2, 0x01, 0x83, 0x01, 0x02, 0x41, 0xff,
					0x26, 0xd2, 0xa0 };
	uint8_t buf[32];
	struct ota_cbor_enc e;
	struct ota_cbor_dec d;
	uint64_t n, tag, u;
	int64_t k;
	uint32_t len;

	ota_cbor_enc_init(&e, buf, sizeof(buf));
	ota_cbor_put_map(&e, 2);
	ota_cbor_put_int(&e, 1);
	ota_cbor_put_array(&e, 3);
	ota_cbor_put_uint(&e, 1);
	ota_cbor_put_uint(&e, 2);
	ota_cbor_put_bytes(&e, "\xff", 1);
	ota_cbor_put_int(&e, -7);
	ota_cbor_put_tag(&e, 18);
	ota_cbor_put_map(&e, 0);
	ck_assert_uint_eq(ota_cbor_enc_finish(&e, &len), OTA_OK);
	ck_assert_uint_eq(len, sizeof(want));
	ck_assert_mem_eq(buf, want, len);
	ck_assert_uint_eq(ota_cbor_check(buf, len, &lim), OTA_OK);

	ota_cbor_dec_init(&d, buf, len);
	ck_assert_uint_eq(ota_cbor_get_map(&d, &n), OTA_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(ota_cbor_get_int(&d, &k), OTA_OK);
	ck_assert_uint_eq(ota_cbor_skip(&d), OTA_OK); /* the whole array */
	ck_assert_uint_eq(ota_cbor_get_int(&d, &k), OTA_OK);
	ck_assert_int_eq(k, -7);
	ck_assert_uint_eq(ota_cbor_get_tag(&d, &tag), OTA_OK);
	ck_assert_uint_eq(tag, 18);
	ck_assert_uint_eq(ota_cbor_get_map(&d, &n), OTA_OK);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(d.pos, len);
	ck_assert_uint_eq(ota_cbor_get_uint(&d, &u), OTA_CBOR_TRUNCATED);
}
END_TEST

START_TEST(test_encode_buffer_full_is_sticky)
{
	uint8_t buf[4];
	struct ota_cbor_enc e;
	uint32_t len = 99, at;

	ota_cbor_enc_init(&e, buf, sizeof(buf));
	ota_cbor_put_uint(&e, 1);
	ota_cbor_put_bytes(&e, "abcdef", 6); /* does not fit */
	at = e.len;
	ota_cbor_put_uint(&e, 2);           /* would fit, but the error sticks */
	ck_assert_uint_eq(e.len, at);
	ck_assert_uint_le(e.len, sizeof(buf));
	ck_assert_uint_eq(ota_cbor_enc_finish(&e, &len), OTA_CBOR_BUFFER_FULL);
	ck_assert_uint_eq(len, 99);
}
END_TEST

START_TEST(test_encode_measure_only)
{
	uint8_t buf[64];
	struct ota_cbor_enc e, m;
	uint32_t len, need;

	ota_cbor_enc_init(&e, buf, sizeof(buf));
	ota_cbor_enc_init(&m, NULL, 0);
	ota_cbor_put_map(&e, 1);
	ota_cbor_put_map(&m, 1);
	ota_cbor_put_int(&e, -75012);
	ota_cbor_put_int(&m, -75012);
	ota_cbor_put_bytes(&e, "0123456789abcdef0123456789", 26);
	ota_cbor_put_bytes(&m, "0123456789abcdef0123456789", 26);
	ck_assert_uint_eq(ota_cbor_enc_finish(&e, &len), OTA_OK);
	ck_assert_uint_eq(ota_cbor_enc_finish(&m, &need), OTA_OK);
	ck_assert_uint_eq(need, len);
	ck_assert_uint_eq(len, 1 + 5 + 2 + 26);
}
END_TEST

#define REFUSE(want, ...)                                                                  \
	do {                                                                               \
		static const uint8_t in_[] = { __VA_ARGS__ };                              \
		ck_assert_uint_eq(ota_cbor_check(in_, sizeof(in_), &lim), (want));         \
	} while (0)

START_TEST(test_refuse_truncated)
{
	REFUSE(OTA_CBOR_TRUNCATED, 0x18);                   /* missing argument byte */
	REFUSE(OTA_CBOR_TRUNCATED, 0x1a, 0x00, 0x01);       /* short 4-byte argument */
	REFUSE(OTA_CBOR_TRUNCATED, 0x43, 0x01, 0x02);       /* bstr shorter than said */
	REFUSE(OTA_CBOR_TRUNCATED, 0x82, 0x01);             /* array missing an item */
	REFUSE(OTA_CBOR_TRUNCATED, 0xa1, 0x01);             /* map missing a value */
	REFUSE(OTA_CBOR_TRUNCATED, 0xd2);                   /* tag without content */
	ck_assert_uint_eq(ota_cbor_check(NULL, 0, &lim), OTA_CBOR_TRUNCATED);
}
END_TEST

START_TEST(test_refuse_trailing)
{
	REFUSE(OTA_CBOR_TRAILING, 0x01, 0x02);
	REFUSE(OTA_CBOR_TRAILING, 0x80, 0x00);
}
END_TEST

START_TEST(test_refuse_indefinite)
{
	REFUSE(OTA_CBOR_INDEFINITE, 0x5f, 0x41, 0x00, 0xff); /* indefinite bstr */
	REFUSE(OTA_CBOR_INDEFINITE, 0x7f, 0x61, 0x61, 0xff); /* indefinite tstr */
	REFUSE(OTA_CBOR_INDEFINITE, 0x9f, 0x01, 0xff);       /* indefinite array */
	REFUSE(OTA_CBOR_INDEFINITE, 0xbf, 0x01, 0x02, 0xff); /* indefinite map */
	REFUSE(OTA_CBOR_INDEFINITE, 0xff);                   /* stray break */
	REFUSE(OTA_CBOR_INDEFINITE, 0x1f);                   /* uint with ai 31 */
}
END_TEST

START_TEST(test_refuse_duplicate_key)
{
	REFUSE(OTA_CBOR_DUPLICATE_KEY, 0xa2, 0x01, 0x00, 0x01, 0x01);
	REFUSE(OTA_CBOR_DUPLICATE_KEY, 0xa3, 0x61, 0x61, 0x00, 0x02, 0x00, 0x61, 0x61, 0x01);
	REFUSE(OTA_CBOR_DUPLICATE_KEY, 0xa2, 0x26, 0x00, 0x26, 0x00); /* -7 twice */
	/* Nested maps are checked too. */
	REFUSE(OTA_CBOR_DUPLICATE_KEY, 0x81, 0xa2, 0x00, 0x00, 0x00, 0x00);
	/* Different keys with equal prefixes are fine. */
	REFUSE(OTA_OK, 0xa2, 0x61, 0x01, 0x00, 0x62, 0x01, 0x02, 0x00);
}
END_TEST

START_TEST(test_refuse_oversize)
{
	uint8_t big[80];

	memset(big, 0, sizeof(big));
	big[0] = 0x58;
	big[1] = 65; /* one byte over max_string */
	ck_assert_uint_eq(ota_cbor_check(big, 2 + 65, &lim), OTA_CBOR_OVERSIZE);
	big[1] = 64;
	ck_assert_uint_eq(ota_cbor_check(big, 2 + 64, &lim), OTA_OK);
	REFUSE(OTA_CBOR_OVERSIZE, 0x89, 0, 0, 0, 0, 0, 0, 0, 0, 0);  /* 9 items > 8 */
	REFUSE(OTA_CBOR_OVERSIZE, 0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff);
	REFUSE(OTA_CBOR_OVERSIZE, 0x9b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00);
}
END_TEST

START_TEST(test_refuse_nonshortest)
{
	REFUSE(OTA_CBOR_NONCANONICAL, 0x18, 0x17);                   /* 23 in one byte */
	REFUSE(OTA_CBOR_NONCANONICAL, 0x19, 0x00, 0xff);             /* 255 in two */
	REFUSE(OTA_CBOR_NONCANONICAL, 0x1a, 0x00, 0x00, 0xff, 0xff); /* 65535 in four */
	REFUSE(OTA_CBOR_NONCANONICAL, 0x1b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff);
	REFUSE(OTA_CBOR_NONCANONICAL, 0x38, 0x00);                   /* -1 long form */
	REFUSE(OTA_CBOR_NONCANONICAL, 0x58, 0x01, 0xaa);             /* length 1 long form */
	REFUSE(OTA_CBOR_NONCANONICAL, 0x98, 0x00);                   /* empty array long form */
	REFUSE(OTA_CBOR_NONCANONICAL, 0xd8, 0x12, 0x00);             /* tag 18 long form */
}
END_TEST

START_TEST(test_refuse_depth)
{
	REFUSE(OTA_OK, 0x81, 0x81, 0x81, 0x00);                 /* depth 4 */
	REFUSE(OTA_CBOR_DEPTH, 0x81, 0x81, 0x81, 0x81, 0x00);   /* depth 5 */
	REFUSE(OTA_CBOR_DEPTH, 0xd2, 0xd2, 0xd2, 0xd2, 0x00);   /* tags nest too */
	REFUSE(OTA_CBOR_DEPTH, 0xa1, 0x00, 0xa1, 0x00, 0xa1, 0x00, 0x81, 0x00);
}
END_TEST

START_TEST(test_refuse_unsupported)
{
	REFUSE(OTA_CBOR_UNSUPPORTED, 0xf9, 0x3c, 0x00);             /* half float */
	REFUSE(OTA_CBOR_UNSUPPORTED, 0xfb, 0, 0, 0, 0, 0, 0, 0, 0); /* double */
	REFUSE(OTA_CBOR_UNSUPPORTED, 0xf7);                         /* undefined */
	REFUSE(OTA_CBOR_UNSUPPORTED, 0xf8, 0x20);                   /* simple(32) */
	REFUSE(OTA_CBOR_UNSUPPORTED, 0x1c);                         /* reserved ai 28 */
	REFUSE(OTA_OK, 0x83, 0xf4, 0xf5, 0xf6);                     /* false true null */
	/*
	 * Tags other than COSE_Sign1's (18), which other decoders read with
	 * meaning (the differential run, tests/fuzz/differential.py): tag 0
	 * over a byte string (cbor2 refuses it: not a date), and a map whose
	 * keys 1 and bignum 1 (tag 2) cbor2 reads as one key twice.
	 */
	REFUSE(OTA_CBOR_UNSUPPORTED, 0xc0, 0x41, 0x30);
	REFUSE(OTA_CBOR_UNSUPPORTED, 0xa2, 0x01, 0x00, 0xc2, 0x41, 0x01, 0x00);
	REFUSE(OTA_CBOR_UNSUPPORTED, 0xd9, 0xd9, 0xf7, 0x00);       /* self-describe 55799 */
	REFUSE(OTA_CBOR_UNSUPPORTED, 0xd3, 0x80);                   /* 19, next to 18 */
	REFUSE(OTA_OK, 0xd2, 0x80);                                 /* 18 is COSE_Sign1 */
	/* Map keys other than integers and text: {true: 0, 1: 0} is one key to cbor2. */
	REFUSE(OTA_CBOR_UNSUPPORTED, 0xa2, 0xf5, 0x00, 0x01, 0x00);
	REFUSE(OTA_CBOR_UNSUPPORTED, 0xa1, 0x41, 0x00, 0x00);       /* {h'00': 0} */
	REFUSE(OTA_CBOR_UNSUPPORTED, 0xa1, 0x80, 0x00);             /* {[]: 0} */
	REFUSE(OTA_CBOR_UNSUPPORTED, 0xa1, 0xa0, 0x00);             /* {{}: 0} */
	REFUSE(OTA_OK, 0xa3, 0x01, 0x00, 0x26, 0x00, 0x61, 0x61, 0x00); /* {1, -7, "a"} */
}
END_TEST

START_TEST(test_refuse_bad_utf8)
{
	REFUSE(OTA_OK, 0x63, 0xe2, 0x82, 0xac);                /* "€" */
	REFUSE(OTA_OK, 0x64, 0xf0, 0x9f, 0x98, 0x80);          /* U+1F600 */
	REFUSE(OTA_CBOR_BAD_UTF8, 0x61, 0x80);                 /* lone continuation */
	REFUSE(OTA_CBOR_BAD_UTF8, 0x62, 0xc0, 0xaf);           /* overlong "/" */
	REFUSE(OTA_CBOR_BAD_UTF8, 0x63, 0xed, 0xa0, 0x80);     /* surrogate U+D800 */
	REFUSE(OTA_CBOR_BAD_UTF8, 0x64, 0xf4, 0x90, 0x80, 0x80); /* above U+10FFFF */
	REFUSE(OTA_CBOR_BAD_UTF8, 0x62, 0xe2, 0x82);           /* truncated sequence */
	REFUSE(OTA_CBOR_BAD_UTF8, 0x61, 0xff);
	REFUSE(OTA_OK, 0x42, 0xc0, 0xaf);                      /* bytes are not text */
}
END_TEST

START_TEST(test_reader_bounds_on_unchecked_input)
{
	/* The cursor re-checks bounds: a lying length fails, never over-reads. */
	static const uint8_t in[] = { 0x5a, 0xff, 0xff, 0xff, 0xff, 0x00 };
	struct ota_cbor_dec d;
	const uint8_t *p;
	size_t n;

	ota_cbor_dec_init(&d, in, sizeof(in));
	ck_assert_uint_eq(ota_cbor_get_bytes(&d, &p, &n), OTA_CBOR_TRUNCATED);
	ck_assert_uint_eq(d.pos, 0);
}
END_TEST

START_TEST(test_sig1_prefix)
{
	/* ["Signature1", h'A10126', h'', payload of 300 bytes] up to the payload. */
	static const uint8_t want[] = { 0x84, 0x6a, 'S', 'i', 'g', 'n', 'a', 't', 'u', 'r', 'e',
					'1', 0x43, 0xa1, 0x01, 0x26, 0x40, 0x59, 0x01, 0x2c };
	static const uint8_t prot[] = OTA_COSE_PROTECTED_ES256;
	uint8_t buf[OTA_COSE_SIG1_PREFIX_MAX];
	uint32_t len;

	ck_assert_uint_eq(ota_cose_sig1_prefix(prot, sizeof(prot), 300, buf, sizeof(buf), &len),
			  OTA_OK);
	ck_assert_uint_eq(len, sizeof(want));
	ck_assert_mem_eq(buf, want, len);
}
END_TEST

static uint32_t make_sign1(uint8_t *out, uint32_t cap, uint32_t ncerts)
{
	static const uint8_t cert_a[] = { 0x30, 0x00 }, cert_b[] = { 0x30, 0x01, 0x00 };
	const uint8_t *certs[2] = { cert_a, cert_b };
	const uint32_t lens[2] = { sizeof(cert_a), sizeof(cert_b) };
	uint8_t sig[64];
	uint32_t len;

	memset(sig, 0x5a, sizeof(sig));
	ck_assert_uint_eq(ota_evidence_encode_sign1((const uint8_t *)"\xa0", 1, certs, lens,
						    ncerts, sig, out, cap, &len),
			  OTA_OK);
	return len;
}

START_TEST(test_sign1_frame_decodes)
{
	uint8_t buf[256];
	struct ota_cose_sign1 m;
	uint32_t len;

	len = make_sign1(buf, sizeof(buf), 2);
	ck_assert_uint_eq(buf[0], 0xd2); /* tag 18 */
	ck_assert_uint_eq(ota_cose_sign1_decode(buf, len, &m), OTA_OK);
	ck_assert_uint_eq(m.cert_count, 2);
	ck_assert_uint_eq(m.cert_lens[1], 3);
	ck_assert_uint_eq(m.payload_len, 1);
	ck_assert_uint_eq(m.signature_len, 64);

	/* One certificate: a bare bstr (RFC 9360). */
	len = make_sign1(buf, sizeof(buf), 1);
	ck_assert_uint_eq(ota_cose_sign1_decode(buf, len, &m), OTA_OK);
	ck_assert_uint_eq(m.cert_count, 1);
}
END_TEST

START_TEST(test_sign1_refusals)
{
	uint8_t buf[256];
	struct ota_cose_sign1 m;
	uint32_t len;
	/* Untagged: 84 43 a10126 a1 1821 42 3000 41 a0 5840 <64> */
	uint8_t untagged[] = { 0x84, 0x43, 0xa1, 0x01, 0x26, 0xa1, 0x18, 0x21, 0x42, 0x30,
			       0x00, 0x41, 0xa0, 0x41, 0x00 };
	/* Protected header {1: -35} (ES384) and {1: -7, 4: h''} */
	uint8_t es384[] = { 0xd2, 0x84, 0x44, 0xa1, 0x01, 0x38, 0x22, 0xa1, 0x18, 0x21, 0x42,
			    0x30, 0x00, 0x41, 0xa0, 0x41, 0x00 };
	uint8_t extra[] = { 0xd2, 0x84, 0x45, 0xa2, 0x01, 0x26, 0x04, 0x40, 0xa1, 0x18, 0x21,
			    0x42, 0x30, 0x00, 0x41, 0xa0, 0x41, 0x00 };

	ck_assert_uint_eq(ota_cose_sign1_decode(untagged, sizeof(untagged), &m),
			  OTA_COSE_BAD_HEADER);
	ck_assert_uint_eq(ota_cose_sign1_decode(es384, sizeof(es384), &m), OTA_COSE_BAD_ALG);
	ck_assert_uint_eq(ota_cose_sign1_decode(extra, sizeof(extra), &m), OTA_COSE_BAD_HEADER);

	/* Short signature. */
	len = make_sign1(buf, sizeof(buf), 2);
	buf[len - 65] = 0x58;
	ck_assert_uint_eq(ota_cose_sign1_decode(buf, len, &m), OTA_CBOR_TRUNCATED);
	/* An unprotected header key other than x5chain (33 -> 34). */
	len = make_sign1(buf, sizeof(buf), 2);
	ck_assert_uint_eq(buf[8], 0x21);
	buf[8] = 0x22;
	ck_assert_uint_eq(ota_cose_sign1_decode(buf, len, &m), OTA_COSE_BAD_HEADER);
}
END_TEST

START_TEST(test_der_lengths_and_integers)
{
	uint8_t buf[400], content[300];
	struct ota_der d;
	uint32_t len;

	memset(content, 0xab, sizeof(content));
	ota_der_init(&d, buf, sizeof(buf));
	ota_der_begin(&d, OTA_DER_SEQUENCE);
	ota_der_put(&d, OTA_DER_OCTET_STRING, content, 200);      /* 04 81 c8 */
	ota_der_put_uint_be(&d, (const uint8_t[]){ 0x00, 0x00, 0x80 }, 3); /* 02 02 00 80 */
	ota_der_put_uint(&d, 0);                                  /* 02 01 00 */
	ota_der_put_uint(&d, 0x7f);                               /* 02 01 7f */
	ota_der_end(&d);
	ck_assert_uint_eq(ota_der_finish(&d, &len), OTA_OK);
	/* 30 81 d6: 203 + 4 + 3 + 3 = 213 = 0xd5... computed below */
	ck_assert_uint_eq(buf[0], 0x30);
	ck_assert_uint_eq(buf[1], 0x81);
	ck_assert_uint_eq(buf[2], len - 3);
	ck_assert_mem_eq(buf + 3, "\x04\x81\xc8", 3);
	ck_assert_mem_eq(buf + 3 + 3 + 200, "\x02\x02\x00\x80\x02\x01\x00\x02\x01\x7f", 10);

	/* Two-byte lengths move the contents of a closed item. */
	ota_der_init(&d, buf, sizeof(buf));
	ota_der_begin(&d, OTA_DER_SEQUENCE);
	ota_der_put_raw(&d, content, 300);
	ota_der_end(&d);
	ck_assert_uint_eq(ota_der_finish(&d, &len), OTA_OK);
	ck_assert_uint_eq(len, 304);
	ck_assert_mem_eq(buf, "\x30\x82\x01\x2c", 4);
	ck_assert_mem_eq(buf + 4, content, 300);
}
END_TEST

START_TEST(test_der_errors)
{
	uint8_t buf[8];
	struct ota_der d;
	uint32_t len;

	ota_der_init(&d, buf, sizeof(buf));
	ota_der_begin(&d, OTA_DER_SEQUENCE);
	ck_assert_uint_eq(ota_der_finish(&d, &len), OTA_X509_MALFORMED); /* unclosed */
	ota_der_end(&d);
	ota_der_end(&d); /* one too many */
	ck_assert_uint_eq(ota_der_finish(&d, &len), OTA_X509_MALFORMED);

	ota_der_init(&d, buf, sizeof(buf));
	ota_der_put(&d, OTA_DER_OCTET_STRING, "0123456789", 10);
	ck_assert_uint_eq(ota_der_finish(&d, &len), OTA_X509_BUFFER_FULL);
	/* Content that fits exactly, but whose long length would not. */
	ota_der_init(&d, buf, 3);
	ota_der_begin(&d, OTA_DER_SEQUENCE);
	ota_der_put_raw(&d, "x", 1);
	ota_der_end(&d);
	ck_assert_uint_eq(ota_der_finish(&d, &len), OTA_OK);
	ck_assert_mem_eq(buf, "\x30\x01x", 3);
}
END_TEST

static Suite *cbor_suite(void)
{
	Suite *s = suite_create("cbor");
	TCase *enc = tcase_create("encoder");
	TCase *dec = tcase_create("strict decoder");
	TCase *cose = tcase_create("cose");
	TCase *der = tcase_create("der");

	tcase_add_test(enc, test_encode_uint_shortest);
	tcase_add_test(enc, test_encode_negative_and_strings);
	tcase_add_test(enc, test_encode_containers_round_trip);
	tcase_add_test(enc, test_encode_buffer_full_is_sticky);
	tcase_add_test(enc, test_encode_measure_only);
	tcase_add_test(dec, test_refuse_truncated);
	tcase_add_test(dec, test_refuse_trailing);
	tcase_add_test(dec, test_refuse_indefinite);
	tcase_add_test(dec, test_refuse_duplicate_key);
	tcase_add_test(dec, test_refuse_oversize);
	tcase_add_test(dec, test_refuse_nonshortest);
	tcase_add_test(dec, test_refuse_depth);
	tcase_add_test(dec, test_refuse_unsupported);
	tcase_add_test(dec, test_refuse_bad_utf8);
	tcase_add_test(dec, test_reader_bounds_on_unchecked_input);
	tcase_add_test(cose, test_sig1_prefix);
	tcase_add_test(cose, test_sign1_frame_decodes);
	tcase_add_test(cose, test_sign1_refusals);
	tcase_add_test(der, test_der_lengths_and_integers);
	tcase_add_test(der, test_der_errors);
	suite_add_tcase(s, enc);
	suite_add_tcase(s, dec);
	suite_add_tcase(s, cose);
	suite_add_tcase(s, der);
	return s;
}

OTA_TEST_MAIN(cbor_suite)
