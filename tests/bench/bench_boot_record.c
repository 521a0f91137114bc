// SPDX-License-Identifier: MIT
/*
 * make bench-boot-record: what the boot record's "ROM -> runtime" time
 * (boot_time_ns, what `otattestctl status` shows) is made of, against the
 * device work it contains, all timed in the same boots.
 *
 * The device is the emulated chip with its state in a directory on disk,
 * as otattest-model keeps it (the same qemu-model/chip code, state files
 * and all), booted the way the model boots it (ota_fw_boot after a
 * power-on). Inside each boot:
 *   stage checks   the record's verify_time_ns of ROM_EXT and of BL0
 *   key chain      rom_ext_keychain_update (the SVN key chain)
 *   alias          ota_runtime_prepare: identity and alias keys derived,
 *                  the alias certificate issued and signed, the identity
 *                  certificate loaded
 * The last two are timed by wrapping the functions at link time
 * (-Wl,--wrap, tests/bench/build.mk) with the device's own clock
 * (hal_time_ns), so they are timed inside the real boot, not beside it.
 * The chip's state-file writes (persist.c's entry points) are wrapped the
 * same way: their time is the host's disk, shown on its own line and not
 * counted as device work (the key chain and the alias step write
 * retention RAM, so a slow write would otherwise hide inside them).
 *
 * The first boot after factory programming verifies signatures and writes
 * tags; every power cycle after it takes the tag path. Printed: the median
 * of each figure over the tag-path boots, their sum, and ROM -> runtime as
 * a ratio to that sum (what is left is the boot's own bookkeeping: OTP,
 * boot data, slot choice, the record); the first boot's figures; and
 * first / second. The boots come after the CPU has been idle for a while
 * (20 ms, --pause-us), as they do in otattest-model, where a power cycle
 * is a control request: caches and clock are then as cold as a real
 * device's, and the pieces are timed as cold as the whole. Then the same
 * boots back to back, on disk and with the device in memory (no state
 * directory): the baseline of what the files cost. Never part of `make test`.
 *
 *   bench_boot_record [--quick] [--dir DIR] [--pause-us US]
 *   (state under DIR, default build/bench)
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>

#include "bench_util.h"
#include "tu_main.h"
#include "fw_run.h"
#include "hal.h"
#include "rom_ext.h"
#include "swhal.h"
#include "tu_device.h"

#define MAX_BOOTS 1001

/* ---- the pieces, timed inside the boot -------------------------------------- */

static uint64_t chain_ns, alias_ns;
/* Time in the chip's state-file writes: all of this boot's, and within the two steps. */
static uint64_t files_ns, chain_files_ns, alias_files_ns;
/* Idle time before each power cycle (--pause-us), as a device waits between boots. */
static long pause_us;

ota_status_t __real_rom_ext_keychain_update(const struct boot_ctx *b, uint32_t bl0_svn,
					    struct ota_retention *r);
ota_status_t __wrap_rom_ext_keychain_update(const struct boot_ctx *b, uint32_t bl0_svn,
					    struct ota_retention *r);
ota_status_t __real_ota_runtime_prepare(const struct ota_boot_state *bs);
ota_status_t __wrap_ota_runtime_prepare(const struct ota_boot_state *bs);
void __real_swhal_persist_retention(void);
void __wrap_swhal_persist_retention(void);
int __real_swhal_persist_flash_range(uint32_t addr, uint32_t len);
int __wrap_swhal_persist_flash_range(uint32_t addr, uint32_t len);
int __real_swhal_persist_otp_range(uint32_t offset, uint32_t len);
int __wrap_swhal_persist_otp_range(uint32_t offset, uint32_t len);

ota_status_t __wrap_rom_ext_keychain_update(const struct boot_ctx *b, uint32_t bl0_svn,
					    struct ota_retention *r)
{
	uint64_t t0 = hal_time_ns(), f0 = files_ns;
	ota_status_t st = __real_rom_ext_keychain_update(b, bl0_svn, r);

