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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/manifest.h>
#include <otu/file.h>

#include "core.h"
#include "core_probe.h"
#include "firmware.h"
#include "hal.h"
#include "swhal.h"
#include "tu_device.h"
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

/*
 * The mask ROM image (firmware/build.mk, build/rv32/rom.elf): the ROM stage
 * compiled for rv32imc runs on the core against a provisioned device, and
 * does what the host build of the same ROM does from the same flash: the
 * same status, the same key manager state and binding (a MAC from the
 * ROM_EXT state's CDI is equal), the same flash contents after it (the tag
 * tables a first boot writes), the same failed record when no ROM_EXT
 * verifies. Blocks not behind registers are reached through service calls
 * (firmware/include/hal/svc.h).
 */
static struct tu_device dev;
static uint8_t *rom_elf, *flash0;
static struct ota_otp otp0;
static size_t rom_elf_len;
static uint32_t flash_size;

static void rom_setup(void)
{
	tu_device_init(&dev);
	tu_device_power_on(&dev);
	flash_size = hal_flash_size();
	flash0 = malloc(flash_size);
	ck_assert_ptr_nonnull(flash0);
	ck_assert_int_eq(swhal_peek_flash(0, flash0, flash_size), 0);
	ck_assert_int_eq(swhal_peek_otp(0, &otp0, sizeof(otp0)), 0);
	ck_assert_int_eq(otu_read_file(OTA_ROM_ELF, 1u << 20, &rom_elf, &rom_elf_len), 0);
	ck_assert_int_eq(core_open(&core), 0);
}

static void rom_teardown(void)
{
	core_close(core);
	free(rom_elf);
	free(flash0);
	tu_device_free(&dev);
	swhal_close();
}

struct rom_outcome {
	ota_status_t status;
	uint32_t keymgr_state;
	uint8_t cdi_mac[32];    /* a MAC under a key from the ATTEST CDI: the binding */
	uint8_t flash_digest[32];
	struct ota_record record; /* the last record published, times and generation zeroed */
	uint32_t record_len;
	struct core_result run; /* the rv32 run */
	uint32_t stack_used;
};

static void outcome(struct rom_outcome *o)
{
	static const uint8_t msg[] = "which ROM_EXT the key manager is bound to";
	uint8_t *flash = malloc(flash_size);
	hal_key_t cdi, mac = HAL_KEY_INVALID;
	uint32_t i;

	ck_assert_ptr_nonnull(flash);
	o->keymgr_state = hal_keymgr_state();
	if (o->keymgr_state == HAL_KEYMGR_ROM_EXT) {
		cdi = hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST);
		ck_assert_uint_eq(hal_keymgr_derive(cdi, "test-core-rom", NULL, 0, 0, 0,
						    HAL_KEY_PURPOSE_MAC, &mac), OTA_OK);
		ck_assert_uint_eq(hal_kmac_start(mac, NULL, 0), OTA_OK);
		ck_assert_uint_eq(hal_kmac_update(msg, sizeof(msg)), OTA_OK);
		ck_assert_uint_eq(hal_kmac_finish(o->cdi_mac, sizeof(o->cdi_mac)), OTA_OK);
		hal_key_destroy(mac);
	}
	ck_assert_int_eq(swhal_peek_flash(0, flash, flash_size), 0);
	tu_sha256(flash, flash_size, o->flash_digest);
	free(flash);
	o->record_len = swhal_last_record(&o->record, sizeof(o->record));
	o->record.hdr.generation = 0;
	o->record.hdr.boot_time_ns = 0;
	for (i = 0; i < o->record.hdr.stage_count && i < OTA_RECORD_MAX_STAGES; i++) {
		o->record.stage[i].verify_time_ns = 0;
		o->record.stage[i].verify_cycles = 0;
	}
}

