// SPDX-License-Identifier: MIT
/*
 * make bench-boot: what a stage check costs on each path, as a ratio to
 * the bare SHA-256 of the same image measured in the same run.
 *
 * For 64 KiB and 1 MiB payloads and 0, 1, 2 delegates it times, on the
 * emulated device (software HAL in memory):
 *   sha256       hal_sha256 over the image bytes already in RAM (the floor:
 *                every path has to hash every byte once)
 *   fast         boot_stage_check on the tag path: load the slot into RAM,
 *                measure, parse, every policy check, tag key derivation,
 *                KMAC, constant-time compare
 *   slow-ecdsa   the same image on the signature path (certificate and
 *                image ECDSA verifies; no tag written)
 *   slow-hybrid  a hybrid image on the signature path (plus an SLH-DSA
 *                verify per certificate and for the image)
 *   fast-hybrid  the hybrid image on the tag path
 * Each figure is the median of repeated runs: 21 rounds, each running
 * every op in a block of repetitions (steady state), so drift in the
 * machine hits every column alike. Then, when valgrind is installed, callgrind counts
 * the instructions of one run of each (in a child process per count).
 *
 * Targets (issue 3): fast within 1.25x of the SHA-256 floor at 64 KiB and
 * 1.05x at 1 MiB. Timings are never a pass/fail of `make test`.
 *
 *   bench_boot                     everything
 *   bench_boot --no-callgrind      timings only
 *   bench_boot --once OP DIR       one op on the device in DIR (for callgrind)
 */
#include <check.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_util.h"
#include "tu_main.h"
#include "fwlib.h"
#include "swhal.h"
#include "tu_device.h"
#include "fw_run.h"
#include "handoff.h"

#define SIZES 2
#define DEPTHS 3

static const size_t payload_sizes[SIZES] = { 64u << 10, 1u << 20 };

enum op { OP_SHA, OP_FAST, OP_SLOW_ECDSA, OP_SLOW_HYBRID, OP_FAST_HYBRID, OP_COUNT };
static const char *const op_name[OP_COUNT] = {
	"sha256", "fast", "slow-ecdsa", "slow-hybrid", "fast-hybrid",
};

static struct tu_blob images[SIZES][DEPTHS][2]; /* [..][..][hybrid] */
static double median_ns[SIZES][DEPTHS][OP_COUNT];
static double best_ns[SIZES][DEPTHS][OP_COUNT];
static long long ir[SIZES][DEPTHS][OP_COUNT];
static long long ir_hybrid_floor[SIZES][DEPTHS];
static bool want_callgrind = true;
static char self_path[4096];

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}


/* ---- the measured operations (not inlined: callgrind counts them by name) -- */

static struct boot_ctx *ctx;
static struct ota_anchors anchors;
static struct ota_owner_config owner;
static struct boot_image image;
static struct ota_stage_record rec;
static const struct tu_blob *current;

__attribute__((noinline)) void bench_op_sha256(void);
__attribute__((noinline)) void bench_op_stage(uint32_t mode);

__attribute__((noinline)) void bench_op_sha256(void)
{
	uint8_t d[OTA_SHA256_BYTES];

	ck_assert_uint_eq(hal_sha256_start(), OTA_OK);
	ck_assert_uint_eq(hal_sha256_update(current->data, (uint32_t)current->len), OTA_OK);
	ck_assert_uint_eq(hal_sha256_finish(d), OTA_OK);
}

__attribute__((noinline)) void bench_op_stage(uint32_t mode)
{
	ck_assert_uint_eq(boot_stage_check(ctx, &anchors, OTA_STAGE_BL0, OTA_SLOT_A, mode, &rec,
					   &image), OTA_OK);
}

/*
 * The device as ROM_EXT sees it after a reset, with BL0 A tagged: ROM's
 * reading of OTP and flash, and the key manager advanced into ROM_EXT with
 * the binding of the ROM_EXT the last boot ran (BL0's tag key is ROM_EXT's).
 */
static void device_ready(void)
{
	const struct ota_boot_state *bs = ota_boot_state();
	const struct ota_record *last;
	struct boot_stage_outcome rom_ext;
	struct hal_keymgr_binding bind;
	uint32_t i;

	ck_assert_ptr_nonnull(bs);
	last = &bs->record;
	memset(&rom_ext, 0, sizeof(rom_ext));
	for (i = 0; i < last->hdr.stage_count; i++)
		if (last->stage[i].stage == OTA_STAGE_ROM_EXT &&
		    (last->stage[i].flags & OTA_STAGE_F_BOOTED)) {
			rom_ext.svn = last->stage[i].security_version;
			memcpy(rom_ext.measurement, last->stage[i].measurement, OTA_SHA256_BYTES);
			memcpy(rom_ext.root_key_id, last->stage[i].key_ids[0], OTA_KEY_ID_BYTES);
		}
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ctx = boot_scratch_ctx();
	ck_assert_uint_eq(boot_prepare(ctx, OTA_RESET_WARM), OTA_OK);
	boot_binding(OTA_STAGE_ROM_EXT, &rom_ext, &bind);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &bind), OTA_OK);
	ck_assert_uint_eq(boot_anchors_bl0(ctx, &owner, &anchors), OTA_OK);
}