	chain_ns = hal_time_ns() - t0;
	chain_files_ns = files_ns - f0;
	return st;
}

ota_status_t __wrap_ota_runtime_prepare(const struct ota_boot_state *bs)
{
	uint64_t t0 = hal_time_ns(), f0 = files_ns;
	ota_status_t st = __real_ota_runtime_prepare(bs);

	alias_ns = hal_time_ns() - t0;
	alias_files_ns = files_ns - f0;
	return st;
}

/*
 * The chip's persistence entry points for emulated writes (persist.c),
 * timed. (The record generation's high-water mark, host.bin, is written
 * when the record is published, after boot_time_ns is taken.)
 */
void __wrap_swhal_persist_retention(void)
{
	uint64_t t0 = hal_time_ns();

	__real_swhal_persist_retention();
	files_ns += hal_time_ns() - t0;
}

int __wrap_swhal_persist_flash_range(uint32_t addr, uint32_t len)
{
	uint64_t t0 = hal_time_ns();
	int r = __real_swhal_persist_flash_range(addr, len);

	files_ns += hal_time_ns() - t0;
	return r;
}

int __wrap_swhal_persist_otp_range(uint32_t offset, uint32_t len)
{
	uint64_t t0 = hal_time_ns();
	int r = __real_swhal_persist_otp_range(offset, len);

	files_ns += hal_time_ns() - t0;
	return r;
}

/* ---- one boot ----------------------------------------------------------------- */

/*
 * One boot. chain and alias are the steps' time less their state-file
 * writes (files): those are the host's disk, not device work, and are
 * shown on their own.
 */
struct boot_figures {
	double total, rom_ext, bl0, chain, alias, files;
	uint32_t rom_ext_path, bl0_path;
};

static void die(const char *what)
{
	fprintf(stderr, "bench_boot_record: %s\n", what);
	exit(1);
}

static const struct ota_stage_record *booted(const struct ota_record *r, uint32_t stage)
{
	uint32_t i;

	for (i = 0; i < r->hdr.stage_count; i++)
		if (r->stage[i].stage == stage && (r->stage[i].flags & OTA_STAGE_F_BOOTED))
			return &r->stage[i];
	die("a stage did not boot");
	return NULL;
}

/* A power-on and a cold boot, as the model's power-cycle does. */
static struct boot_figures boot_once(void)
{
	static struct ota_record rec;
	struct boot_figures f;
	const struct ota_stage_record *re, *b0;

	if (swhal_power_on() != 0)
		die("the device did not power on");
	/* From here: the power-on's own write of retention RAM is not the boot's. */
	chain_ns = alias_ns = files_ns = chain_files_ns = alias_files_ns = 0;
	if (ota_fw_boot(OTA_RESET_COLD) != OTA_OK)
		die("the device did not boot");
	if (swhal_last_record(&rec, sizeof(rec)) < sizeof(rec.hdr) || rec.hdr.boot_status != OTA_OK)
		die("no boot record");
	re = booted(&rec, OTA_STAGE_ROM_EXT);
	b0 = booted(&rec, OTA_STAGE_BL0);
	f.total = (double)rec.hdr.boot_time_ns;
	f.rom_ext = (double)re->verify_time_ns;
	f.bl0 = (double)b0->verify_time_ns;
	f.chain = (double)(chain_ns - chain_files_ns);
	f.alias = (double)(alias_ns - alias_files_ns);
	f.files = (double)files_ns;
	f.rom_ext_path = re->path;
	f.bl0_path = b0->path;
	return f;
}

/* ---- the device ------------------------------------------------------------------ */

static uint8_t *flash_image;
static uint32_t flash_len;
static struct ota_otp otp_image;

