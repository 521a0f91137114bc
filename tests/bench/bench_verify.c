// SPDX-License-Identifier: MIT
/*
 * make bench-verify: what host evidence verification costs against the
 * cryptography it cannot avoid, all measured in the same run.
 *
 * Evidence comes from the firmware's runtime on the software HAL (the
 * fixture of tests/unit/test_evidence_fixture.h: a device with an identity
 * certificate from a fresh CA), one ATTEST per nonce. Timed, in
 * interleaved rounds (median):
 *
 *   first      ota_verify_evidence of a chain the trust store has not seen
 *              (a trust store loaded for each run, outside the timing): a
 *              new device, through the fast path (chain_fast.h)
 *   crl        the same with a CRL of the CA in the store (listing another
 *              serial): the identity checked against it
 *   openssl    the same with the fast path declining (a store whose fast
 *              path has no root), so OpenSSL's path validation decides:
 *              what every chain first seen cost before the fast path
 *   alias      a known device's new alias certificate: the identity
 *              certificate remembered by the store, the chain not
 *   again      the same device's next evidence: its chain is remembered
 *   floor-3    what the first must do at least: the three ECDSA P-256
 *              verifications (CA -> identity, identity -> alias
 *              certificate, alias key -> evidence), by OpenSSL on objects
 *              already decoded, and the SHA-256 that names the chain
 *   floor-2    what a new alias certificate must do at least: identity ->
 *              alias certificate, the evidence's signature, the SHA-256
 *   floor-1    what the next must do at least: the evidence's signature
 *              and that SHA-256
 *   decoding   OpenSSL decoding the chain's two certificates (d2i_X509),
 *              which a chain first seen cannot avoid either
 *
 * Then the streaming mode: the tool itself (build/otattest-verify --batch)
 * on a directory of evidences (each with its nonce beside it), with one
 * worker thread and with one per CPU: evidences per second, per thread
 * and per CPU-second (the tool's own summary, wall clock and getrusage).
 * Never part of `make test`.
 *
 *   bench_verify [--quick]
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/x509.h>

#include <otattest/cbor.h>
#include <otu/file.h>
#include <otu/hex.h>

#include "../unit/test_evidence_fixture.h"
/* Internal: the fast path's counters, and a store without it for comparison. */
#include "../../libotattest/src/host/chain_fast.h"
#include "bench_util.h"
#include "tu_crl.h"
#include "tu_main.h"

#define MAX_ROUNDS 41
#define EVIDENCES 16 /* distinct nonces, cycled through */

static int rounds = 21, batch_count = 2000;
static struct evfix f;
static uint8_t ev[EVIDENCES][OTA_EVIDENCE_MAX_BYTES];
static uint32_t ev_len[EVIDENCES];
static uint8_t nonce[EVIDENCES][32];

/* This thread's CPU time: other programs on a shared machine do not count. */
static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* ---- the floor: OpenSSL on decoded objects ------------------------------------- */

struct floor_inputs {
	X509 *alias, *identity, *ca;
	EVP_PKEY *alias_key, *identity_key, *ca_key;
	uint8_t tbs[OTA_EVIDENCE_MAX_BYTES + 64]; /* the evidence's Sig_structure */
	size_t tbs_len;
	uint8_t sig_der[80];
	size_t sig_der_len;
	struct ota_cose_sign1 m;
};

static X509 *x509_of(const uint8_t *der, size_t len)
{
	const unsigned char *p = der;
	X509 *x = d2i_X509(NULL, &p, (long)len);

	ck_assert_ptr_nonnull(x);
	return x;
}

static void floor_setup(struct floor_inputs *fi, const uint8_t *e, size_t len)
{
	uint32_t prefix_len;
	ECDSA_SIG *sig = ECDSA_SIG_new();
	unsigned char *p;

	ck_assert_uint_eq(ota_cose_sign1_decode(e, len, &fi->m), OTA_OK);
	ck_assert_uint_ge(fi->m.cert_count, 2);
	fi->alias = x509_of(fi->m.certs[0], fi->m.cert_lens[0]);
	fi->identity = x509_of(fi->m.certs[1], fi->m.cert_lens[1]);
	fi->ca = X509_dup(f.ca);
	fi->alias_key = X509_get_pubkey(fi->alias);
	fi->identity_key = X509_get_pubkey(fi->identity);
	fi->ca_key = X509_get_pubkey(fi->ca);
	ck_assert_uint_eq(ota_cose_sig1_prefix(fi->m.protected_hdr, (uint32_t)fi->m.protected_len,
					       (uint32_t)fi->m.payload_len, fi->tbs,
					       sizeof(fi->tbs), &prefix_len),
			  OTA_OK);
	memcpy(fi->tbs + prefix_len, fi->m.payload, fi->m.payload_len);
	fi->tbs_len = prefix_len + fi->m.payload_len;
	ck_assert_int_eq(ECDSA_SIG_set0(sig, BN_bin2bn(fi->m.signature, 32, NULL),
					BN_bin2bn(fi->m.signature + 32, 32, NULL)),
			 1);
	p = fi->sig_der;
	fi->sig_der_len = (size_t)i2d_ECDSA_SIG(sig, &p);
	ECDSA_SIG_free(sig);
}

