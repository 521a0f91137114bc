// SPDX-License-Identifier: MIT
/*
 * The trust store's memory of verified chains (libotattest/src/host/
 * chain_cache.h): a device's second evidence is answered from it, and it
 * changes nothing a verdict says - for the genuine evidence and for every
 * byte of its signature and claims flipped, the verdict from a store that
 * remembers the chain is the same, byte for byte, as from a fresh one. A
 * chain is remembered only for the store that verified it, only while its
 * certificates are valid, and threads share one store safely.
 */
#include <check.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "test_evidence_fixture.h"
#include "tu_main.h"
/* Internal: the cache under test. */
#include "../../libotattest/src/host/chain_cache.h"

static struct evfix f;
static uint8_t ev[OTA_EVIDENCE_MAX_BYTES + 64];
static uint32_t ev_len;
static const uint8_t nonce[24] = "otattest-cache-nonce-24";

static void setup(void)
{
	evfix_open(&f, EVFIX_IDCERT_OURS);
	evfix_boot_runtime(&f);
	ck_assert_uint_eq(ota_rt_attest(&f.bs, ota_runtime_current(&f.bs), nonce, sizeof(nonce), ev,
					sizeof(ev), &ev_len),
			  OTA_OK);
}

static void teardown(void)
{
	evfix_close(&f);
}

static struct ota_trust *fresh_trust(void)
{
	struct ota_trust *t;

	ck_assert_uint_eq(ota_trust_load_pem(f.ca_pem, f.ca_pem_len, &t), OTA_OK);
	return t;
}

static ota_status_t verify(const uint8_t *e, size_t len, const struct ota_trust *t,
			   struct ota_verdict *v)
{
	return ota_verify_evidence(e, len, t, nonce, sizeof(nonce), NULL, NULL, 0, v);
}

START_TEST(test_second_evidence_answered_from_memory)
{
	static struct ota_verdict v1, v2;
	struct ota_trust *t = fresh_trust();
	uint64_t hits, misses;

	ck_assert_uint_eq(verify(ev, ev_len, t, &v1), OTA_OK);
	ota_trust_cache_stats(t, &hits, &misses);
	ck_assert_uint_eq(hits, 0);
	ck_assert_uint_eq(misses, 1);
	ck_assert_uint_eq(verify(ev, ev_len, t, &v2), OTA_OK);
	ota_trust_cache_stats(t, &hits, &misses);
	ck_assert_uint_eq(hits, 1);
	ck_assert_uint_eq(misses, 1);
	ck_assert(v2.authentic);
	ck_assert_mem_eq(&v1, &v2, sizeof(v1));
	ota_trust_free(t);
}
END_TEST

/*
 * Every byte after the certificates (the payload and the signature: what
 * differs from one evidence to the next) flipped: the remembering store
 * and a fresh one give the same verdict. The certificates' own bytes are
 * flipped too, a sample of them: a changed chain is another chain, looked
 * up and verified afresh.
 */
START_TEST(test_memory_changes_no_verdict)
{
	static struct ota_verdict cached, fresh;
	static uint8_t bad[OTA_EVIDENCE_MAX_BYTES + 64];
	struct ota_trust *t = fresh_trust();
	struct ota_cose_sign1 m;
	size_t start, i;
	unsigned int flips = 0;

	ck_assert_uint_eq(verify(ev, ev_len, t, &cached), OTA_OK); /* remembered from here */
	ck_assert_uint_eq(ota_cose_sign1_decode(ev, ev_len, &m), OTA_OK);
	start = (size_t)(m.certs[m.cert_count - 1] - ev) + m.cert_lens[m.cert_count - 1];
	for (i = 0; i < ev_len; i += i < start ? 37 : 1) {
		struct ota_trust *t2 = fresh_trust();
		ota_status_t a, b;

		memcpy(bad, ev, ev_len);
		bad[i] ^= 0x01;
		a = verify(bad, ev_len, t, &cached);
		b = verify(bad, ev_len, t2, &fresh);
		ck_assert_msg(a == b && !memcmp(&cached, &fresh, sizeof(cached)),
			      "byte %zu flipped: %s remembered, %s fresh", i, ota_status_name(a),
			      ota_status_name(b));
		ck_assert_msg(a != OTA_OK, "byte %zu flipped and still OK", i);
		ota_trust_free(t2);
		flips++;
	}
	ck_assert_uint_gt(flips, 100);
	ota_trust_free(t);
}
END_TEST