/* Factory images made once with otimage's library (tests/unit/lib). */
static void make_images(void)
{
	struct tu_image_spec rs, bs;
	struct tu_device d;

	tu_keys_warm(false);
	tu_device_init(&d);
	tu_image_spec_init(&rs, OTA_STAGE_ROM_EXT, 1);
	rs.payload_len = 16u << 10;
	tu_image_spec_init(&bs, OTA_STAGE_BL0, 5);
	bs.payload_len = 64u << 10;
	tu_blob_free(&d.slot[OTI_ROM_EXT_A]);
	tu_blob_free(&d.slot[OTI_BL0_A]);
	d.slot[OTI_ROM_EXT_A] = tu_image(&rs);
	d.slot[OTI_BL0_A] = tu_image(&bs);
	tu_device_power_on(&d);
	flash_len = hal_flash_size();
	flash_image = malloc(flash_len);
	if (!flash_image || swhal_peek_flash(0, flash_image, flash_len) != 0 ||
	    swhal_peek_otp(0, &otp_image, sizeof(otp_image)) != 0)
		die("cannot copy the factory images");
	swhal_close();
	tu_device_free(&d);
}

/* Open the device (dir NULL: in memory), factory-program it; powered off. */
static void device_open(const char *dir)
{
	struct swhal_options o = { .flash_size = flash_len };

	if (swhal_open(dir, &o) != 0 || swhal_load_flash(flash_image, flash_len) != 0 ||
	    swhal_load_otp(&otp_image, sizeof(otp_image)) != 0)
		die("cannot open and program the device");
}

/* ---- output ------------------------------------------------------------------------ */

struct medians {
	double total, rom_ext, bl0, chain, alias, work, files;
};

/* Boots 1..n of a freshly programmed device: the tag path. */
static struct medians tag_boots(struct boot_figures *first, int n)
{
	static double tot[MAX_BOOTS], re[MAX_BOOTS], b0[MAX_BOOTS], ch[MAX_BOOTS], al[MAX_BOOTS],
		wk[MAX_BOOTS], fl[MAX_BOOTS];
	struct medians m;
	int i;

	*first = boot_once();
	if (first->rom_ext_path != OTA_PATH_SIGNATURE_RETAGGED ||
	    first->bl0_path != OTA_PATH_SIGNATURE_RETAGGED)
		die("the first boot did not verify signatures and write tags");
	for (i = 0; i < n; i++) {
		struct boot_figures f;

		if (pause_us) {
			struct timespec ts = { 0, pause_us * 1000L };

			nanosleep(&ts, NULL);
		}
		f = boot_once();

		if (f.rom_ext_path != OTA_PATH_TAG || f.bl0_path != OTA_PATH_TAG)
			die("a power cycle did not take the tag path");
		tot[i] = f.total;
		re[i] = f.rom_ext;
		b0[i] = f.bl0;
		ch[i] = f.chain;
		al[i] = f.alias;
		wk[i] = f.rom_ext + f.bl0 + f.chain + f.alias;
		fl[i] = f.files;
	}
	m.total = bench_median(tot, n);
	m.rom_ext = bench_median(re, n);
	m.bl0 = bench_median(b0, n);
	m.chain = bench_median(ch, n);
	m.alias = bench_median(al, n);
	m.work = bench_median(wk, n);
	m.files = bench_median(fl, n);
	return m;
}

static void row(const char *name, double ns, double base)
{
	printf("  %-44s %9.1f us %8.2fx\n", name, ns / 1000, ns / base);
}

static const char *fs_name(const char *dir)
{
	struct statfs sf;

	if (statfs(dir, &sf) != 0)
		return "?";
	switch ((unsigned long)sf.f_type) {
	case 0xef53:
		return "ext2/3/4";
	case 0x01021994:
		return "tmpfs";
	case 0x9123683e:
		return "btrfs";
	case 0x58465342:
		return "xfs";
	case 0x794c7630:
		return "overlayfs";
	}
	return "other";
}