static void floor_free(struct floor_inputs *fi)
{
	X509_free(fi->alias);
	X509_free(fi->identity);
	X509_free(fi->ca);
	EVP_PKEY_free(fi->alias_key);
	EVP_PKEY_free(fi->identity_key);
	EVP_PKEY_free(fi->ca_key);
}

/* The evidence signature (ES256 over the Sig_structure), as OpenSSL checks it. */
static void floor_evidence_sig(const struct floor_inputs *fi)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();

	ck_assert_int_eq(EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, fi->alias_key), 1);
	ck_assert_int_eq(EVP_DigestVerify(md, fi->sig_der, fi->sig_der_len, fi->tbs, fi->tbs_len), 1);
	EVP_MD_CTX_free(md);
}

/* The SHA-256 that names the chain (what a remembered chain costs to find). */
static void floor_chain_hash(const struct floor_inputs *fi)
{
	uint8_t d[OTA_SHA256_BYTES];
	struct ota_sha256 c;
	uint32_t i;

	ota_sha256_init(&c);
	for (i = 0; i < fi->m.cert_count; i++)
		ota_sha256_update(&c, fi->m.certs[i], fi->m.cert_lens[i]);
	ota_sha256_final(&c, d);
}

/*
 * What bounds a chain first seen beyond its signatures: OpenSSL 3.0
 * decoding its two certificates (d2i_X509, the key included), which the
 * verifier must do once per chain whatever it does after.
 */
static double time_decode(const struct floor_inputs *fi)
{
	double t0 = now_us();
	uint32_t i;

	for (i = 0; i < 2; i++)
		X509_free(x509_of(fi->m.certs[i], fi->m.cert_lens[i]));
	return now_us() - t0;
}

/* The floor of `verifies` ECDSA verifications (3, 2 or 1) and the chain's SHA-256. */
static double time_floor(const struct floor_inputs *fi, int verifies)
{
	double t0 = now_us();

	if (verifies >= 3)
		ck_assert_int_eq(X509_verify(fi->identity, fi->ca_key), 1);
	if (verifies >= 2)
		ck_assert_int_eq(X509_verify(fi->alias, fi->identity_key), 1);
	floor_evidence_sig(fi);
	floor_chain_hash(fi);
	return now_us() - t0;
}

/* ---- the library ---------------------------------------------------------------- */

static double time_verify(const struct ota_trust *t, int i)
{
	static struct ota_verdict v;
	double t0 = now_us();
	ota_status_t st = ota_verify_evidence(ev[i], ev_len[i], t, nonce[i], sizeof(nonce[i]), NULL,
					      NULL, 0, &v);

	ck_assert_msg(st == OTA_OK, "the fixture's evidence does not verify: %s (%s)",
		      ota_status_name(st), v.failure_count ? v.failures[0].detail : "");
	return now_us() - t0;
}

static struct ota_trust *fresh_trust(void)
{
	struct ota_trust *t;

	ck_assert_uint_eq(ota_trust_load_pem(f.ca_pem, f.ca_pem_len, &t), OTA_OK);
	return t;
}

/* A store whose fast path has no root: every chain goes to OpenSSL's path validation. */
static struct ota_trust *openssl_only_trust(void)
{
	struct ota_trust *t = fresh_trust();
	X509_STORE *empty = X509_STORE_new();

	ota_fast_set_anchors(ota_trust_fast(t), empty);
	X509_STORE_free(empty);
	return t;
}

/* A store with a CRL of the CA that lists another certificate. */
static struct ota_trust *crl_trust(void)
{
	struct ota_trust *t = fresh_trust();
	size_t len;
	char *pem = tu_crl_pem(f.ca_key, f.ca, X509_get0_serialNumber(f.ca), 7, &len);

	ck_assert_uint_eq(ota_trust_add_crl_pem(t, pem, len), OTA_OK);
	free(pem);
	return t;
}

