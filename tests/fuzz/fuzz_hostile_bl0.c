// SPDX-License-Identifier: MIT
/*
 * A compromised BL0 run by the fuzzer (issue 27). The device boots the
 * real ROM and ROM_EXT on the emulated core (qemu-model/core) with the
 * hostile BL0 (tests/rv32/hostile/) in slot A, signed with the owner key
 * as a compromised owner would sign it, once; each input is a program the
 * image runs as attacker code (HOSTILE_PROGRAM, hostile.h): loads and
 * stores at addresses in ROM, SRAM, retention SRAM and every block's
 * registers, and service calls with any number and arguments, a pointer
 * argument anywhere in those regions. A request runs at most
 * REQUEST_LIMIT instructions (a spin halts the core, as a fault does).
 *
 * After each run the chip's invariants hold, or the target aborts:
 *   - the mask ROM's bytes are the ROM image's;
 *   - flash: the layout page and every region ROM_EXT locked (all but the
 *     inactive slots ROM_EXT B and BL0 B) as before;
 *   - OTP as before (the counters are locked after the hand-off);
 *   - the retention data vault as before;
 *   - the key manager at RUNTIME or past it, never back;
 *   - no 8 bytes of the device secret (OTP SECRET) in the response.
 * A run that halted the core, asked for a reset or changed anything (the
 * inactive slots, retention RAM) is followed by a restore of flash, OTP
 * and retention RAM and a cold boot, so every input starts from the same
 * device; the others keep the booted device (a cold boot on the core
 * costs far more than a run).
 *
 * FUZZ_HOSTILE_WRITE_SEEDS=<dir> writes the seeds of
 * tests/fuzz/corpus/fuzz_hostile_bl0/ (what a runtime may do: a load from
 * every region, service calls with their output in the image's own
 * buffer, an erase and program of the inactive BL0 slot) and exits.
 * FUZZ_HOSTILE_STATS=1 prints the runs and restores every 16 runs.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/mailbox.h>
#include <otu/file.h>

#include "core.h"
#include "fw_run.h"
#include "hal.h"
#include "hal/svc.h"
#include "hostile.h"
#include "swhal.h"
#include "top_regs.h"
#include "tu_device.h"
#include "tu_main.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Unicorn 2.0.1's own leak when code it translated is overwritten (test_core.c says more). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libunicorn.so\n";
}

/* A first boot is about 2 million instructions; a request of 160 bytes of program needs far less. */
#define REQUEST_LIMIT 2000000u

static struct tu_device dev;
static struct tu_blob rom_elf, rom_ext_elf, hostile_elf;
static uint8_t rom0[TOP_ROM_SIZE], rom_now[TOP_ROM_SIZE];
static uint8_t *flash0, *flash_now;
static uint32_t flash_len;
static struct ota_otp otp0, otp_now;
static uint8_t ret0[HAL_RETENTION_BYTES], ret_now[HAL_RETENTION_BYTES];
static uint8_t resp[OTA_MBOX_RESPONSE_MAX_ANY];
static unsigned long runs, reboots;
static struct ota_flash_region writable[2]; /* ROM_EXT B and BL0 B, as the layout has them */

static void die(const char *why)
{
	fprintf(stderr, "fuzz_hostile_bl0: %s (after %lu runs, %lu reboots)\n", why, runs, reboots);
	abort();
}

static void write_seeds(const char *dir);
static const char *seeds_dir;

/* The fixture asserts with check: set the device up as one test, in this process. */
START_TEST(boot_device)
{
	rom_elf = tu_read_blob(OTA_ROM_ELF);
	rom_ext_elf = tu_read_blob(OTA_ROM_EXT_ELF);
	hostile_elf = tu_read_blob(OTA_HOSTILE_BL0_ELF);
	tu_device_stages(&dev, &rom_ext_elf, &hostile_elf);
	ck_assert_int_eq(ota_fw_core_open(OTA_ROM_ELF), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_state(), HAL_KEYMGR_RUNTIME);
	ota_fw_core_set_request_limit(REQUEST_LIMIT);
	writable[0] = *tu_region(OTA_REGION_ROM_EXT_B);
	writable[1] = *tu_region(OTA_REGION_BL0_B);
	flash_len = hal_flash_size();
	flash0 = malloc(flash_len);
	flash_now = malloc(flash_len);
	ck_assert(flash0 && flash_now);
	ck_assert_int_eq(swhal_peek_flash(0, flash0, flash_len), 0);
	ck_assert_int_eq(swhal_peek_otp(0, &otp0, sizeof(otp0)), 0);
	ck_assert_int_eq(swhal_peek_retention(0, ret0, sizeof(ret0)), 0);
	ck_assert_uint_eq(core_mem_read(ota_fw_core(), TOP_ROM_BASE_ADDR, rom0, sizeof(rom0)), OTA_OK);
	if (seeds_dir)
		write_seeds(seeds_dir);
}
END_TEST

