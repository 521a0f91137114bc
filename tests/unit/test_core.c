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
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/manifest.h>
#include <otu/file.h>

#include "core.h"
#include "core_probe.h"
#include "firmware.h"
#include "handoff.h"
#include "hal.h"
#include "swhal.h"
#include "tu_device.h"
#include "testutil.h"
#include "top_regs.h"
#include "tu_main.h"

/*
 * LeakSanitizer's hook for this binary (the ASan unit build): Unicorn
 * 2.0.1 does not free the code bitmaps it allocates in
 * tb_invalidate_phys_page_fast when a run writes or loads over memory it
 * has translated code from (loading ROM_EXT where ROM's RAM was), not even
 * in uc_close. Only leaks from inside libunicorn are suppressed.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libunicorn.so\n";
}

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
 * The stage images (firmware/build.mk: build/rv32/rom.elf, rom_ext.elf):
 * the boot stages compiled for rv32imc run on the core against a
 * provisioned device, and do what the host build of the same stages does
 * from the same flash and OTP: the same status, key manager state and
 * binding (a MAC under a key from the attestation CDI is equal), flash
 * contents (the tag tables a first boot writes), retention RAM and
 * published record; ROM_EXT's alias key (in the hand-off state, read out
 * of the core's SRAM) is the host build's. ROM_EXT reads what ROM left in
 * the hand-off state at the same addresses (firmware/base/stage.ld).
 * Blocks not behind registers are reached through service calls
 * (firmware/include/hal/svc.h). Until ROM copies a verified payload, the
 * board loads ROM_EXT's image from the build when ROM hands off.
 */
static struct tu_device dev;
static struct tu_blob rom_elf, rom_ext_elf;
static uint8_t *flash0;
static struct ota_otp otp0;
static uint32_t flash_size;

static struct tu_blob read_elf(const char *path)
{
	struct tu_blob b = { 0 };
	uint8_t *p = NULL;

	ck_assert_int_eq(otu_read_file(path, 1u << 20, &p, &b.len), 0);
	b.data = p;
	return b;
}

static void rom_setup(void)
{
	tu_device_init(&dev);
	tu_device_power_on(&dev);
	flash_size = hal_flash_size();
	flash0 = malloc(flash_size);
	ck_assert_ptr_nonnull(flash0);
	ck_assert_int_eq(swhal_peek_flash(0, flash0, flash_size), 0);
	ck_assert_int_eq(swhal_peek_otp(0, &otp0, sizeof(otp0)), 0);
	rom_elf = read_elf(OTA_ROM_ELF);
	rom_ext_elf = read_elf(OTA_ROM_EXT_ELF);
	ck_assert_int_eq(core_open(&core), 0);
}

static void rom_teardown(void)
{
	core_close(core);
	tu_blob_free(&rom_elf);
	tu_blob_free(&rom_ext_elf);
	free(flash0);
	tu_device_free(&dev);
	swhal_close();
}

struct stage_run {
	struct core_result run;
	uint32_t stack_used, stack_size;
};

struct boot_outcome {
	ota_status_t status;
	uint32_t keymgr_state;
	uint8_t cdi_mac[32];    /* a MAC under a key from the ATTEST CDI: the binding */
	uint8_t flash_digest[32];
	uint8_t retention[HAL_RETENTION_BYTES];
	struct ota_record record; /* the last record published, times and generation zeroed */
	uint32_t record_len;
	uint8_t alias_pubkey[OTA_P256_PUBKEY_BYTES]; /* ota_rt's, after ROM_EXT */
	struct stage_run rom, rom_ext; /* the rv32 runs */
};