static void provision(const struct tu_blob *bl0)
{
	struct tu_device dev;

	swhal_close();
	tu_device_init(&dev);
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_blob_dup(bl0);
	dev.owner_keys[2] = TU_OWNER_H;
	dev.owner_key_count = 3;
	tu_device_power_on(&dev);
	tu_device_free(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK); /* writes the tags */
	device_ready();
	current = bl0;
}

static void run_op(enum op op)
{
	switch (op) {
	case OP_SHA:
		bench_op_sha256();
		break;
	case OP_FAST:
	case OP_FAST_HYBRID:
		bench_op_stage(BOOT_MODE_BOOT);
		ck_assert_uint_eq(rec.path, OTA_PATH_TAG);
		break;
	case OP_SLOW_ECDSA:
	case OP_SLOW_HYBRID:
		bench_op_stage(BOOT_MODE_VERIFY);
		ck_assert_uint_eq(rec.path, OTA_PATH_SIGNATURE);
		ck_assert_uint_eq(rec.sig_scheme, op == OP_SLOW_HYBRID ? OTA_SCHEME_HYBRID
								      : OTA_SCHEME_ECDSA_P256);
		break;
	case OP_COUNT:
		break;
	}
}

static double time_op(enum op op)
{
	uint64_t t0 = now_ns();

	run_op(op);
	return (double)(now_ns() - t0);
}

static int reps_for(size_t size, enum op op)
{
	int base = size > (64u << 10) ? 15 : 64;

	return op == OP_SLOW_HYBRID ? base / 4 + 1 : base;
}

/*
 * Rounds of blocks: within a round each op runs a block of repetitions in
 * a row (steady state, as one boot after another would run it), and the
 * rounds alternate the ops so drift in the machine hits every column.
 * 21 rounds, not 7: on the shared 2-vCPU machine, with other guests
 * running, one run's 1 MiB fast ratios scattered with a standard
 * deviation of 1.8% over 28 runs of the same code (0.98x to 1.10x);
 * with 21 rounds 0.8% (1.016x to 1.055x over 11 runs), same mean. The
 * estimator is the same median.
 */
#define ROUNDS 21

static void measure(uint32_t s, uint32_t d)
{
	static double samples[OP_COUNT][ROUNDS * 64];
	int n[OP_COUNT] = { 0 }, round, r;
	enum op op;

	for (round = 0; round < ROUNDS; round++) {
		provision(&images[s][d][0]);
		for (op = OP_SHA; op <= OP_SLOW_ECDSA; op++) {
			int reps = reps_for(payload_sizes[s], op);

			(void)time_op(op); /* warm this op's working set */
			for (r = 0; r < reps; r++)
				samples[op][n[op]++] = time_op(op);
		}
		provision(&images[s][d][1]);
		for (op = OP_SLOW_HYBRID; op <= OP_FAST_HYBRID; op++) {
			int reps = reps_for(payload_sizes[s], op);

			(void)time_op(op);
			for (r = 0; r < reps; r++)
				samples[op][n[op]++] = time_op(op);
		}
	}
	for (op = 0; op < OP_COUNT; op++) {
		median_ns[s][d][op] = bench_median(samples[op], n[op]);
		best_ns[s][d][op] = samples[op][0]; /* sorted by bench_median() */
	}
}

/* The hybrid images' SHA-256 floor differs (they are bigger): measured separately. */
static double hybrid_floor[SIZES][DEPTHS];

static void measure_hybrid_floor(uint32_t s, uint32_t d)
{
	static double samples[ROUNDS * 64];
	int r, n = 0, round, reps = reps_for(payload_sizes[s], OP_SHA);

	current = &images[s][d][1];
	for (round = 0; round < ROUNDS; round++) {
		(void)time_op(OP_SHA);
		for (r = 0; r < reps; r++)
			samples[n++] = time_op(OP_SHA);
	}
	hybrid_floor[s][d] = bench_median(samples, n);
}

/* ---- callgrind ------------------------------------------------------------- */

static void dump_state(const char *dir)
{
	static uint8_t flash[SWHAL_MAX_FLASH_SIZE];
	struct ota_otp otp;
	char path[4200];
	uint32_t size = hal_flash_size();
	FILE *f;

	ck_assert_int_eq(swhal_peek_flash(0, flash, size), 0);
	ck_assert_int_eq(swhal_peek_otp(0, &otp, sizeof(otp)), 0);
	snprintf(path, sizeof(path), "%s/flash.bin", dir);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(flash, 1, size, f), size);
	fclose(f);
	snprintf(path, sizeof(path), "%s/otp.bin", dir);
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(&otp, 1, sizeof(otp), f), sizeof(otp));
	fclose(f);
}

