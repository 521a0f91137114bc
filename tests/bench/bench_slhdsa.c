// SPDX-License-Identifier: MIT
/*
 * bench_slhdsa: SLH-DSA-SHA2-128s verify and sign
 *  - against their hash floor: the SHA-256 compressions each operation
 *    makes (counted by wrapping the backend's entry points, see build.mk)
 *    times one compression with the CPU's SHA instructions, timed in the
 *    same rounds;
 *  - signing with each SHA-256 backend this CPU has (portable C, SHA
 *    extensions, AVX2 or AVX-512 lanes): the measurement that decides
 *    which the library uses;
 *  - against OpenSSL ECDSA P-256 verify of the same message and the
 *    independent JavaScript implementation (noble), in the same run;
 *  - callgrind instruction counts of one verify each when valgrind is
 *    installed; our SHA-256 against OpenSSL's; one F call.
 * Times are the benchmark thread's CPU time (noble's are node's wall
 * time). Never part of `make test`: numbers depend on the machine.
 *
 *   bench_slhdsa [--quick]        (make bench-slhdsa)
 *   bench_slhdsa --once WHAT LEN DIR   one operation, for callgrind
 */
#include <errno.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "otattest/sha256.h"
#include "bench_util.h"
#include "otattest/slhdsa.h"
/* Internal: the backend (to count and choose) and one F call. */
#include "../../libotattest/src/core/sha256_backend.h"
#include "../../libotattest/src/core/slhdsa_internal.h"

#define MAX_RUNS 2001

/*
 * Compressions, counted: the link wraps the backend's entry points
 * (-Wl,--wrap, tests/bench/build.mk), so every call from the library
 * passes here. Lanes count one compression each.
 */
static unsigned long long compressions;

void __real_ota_sha256_compress(uint32_t h[8], const uint8_t *blocks, size_t n);
void __real_ota_sha256_compress_lanes(struct ota_sha256_lanes *l, unsigned int n);
void __real_ota_sha256_finish_trunc16(const uint32_t h[8], uint64_t done_len, const uint8_t *a,
				      size_t a_len, const uint8_t *b, size_t b_len, uint8_t out[16]);
void __wrap_ota_sha256_finish_trunc16(const uint32_t h[8], uint64_t done_len, const uint8_t *a,
				      size_t a_len, const uint8_t *b, size_t b_len, uint8_t out[16]);
void __wrap_ota_sha256_compress(uint32_t h[8], const uint8_t *blocks, size_t n);
void __wrap_ota_sha256_compress_lanes(struct ota_sha256_lanes *l, unsigned int n);

void __wrap_ota_sha256_compress(uint32_t h[8], const uint8_t *blocks, size_t n)
{
	compressions += n;
	__real_ota_sha256_compress(h, blocks, n);
}

void __wrap_ota_sha256_compress_lanes(struct ota_sha256_lanes *l, unsigned int n)
{
	compressions += n;
	__real_ota_sha256_compress_lanes(l, n);
}

void __wrap_ota_sha256_finish_trunc16(const uint32_t h[8], uint64_t done_len, const uint8_t *a,
				      size_t a_len, const uint8_t *b, size_t b_len, uint8_t out[16])
{
	compressions++; /* one block: its callers' a and b fit in one */
	__real_ota_sha256_finish_trunc16(h, done_len, a, a_len, b, b_len, out);
}

/*
 * This thread's CPU time: on a machine others are using too, time spent
 * in other programs does not count against either side of a ratio.
 */
static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void die(const char *what)
{
	fprintf(stderr, "bench_slhdsa: %s\n", what);
	exit(1);
}

/* Deterministic message bytes: benchmarks compare like with like. */
static uint8_t *make_msg(size_t len)
{
	uint8_t *m = malloc(len ? len : 1);
	size_t i;

	if (!m)
		die("out of memory");
	for (i = 0; i < len; i++)
		m[i] = (uint8_t)(i * 131u + (i >> 9));
	return m;
}

/* --- the baseline: OpenSSL ECDSA P-256 over SHA-256 ------------------------ */

struct ecdsa {
	EVP_PKEY *key;
	unsigned char sig[80];
	size_t sig_len;
};

static void ecdsa_setup(struct ecdsa *e, const uint8_t *msg, size_t len)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();

	e->key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	e->sig_len = sizeof(e->sig);
	if (!md || !e->key || EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, e->key) != 1 ||
	    EVP_DigestSign(md, e->sig, &e->sig_len, msg, len) != 1)
		die("OpenSSL ECDSA P-256 setup failed");
	EVP_MD_CTX_free(md);
}