/* What one store verified means nothing to a store with another CA. */
START_TEST(test_memory_is_per_trust_store)
{
	static struct ota_verdict v;
	struct ota_trust *t = fresh_trust(), *other;
	EVP_PKEY *key;
	X509 *ca;
	BIO *bio;
	char *pem;
	long n;

	ck_assert_uint_eq(verify(ev, ev_len, t, &v), OTA_OK);
	ck_assert_uint_eq(otimage_ca_create("another CA", &key, &ca), OTA_OK);
	bio = BIO_new(BIO_s_mem());
	PEM_write_bio_X509(bio, ca);
	n = BIO_get_mem_data(bio, &pem);
	ck_assert_uint_eq(ota_trust_load_pem(pem, (size_t)n, &other), OTA_OK);
	ck_assert_uint_eq(verify(ev, ev_len, other, &v), OTA_VERIFY_CHAIN_UNTRUSTED);
	ck_assert(!v.authentic);
	ck_assert_uint_eq(verify(ev, ev_len, t, &v), OTA_OK);
	BIO_free(bio);
	X509_free(ca);
	EVP_PKEY_free(key);
	ota_trust_free(other);
	ota_trust_free(t);
}
END_TEST

/* The table itself: validity, keys, replacement, references. */
START_TEST(test_cache_keeps_only_valid_entries)
{
	struct ota_chain_cache *c = ota_chain_cache_new();
	struct ota_chain_facts in, out;
	uint8_t k1[32] = { 1 }, k2[32] = { 1, 0, 9 };
	time_t now = time(NULL);
	uint64_t hits, misses;

	ck_assert_ptr_nonnull(c);
	memset(&in, 0, sizeof(in));
	in.leaf = EVP_EC_gen("P-256");
	in.leaf_pubkey[0] = 0x42;
	ota_chain_cache_put(c, k1, &in, now - 10, now + 10);
	ck_assert(ota_chain_cache_get(c, k1, now, &out));
	ck_assert_uint_eq(out.leaf_pubkey[0], 0x42);
	ck_assert_ptr_eq(out.leaf, in.leaf);
	EVP_PKEY_free(out.leaf); /* the caller's reference */
	/* Outside the validity period: not answered. */
	ck_assert(!ota_chain_cache_get(c, k1, now + 11, &out));
	ck_assert(!ota_chain_cache_get(c, k1, now - 11, &out));
	/* Another key in the same slot replaces it; the first is gone. */
	ck_assert(!ota_chain_cache_get(c, k2, now, &out));
	ota_chain_cache_put(c, k2, &in, now - 10, now + 10);
	ck_assert(!ota_chain_cache_get(c, k1, now, &out));
	ck_assert(ota_chain_cache_get(c, k2, now, &out));
	EVP_PKEY_free(out.leaf);
	ota_chain_cache_stats(c, &hits, &misses);
	ck_assert_uint_eq(hits, 2);
	ck_assert_uint_eq(misses, 4);
	EVP_PKEY_free(in.leaf);
	ota_chain_cache_free(c); /* frees the cache's reference (ASan: no leak) */
}
END_TEST

static struct ota_trust *shared;

static void *verify_many(void *arg)
{
	struct ota_verdict *v = calloc(1, sizeof(*v));
	int i, bad = 0;

	(void)arg;
	for (i = 0; i < 50; i++)
		bad += verify(ev, ev_len, shared, v) != OTA_OK;
	free(v);
	return (void *)(intptr_t)bad;
}

START_TEST(test_threads_share_one_store)
{
	pthread_t th[4];
	void *bad;
	int i;

	shared = fresh_trust();
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, verify_many, NULL), 0);
	for (i = 0; i < 4; i++) {
		ck_assert_int_eq(pthread_join(th[i], &bad), 0);
		ck_assert_ptr_null(bad);
	}
	ota_trust_free(shared);
}
END_TEST

static Suite *cache_suite(void)
{
	Suite *s = suite_create("verify_cache");
	TCase *tc = tcase_create("cache");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_second_evidence_answered_from_memory);
	tcase_add_test(tc, test_memory_changes_no_verdict);
	tcase_add_test(tc, test_memory_is_per_trust_store);
	tcase_add_test(tc, test_cache_keeps_only_valid_entries);
	tcase_add_test(tc, test_threads_share_one_store);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(cache_suite)