static long long callgrind_one(enum op op, const char *dir)
{
	char cmd[12288], out[4200], line[256];
	const char *fn = op == OP_SHA ? "bench_op_sha256" : "bench_op_stage";
	long long n = -1;
	FILE *f;

	snprintf(out, sizeof(out), "%s/callgrind.%s", dir, op_name[op]);
	snprintf(cmd, sizeof(cmd),
		 "valgrind --tool=callgrind --collect-atstart=no --toggle-collect=%s "
		 "--callgrind-out-file=%s '%s' --once %s '%s' >/dev/null 2>&1",
		 fn, out, self_path, op_name[op], dir);
	if (system(cmd) != 0)
		return -1;
	f = fopen(out, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "summary: %lld", &n) == 1)
			break;
	fclose(f);
	return n;
}

static void count_instructions(uint32_t s, uint32_t d)
{
	char dir[] = "/tmp/bench_boot.XXXXXX";
	enum op op;
	int h;

	if (!mkdtemp(dir)) {
		want_callgrind = false;
		return;
	}
	for (h = 0; h < 2; h++) {
		provision(&images[s][d][h]);
		dump_state(dir);
		for (op = 0; op < OP_COUNT; op++) {
			bool hybrid_op = op == OP_SLOW_HYBRID || op == OP_FAST_HYBRID;

			if (op == OP_SHA && h == 1)
				ir_hybrid_floor[s][d] = callgrind_one(op, dir);
			else if (op == OP_SHA || (h == 1) == hybrid_op)
				ir[s][d][op] = callgrind_one(op, dir);
		}
	}
	{
		char cmd[4200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "bench_boot: could not remove %s\n", dir);
	}
}

/* Child: the device in `dir` (tagged by the parent), one op. */
static const char *once_op, *once_dir;