/* One full verify as a boot stage would do it: context, digest, check. */
int bench_ecdsa_verify_once(const struct ecdsa *e, const uint8_t *msg, size_t len);
int bench_ecdsa_verify_once(const struct ecdsa *e, const uint8_t *msg, size_t len)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	int ok = md && EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, e->key) == 1 &&
		 EVP_DigestVerify(md, e->sig, e->sig_len, msg, len) == 1;

	EVP_MD_CTX_free(md);
	return ok;
}

ota_status_t bench_slhdsa_verify_once(const uint8_t *pk, const uint8_t *msg, size_t len,
				      const uint8_t *sig);
ota_status_t bench_slhdsa_verify_once(const uint8_t *pk, const uint8_t *msg, size_t len,
				      const uint8_t *sig)
{
	return ota_slhdsa_verify(pk, msg, len, sig);
}

struct slh {
	uint8_t pk[OTA_SLHDSA_PK_BYTES];
	uint8_t sk[OTA_SLHDSA_SK_BYTES];
	uint8_t sig[OTA_SLHDSA_SIG_BYTES];
};

static void slh_setup(struct slh *s, const uint8_t *msg, size_t len)
{
	uint8_t seeds[48];
	unsigned int i;

	for (i = 0; i < sizeof(seeds); i++)
		seeds[i] = (uint8_t)(i * 37u + 11u);
	ota_slhdsa_keygen(seeds, seeds + 16, seeds + 32, s->pk, s->sk);
	ota_slhdsa_sign(s->sk, msg, len, NULL, s->sig);
}

static int write_blob(const char *dir, const char *name, const void *p, size_t n);

/* --- timing ---------------------------------------------------------------- */

static double time_ecdsa(const struct ecdsa *e, const uint8_t *msg, size_t len, int runs)
{
	static double t[MAX_RUNS];
	int i;

	for (i = 0; i < runs; i++) {
		double t0 = now_us();

		if (!bench_ecdsa_verify_once(e, msg, len))
			die("ECDSA baseline failed to verify");
		t[i] = now_us() - t0;
	}
	return bench_median(t, runs);
}

static double time_slh_verify(const struct slh *s, const uint8_t *msg, size_t len, int runs)
{
	static double t[MAX_RUNS];
	int i;

	for (i = 0; i < runs; i++) {
		double t0 = now_us();

		if (bench_slhdsa_verify_once(s->pk, msg, len, s->sig) != OTA_OK)
			die("SLH-DSA signature failed to verify");
		t[i] = now_us() - t0;
	}
	return bench_median(t, runs);
}

static double time_slh_sign(const struct slh *s, const uint8_t *msg, size_t len, int runs)
{
	static uint8_t sig[OTA_SLHDSA_SIG_BYTES];
	static double t[MAX_RUNS];
	int i;

	for (i = 0; i < runs; i++) {
		double t0 = now_us();

		ota_slhdsa_sign(s->sk, msg, len, NULL, sig);
		t[i] = now_us() - t0;
	}
	if (memcmp(sig, s->sig, sizeof(sig)) != 0)
		die("deterministic signing is not deterministic");
	return bench_median(t, runs);
}

/*
 * The independent JavaScript implementation the interop suite uses, timed
 * on the same key, message and signature; negative when unavailable.
 */