static void outcome(struct boot_outcome *o)
{
	static const uint8_t msg[] = "which stages the key manager is bound to";
	uint8_t *flash = malloc(flash_size);
	hal_key_t cdi, mac = HAL_KEY_INVALID;
	uint32_t i;

	ck_assert_ptr_nonnull(flash);
	o->keymgr_state = hal_keymgr_state();
	if (o->keymgr_state == HAL_KEYMGR_ROM_EXT || o->keymgr_state == HAL_KEYMGR_RUNTIME) {
		cdi = hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST);
		ck_assert_uint_eq(hal_keymgr_derive(cdi, "test-core-stages", NULL, 0, 0, 0,
						    HAL_KEY_PURPOSE_MAC, &mac), OTA_OK);
		ck_assert_uint_eq(hal_kmac_start(mac, NULL, 0), OTA_OK);
		ck_assert_uint_eq(hal_kmac_update(msg, sizeof(msg)), OTA_OK);
		ck_assert_uint_eq(hal_kmac_finish(o->cdi_mac, sizeof(o->cdi_mac)), OTA_OK);
		hal_key_destroy(mac);
	}
	ck_assert_int_eq(swhal_peek_flash(0, flash, flash_size), 0);
	tu_sha256(flash, flash_size, o->flash_digest);
	free(flash);
	ck_assert_int_eq(swhal_peek_retention(0, o->retention, sizeof(o->retention)), 0);
	o->record_len = swhal_last_record(&o->record, sizeof(o->record));
	o->record.hdr.generation = 0;
	o->record.hdr.boot_time_ns = 0;
	for (i = 0; i < o->record.hdr.stage_count && i < OTA_RECORD_MAX_STAGES; i++) {
		o->record.stage[i].verify_time_ns = 0;
		o->record.stage[i].verify_cycles = 0;
	}
}

/* Load a stage image, paint its stack, run it to its end; its status. */
static ota_status_t run_stage(const char *name, const struct tu_blob *elf, struct stage_run *s)
{
	uint32_t entry = 0, lo = 0, hi = 0;

	ck_assert_uint_eq(core_load_elf(core, elf->data, elf->len, &entry), OTA_OK);
	ck_assert_uint_eq(core_elf_symbol(elf->data, elf->len, "__stack_bottom", &lo), OTA_OK);
	ck_assert_uint_eq(core_elf_symbol(elf->data, elf->len, "__stack_top", &hi), OTA_OK);
	ck_assert_uint_eq(core_stack_paint(core, lo, hi), OTA_OK);
	ck_assert_uint_eq(core_run(core, entry, 200000000, &s->run), OTA_OK);
	ck_assert_msg(s->run.stop == CORE_STOP_RETURNED,
		      "%s: stop %d at pc 0x%x after %llu insns (fault %s at 0x%x, svc %u, uc %d)", name,
		      s->run.stop, s->run.pc, (unsigned long long)s->run.insns,
		      ota_status_name(s->run.fault), s->run.fault_addr, s->run.svc_refused,
		      s->run.uc_err);
	ck_assert_uint_eq(s->run.first_pc, entry);
	ck_assert_uint_eq(core_stack_used(core, lo, hi, &s->stack_used), OTA_OK);
	s->stack_size = hi - lo;
	/* The stack never reached its bottom (below it is the stage's RAM). */
	ck_assert_uint_lt(s->stack_used, s->stack_size);
	printf("%s on rv32: status %s, %llu instructions, %u service calls, stack %u of %u bytes\n",
	       name, ota_status_name(s->run.a0), (unsigned long long)s->run.insns, s->run.svc_calls,
	       s->stack_used, s->stack_size);
	return s->run.a0;
}

/*
 * A cold boot from the flash and OTP the fixture provisioned, ROM and (when
 * ROM hands off and rom_ext) ROM_EXT: the host build's stages, or the
 * images on the core.
 */