START_TEST(once)
{
	struct swhal_options o = { .no_fsync = true };
	struct tu_blob img = { NULL, 0 };
	uint8_t *flash;
	enum op op;

	for (op = 0; op < OP_COUNT && strcmp(op_name[op], once_op) != 0; op++)
		;
	ck_assert_int_lt(op, OP_COUNT);
	ck_assert_int_eq(swhal_open(once_dir, &o), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	/* A boot on the tags the parent wrote: the record device_ready binds to. */
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	device_ready();
	/* The SHA floor hashes the image as it sits in the slot. */
	flash = malloc(hal_flash_size());
	ck_assert_int_eq(swhal_peek_flash(0, flash, hal_flash_size()), 0);
	img.data = flash + boot_region(ctx, OTA_REGION_BL0_A)->offset;
	img.len = ((struct ota_manifest *)img.data)->image_length;
	current = &img;
	run_op(op);
	free(flash);
	swhal_close();
}
END_TEST

/* ---- the run ---------------------------------------------------------------- */

START_TEST(bench)
{
	uint32_t s, d;
	enum op op;

	printf("building images (hybrid ones need SLH-DSA signatures, ~0.6 s each)...\n");
	fflush(stdout);
	for (s = 0; s < SIZES; s++)
		for (d = 0; d < DEPTHS; d++) {
			struct tu_image_spec spec;
			struct ota_constraints all = tu_constraints(0, OTA_SVN_LIMIT);
			struct oti_cert chain[2];
			int h;

			for (h = 0; h < 2; h++) {
				enum tu_key_id root = h ? TU_OWNER_H : TU_OWNER0;
				enum tu_key_id inter = h ? TU_INTER_H : TU_INTER;
				enum tu_key_id leaf = h ? TU_LEAF_H : TU_LEAF;

				tu_image_spec_init(&spec, OTA_STAGE_BL0, 5);
				spec.payload_len = payload_sizes[s];
				spec.signer = root;
				if (d == 1) {
					chain[0] = tu_cert(root, NULL, leaf, OTA_CERT_LEAF, &all, false);
					spec.signer = leaf;
				} else if (d == 2) {
					chain[0] = tu_cert(root, NULL, inter, OTA_CERT_INTERMEDIATE, &all, false);
					chain[1] = tu_cert(inter, &chain[0], leaf, OTA_CERT_LEAF, &all, false);
					spec.signer = leaf;
				}
				spec.chain = chain;
				spec.chain_len = d;
				images[s][d][h] = tu_image(&spec);
			}
		}

	for (s = 0; s < SIZES; s++)
		for (d = 0; d < DEPTHS; d++) {
			measure(s, d);
			measure_hybrid_floor(s, d);
			if (want_callgrind)
				count_instructions(s, d);
		}

	printf("\nboot stage check, median time and ratio to the bare SHA-256 of the same image\n");
	printf("(fast target: <= 1.25x at 64 KiB, <= 1.05x at 1 MiB)\n\n");
	printf("%-8s %-5s %12s %18s %18s %18s %18s\n", "payload", "depth", "sha256",
	       "fast", "slow-ecdsa", "slow-hybrid*", "fast-hybrid*");
	for (s = 0; s < SIZES; s++)
		for (d = 0; d < DEPTHS; d++) {
			double base = median_ns[s][d][OP_SHA], hbase = hybrid_floor[s][d];

			printf("%-8s %-5u %9.1f us", s ? "1 MiB" : "64 KiB", d, base / 1e3);
			printf(" %9.1f us %5.3fx", median_ns[s][d][OP_FAST] / 1e3,
			       median_ns[s][d][OP_FAST] / base);
			printf(" %9.1f us %5.2fx", median_ns[s][d][OP_SLOW_ECDSA] / 1e3,
			       median_ns[s][d][OP_SLOW_ECDSA] / base);
			printf(" %9.1f us %5.2fx", median_ns[s][d][OP_SLOW_HYBRID] / 1e3,
			       median_ns[s][d][OP_SLOW_HYBRID] / hbase);
			printf(" %9.1f us %5.3fx\n", median_ns[s][d][OP_FAST_HYBRID] / 1e3,
			       median_ns[s][d][OP_FAST_HYBRID] / hbase);
		}
	printf("\n* hybrid columns: ratio to the SHA-256 of the hybrid image, which carries\n"
	       "  7.7 KiB of SLH-DSA signature per certificate and for the image\n");
	printf("\nfast path, best run against best run (the least disturbed ratio):\n");
	for (s = 0; s < SIZES; s++)
		for (d = 0; d < DEPTHS; d++)
			printf("  %-6s depth %u: %.3fx\n", s ? "1 MiB" : "64 KiB", d,
			       best_ns[s][d][OP_FAST] / best_ns[s][d][OP_SHA]);

	if (!want_callgrind)
		return;
	printf("\ncallgrind instructions, one run (ratio to the SHA-256 of the same image;\n"
	       "under valgrind OpenSSL hashes without the SHA extensions, so the floor is\n"
	       "heavier than natively and the ratios are smaller than the timed ones)\n\n");
	printf("%-8s %-5s %12s %20s %20s %20s %20s\n", "payload", "depth", "sha256", "fast",
	       "slow-ecdsa", "slow-hybrid", "fast-hybrid");
	for (s = 0; s < SIZES; s++)
		for (d = 0; d < DEPTHS; d++) {
			long long base = ir[s][d][OP_SHA];

			printf("%-8s %-5u %12lld", s ? "1 MiB" : "64 KiB", d, base);
			for (op = OP_FAST; op < OP_COUNT; op++) {
				long long floor = op >= OP_SLOW_HYBRID ? ir_hybrid_floor[s][d] : base;

				printf(" %12lld %6.3fx", ir[s][d][op],
				       floor > 0 ? (double)ir[s][d][op] / (double)floor : 0.0);
			}
			printf("\n");
		}
}
END_TEST

static int run_test(const TTest *t)
{
	return tu_run_in_process("bench_boot", t);
}

int main(int argc, char **argv)
{
	ssize_t n = readlink("/proc/self/exe", self_path, sizeof(self_path) - 1);

	if (n > 0)
		self_path[n] = 0;
	if (argc == 4 && strcmp(argv[1], "--once") == 0) {
		once_op = argv[2];
		once_dir = argv[3];
		return run_test(once);
	}
	if (argc == 2 && strcmp(argv[1], "--no-callgrind") == 0)
		want_callgrind = false;
	else if (argc != 1) {
		fprintf(stderr, "usage: bench_boot [--no-callgrind] | --once OP DIR\n");
		return 2;
	}
	if (want_callgrind && system("valgrind --version >/dev/null 2>&1") != 0) {
		printf("valgrind not installed: timings only\n");
		want_callgrind = false;
	}
	{
		/* One core for the whole run: no migrations between the columns. */
		cpu_set_t one;
		FILE *f = fopen("/proc/loadavg", "r");
		char load[64] = "?";

		CPU_ZERO(&one);
		CPU_SET(sched_getcpu() >= 0 ? sched_getcpu() : 0, &one);
		(void)sched_setaffinity(0, sizeof(one), &one);
		if (f) {
			if (!fgets(load, sizeof(load), f))
				strcpy(load, "?");
			fclose(f);
			load[strcspn(load, "\n")] = 0;
		}
		printf("machine load average before the run: %s (timings are noisy when it is high)\n",
		       load);
	}
	tu_keys_warm(true);
	return run_test(bench);
}
