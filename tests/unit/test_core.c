// SPDX-License-Identifier: MIT
/*
 * The emulated core (qemu-model/core/core.h): an rv32imc image built with
 * the firmware's start-up code, linker script and drivers
 * (tests/rv32/core_probe.c) runs on Unicorn against the chip's bus. What
 * its drivers read and asked for is what the chip holds and did; a
 * refused request is refused there too. The loader refuses what is not
 * an rv32 executable for this memory map, and a store to a hole in a
 * register block is a fault at that address.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <otu/file.h>

#include "core.h"
#include "core_probe.h"
#include "hal.h"
#include "swhal.h"
#include "testutil.h"
#include "top_regs.h"
#include "tu_main.h"

static uint8_t *probe;
static size_t probe_len;
static struct core *core;

static void setup(void)
{
	tu_hal_open_memory(4 * 2048);
	ck_assert_int_eq(otu_read_file(OTA_CORE_PROBE, 1u << 20, &probe, &probe_len), 0);
	ck_assert_int_eq(core_open(&core), 0);
}

static void teardown(void)
{
	core_close(core);
	free(probe);
	tu_hal_close();
}

START_TEST(probe_runs_the_drivers_on_the_core)
{
	struct core_result r;
	struct core_probe_out out;
	uint8_t want[OTA_SHA256_BYTES];
	uint32_t entry = 0, reason = 0;

	ck_assert_uint_eq(core_load_elf(core, probe, probe_len, &entry), OTA_OK);
	ck_assert_uint_ge(entry, TOP_ROM_BASE_ADDR);
	ck_assert_uint_lt(entry, TOP_ROM_BASE_ADDR + TOP_ROM_SIZE);
	ck_assert_uint_eq(core_run(core, entry, 1000000, &r), OTA_OK);
	ck_assert_msg(r.stop == CORE_STOP_RETURNED, "stop %d at pc 0x%x after %llu insns (fault 0x%x at 0x%x, uc %d)",
		      r.stop, r.pc, (unsigned long long)r.insns, r.fault, r.fault_addr, r.uc_err);
	ck_assert_uint_eq(r.a0, OTA_OK);
	ck_assert_uint_eq(r.first_pc, entry);
	ck_assert_uint_gt(r.insns, 1000); /* the spin loop alone retires 1000 iterations */
	ck_assert_uint_eq(core_mem_read(core, TOP_RET_SRAM_BASE_ADDR, &out, sizeof(out)), OTA_OK);
	ck_assert_uint_eq(out.magic, CORE_PROBE_MAGIC);
	/* rom_ctrl: the digest the chip holds */
	swhal_default_rom_identity(want);
	ck_assert_mem_eq(out.rom_id, want, sizeof(want));
	/* rv_timer: the count moved forward */
	ck_assert_uint_gt(out.c1, out.c0);
	/* rstmgr: an unknown reason refused, WARM asked for and pending in the chip */
	ck_assert_uint_eq(out.bad_reset, OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(out.good_reset, OTA_OK);
	ck_assert(swhal_reset_take(&reason));
	ck_assert_uint_eq(reason, OTA_RESET_WARM);
}
END_TEST

START_TEST(loader_refuses_what_is_not_an_image_for_this_map)
{
	uint8_t *bad = malloc(probe_len);
	uint32_t entry = 0;

	ck_assert_ptr_nonnull(bad);
	ck_assert_uint_eq(core_load_elf(core, probe, 16, &entry), OTA_HAL_BAD_ARGUMENT);
	memcpy(bad, probe, probe_len);
	bad[4] = 2; /* ELFCLASS64 */
	ck_assert_uint_eq(core_load_elf(core, bad, probe_len, &entry), OTA_HAL_BAD_ARGUMENT);
	memcpy(bad, probe, probe_len);
	bad[18] = 0x3e; /* e_machine: x86-64 */
	ck_assert_uint_eq(core_load_elf(core, bad, probe_len, &entry), OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(core_load_elf(core, NULL, 0, &entry), OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(entry, 0);
	free(bad);
}
END_TEST

/* Hand-assembled: sw zero, 0x80(a0) with a0 = kmac's base: a hole in the block. */
START_TEST(a_store_to_a_register_hole_faults)
{
	static const uint32_t code[] = {
		0x00000537u | (TOP_KMAC_BASE_ADDR & 0xfffff000u), /* lui a0, %hi(kmac) */
		0x08052023u,                                      /* sw zero, 0x80(a0) */
		0x00000073u,                                      /* ecall */
	};
	struct core_result r;

	ck_assert_uint_eq(core_mem_write(core, TOP_ROM_BASE_ADDR, code, sizeof(code)), OTA_OK);
	ck_assert_uint_eq(core_run(core, TOP_ROM_BASE_ADDR, 100, &r), OTA_OK);
	ck_assert_int_eq(r.stop, CORE_STOP_FAULT);
	ck_assert_uint_eq(r.fault, OTA_HAL_BUS_ERROR);
	ck_assert_uint_eq(r.fault_addr, TOP_KMAC_BASE_ADDR + 0x80);
}
END_TEST

static Suite *core_suite(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("unicorn");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, probe_runs_the_drivers_on_the_core);
	tcase_add_test(tc, loader_refuses_what_is_not_an_image_for_this_map);
	tcase_add_test(tc, a_store_to_a_register_hole_faults);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(core_suite)