/* A store that knows the device's identity certificate but not the chain. */
static struct ota_trust *identity_known_trust(const struct floor_inputs *fi)
{
	struct ota_trust *t = fresh_trust();
	struct ota_chain_facts facts = { 0 };
	time_t nb, na;

	ck_assert(ota_fast_verify(ota_trust_fast(t), fi->m.certs, fi->m.cert_lens, 2,
				  time(NULL), &facts, &nb, &na));
	EVP_PKEY_free(facts.leaf);
	return t;
}

/* The fast path did what the row says it measures. */
static void fast_did(const struct ota_trust *t, uint64_t accepted, uint64_t identities)
{
	struct ota_fast_stats s;

	ota_trust_fast_stats(t, &s);
	ck_assert_uint_eq(s.accepted, accepted);
	ck_assert_uint_eq(s.identities, identities);
}

static void row(const char *name, double us, double base)
{
	printf("  %-52s %9.1f us %7.2fx\n", name, us, us / base);
}

/* ---- streaming ------------------------------------------------------------------- */

static char dir[] = "/tmp/bench_verify.XXXXXX";

static void write_batch(void)
{
	char path[4200], hex[2 * sizeof(nonce[0]) + 2];
	int i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ev", dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	for (i = 0; i < batch_count; i++) {
		int k = i % EVIDENCES;

		snprintf(path, sizeof(path), "%s/ev/%05d.cose", dir, i);
		ck_assert_int_eq(otu_write_file_atomic(path, ev[k], ev_len[k], 0644, OTU_WRITE_NO_SYNC),
				 0);
		otu_hex_encode(hex, nonce[k], sizeof(nonce[k]));
		snprintf(path, sizeof(path), "%s/ev/%05d.nonce", dir, i);
		ck_assert_int_eq(otu_write_file_atomic(path, hex, strlen(hex), 0644, OTU_WRITE_NO_SYNC),
				 0);
	}
	snprintf(path, sizeof(path), "%s/ca.pem", dir);
	ck_assert_int_eq(otu_write_file_atomic(path, f.ca_pem, f.ca_pem_len, 0644, OTU_WRITE_NO_SYNC),
			 0);
}

/* The tool's summary line for one run with `jobs` threads; false when it could not run. */
static bool run_batch(const char *tool, unsigned int jobs, char *summary, size_t cap)
{
	char cmd[8700];
	FILE *p;
	bool ok = false;

	snprintf(cmd, sizeof(cmd),
		 "'%s' --batch -q --jobs %u --ca '%s/ca.pem' --nonce-files '%s/ev' && "
		 "'%s' --batch --jobs %u --ca '%s/ca.pem' --nonce-files '%s/ev' 2>&1 >/dev/null",
		 tool, jobs, dir, dir, tool, jobs, dir, dir);
	p = popen(cmd, "r");
	if (p == NULL)
		return false;
	while (fgets(summary, (int)cap, p))
		ok = strstr(summary, " evidences: ") != NULL;
	return pclose(p) == 0 && ok;
}

/* "... N evidences/s, M per CPU-second" from the tool's summary. */
static bool rates(const char *summary, double *per_s, double *per_cpu_s)
{
	const char *p = strstr(summary, "threads, ");

	return p && sscanf(p, "threads, %lf evidences/s, %lf per CPU-second", per_s, per_cpu_s) == 2;
}