/* A program being written (hostile.h's encoding). */
struct prog {
	uint8_t b[HOSTILE_PROG_BYTES];
	uint32_t n;
};

static void put8(struct prog *p, uint32_t v)
{
	if (p->n >= sizeof(p->b))
		die("seed program too long");
	p->b[p->n++] = (uint8_t)v;
}

static void put32(struct prog *p, uint32_t v)
{
	put8(p, v);
	put8(p, v >> 8);
	put8(p, v >> 16);
	put8(p, v >> 24);
}

#define REGION_SRAM 1u /* hostile.c's regions[] */

/* ecall nr (a0, a1, a2); an argument with bit 32 set is an SRAM address (an addr operand). */
#define SRAM_ARG(a) ((uint64_t)1 << 32 | (uint32_t)((a) - TOP_SRAM_BASE_ADDR))
static void put_svc(struct prog *p, uint32_t nr, uint64_t a0, uint64_t a1, uint64_t a2)
{
	const uint64_t a[3] = { a0, a1, a2 };
	uint32_t i;

	put8(p, HOSTILE_OP_SVC);
	put8(p, nr);
	for (i = 0; i < 3; i++) {
		put8(p, a[i] >> 32 ? 0x80u | REGION_SRAM : 0);
		put32(p, (uint32_t)a[i]);
	}
}

static void write_seed(const char *dir, const char *name, const struct prog *p)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (otu_write_file_atomic(path, p->b, p->n, 0644, OTU_WRITE_NO_SYNC) != 0)
		die("cannot write a seed");
}

static void write_seeds(const char *dir)
{
	const struct ota_flash_region *b = tu_region(OTA_REGION_BL0_B);
	uint32_t buf = 0, r;
	struct prog p;

	/* The image's own evidence buffer: a runtime's output lands there. */
	if (core_elf_symbol(hostile_elf.data, hostile_elf.len, "evidence", &buf) != OTA_OK)
		die("no evidence buffer in the hostile image");
	memset(&p, 0, sizeof(p));
	for (r = 0; r < 17; r++) {
		put8(&p, HOSTILE_OP_LOAD);
		put8(&p, r);
		put32(&p, 0);
	}
	write_seed(dir, "seed-load-each-region", &p);
	memset(&p, 0, sizeof(p));
	put_svc(&p, HAL_SVC_FLASH_READ, 0, SRAM_ARG(buf), 16);
	put_svc(&p, HAL_SVC_OTP_READ, 0, SRAM_ARG(buf), 16);
	put_svc(&p, HAL_SVC_RETENTION_READ, 0, SRAM_ARG(buf), 64);
	write_seed(dir, "seed-svc-reads", &p);
	memset(&p, 0, sizeof(p));
	put_svc(&p, HAL_SVC_KEYMGR_STATE, 0, 0, 0);
	put_svc(&p, HAL_SVC_FLASH_SIZE, 0, 0, 0);
	put_svc(&p, HAL_SVC_SHA256_START, 0, 0, 0);
	put_svc(&p, HAL_SVC_SHA256_UPDATE, SRAM_ARG(buf), 32, 0);
	put_svc(&p, HAL_SVC_SHA256_FINISH, SRAM_ARG(buf), 0, 0);
	write_seed(dir, "seed-svc-state-sha", &p);
	memset(&p, 0, sizeof(p));
	put_svc(&p, HAL_SVC_FLASH_ERASE_PAGE, b->offset, 0, 0);
	put_svc(&p, HAL_SVC_FLASH_PROGRAM, b->offset, SRAM_ARG(buf), 16);
	put8(&p, HOSTILE_OP_STORE32);
	put8(&p, REGION_SRAM);
	put32(&p, buf - TOP_SRAM_BASE_ADDR);
	put32(&p, 0x41414141u);
	write_seed(dir, "seed-inactive-slot-write", &p);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	seeds_dir = getenv("FUZZ_HOSTILE_WRITE_SEEDS");
	if (tu_run_in_process("fuzz_hostile_bl0", boot_device) != 0)
		abort();
	if (seeds_dir)
		exit(0);
	return 0;
}

