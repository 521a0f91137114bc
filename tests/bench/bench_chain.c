// SPDX-License-Identifier: MIT
/*
 * bench_chain: what the SVN key chain and attestation cost on a booted
 * device (tu_device: the real boot flow on the software HAL), each
 * against a baseline measured in the same run:
 *
 *   stable-0     the worst case of the chain: with min SVN 128, the stable
 *                key of SVN 0 (ota_keychain_stable_key: 128 KMAC KDF steps
 *                from the retained link, then the ECDSA derivation)
 *   vs kdf-1     one KDF step (hal_keymgr_derive from the retained link)
 *   boot-svn0    a cold boot of a BL0 at SVN 0: the chain is cranked all
 *                128 steps from its top
 *   vs boot-svn128  the same boot at SVN 128: no crank
 *   attest       one ATTEST through ota_fw_command (claims, digests, ES256
 *                by the retained alias key, COSE framing)
 *   vs ecdsa-sign   one hal_ecdsa_sign
 *   verify       one host ota_verify_evidence (strict CBOR, X.509 chain,
 *                ES256, claims, certified TCB, policy)
 *   vs ossl-verify  one OpenSSL ECDSA P-256 verify
 *
 * Wall time is the median of many runs; instruction counts come from
 * callgrind (--collect-atstart=no, toggled around exactly one operation in
 * a child run of this program) when valgrind is installed. Never part of
 * `make test`: timings depend on the machine.
 *
 *   bench_chain [--quick]         (make bench-chain)
 *   bench_chain --once OP         one operation, collected by callgrind
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <valgrind/callgrind.h>

#include <otattest/shm.h>
#include <otattest/verify.h>

#include "../../libotattest/tools/otimage/idcert.h"
#include "fw_run.h"
#include "handoff.h"
#include "runtime.h"
#include "hal.h"
#include "swhal.h"
#include "testutil.h"
#include "tu_device.h"

#define CHAIN_MAX OTA_CHAIN_DEFAULT_MAX_SVN
#define MAX_RUNS 401

static struct tu_device dev_top, dev_zero; /* BL0 at SVN 128 and at SVN 0 */
static const struct tu_device *powered;
static struct ota_trust *trust;
static struct ota_identity_cert_blob idblob; /* for dev_top, issued once */
static bool have_idblob;
static hal_key_t held_link = HAL_KEY_INVALID; /* the retained chain link, for kdf-1 */
static hal_key_t held_sign = HAL_KEY_INVALID; /* a stable key, for ecdsa-sign */
static uint8_t ev[OTA_SHM_RESPONSE_SIZE];
static uint32_t ev_len;
static struct ota_req_attest areq;
static EVP_PKEY *ossl_key;
static uint8_t ossl_sig[80];
static size_t ossl_sig_len;
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

static void cold_boot(void)
{
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	held_link = held_sign = HAL_KEY_INVALID; /* handles do not survive a reset */
}

static void install_identity(void)
{
	const struct ota_flash_region *reg = tu_region(OTA_REGION_IDENTITY_CERT);
	uint8_t *bytes = malloc(reg->size);

	ck_assert_ptr_nonnull(bytes);
	memset(bytes, 0xff, reg->size);
	memcpy(bytes, &idblob, sizeof(idblob));
	ck_assert_int_eq(swhal_poke_flash(reg->offset, bytes, reg->size), 0);
	free(bytes);
}

/*
 * Power a device on from its factory image and boot it twice, so the
 * measured boots take the tag path like every boot after the first.
 */
static void use_device(const struct tu_device *d)
{
	if (powered == d)
		return;
	if (powered)
		swhal_close();
	tu_device_power_on(d);
	if (d == &dev_top && have_idblob)
		install_identity();
	cold_boot();
	cold_boot();
	powered = d;
}

