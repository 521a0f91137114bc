// SPDX-License-Identifier: MIT
/*
 * bench_chain: what the SVN key chain and attestation cost on the
 * software HAL, each against a baseline measured in the same run:
 *
 *   chain-128  the worst-case crank: 128 KMAC KDF steps, each keyed with
 *              the link above and destroying it (hal_keymgr_derive, as the
 *              chain does), against one KDF step
 *   attest     one ATTEST (claims, record digest, Sig_structure hash,
 *              ES256 sign by the retained alias key, COSE framing),
 *              against one hal_ecdsa_sign
 *   verify     one host ota_verify_evidence (strict CBOR, X.509 chain,
 *              ES256, claims, policy), against one OpenSSL ECDSA verify
 *
 * Wall time is the median of many runs; instruction counts come from
 * callgrind (valgrind --collect-atstart=no, toggled around exactly one
 * operation in a child run of this program) when valgrind is installed.
 * Never part of `make test`: timings depend on the machine.
 *
 *   bench_chain [--quick]         (make bench-chain)
 *   bench_chain --once OP         one operation, collected by callgrind
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <valgrind/callgrind.h>

#include "../unit/test_evidence_fixture.h"

#define CHAIN_STEPS OTA_CHAIN_DEFAULT_MAX_SVN
#define MAX_RUNS 401

static const uint8_t nonce[32] = "bench-chain nonce, 32 bytes ...";
static struct evfix f;
static uint8_t ev[OTA_EVIDENCE_MAX_BYTES];
static uint32_t ev_len;
static int runs = 201;
static const char *once_op;
static const char *self;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* ---- the operations --------------------------------------------------- */

static hal_key_t chain_top(void)
{
	hal_key_t root = hal_keymgr_root(), top;

	ck_assert_uint_eq(hal_keymgr_derive(root, "otattest-bench-chain-top", NULL, 0, 0, 0,
					    HAL_KEY_KIND_SYMMETRIC, &top),
			  OTA_OK);
	return top;
}

/* n chain links below `top`: each step keyed with the one above. */
static void crank(hal_key_t top, uint32_t n)
{
	hal_key_t link = top, next;
	uint32_t svn;

	for (svn = n; svn > 0; svn--) {
		uint8_t ctx[4] = { (uint8_t)svn, (uint8_t)(svn >> 8), 0, 0 };

		ck_assert_uint_eq(hal_keymgr_derive(link, "otattest-svn-chain", ctx, sizeof(ctx), 0,
						    0, HAL_KEY_KIND_SYMMETRIC, &next),
				  OTA_OK);
		if (link != top)
			hal_key_destroy(link);
		link = next;
	}
	if (link != top)
		hal_key_destroy(link);
}

static hal_key_t sign_key;
static EVP_PKEY *ossl_key;
static uint8_t ossl_sig[80];
static size_t ossl_sig_len;

static void op(const char *name, hal_key_t top)
{
	if (!strcmp(name, "kdf-1")) {
		crank(top, 1);
	} else if (!strcmp(name, "chain-128")) {
		crank(top, CHAIN_STEPS);
	} else if (!strcmp(name, "ecdsa-sign")) {
		uint8_t digest[32] = { 1 }, sig[64];

		ck_assert_uint_eq(hal_ecdsa_sign(sign_key, digest, sig), OTA_OK);
	} else if (!strcmp(name, "attest")) {
		ck_assert_uint_eq(ota_rt_attest(&f.bs, ota_runtime_current(&f.bs), nonce,
						sizeof(nonce), ev, sizeof(ev), &ev_len),
				  OTA_OK);
	} else if (!strcmp(name, "ossl-verify")) {
		static const uint8_t digest[32] = { 2 };
		EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(ossl_key, NULL);

		ck_assert_int_eq(EVP_PKEY_verify_init(c), 1);
		ck_assert_int_eq(EVP_PKEY_verify(c, ossl_sig, ossl_sig_len, digest, 32), 1);
		EVP_PKEY_CTX_free(c);
	} else if (!strcmp(name, "verify")) {
		static struct ota_verdict v;

		ck_assert_uint_eq(ota_verify_evidence(ev, ev_len, f.trust, nonce, sizeof(nonce), NULL,
						      NULL, 0, &v),
				  OTA_OK);
	} else {
		ck_abort_msg("unknown operation %s", name);
	}
}