static double time_noble_verify(const struct slh *s, const uint8_t *msg, size_t len, int runs)
{
	static const char script[] = "tests/interop/slhdsa_noble.mjs";
	char dir[] = "/tmp/bench_slhdsa.XXXXXX", cmd[8192];
	double us = -1;
	FILE *p;

	if (access(script, R_OK) != 0 || access("tests/interop/node_modules", R_OK) != 0 ||
	    !mkdtemp(dir))
		return -1;
	if (write_blob(dir, "pk", s->pk, sizeof(s->pk)) && write_blob(dir, "msg", msg, len) &&
	    write_blob(dir, "sig", s->sig, sizeof(s->sig))) {
		snprintf(cmd, sizeof(cmd),
			 "node %s time-verify '%s/pk' '%s/msg' '%s/sig' --runs %d 2>/dev/null", script,
			 dir, dir, dir, runs);
		p = popen(cmd, "r");
		if (p) {
			if (fscanf(p, "%lf", &us) != 1)
				us = -1;
			if (pclose(p) != 0)
				us = -1;
		}
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_slhdsa: could not remove %s\n", dir);
	return us;
}

static void row(const char *name, double us, double base_us)
{
	if (us >= 10000)
		printf("  %-40s %10.1f ms %10.2fx\n", name, us / 1000, us / base_us);
	else
		printf("  %-40s %10.1f us %10.2fx\n", name, us, us / base_us);
}

static void bench_message(size_t len, int quick)
{
	uint8_t *msg = make_msg(len);
	struct ecdsa e;
	struct slh s;
	double base, verify, sign, noble;

	ecdsa_setup(&e, msg, len);
	slh_setup(&s, msg, len);
	/* Interleave a warm-up so neither side is measured cold. */
	time_ecdsa(&e, msg, len, 20);
	time_slh_verify(&s, msg, len, 5);

	base = time_ecdsa(&e, msg, len, quick ? 101 : 1001);
	verify = time_slh_verify(&s, msg, len, quick ? 31 : 301);
	sign = time_slh_sign(&s, msg, len, quick ? 1 : 5);
	noble = time_noble_verify(&s, msg, len, quick ? 11 : 51);
	printf("message %zu bytes (median; ratio = time / ECDSA P-256 verify)\n", len);
	row("OpenSSL ECDSA P-256 verify (baseline)", base, base);
	row("otattest SLH-DSA-SHA2-128s verify", verify, base);
	row("otattest SLH-DSA-SHA2-128s sign", sign, base);
	if (noble > 0)
		row("noble (JavaScript) SLH-DSA verify", noble, base);
	else
		printf("  %-40s skipped (node or tests/interop/node_modules missing)\n",
		       "noble (JavaScript) SLH-DSA verify");
	EVP_PKEY_free(e.key);
	free(msg);
}

/* --- the hash floor ----------------------------------------------------------- */

static const struct backend {
	unsigned int mask;
	const char *name;
} backends[] = {
	{ OTA_SHA256_IMPL_PORTABLE, "portable C" },
	{ OTA_SHA256_IMPL_SHANI, "SHA extensions, one lane at a time" },
	{ OTA_SHA256_IMPL_SHANI | OTA_SHA256_IMPL_AVX2, "SHA extensions + AVX2 lanes" },
	{ OTA_SHA256_IMPL_SHANI | OTA_SHA256_IMPL_AVX512, "SHA extensions + AVX-512 lanes" },
	{ OTA_SHA256_IMPL_AVX2, "portable + AVX2 lanes (no SHA ext.)" },
	{ OTA_SHA256_IMPL_AVX512, "portable + AVX-512 lanes (no SHA ext.)" },
};

static bool backend_runs(const struct backend *b)
{
	return (ota_sha256_impls_available() & b->mask) == b->mask;
}

/*
 * One compression with the CPU's SHA instructions: 1024 chained blocks
 * (64 KiB, one message's worth, as OpenSSL hashes), per block, not
 * counted; the median of 21 such runs, as a verify's sample is the median
 * of 21 verifies. Portable C when the CPU has no SHA extensions.
 */
static double time_compression_ns(const uint8_t *buf)
{
	unsigned int old = ota_sha256_impls_limit(OTA_SHA256_IMPL_SHANI);
	uint32_t h[8] = { 0 };
	double t[21];
	int i;

	for (i = 0; i < 21; i++) {
		double t0 = now_us();

		__real_ota_sha256_compress(h, buf, 1024);
		t[i] = (now_us() - t0) * 1000.0 / 1024.0;
	}
	ota_sha256_impls_limit(old);
	return bench_median(t, 21);
}

static unsigned long long count_compressions(const struct slh *s, const uint8_t *msg, size_t len,
					     int sign)
{
	static uint8_t sig[OTA_SLHDSA_SIG_BYTES];

	compressions = 0;
	if (sign)
		ota_slhdsa_sign(s->sk, msg, len, NULL, sig);
	else if (ota_slhdsa_verify(s->pk, msg, len, s->sig) != OTA_OK)
		die("SLH-DSA signature failed to verify");
	return compressions;
}

static void floor_row(const char *name, unsigned long long n, double comp_ns, double us)
{
	double floor_us = (double)n * comp_ns / 1000.0;

	if (us >= 10000)
		printf("  %-26s %9llu %10.1f ms %10.1f ms %8.2fx\n", name, n, floor_us / 1000,
		       us / 1000, us / floor_us);
	else
		printf("  %-26s %9llu %10.1f us %10.1f us %8.2fx\n", name, n, floor_us, us,
		       us / floor_us);
}

/* Verify for 10 ms of wall time: a clock that slowed while idle is back up after it. */
static void warm_up(const struct slh *s, const uint8_t *msg, size_t len)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		if (bench_slhdsa_verify_once(s->pk, msg, len, s->sig) != OTA_OK)
			die("SLH-DSA signature failed to verify");
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 10000000L);
}