static void op(const char *name)
{
	hal_key_t k, link, next;

	if (!strcmp(name, "stable-0") || !strcmp(name, "stable-128")) {
		use_device(&dev_top);
		ck_assert_uint_eq(ota_keychain_stable_key(name[7] == '0' ? 0 : CHAIN_MAX, &k), OTA_OK);
		hal_key_destroy(k);
	} else if (!strcmp(name, "kdf-1")) {
		static const uint8_t ctx[4] = { 127, 0, 0, 0 };

		use_device(&dev_top);
		if (held_link == HAL_KEY_INVALID)
			ck_assert_uint_eq(hal_key_retained(OTA_RETAINED_KEY_CHAIN, &held_link), OTA_OK);
		link = held_link;
		ck_assert_uint_eq(hal_keymgr_derive(link, "otattest-svn-chain", ctx, sizeof(ctx), 0, 0,
						    HAL_KEY_PURPOSE_KDF, &next),
				  OTA_OK);
		hal_key_destroy(next);
	} else if (!strcmp(name, "boot-svn0")) {
		use_device(&dev_zero);
		cold_boot();
	} else if (!strcmp(name, "boot-svn128")) {
		use_device(&dev_top);
		cold_boot();
	} else if (!strcmp(name, "attest")) {
		use_device(&dev_top);
		ck_assert_uint_eq(ota_fw_command(OTA_CMD_ATTEST, (const uint8_t *)&areq, sizeof(areq),
						 ev, sizeof(ev), &ev_len),
				  OTA_OK);
	} else if (!strcmp(name, "ecdsa-sign")) {
		static const uint8_t digest[32] = { 1 };
		uint8_t sig[64];

		use_device(&dev_top);
		if (held_sign == HAL_KEY_INVALID)
			ck_assert_uint_eq(ota_keychain_stable_key(CHAIN_MAX, &held_sign), OTA_OK);
		ck_assert_uint_eq(hal_ecdsa_sign(held_sign, digest, sig), OTA_OK);
	} else if (!strcmp(name, "verify")) {
		static struct ota_verdict v;

		ck_assert_uint_eq(ota_verify_evidence(ev, ev_len, trust, areq.nonce, areq.nonce_len,
						      NULL, NULL, 0, &v),
				  OTA_OK);
	} else if (!strcmp(name, "ossl-verify")) {
		static const uint8_t digest[32] = { 2 };
		EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(ossl_key, NULL);

		ck_assert_int_eq(EVP_PKEY_verify_init(c), 1);
		ck_assert_int_eq(EVP_PKEY_verify(c, ossl_sig, ossl_sig_len, digest, 32), 1);
		EVP_PKEY_CTX_free(c);
	} else {
		ck_abort_msg("unknown operation %s", name);
	}
}

/* Issue an identity certificate into dev's flash so evidence chains to a CA. */
static void provision_identity(const struct tu_device *d)
{
	uint8_t rom[32], attest[32], pub[64];
	EVP_PKEY *ca_key;
	X509 *ca, *id;
	BIO *bio;
	char *pem;
	long n;

	swhal_default_rom_identity(rom);
	tu_rom_ext_attest(attest);
	ck_assert_uint_eq(swhal_derive_rom_ext_pubkey(d->secret, rom, attest, OTA_IDENTITY_LABEL, NULL, 0, pub),
			  OTA_OK);
	ck_assert_uint_eq(otimage_ca_create("bench CA", &ca_key, &ca), OTA_OK);
	ck_assert_uint_eq(otimage_identity_cert_issue(ca_key, ca, d->device_id, pub, &id), OTA_OK);
	ck_assert_uint_eq(otimage_identity_cert_blob(id, &idblob), OTA_OK);
	have_idblob = true;
	install_identity();
	bio = BIO_new(BIO_s_mem());
	PEM_write_bio_X509(bio, ca);
	n = BIO_get_mem_data(bio, &pem);
	ck_assert_uint_eq(ota_trust_load_pem(pem, (size_t)n, &trust), OTA_OK);
	BIO_free(bio);
	X509_free(id);
	X509_free(ca);
	EVP_PKEY_free(ca_key);
	cold_boot();
}