static void bench_streaming(void)
{
	static const char tool[] = "build/otattest-verify";
	char summary[512], cmd[4300];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int jobs[2] = { 1, ncpu > 1 ? (unsigned int)ncpu : 1u };
	int i;

	printf("streaming: %s --batch --nonce-files over %d evidences of one device "
	       "(every chain after the first remembered)\n",
	       tool, batch_count);
	if (access(tool, X_OK) != 0) {
		printf("  skipped: %s is not built (make %s)\n", tool, tool);
		return;
	}
	write_batch();
	for (i = 0; i < 2; i++) {
		double per_s, per_cpu;

		if (!run_batch(tool, jobs[i], summary, sizeof(summary)) ||
		    !rates(summary, &per_s, &per_cpu)) {
			printf("  %u threads: the tool failed: %s", jobs[i], summary);
			continue;
		}
		printf("  %u thread%s: %8.0f evidences/s, %6.0f per thread, %6.0f per CPU-second\n",
		       jobs[i], jobs[i] > 1 ? "s" : " ", per_s, per_s / jobs[i], per_cpu);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_verify: could not remove %s\n", dir);
}

/* ---- the run ---------------------------------------------------------------------- */

START_TEST(bench)
{
	static double first[MAX_ROUNDS], withcrl[MAX_ROUNDS], slow[MAX_ROUNDS], alias[MAX_ROUNDS], again[MAX_ROUNDS],
		floor3[MAX_ROUNDS], floor2[MAX_ROUNDS], floor1[MAX_ROUNDS], decode[MAX_ROUNDS];
	struct ota_trust *warm, *cold[MAX_ROUNDS], *crl[MAX_ROUNDS], *ossl[MAX_ROUNDS],
		*known[MAX_ROUNDS];
	struct floor_inputs fi;
	double f3, f2, f1;
	uint32_t len;
	int i, r;

	evfix_open(&f, EVFIX_IDCERT_OURS);
	evfix_boot_runtime(&f);
	for (i = 0; i < EVIDENCES; i++) {
		memset(nonce[i], 0x40 + i, sizeof(nonce[i]));
		len = 0;
		ck_assert_uint_eq(ota_rt_attest(&f.bs, ota_runtime_current(&f.bs), nonce[i],
						sizeof(nonce[i]), ev[i], sizeof(ev[i]), &len),
				  OTA_OK);
		ev_len[i] = len;
	}
	floor_setup(&fi, ev[0], ev_len[0]);

	warm = fresh_trust();
	time_verify(warm, 0); /* the chain is remembered from here on */
	for (r = 0; r < rounds; r++) {
		cold[r] = fresh_trust();
		crl[r] = crl_trust();
		ossl[r] = openssl_only_trust();
		known[r] = identity_known_trust(&fi);
	}
	for (r = 0; r < rounds; r++) {
		first[r] = time_verify(cold[r], r % EVIDENCES);
		withcrl[r] = time_verify(crl[r], r % EVIDENCES);
		slow[r] = time_verify(ossl[r], r % EVIDENCES);
		alias[r] = time_verify(known[r], r % EVIDENCES);
		again[r] = time_verify(warm, (r + 1) % EVIDENCES);
		floor3[r] = time_floor(&fi, 3);
		floor2[r] = time_floor(&fi, 2);
		floor1[r] = time_floor(&fi, 1);
		decode[r] = time_decode(&fi);
	}
	for (r = 0; r < rounds; r++) {
		fast_did(cold[r], 1, 1);
		fast_did(crl[r], 1, 1);
		fast_did(ossl[r], 0, 0);
		fast_did(known[r], 2, 1);
		ota_trust_free(cold[r]);
		ota_trust_free(crl[r]);
		ota_trust_free(ossl[r]);
		ota_trust_free(known[r]);
	}
	ota_trust_free(warm);

	f3 = bench_median(floor3, rounds);
	f2 = bench_median(floor2, rounds);
	f1 = bench_median(floor1, rounds);
	printf("bench_verify: host evidence verification against the cryptography in it "
	       "(median of %d interleaved rounds)\n",
	       rounds);
	printf("a chain the trust store has not seen (a new device)\n");
	row("floor: 3 ECDSA P-256 verifies + SHA-256 of the chain", f3, f3);
	row("ota_verify_evidence (the fast path)", bench_median(first, rounds), f3);
	row("  the same, the CA's CRL in the store", bench_median(withcrl, rounds), f3);
	row("ota_verify_evidence, OpenSSL's path validation", bench_median(slow, rounds), f3);
	row("  of which OpenSSL decoding 2 certificates (d2i_X509)", bench_median(decode, rounds), f3);
	printf("  %-52s %12s %7.2fx\n", "OpenSSL's path validation / the fast path", "",
	       bench_median(slow, rounds) / bench_median(first, rounds));
	printf("a known device's new alias certificate (identity certificate remembered)\n");
	row("floor: 2 ECDSA P-256 verifies + SHA-256 of the chain", f2, f2);
	row("ota_verify_evidence", bench_median(alias, rounds), f2);
	printf("the same device's next evidence (chain remembered by the trust store)\n");
	row("floor: 1 ECDSA P-256 verify + SHA-256 of the chain", f1, f1);
	row("ota_verify_evidence", bench_median(again, rounds), f1);
	floor_free(&fi);
	evfix_close(&f);
	bench_streaming();
}
END_TEST

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--quick")) {
		rounds = 7;
		batch_count = 400;
	} else if (argc != 1) {
		fprintf(stderr, "usage: bench_verify [--quick]\n");
		return 2;
	}
	return tu_run_in_process("bench_verify", bench);
}