/*
 * Verify (32 B and 64 KiB) and sign against compressions x one
 * compression, in interleaved rounds so a busy machine moves both sides.
 * Each round signs first, pauses and then verifies for 10 ms untimed: a
 * CPU that slows its clock while it runs AVX-512 code (signing's lanes),
 * or while it sleeps, takes milliseconds to speed up again, and neither
 * the compression nor the verifies may be timed at a slower clock (timed
 * first, the compression would be, which flatters the ratios). The
 * compression is timed beside each verify.
 */
static void bench_floor(int quick)
{
	enum { ROUNDS_MAX = 41 };
	static double comp[2 * ROUNDS_MAX], v32[ROUNDS_MAX], v64[ROUNDS_MAX], sg[ROUNDS_MAX];
	const struct timespec pause = { 0, 20 * 1000 * 1000 };
	uint8_t *m32 = make_msg(32), *m64 = make_msg(65536), *buf = make_msg(65536);
	static struct slh s32, s64;
	unsigned long long n_v32, n_v64, n_sign;
	int rounds = quick ? 5 : ROUNDS_MAX, r;
	double c;

	slh_setup(&s32, m32, 32);
	slh_setup(&s64, m64, 65536);
	n_v32 = count_compressions(&s32, m32, 32, 0);
	n_v64 = count_compressions(&s64, m64, 65536, 0);
	n_sign = count_compressions(&s32, m32, 32, 1);
	for (r = 0; r < rounds; r++) {
		sg[r] = time_slh_sign(&s32, m32, 32, 1);
		nanosleep(&pause, NULL);
		/* Back to full speed after the pause: 10 ms of verifying before anything is timed. */
		warm_up(&s32, m32, 32);
		comp[2 * r] = time_compression_ns(buf);
		v32[r] = time_slh_verify(&s32, m32, 32, 21);
		comp[2 * r + 1] = time_compression_ns(buf);
		v64[r] = time_slh_verify(&s64, m64, 65536, 21);
	}
	c = bench_median(comp, 2 * rounds);
	printf("hash floor: compressions x one compression with the SHA instructions "
	       "(%s), median of %d interleaved rounds\n",
	       (ota_sha256_impls_available() & OTA_SHA256_IMPL_SHANI) ? "SHA extensions"
								   : "none here: portable C",
	       rounds);
	printf("  one compression (1024 chained blocks): %.1f ns\n", c);
	printf("  %-26s %9s %13s %13s %9s\n", "operation", "compress.", "floor", "measured",
	       "ratio");
	floor_row("verify, 32-byte message", n_v32, c, bench_median(v32, rounds));
	floor_row("verify, 64 KiB message", n_v64, c, bench_median(v64, rounds));
	floor_row("sign, 32-byte message", n_sign, c, bench_median(sg, rounds));
	free(m32);
	free(m64);
	free(buf);
}