static void setup_all(void)
{
	static const uint8_t digest[32] = { 2 };
	EVP_PKEY_CTX *c;

	tu_device_init(&dev_top);
	tu_blob_free(&dev_top.slot[OTI_BL0_A]);
	dev_top.slot[OTI_BL0_A] = tu_bl0(1, CHAIN_MAX, false);
	tu_device_init(&dev_zero);
	tu_blob_free(&dev_zero.slot[OTI_BL0_A]);
	dev_zero.slot[OTI_BL0_A] = tu_bl0(1, 0, false);

	use_device(&dev_top);
	ck_assert_uint_eq(ota_boot_state()->min_svn, CHAIN_MAX);
	provision_identity(&dev_top);
	areq.nonce_len = 32;
	memset(areq.nonce, 0x6e, 32);
	op("attest"); /* evidence for the verify runs */

	ossl_key = EVP_EC_gen("P-256");
	c = EVP_PKEY_CTX_new(ossl_key, NULL);
	ossl_sig_len = sizeof(ossl_sig);
	ck_assert_int_eq(EVP_PKEY_sign_init(c), 1);
	ck_assert_int_eq(EVP_PKEY_sign(c, ossl_sig, &ossl_sig_len, digest, 32), 1);
	EVP_PKEY_CTX_free(c);
}

static double median_us(const char *name)
{
	static double t[MAX_RUNS];
	int i, n = runs;

	if (!strncmp(name, "boot", 4))
		n = runs / 4 + 1;
	op(name); /* warm: device selected, caches filled */
	for (i = 0; i < n; i++) {
		double t0 = now_us();

		op(name);
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
		{ "stable-0", "kdf-1", "stable key of SVN 0 at min SVN 128 (128 steps)" },
		{ "stable-0", "stable-128", "  the same, against the stable key of SVN 128" },
		{ "boot-svn0", "boot-svn128", "cold boot, BL0 SVN 0 (128-step crank)" },
		{ "attest", "ecdsa-sign", "one ATTEST (ota_fw_command)" },
		{ "verify", "ossl-verify", "host evidence verification" },
	};
	bool have_valgrind = system("valgrind --version >/dev/null 2>&1") == 0;
	size_t i;

	setup_all();
	if (once_op) {
		op(once_op); /* select the device and warm up outside the count */
		CALLGRIND_TOGGLE_COLLECT;
		op(once_op);
		CALLGRIND_TOGGLE_COLLECT;
		return;
	}
	printf("bench-chain: firmware on the software HAL over %s; median of %d runs (boots: %d)\n",
	       OpenSSL_version(OPENSSL_VERSION), runs, runs / 4 + 1);
	printf("%-48s %10s %12s %8s %13s %13s %8s\n", "operation", "time us", "baseline us",
	       "ratio", "instructions", "baseline", "ratio");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double t = median_us(rows[i].op), b = median_us(rows[i].baseline);
		unsigned long long it = have_valgrind ? instructions(rows[i].op) : 0;
		unsigned long long ib = have_valgrind ? instructions(rows[i].baseline) : 0;

		printf("%-48s %10.1f %12.1f %8.2f", rows[i].what, t, b, t / b);
		if (it && ib)
			printf(" %13llu %13llu %8.2f", it, ib, (double)it / (double)ib);
		else
			printf(" %13s %13s %8s", "-", "-", "-");
		printf("   (baseline: %s)\n", rows[i].baseline);
	}
	printf("evidence: %u bytes\n", ev_len);
	if (!have_valgrind)
		printf("(valgrind not installed: no instruction counts)\n");
	ota_trust_free(trust);
	EVP_PKEY_free(ossl_key);
	swhal_close();
	tu_device_free(&dev_top);
	tu_device_free(&dev_zero);
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
	srunner_run_all(sr, once_op ? CK_SILENT : CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