static void setup_all(hal_key_t *top)
{
	static const uint8_t digest[32] = { 2 };
	EVP_PKEY_CTX *c;

	evfix_open(&f, EVFIX_IDCERT_OURS);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT), OTA_OK);
	*top = chain_top();
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_root(), "otattest-bench-sign", NULL, 0, 0, 0,
					    HAL_KEY_KIND_ECDSA_P256, &sign_key),
			  OTA_OK);
	ck_assert_uint_eq(ota_runtime_prepare(&f.bs), OTA_OK);
	op("attest", *top); /* evidence for the verify runs */

	ossl_key = EVP_EC_gen("P-256");
	c = EVP_PKEY_CTX_new(ossl_key, NULL);
	ossl_sig_len = sizeof(ossl_sig);
	ck_assert_int_eq(EVP_PKEY_sign_init(c), 1);
	ck_assert_int_eq(EVP_PKEY_sign(c, ossl_sig, &ossl_sig_len, digest, 32), 1);
	EVP_PKEY_CTX_free(c);
}

static double median_us(const char *name, hal_key_t top)
{
	static double t[MAX_RUNS];
	int i, n = runs;

	if (!strcmp(name, "chain-128"))
		n = runs / 4 + 1;
	for (i = 0; i < n; i++) {
		double t0 = now_us();

		op(name, top);
		t[i] = now_us() - t0;
	}
	qsort(t, (size_t)n, sizeof(t[0]), cmp_double);
	return t[n / 2];
}

/* Instructions of one operation, from a callgrind child; 0 if unavailable. */
static unsigned long long instructions(const char *name)
{
	char cmd[8192], line[512];
	unsigned long long ir = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file=/dev/null "
		 "'%s' --once %s 2>&1",
		 self, name);
	p = popen(cmd, "r");
	if (!p)
		return 0;
	while (fgets(line, sizeof(line), p))
		if (strstr(line, "Collected :"))
			ir = strtoull(strstr(line, "Collected :") + 11, NULL, 10);
	if (pclose(p) != 0)
		return 0;
	return ir;
}

START_TEST(bench)
{
	static const struct {
		const char *op, *baseline, *what;
	} rows[] = {
		{ "chain-128", "kdf-1", "SVN key chain, worst case (128 KDF steps)" },
		{ "attest", "ecdsa-sign", "one attestation (ATTEST)" },
		{ "verify", "ossl-verify", "host evidence verification" },
	};
	bool have_valgrind = system("valgrind --version >/dev/null 2>&1") == 0;
	hal_key_t top;
	size_t i;

	setup_all(&top);
	if (once_op) {
		CALLGRIND_TOGGLE_COLLECT;
		op(once_op, top);
		CALLGRIND_TOGGLE_COLLECT;
		return;
	}
	printf("bench-chain: software HAL over %s, %d runs per figure (median)\n",
	       OpenSSL_version(OPENSSL_VERSION), runs);
	printf("%-44s %12s %12s %8s %14s %14s %8s\n", "operation", "time us", "baseline us",
	       "ratio", "instructions", "baseline", "ratio");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double t = median_us(rows[i].op, top), b = median_us(rows[i].baseline, top);
		unsigned long long it = have_valgrind ? instructions(rows[i].op) : 0;
		unsigned long long ib = have_valgrind ? instructions(rows[i].baseline) : 0;

		printf("%-44s %12.1f %12.1f %8.2f", rows[i].what, t, b, t / b);
		if (it && ib)
			printf(" %14llu %14llu %8.2f\n", it, ib, (double)it / (double)ib);
		else
			printf(" %14s %14s %8s\n", "-", "-", "-");
		printf("%-44s   baseline: %s\n", "", rows[i].baseline);
	}
	printf("chain-128 per step: %.2f us; attest evidence %u bytes\n",
	       median_us("chain-128", top) / CHAIN_STEPS, ev_len);
	if (!have_valgrind)
		printf("(valgrind not installed: no instruction counts)\n");
	hal_key_destroy(top);
	hal_key_destroy(sign_key);
	EVP_PKEY_free(ossl_key);
	evfix_close(&f);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("bench_chain");
	TCase *tc = tcase_create("bench");
	SRunner *sr;
	int failed;

	self = argv[0];
	if (argc == 2 && !strcmp(argv[1], "--quick"))
		runs = 41;
	else if (argc == 3 && !strcmp(argv[1], "--once"))
		once_op = argv[2];
	else if (argc != 1) {
		fprintf(stderr, "usage: bench_chain [--quick] | --once OP\n");
		return 2;
	}
	tcase_set_timeout(tc, 0);
	tcase_add_test(tc, bench);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