static void boot(bool rv32, bool rom_ext, struct boot_outcome *o)
{
	uint32_t rt = 0;

	memset(o, 0, sizeof(*o));
	ck_assert_int_eq(swhal_load_flash(flash0, flash_size), 0);
	ck_assert_int_eq(swhal_load_otp(&otp0, sizeof(otp0)), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	if (!rv32) {
		o->status = ota_rom_main(OTA_RESET_COLD);
		if (o->status == OTA_OK && rom_ext) {
			o->status = ota_rom_ext_main();
			memcpy(o->alias_pubkey, ota_rt.alias_pubkey, sizeof(o->alias_pubkey));
		}
		outcome(o);
		return;
	}
	o->status = run_stage("rom", &rom_elf, &o->rom);
	if (o->status == OTA_OK && rom_ext) {
		o->status = run_stage("rom_ext", &rom_ext_elf, &o->rom_ext);
		ck_assert_uint_eq(core_elf_symbol(rom_ext_elf.data, rom_ext_elf.len, "ota_rt", &rt), OTA_OK);
		ck_assert_uint_eq(core_mem_read(core, rt + offsetof(struct ota_runtime, alias_pubkey),
						o->alias_pubkey, sizeof(o->alias_pubkey)), OTA_OK);
	}
	outcome(o);
}

static void same_outcome(const struct boot_outcome *h, const struct boot_outcome *r)
{
	ck_assert_msg(h->status == r->status, "host %s, rv32 %s", ota_status_name(h->status),
		      ota_status_name(r->status));
	ck_assert_uint_eq(h->keymgr_state, r->keymgr_state);
	ck_assert_mem_eq(h->cdi_mac, r->cdi_mac, sizeof(h->cdi_mac));
	ck_assert_mem_eq(h->flash_digest, r->flash_digest, sizeof(h->flash_digest));
	ck_assert_mem_eq(h->retention, r->retention, sizeof(h->retention));
	ck_assert_uint_eq(h->record_len, r->record_len);
	ck_assert_mem_eq(&h->record, &r->record, sizeof(h->record));
	ck_assert_mem_eq(h->alias_pubkey, r->alias_pubkey, sizeof(h->alias_pubkey));
}

/* A first boot: the slow path (signatures), the tag tables written, ROM_EXT entered. */
START_TEST(rom_image_runs_a_first_boot_as_the_host_build_does)
{
	struct boot_outcome h, r;

	boot(false, false, &h);
	ck_assert_uint_eq(h.status, OTA_OK);
	ck_assert_uint_eq(h.keymgr_state, HAL_KEYMGR_ROM_EXT);
	boot(true, false, &r);
	same_outcome(&h, &r);
	ck_assert_uint_gt(r.rom.run.svc_calls, 0);
	ck_assert_uint_gt(r.rom.stack_used, 0);
}
END_TEST

/* ROM_EXT's payload altered after signing: no hand-off, the same failed record. */
START_TEST(rom_image_refuses_altered_rom_ext_as_the_host_build_does)
{
	const struct ota_manifest *m = (const struct ota_manifest *)dev.slot[OTI_ROM_EXT_A].data;
	struct boot_outcome h, r;

	ck_assert_ptr_null(dev.slot[OTI_ROM_EXT_B].data); /* the fixture's only ROM_EXT is A */
	flash0[tu_slot_offset(OTI_ROM_EXT_A) + m->payload_offset + 100] ^= 0x01;
	boot(false, true, &h);
	ck_assert_uint_ne(h.status, OTA_OK);
	ck_assert_uint_ne(h.keymgr_state, HAL_KEYMGR_ROM_EXT);
	ck_assert_uint_ge(h.record_len, sizeof(struct ota_record_header));
	ck_assert_uint_eq(h.record.hdr.boot_status, h.status);
	boot(true, true, &r);
	same_outcome(&h, &r);
	ck_assert_uint_eq(r.rom_ext.run.insns, 0); /* ROM_EXT never ran */
}
END_TEST

/*
 * ROM then ROM_EXT, both on the core: BL0 verified (the slow path on a
 * first boot, then the tag path), the key manager at RUNTIME, the record
 * published by ROM_EXT, the alias key prepared; as the host build does.
 */
START_TEST(rom_and_rom_ext_images_boot_as_the_host_build_does)
{
	struct boot_outcome h, r;
	int i;

	for (i = 0; i < 2; i++) {
		boot(false, true, &h);
		ck_assert_uint_eq(h.status, OTA_OK);
		ck_assert_uint_eq(h.keymgr_state, HAL_KEYMGR_RUNTIME);
		ck_assert_uint_eq(h.record.hdr.boot_status, OTA_OK);
		boot(true, true, &r);
		same_outcome(&h, &r);
		ck_assert_uint_gt(r.rom_ext.run.insns, 0);
		ck_assert_uint_gt(r.rom_ext.stack_used, 0);
		/* The second round starts from the flash the first boot left (tags written). */
		ck_assert_int_eq(swhal_peek_flash(0, flash0, flash_size), 0);
	}
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
	tcase_add_test(rom, rom_and_rom_ext_images_boot_as_the_host_build_does);
	suite_add_tcase(s, rom);
	return s;
}

OTA_TEST_MAIN(core_suite)