/* A cold boot's ROM from the flash and OTP the fixture provisioned: the host build's, or the image on the core. */
static void rom_boot(bool rv32, struct rom_outcome *o)
{
	uint32_t entry = 0, lo = 0, hi = 0;

	memset(o, 0, sizeof(*o));
	ck_assert_int_eq(swhal_load_flash(flash0, flash_size), 0);
	ck_assert_int_eq(swhal_load_otp(&otp0, sizeof(otp0)), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	if (!rv32) {
		o->status = ota_rom_main(OTA_RESET_COLD);
		outcome(o);
		return;
	}
	ck_assert_uint_eq(core_load_elf(core, rom_elf, rom_elf_len, &entry), OTA_OK);
	ck_assert_uint_eq(core_elf_symbol(rom_elf, rom_elf_len, "__stack_bottom", &lo), OTA_OK);
	ck_assert_uint_eq(core_elf_symbol(rom_elf, rom_elf_len, "__stack_top", &hi), OTA_OK);
	ck_assert_uint_eq(core_stack_paint(core, lo, hi), OTA_OK);
	ck_assert_uint_eq(core_run(core, entry, 200000000, &o->run), OTA_OK);
	ck_assert_msg(o->run.stop == CORE_STOP_RETURNED,
		      "stop %d at pc 0x%x after %llu insns (fault %s at 0x%x, svc %u, uc %d)", o->run.stop,
		      o->run.pc, (unsigned long long)o->run.insns, ota_status_name(o->run.fault),
		      o->run.fault_addr, o->run.svc_refused, o->run.uc_err);
	ck_assert_uint_eq(o->run.first_pc, entry);
	ck_assert_uint_eq(core_stack_used(core, lo, hi, &o->stack_used), OTA_OK);
	/* The stack never reached its bottom (below it is the ROM's RAM). */
	ck_assert_uint_lt(o->stack_used, hi - lo);
	o->status = o->run.a0;
	outcome(o);
	printf("rom on rv32: status %s, %llu instructions, %u service calls, stack %u of %u bytes\n",
	       ota_status_name(o->status), (unsigned long long)o->run.insns, o->run.svc_calls,
	       o->stack_used, hi - lo);
}

static void same_outcome(const struct rom_outcome *h, const struct rom_outcome *r)
{
	ck_assert_msg(h->status == r->status, "host %s, rv32 %s", ota_status_name(h->status),
		      ota_status_name(r->status));
	ck_assert_uint_eq(h->keymgr_state, r->keymgr_state);
	ck_assert_mem_eq(h->cdi_mac, r->cdi_mac, sizeof(h->cdi_mac));
	ck_assert_mem_eq(h->flash_digest, r->flash_digest, sizeof(h->flash_digest));
	ck_assert_uint_eq(h->record_len, r->record_len);
	ck_assert_mem_eq(&h->record, &r->record, sizeof(h->record));
}

/* A first boot: the slow path (signatures), the tag tables written, ROM_EXT entered. */
START_TEST(rom_image_runs_a_first_boot_as_the_host_build_does)
{
	struct rom_outcome h, r;

	rom_boot(false, &h);
	ck_assert_uint_eq(h.status, OTA_OK);
	ck_assert_uint_eq(h.keymgr_state, HAL_KEYMGR_ROM_EXT);
	ck_assert(memcmp(h.flash_digest, (uint8_t[32]){ 0 }, 32) != 0);
	rom_boot(true, &r);
	same_outcome(&h, &r);
	ck_assert_uint_gt(r.run.svc_calls, 0);
	ck_assert_uint_gt(r.stack_used, 0);
}
END_TEST

/* ROM_EXT's payload altered after signing: no hand-off, the same failed record. */
START_TEST(rom_image_refuses_altered_rom_ext_as_the_host_build_does)
{
	const struct ota_manifest *m = (const struct ota_manifest *)dev.slot[OTI_ROM_EXT_A].data;
	struct rom_outcome h, r;

	ck_assert_ptr_null(dev.slot[OTI_ROM_EXT_B].data); /* the fixture's only ROM_EXT is A */
	flash0[tu_slot_offset(OTI_ROM_EXT_A) + m->payload_offset + 100] ^= 0x01;
	rom_boot(false, &h);
	ck_assert_uint_ne(h.status, OTA_OK);
	ck_assert_uint_ne(h.keymgr_state, HAL_KEYMGR_ROM_EXT);
	ck_assert_uint_ge(h.record_len, sizeof(struct ota_record_header));
	ck_assert_uint_eq(h.record.hdr.boot_status, h.status);
	rom_boot(true, &r);
	same_outcome(&h, &r);
}
END_TEST

static Suite *core_suite(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("unicorn");
	TCase *rom = tcase_create("rom");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, probe_runs_the_drivers_on_the_core);
	tcase_add_test(tc, loader_refuses_what_is_not_an_image_for_this_map);
	tcase_add_test(tc, a_store_to_a_register_hole_faults);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(rom, rom_setup, rom_teardown);
	tcase_set_timeout(rom, 60);
	tcase_add_test(rom, rom_image_runs_a_first_boot_as_the_host_build_does);
	tcase_add_test(rom, rom_image_refuses_altered_rom_ext_as_the_host_build_does);
	suite_add_tcase(s, rom);
	return s;
}

OTA_TEST_MAIN(core_suite)