/* Sign and verify with each backend the CPU has, interleaved; ratio to the SHA extensions alone. */
static void bench_backends(int quick)
{
	enum { N = sizeof(backends) / sizeof(backends[0]), ROUNDS_MAX = 5 };
	static double sg[N][ROUNDS_MAX], vf[N][ROUNDS_MAX];
	uint8_t *msg = make_msg(32);
	static struct slh s;
	int rounds = quick ? 1 : 3, r;
	unsigned int i, old;
	double base_sign = 0, base_verify = 0;

	slh_setup(&s, msg, 32);
	for (r = 0; r < rounds; r++)
		for (i = 0; i < N; i++) {
			if (!backend_runs(&backends[i]))
				continue;
			old = ota_sha256_impls_limit(backends[i].mask);
			sg[i][r] = time_slh_sign(&s, msg, 32, 1);
			vf[i][r] = time_slh_verify(&s, msg, 32, 51);
			ota_sha256_impls_limit(old);
		}
	for (i = 0; i < N; i++)
		if (backends[i].mask == OTA_SHA256_IMPL_SHANI && backend_runs(&backends[i])) {
			base_sign = bench_median(sg[i], rounds);
			base_verify = bench_median(vf[i], rounds);
		}
	printf("SHA-256 backends, 32-byte message (median of %d interleaved rounds; ratio = time "
	       "/ SHA extensions alone)\n",
	       rounds);
	for (i = 0; i < N; i++) {
		double t_sign, t_verify;

		if (!backend_runs(&backends[i])) {
			printf("  %-40s not on this CPU\n", backends[i].name);
			continue;
		}
		t_sign = bench_median(sg[i], rounds);
		t_verify = bench_median(vf[i], rounds);
		if (base_sign > 0)
			printf("  %-40s sign %7.1f ms %6.2fx   verify %7.1f us %6.2fx\n",
			       backends[i].name, t_sign / 1000, t_sign / base_sign, t_verify,
			       t_verify / base_verify);
		else
			printf("  %-40s sign %7.1f ms   verify %7.1f us\n", backends[i].name,
			       t_sign / 1000, t_verify);
	}
	{
		unsigned int a = ota_sha256_impls_active();

		printf("  in use by default: %s, lanes through %s\n",
		       (a & OTA_SHA256_IMPL_SHANI) ? "SHA extensions" : "portable C",
		       (a & OTA_SHA256_IMPL_AVX512)  ? "AVX-512"
		       : (a & OTA_SHA256_IMPL_SHANI) ? "SHA extensions"
		       : (a & OTA_SHA256_IMPL_AVX2)  ? "AVX2"
						     : "portable C");
	}
	free(msg);
}

/* Where the time goes: SHA-256 throughput and the seeded midstate. */
static void bench_hash(int quick)
{
	enum { LEN = 65536 };
	static double t[MAX_RUNS];
	uint8_t *buf = make_msg(LEN), out[32];
	struct slh_ctx ctx;
	struct slh_adrs adrs;
	uint8_t in[SLH_N], block[64 + SLH_ADRSC_BYTES + SLH_N];
	double ossl, ours, with_mid, without_mid;
	unsigned int outlen;
	int i, runs = quick ? 51 : 301, j, calls = 10000;

	for (i = 0; i < runs; i++) {
		double t0 = now_us();

		EVP_Digest(buf, LEN, out, &outlen, EVP_sha256(), NULL);
		t[i] = now_us() - t0;
	}
	ossl = bench_median(t, runs);
	for (i = 0; i < runs; i++) {
		double t0 = now_us();

		ota_sha256(buf, LEN, out);
		t[i] = now_us() - t0;
	}
	ours = bench_median(t, runs);
	printf("SHA-256 of 64 KiB (median)\n");
	row("OpenSSL EVP SHA-256 (baseline)", ossl, ossl);
	row("otattest ota_sha256 (default backend)", ours, ossl);

	memset(in, 0x3c, sizeof(in));
	slh_ctx_init(&ctx, in, NULL);
	slh_adrs_zero(&adrs);
	memset(block, 0, sizeof(block));
	memcpy(block, in, SLH_N);
	for (i = 0; i < runs; i++) {
		double t0 = now_us();

		for (j = 0; j < calls; j++) {
			slh_adrs_set_hash(&adrs, (uint32_t)j);
			slh_F(&ctx, &adrs, in, in);
		}
		t[i] = (now_us() - t0) / calls;
	}
	with_mid = bench_median(t, runs);
	for (i = 0; i < runs; i++) {
		double t0 = now_us();

		for (j = 0; j < calls; j++) {
			/* The same F, hashing PK.seed || 0^48 again every time. */
			slh_adrs_set_hash(&adrs, (uint32_t)j);
			memcpy(block + 64, adrs.c, SLH_ADRSC_BYTES);
			memcpy(block + 64 + SLH_ADRSC_BYTES, in, SLH_N);
			ota_sha256(block, sizeof(block), out);
			memcpy(in, out, SLH_N);
		}
		t[i] = (now_us() - t0) / calls;
	}
	without_mid = bench_median(t, runs);
	printf("one F call (median over %d-call batches; ratio = time / with midstate)\n", calls);
	printf("  %-40s %10.1f ns %10.2fx\n", "F with the seeded midstate (baseline)",
	       with_mid * 1000, 1.0);
	printf("  %-40s %10.1f ns %10.2fx\n", "F hashing PK.seed || 0^48 each time",
	       without_mid * 1000, without_mid / with_mid);
	free(buf);
}

/* --- callgrind -------------------------------------------------------------- */

static int write_blob(const char *dir, const char *name, const void *p, size_t n)
{
	char path[4096];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		return 0;
	ok = fwrite(p, 1, n, f) == n;
	return fclose(f) == 0 && ok;
}