static const char *base = "build/bench";
static int boots = 101;

static void print_tag_path(const struct medians *m)
{
	printf("  %-44s %12s %9s\n", "", "time", "vs work");
	row("ROM -> runtime (the record's boot_time_ns)", m->total, m->work);
	row("device work: ROM_EXT stage check", m->rom_ext, m->work);
	row("device work: BL0 stage check", m->bl0, m->work);
	row("device work: SVN key chain", m->chain, m->work);
	row("device work: alias key and certificate", m->alias, m->work);
	row("device work, the sum (median of the sums)", m->work, m->work);
	row("state-file writes in the boot (host disk)", m->files, m->work);
}

/*
 * The fixtures (tests/unit/lib) assert with check, so the benchmark runs
 * as one check test, not forked.
 */
START_TEST(bench)
{
	char dir[4200], cmd[4300];
	struct boot_figures first_idle, first_busy, first_mem;
	struct medians idle, busy, mem;
	double first_work;
	long idle_us = pause_us ? pause_us : 20000;

	if (mkdir(base, 0755) != 0 && errno != EEXIST)
		die("cannot create the state directory's parent");
	snprintf(dir, sizeof(dir), "%s/boot-record.XXXXXX", base);
	if (!mkdtemp(dir))
		die("cannot create a state directory");

	make_images();
	/* As the model boots: on disk, the CPU idle before each power cycle. */
	pause_us = idle_us;
	device_open(dir);
	idle = tag_boots(&first_idle, boots);
	swhal_close();
	/* Back to back: warm caches, the CPU at speed. */
	pause_us = 0;
	device_open(dir);
	busy = tag_boots(&first_busy, 2 * boots);
	swhal_close();
	device_open(NULL);
	mem = tag_boots(&first_mem, 2 * boots);
	swhal_close();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench_boot_record: could not remove %s\n", dir);

	printf("bench_boot_record: the boot record's ROM -> runtime against the device work in it\n");
	printf("tag path, state directory on disk (%s), %ld ms idle before each power cycle as in "
	       "otattest-model; median of %d boots\n",
	       fs_name(base), idle_us / 1000, boots);
	print_tag_path(&idle);
	first_work = first_idle.rom_ext + first_idle.bl0 + first_idle.chain + first_idle.alias;
	printf("first boot after programming: signatures verified, tags written\n");
	row("ROM -> runtime", first_idle.total, first_work);
	row("device work: stage checks (tag writes included)", first_idle.rom_ext + first_idle.bl0,
	    first_work);
	row("device work, the sum", first_work, first_work);
	row("state-file writes in the boot (host disk)", first_idle.files, first_work);
	printf("  %-44s %9.2fx\n", "first boot / tag-path boot (ROM -> runtime)",
	       first_idle.total / idle.total);
	printf("  %-44s %9.2fx\n", "first boot / tag-path boot (stage checks)",
	       (first_idle.rom_ext + first_idle.bl0) / (idle.rom_ext + idle.bl0));
	printf("tag path, the same on disk, boots back to back; median of %d\n", 2 * boots);
	print_tag_path(&busy);
	printf("tag path, the same device in memory (no state files), back to back\n");
	row("ROM -> runtime", mem.total, mem.work);
	row("device work, the sum", mem.work, mem.work);
	printf("  %-44s %9.2fx\n", "ROM -> runtime, on disk / in memory", busy.total / mem.total);
	free(flash_image);
}
END_TEST

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			boots = 21;
		else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
			base = argv[++i];
		else if (strcmp(argv[i], "--pause-us") == 0 && i + 1 < argc)
			pause_us = strtol(argv[++i], NULL, 10);
		else {
			fprintf(stderr,
				"usage: bench_boot_record [--quick] [--dir DIR] [--pause-us US]\n");
			return 2;
		}
	}
	return tu_run_in_process("bench_boot_record", bench);
}