/* Back to the device after start-up: flash, OTP, retention RAM, and a cold boot on the core. */
static void restore(void)
{
	reboots++;
	if (swhal_load_flash(flash0, flash_len) != 0 || swhal_load_otp(&otp0, sizeof(otp0)) != 0 ||
	    swhal_power_on() != 0 || swhal_poke_retention(0, ret0, sizeof(ret0)) != 0)
		die("restore");
	if (core_mem_write(ota_fw_core(), TOP_ROM_BASE_ADDR, rom0, sizeof(rom0)) != OTA_OK)
		die("restore the mask ROM");
	if (ota_fw_boot(OTA_RESET_COLD) != OTA_OK)
		die("the restored device does not boot");
}

static bool writable_by_runtime(uint32_t addr)
{
	uint32_t i;

	for (i = 0; i < 2; i++)
		if (addr >= writable[i].offset && addr - writable[i].offset < writable[i].size)
			return true;
	return false;
}

/*
 * Every flash byte that changed lies in a slot ROM_EXT left writable (the
 * B slots: A booted). Compared a page at a time with memcmp: a loop over
 * 4 MiB of bytes in this instrumented build cost 100 ms a run.
 */
static bool locked_flash_unchanged(void)
{
	uint32_t page, i;

	for (page = 0; page < flash_len; page += OTA_FLASH_PAGE_SIZE) {
		if (memcmp(flash_now + page, flash0 + page, OTA_FLASH_PAGE_SIZE) == 0)
			continue;
		for (i = page; i < page + OTA_FLASH_PAGE_SIZE; i++)
			if (flash_now[i] != flash0[i] && !writable_by_runtime(i)) {
				fprintf(stderr, "flash byte 0x%x changed: 0x%02x -> 0x%02x\n", i,
					flash0[i], flash_now[i]);
				return false;
			}
	}
	return true;
}

/* Any 8 consecutive bytes of the device secret in buf. */
static bool holds_secret(const uint8_t *buf, uint32_t len)
{
	uint32_t i, j;

	for (i = 0; i + 8 <= len; i++)
		for (j = 0; j + 8 <= sizeof(otp0.device_secret); j++)
			if (buf[i] == otp0.device_secret[j] && memcmp(buf + i, otp0.device_secret + j, 8) == 0)
				return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct hostile_req q;
	uint32_t len = 0;
	ota_status_t st;
	bool dirty;

	memset(&q, 0, sizeof(q));
	q.attack = HOSTILE_PROGRAM;
	memcpy(q.prog, data, size < sizeof(q.prog) ? size : sizeof(q.prog));
	runs++;
	st = ota_fw_command(HOSTILE_CMD, (const uint8_t *)&q, sizeof(q), resp, sizeof(resp), &len);

	if (core_mem_read(ota_fw_core(), TOP_ROM_BASE_ADDR, rom_now, sizeof(rom_now)) != OTA_OK)
		die("cannot read the mask ROM");
	if (memcmp(rom_now, rom0, sizeof(rom0)) != 0)
		die("the mask ROM changed");
	if (swhal_peek_flash(0, flash_now, flash_len) != 0 || swhal_peek_otp(0, &otp_now, sizeof(otp_now)) != 0 ||
	    swhal_peek_retention(0, ret_now, sizeof(ret_now)) != 0)
		die("peek");
	if (!locked_flash_unchanged())
		die("locked flash changed");
	if (memcmp(&otp_now, &otp0, sizeof(otp0)) != 0)
		die("OTP changed");
	if (memcmp(ret_now, ret0, HAL_RETENTION_VAULT_BYTES) != 0)
		die("the retention data vault changed");
	if (hal_keymgr_state() < HAL_KEYMGR_RUNTIME)
		die("the key manager moved back");
	if (len > sizeof(resp) || holds_secret(resp, len))
		die("the response holds the device secret");

	dirty = st != OTA_OK || len != sizeof(struct hostile_report) ||
		((const struct hostile_report *)resp)->resumed ||
		hal_keymgr_state() != HAL_KEYMGR_RUNTIME || memcmp(ret_now, ret0, sizeof(ret0)) != 0 ||
		memcmp(flash_now, flash0, flash_len) != 0;
	if (dirty)
		restore();
	if (getenv("FUZZ_HOSTILE_STATS") && runs % 16 == 0)
		fprintf(stderr, "fuzz_hostile_bl0: %lu runs, %lu restores; last: %s, %u bytes\n", runs,
			reboots, ota_status_name(st), len);
	return 0;
}