static int read_blob(const char *dir, const char *name, void *p, size_t n)
{
	char path[4096];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return 0;
	ok = fread(p, 1, n, f) == n;
	fclose(f);
	return ok;
}

/* Child side: set up outside the collected function, run it once. */
static int run_once(const char *what, size_t len, const char *dir)
{
	uint8_t *msg = make_msg(len);
	int rc = 1;

	if (strcmp(what, "ecdsa-verify") == 0) {
		struct ecdsa e;

		ecdsa_setup(&e, msg, len);
		rc = bench_ecdsa_verify_once(&e, msg, len) ? 0 : 1;
		EVP_PKEY_free(e.key);
	} else if (strcmp(what, "slhdsa-verify") == 0) {
		static struct slh s;

		/* Signing under valgrind would take minutes: the parent signed. */
		if (read_blob(dir, "pk", s.pk, sizeof(s.pk)) &&
		    read_blob(dir, "sig", s.sig, sizeof(s.sig)))
			rc = bench_slhdsa_verify_once(s.pk, msg, len, s.sig) == OTA_OK ? 0 : 1;
	}
	free(msg);
	return rc;
}

static long long callgrind_count(const char *self, const char *what, const char *fn, size_t len,
				 const char *dir)
{
	char cmd[8192], path[4096], line[256];
	long long ir = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/callgrind.%s", dir, what);
	snprintf(cmd, sizeof(cmd),
		 "valgrind --tool=callgrind --collect-atstart=no --toggle-collect=%s "
		 "--callgrind-out-file=%s '%s' --once %s %zu '%s' >/dev/null 2>&1",
		 fn, path, self, what, len, dir);
	if (system(cmd) != 0)
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "summary: %lld", &ir) == 1)
			break;
	fclose(f);
	return ir;
}

static void bench_callgrind(size_t len)
{
	char dir[] = "/tmp/bench_slhdsa.XXXXXX", self[4096], cmd[4200];
	uint8_t *msg = make_msg(len);
	long long ecdsa_ir, slh_ir;
	ssize_t n;
	static struct slh s;

	printf("callgrind instructions, one verify of %zu bytes (ratio = Ir / ECDSA P-256 Ir)\n",
	       len);
	if (system("valgrind --version >/dev/null 2>&1") != 0) {
		printf("  skipped: valgrind is not installed\n");
		free(msg);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0 || !mkdtemp(dir))
		die("cannot prepare the callgrind run");
	self[n] = '\0';
	slh_setup(&s, msg, len);
	if (!write_blob(dir, "pk", s.pk, sizeof(s.pk)) ||
	    !write_blob(dir, "sig", s.sig, sizeof(s.sig)))
		die("cannot write the callgrind inputs");

	ecdsa_ir = callgrind_count(self, "ecdsa-verify", "bench_ecdsa_verify_once", len, dir);
	slh_ir = callgrind_count(self, "slhdsa-verify", "bench_slhdsa_verify_once", len, dir);
	if (ecdsa_ir <= 0 || slh_ir <= 0) {
		printf("  failed: valgrind did not produce counts (see %s)\n", dir);
	} else {
		printf("  %-40s %13lld Ir %7.2fx\n", "OpenSSL ECDSA P-256 verify (baseline)", ecdsa_ir,
		       1.0);
		printf("  %-40s %13lld Ir %7.2fx\n", "otattest SLH-DSA-SHA2-128s verify", slh_ir,
		       (double)slh_ir / (double)ecdsa_ir);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "bench_slhdsa: could not remove %s\n", dir);
	}
	free(msg);
}

int main(int argc, char **argv)
{
	int quick = 0;

	if (argc == 5 && strcmp(argv[1], "--once") == 0)
		return run_once(argv[2], (size_t)strtoul(argv[3], NULL, 10), argv[4]);
	if (argc == 2 && strcmp(argv[1], "--quick") == 0)
		quick = 1;
	else if (argc != 1) {
		fprintf(stderr, "usage: bench_slhdsa [--quick]\n");
		return 2;
	}

	printf("bench_slhdsa: SLH-DSA-SHA2-128s (FIPS 205, pure, ctx \"\") against %s\n",
	       OPENSSL_VERSION_TEXT);
	bench_floor(quick);
	bench_backends(quick);
	bench_message(32, quick);
	bench_message(65536, quick);
	bench_hash(quick);
	bench_callgrind(32);
	bench_callgrind(65536);
	return 0;
}
