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
#include <elf.h>
#include <otattest/mailbox.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otattest/manifest.h>
#include <otattest/verify.h>
#include <otu/file.h>

#include "core.h"
#include "core_probe.h"
#include "otimage.h"
#include "firmware.h"
#include "fw_run.h"
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
 * The stage images (firmware/build.mk: build/rv32/rom.elf, rom_ext.elf).
 * ROM_EXT's slot holds rom_ext.elf signed as a stage executable (its code
 * as the payload, a LOAD extension: oti_payload_elf). ROM runs on the core
 * from reset, verifies that image, copies its payload from the verified
 * RAM copy to its load address and jumps there; ROM_EXT runs, verifies
 * BL0 and returns to the board. The same boot by the host build of the
 * stages, from the same flash and OTP, ends with the same status, key
 * manager state and binding (a MAC under a key from the attestation CDI),
 * flash contents (the tag tables a first boot writes), retention RAM and
 * record; ROM_EXT's alias key (in the hand-off state, read out of the
 * core's SRAM) is the host build's. An image altered after signing, or
 * one under a revoked key, never retires an instruction in ROM_EXT's
 * window. Blocks not behind registers are reached through service calls
 * (firmware/include/hal/svc.h).
 */
static struct tu_device dev;
static struct tu_blob rom_elf, rom_ext_elf, bl0_elf;
static uint8_t *flash0;
static struct ota_otp otp0;
static uint32_t flash_size;

static uint32_t elf_sym(const struct tu_blob *elf, const char *name)
{
	uint32_t v = 0;

	ck_assert_msg(core_elf_symbol(elf->data, elf->len, name, &v) == OTA_OK, "no %s", name);
	return v;
}

/* A stage executable in a slot, signed as the fixture signs that stage, placed at load (0: the ELF's address). */
static void stage_slot_svn(enum oti_slot_index slot, const struct tu_blob *elf, uint32_t load,
			   uint32_t svn)
{
	uint32_t stage = slot == OTI_ROM_EXT_A || slot == OTI_ROM_EXT_B ? OTA_STAGE_ROM_EXT
								       : OTA_STAGE_BL0;

	tu_blob_free(&dev.slot[slot]);
	dev.slot[slot] = tu_stage_image(elf, stage, svn, load);
}

static void stage_slot(enum oti_slot_index slot, const struct tu_blob *elf, uint32_t load)
{
	stage_slot_svn(slot, elf, load, slot == OTI_ROM_EXT_A || slot == OTI_ROM_EXT_B ? 1 : 5);
}

/* ROM_EXT's slot A: rom_ext.elf as a stage executable, placed at load (0: the ELF's address). */
static void rom_ext_slot(uint32_t load)
{
	stage_slot(OTI_ROM_EXT_A, &rom_ext_elf, load);
}

static void snapshot(void)
{
	flash_size = hal_flash_size();
	free(flash0);
	flash0 = malloc(flash_size);
	ck_assert_ptr_nonnull(flash0);
	ck_assert_int_eq(swhal_peek_flash(0, flash0, flash_size), 0);
	ck_assert_int_eq(swhal_peek_otp(0, &otp0, sizeof(otp0)), 0);
}

static void rom_setup(void)
{
	rom_elf = tu_read_blob(OTA_ROM_ELF);
	rom_ext_elf = tu_read_blob(OTA_ROM_EXT_ELF);
	bl0_elf = tu_read_blob(OTA_BL0_ELF);
	tu_device_init(&dev);
	rom_ext_slot(0);
	stage_slot(OTI_BL0_A, &bl0_elf, 0);
	tu_device_power_on(&dev);
	snapshot();
	ck_assert_int_eq(core_open(&core), 0);
	/* Window 0: ROM; window 1: ROM_EXT's, where its code is copied; window 2: BL0's. */
	core_watch(core, 0, TOP_ROM_BASE_ADDR, TOP_ROM_BASE_ADDR + TOP_ROM_SIZE);
	core_watch(core, 1, elf_sym(&rom_ext_elf, "__rom_ext_window"),
		   elf_sym(&rom_ext_elf, "__rom_ext_window_end"));
	core_watch(core, 2, elf_sym(&bl0_elf, "__bl0_window"), elf_sym(&bl0_elf, "__bl0_window_end"));
}

static void rom_teardown(void)
{
	core_close(core);
	tu_blob_free(&rom_elf);
	tu_blob_free(&rom_ext_elf);
	tu_blob_free(&bl0_elf);
	free(flash0);
	flash0 = NULL;
	tu_device_free(&dev);
	swhal_close();
}

struct boot_outcome {
	ota_status_t status;
	uint32_t keymgr_state;
	uint8_t cdi_mac[32];    /* a MAC under a key from the ATTEST CDI: the binding */
	uint8_t flash_digest[32];
	uint8_t retention[HAL_RETENTION_BYTES];
	struct ota_record record; /* the last record published, times and generation zeroed */
	uint32_t record_len;
	uint8_t alias_pubkey[OTA_P256_PUBKEY_BYTES]; /* ota_rt's, after ROM_EXT */
	struct core_result run;  /* the rv32 run */
	uint32_t rom_stack, rom_ext_stack, bl0_stack; /* their high-water marks */
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

static uint32_t stack_used(const struct tu_blob *elf)
{
	uint32_t lo = elf_sym(elf, "__stack_bottom"), hi = elf_sym(elf, "__stack_top"), used = 0;

	ck_assert_uint_eq(core_stack_used(core, lo, hi, &used), OTA_OK);
	/* The stack never reached its bottom (below it is the stage's RAM). */
	ck_assert_uint_lt(used, hi - lo);
	return used;
}

static bool ram_is_zero(uint32_t lo, uint32_t hi)
{
	uint8_t *p = malloc(hi - lo);
	bool zero;

	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(core_mem_read(core, lo, p, hi - lo), OTA_OK);
	zero = ota_all_zero(p, hi - lo);
	free(p);
	return zero;
}

/* BL0's payload is padded past its code, over its stack: the painting is overwritten, nothing to measure. */
static bool bl0_padded;

/* A cold boot from the flash and OTP snapshot: the host build's stages, or the images on the core. */
static void boot(bool rv32, struct boot_outcome *o)
{
	const struct core_result *r = &o->run;
	uint32_t entry = 0, rt = elf_sym(&rom_ext_elf, "ota_rt");

	memset(o, 0, sizeof(*o));
	ck_assert_int_eq(swhal_load_flash(flash0, flash_size), 0);
	ck_assert_int_eq(swhal_load_otp(&otp0, sizeof(otp0)), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	if (!rv32) {
		o->status = ota_rom_main(OTA_RESET_COLD);
		if (o->status == OTA_OK) {
			o->status = ota_rom_ext_main();
			memcpy(o->alias_pubkey, ota_rt.alias_pubkey, sizeof(o->alias_pubkey));
		}
		outcome(o);
		return;
	}
	/* The board at power-on: the mask ROM, nothing else; the core starts at its entry. */
	ck_assert_uint_eq(core_load_elf(core, rom_elf.data, rom_elf.len, &entry), OTA_OK);
	ck_assert_uint_eq(core_stack_paint(core, elf_sym(&rom_elf, "__stack_bottom"),
					   elf_sym(&rom_elf, "__stack_top")), OTA_OK);
	ck_assert_uint_eq(core_stack_paint(core, elf_sym(&rom_ext_elf, "__stack_bottom"),
					   elf_sym(&rom_ext_elf, "__stack_top")), OTA_OK);
	ck_assert_uint_eq(core_stack_paint(core, elf_sym(&bl0_elf, "__stack_bottom"),
					   elf_sym(&bl0_elf, "__stack_top")), OTA_OK);
	ck_assert_uint_eq(core_run(core, entry, 200000000, &o->run), OTA_OK);
	/* A boot ends with ROM or ROM_EXT returning its refusal, or with BL0 waiting for a request. */
	ck_assert_msg(r->stop == CORE_STOP_RETURNED || (r->stop == CORE_STOP_WAIT && r->window_insns[2]),
		      "stop %d at pc 0x%x after %llu insns (fault %s at 0x%x, svc %u, uc %d)", r->stop,
		      r->pc, (unsigned long long)r->insns, ota_status_name(r->fault), r->fault_addr,
		      r->svc_refused, r->uc_err);
	ck_assert_uint_eq(r->first_pc, entry);
	o->status = r->stop == CORE_STOP_WAIT ? OTA_OK : r->a0;
	/* ROM wipes its stack when it hands off: its high-water mark is the lowest SP it ran with. */
	o->rom_stack = elf_sym(&rom_elf, "__stack_top") - r->window_min_sp[0];
	if (!r->window_insns[1])
		ck_assert_uint_eq(o->rom_stack, stack_used(&rom_elf)); /* no hand-off: painting agrees */
	/* So does ROM_EXT when it hands off to BL0. */
	if (r->window_insns[2]) {
		o->rom_ext_stack = elf_sym(&rom_ext_elf, "__stack_top") - r->window_min_sp[1];
		o->bl0_stack = bl0_padded ? 0 : stack_used(&bl0_elf);
	}
	if (r->window_insns[1]) {
		if (!r->window_insns[2])
			o->rom_ext_stack = stack_used(&rom_ext_elf);
		ck_assert_uint_eq(core_mem_read(core, rt + offsetof(struct ota_runtime, alias_pubkey),
						o->alias_pubkey, sizeof(o->alias_pubkey)), OTA_OK);
	}
	outcome(o);
	printf("rv32 boot: %s; %llu instructions: ROM %llu, ROM_EXT %llu (first at 0x%x), "
	       "BL0 %llu (first at 0x%x); %u service calls; stack ROM %u, ROM_EXT %u, BL0 %u bytes\n",
	       ota_status_name(o->status), (unsigned long long)r->insns,
	       (unsigned long long)r->window_insns[0], (unsigned long long)r->window_insns[1],
	       r->window_first_pc[1], (unsigned long long)r->window_insns[2], r->window_first_pc[2],
	       r->svc_calls, o->rom_stack, o->rom_ext_stack, o->bl0_stack);
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

/*
 * The budgets docs/hal.md ("Stage images") holds the images to: code and
 * constants (the ELF's one segment with bytes) and the stack high-water
 * mark painted and measured in the runs.
 */
#define ROM_CODE_BUDGET (24u << 10)     /* of the 32 KiB mask ROM */
#define ROM_EXT_CODE_BUDGET (32u << 10) /* of its 512 KiB window */
#define BL0_CODE_BUDGET (48u << 10)     /* of its 1 MiB window */
#define STAGE_STACK_BUDGET (4u << 10)   /* of each stage's 16 KiB stack */
/* BL0 copies each request out of the mailbox onto its stack first (4104 bytes at most). */
#define BL0_STACK_BUDGET (6u << 10)
/*
 * A tag-path stage check at depth 0, on the core, beyond what the engines
 * do: the 1.1x of SHA-256 at 64 KiB leaves about 8k cycles.
 */
#define TAG_CHECK_INSN_BUDGET 6000u

static uint32_t code_size(const struct tu_blob *elf)
{
	struct oti_image_params p;
	struct oti_diag d;
	bool is_elf = false;

	memset(&p, 0, sizeof(p));
	ck_assert_uint_eq(oti_payload_elf(elf->data, elf->len, &p, &is_elf, &d), OTA_OK);
	ck_assert(is_elf);
	return (uint32_t)p.payload_len;
}

/*
 * ROM, then the ROM_EXT it verified, copied and entered, on the core;
 * twice (a first boot on the slow path writing the tag tables, then the
 * tag path): as the host build does.
 */
START_TEST(rom_runs_the_rom_ext_it_verified)
{
	struct boot_outcome h, r;
	int i;

	for (i = 0; i < 2; i++) {
		boot(false, &h);
		ck_assert_uint_eq(h.status, OTA_OK);
		ck_assert_uint_eq(h.keymgr_state, HAL_KEYMGR_RUNTIME);
		ck_assert_uint_eq(h.record.hdr.boot_status, OTA_OK);
		boot(true, &r);
		same_outcome(&h, &r);
		/* ROM wiped its RAM and stack before the jump: nothing of it is left. */
		ck_assert(ram_is_zero(elf_sym(&rom_elf, "__bss_start"), elf_sym(&rom_elf, "__stack_top")));
		/* ROM_EXT wiped its RAM and stack before the jump to BL0 (Build item 3). */
		ck_assert(ram_is_zero(elf_sym(&rom_ext_elf, "__bss_start"),
				      elf_sym(&rom_ext_elf, "__stack_top")));
		/* ROM_EXT's first instruction is its entry point, where ROM jumped; BL0's likewise. */
		ck_assert_uint_eq(r.run.window_first_pc[1], elf_sym(&rom_ext_elf, "_start"));
		ck_assert_uint_gt(r.run.window_insns[1], 0);
		ck_assert_uint_eq(r.run.window_first_pc[2], elf_sym(&bl0_elf, "_start"));
		ck_assert_int_eq(r.run.stop, CORE_STOP_WAIT); /* BL0 waits for a request */
		ck_assert_uint_gt(r.run.svc_calls, 0);
		ck_assert_uint_gt(r.rom_stack, 0);
		ck_assert_uint_gt(r.rom_ext_stack, 0);
		ck_assert_uint_gt(r.bl0_stack, 0);
		ck_assert_msg(r.rom_stack <= STAGE_STACK_BUDGET && r.rom_ext_stack <= STAGE_STACK_BUDGET &&
				      r.bl0_stack <= BL0_STACK_BUDGET,
			      "stack: ROM %u, ROM_EXT %u bytes, budget %u; BL0 %u bytes, budget %u",
			      r.rom_stack, r.rom_ext_stack, STAGE_STACK_BUDGET, r.bl0_stack,
			      BL0_STACK_BUDGET);
		/* The second round starts from the flash the first boot left (tags written). */
		snapshot();
	}
}
END_TEST

/* The images' code and constants within their budgets. */
START_TEST(stage_images_fit_their_code_budgets)
{
	uint32_t rom = code_size(&rom_elf), rom_ext = code_size(&rom_ext_elf);
	uint32_t bl0 = code_size(&bl0_elf);

	printf("code and constants: ROM %u bytes (budget %u), ROM_EXT %u bytes (budget %u), "
	       "BL0 %u bytes (budget %u)\n", rom, ROM_CODE_BUDGET, rom_ext, ROM_EXT_CODE_BUDGET, bl0,
	       BL0_CODE_BUDGET);
	ck_assert_uint_le(rom, ROM_CODE_BUDGET);
	ck_assert_uint_le(rom_ext, ROM_EXT_CODE_BUDGET);
	ck_assert_uint_le(bl0, BL0_CODE_BUDGET);
}
END_TEST

/* Refused on both builds alike, and ROM_EXT never runs an instruction. */
static void refused_alike(ota_status_t want)
{
	const struct ota_stage_record *a;
	struct boot_outcome h, r;

	boot(false, &h);
	ck_assert_uint_eq(h.status, OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_ne(h.keymgr_state, HAL_KEYMGR_ROM_EXT);
	ck_assert_uint_eq(h.record.hdr.boot_status, h.status);
	boot(true, &r);
	same_outcome(&h, &r);
	ck_assert_uint_gt(r.run.window_insns[0], 0);
	ck_assert_uint_eq(r.run.window_insns[1], 0); /* not a single instruction of ROM_EXT */
	ck_assert_uint_eq(r.run.window_first_pc[1], 0);
	ck_assert_uint_eq(r.run.window_insns[2], 0); /* nor of BL0 */
	a = tu_attempt(OTA_STAGE_ROM_EXT, OTA_SLOT_A);
	ck_assert_ptr_nonnull(a);
	ck_assert_msg(a->status == want, "got %s, want %s", ota_status_name(a->status),
		      ota_status_name(want));
}

/* One bit of a slot's code flipped after signing, in the flash snapshot; the stage's other slot is empty. */
static void alter_code(enum oti_slot_index slot, enum oti_slot_index other)
{
	const struct ota_manifest *m = (const struct ota_manifest *)dev.slot[slot].data;

	ck_assert_ptr_null(dev.slot[other].data);
	flash0[tu_slot_offset(slot) + m->payload_offset + 100] ^= 0x01;
}

/* Key 0 of the creator (ROM_EXT's signer) or the owner (BL0's) revoked in OTP. */
static void revoke_signer(bool owner)
{
	tu_otp_revoke(owner, 0);
	snapshot();
}

/* ROM_EXT's code altered after signing. */
START_TEST(an_altered_rom_ext_never_runs)
{
	alter_code(OTI_ROM_EXT_A, OTI_ROM_EXT_B);
	refused_alike(OTA_SIG_ECDSA_INVALID);
}
END_TEST

/* ROM_EXT signed by a creator key revoked in OTP. */
START_TEST(a_rom_ext_under_a_revoked_key_never_runs)
{
	revoke_signer(false);
	refused_alike(OTA_ROOT_KEY_REVOKED);
}
END_TEST

/*
 * A valid ROM_EXT whose LOAD would put its code on the hand-off state:
 * the host build (which runs the ROM_EXT compiled into it) boots it; the
 * core refuses the slot with EXT_BAD_LOAD and copies nothing.
 */
START_TEST(rom_ext_code_outside_its_window_is_refused)
{
	struct boot_outcome r;
	const struct ota_stage_record *a;

	rom_ext_slot(TOP_SRAM_BASE_ADDR);
	tu_device_write_slot(OTI_ROM_EXT_A, &dev.slot[OTI_ROM_EXT_A]);
	snapshot();
	boot(true, &r);
	ck_assert_uint_eq(r.status, OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(r.run.window_insns[1], 0);
	a = &r.record.stage[0];
	ck_assert_uint_eq(a->stage, OTA_STAGE_ROM_EXT);
	ck_assert_msg(a->status == OTA_EXT_BAD_LOAD, "got %s", ota_status_name(a->status));
}
END_TEST

/*
 * The board with the core (qemu-model/board/fw_core.c, what
 * otattest-model --core=rv32 runs): ROM at reset, ROM_EXT and BL0 as
 * verified, and BL0 answering mailbox requests posted to the mbox
 * registers, on rv32; a reset command answered by the BL0 that booted
 * after it.
 */
static uint32_t bl0_min_sp(uint32_t sofar, const struct core_result *r)
{
	uint32_t sp = r->window_min_sp[OTA_FW_CORE_BL0];

	return sp && (!sofar || sp < sofar) ? sp : sofar;
}

static ota_status_t call(uint32_t command, const void *req, uint32_t req_len, uint8_t *resp,
			 uint32_t *len)
{
	return ota_fw_command(command, req, req_len, resp, OTA_MBOX_RESPONSE_MAX_ANY, len);
}

START_TEST(bl0_serves_the_mailbox_on_the_core)
{
	static uint8_t resp[OTA_MBOX_RESPONSE_MAX_ANY];
	struct ota_record rec;
	struct ota_req_attest a;
	struct ota_resp_reset rr;
	const struct core_result *b = ota_fw_core_boot_result(), *q = ota_fw_core_request_result();
	uint32_t len = 0, rec_len, gen, min_sp = 0, bl0_stack;

	ck_assert_int_eq(ota_fw_core_open(OTA_ROM_ELF), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_int_eq(b->stop, CORE_STOP_WAIT);
	ck_assert_uint_eq(b->window_first_pc[OTA_FW_CORE_ROM_EXT], elf_sym(&rom_ext_elf, "_start"));
	ck_assert_uint_eq(b->window_first_pc[OTA_FW_CORE_BL0], elf_sym(&bl0_elf, "_start"));
	min_sp = bl0_min_sp(min_sp, b);

	/* GET_RECORD: the record the boot published, served by BL0 and nothing else. */
	ck_assert_uint_eq(call(OTA_CMD_GET_RECORD, NULL, 0, resp, &len), OTA_OK);
	rec_len = swhal_last_record(&rec, sizeof(rec));
	ck_assert_uint_eq(len, rec_len);
	ck_assert_mem_eq(resp, &rec, rec_len);
	ck_assert_uint_eq(rec.hdr.boot_status, OTA_OK);
	ck_assert_int_eq(q->stop, CORE_STOP_WAIT);
	ck_assert_uint_gt(q->window_insns[OTA_FW_CORE_BL0], 0);
	ck_assert_uint_eq(q->window_insns[OTA_FW_CORE_ROM] + q->window_insns[OTA_FW_CORE_ROM_EXT], 0);
	min_sp = bl0_min_sp(min_sp, q);

	/* ATTEST: evidence over the caller's nonce, signed on the core's request. */
	memset(&a, 0, sizeof(a));
	a.nonce_len = 32;
	memset(a.nonce, 0xa5, a.nonce_len);
	ck_assert_uint_eq(call(OTA_CMD_ATTEST, &a, sizeof(a), resp, &len), OTA_OK);
	ck_assert_uint_gt(len, a.nonce_len);
	ck_assert_ptr_nonnull(memmem(resp, len, a.nonce, a.nonce_len));
	min_sp = bl0_min_sp(min_sp, q);

	/* BL0's own checks refuse, on rv32, what the host build refuses. */
	ck_assert_uint_eq(call(OTA_CMD_ATTEST, &a, sizeof(a) - 1, resp, &len), OTA_MBOX_BAD_LENGTH);
	ck_assert_uint_eq(len, 0);
	a.reserved = 1;
	ck_assert_uint_eq(call(OTA_CMD_ATTEST, &a, sizeof(a), resp, &len), OTA_MBOX_RESERVED_NONZERO);
	ck_assert_uint_eq(call(0x7777u, NULL, 0, resp, &len), OTA_MBOX_UNKNOWN_COMMAND);

	/* WARM_RESET: BL0 asks for it; the core restarts at ROM and the BL0 that booted answers. */
	gen = swhal_next_generation();
	ck_assert_uint_eq(ota_fw_warm_reset(&rr), OTA_OK);
	ck_assert_uint_eq(rr.boot_status, OTA_OK);
	ck_assert_uint_eq(rr.generation, gen);
	ck_assert_int_eq(b->stop, CORE_STOP_WAIT);
	ck_assert_uint_eq(b->first_pc, TOP_ROM_BASE_ADDR + (elf_sym(&rom_elf, "_start") - TOP_ROM_BASE_ADDR));
	ck_assert_uint_gt(b->window_insns[OTA_FW_CORE_BL0], 0);
	min_sp = bl0_min_sp(min_sp, b);
	ck_assert_uint_eq(call(OTA_CMD_GET_RECORD, NULL, 0, resp, &len), OTA_OK);
	ck_assert_uint_eq(((const struct ota_record_header *)resp)->generation, gen);
	ck_assert_uint_eq(((const struct ota_record_header *)resp)->reset_reason, OTA_RESET_WARM);

	/* BL0's stack high-water mark over the boot and the requests (the lowest SP in its window). */
	bl0_stack = elf_sym(&bl0_elf, "__stack_top") - min_sp;
	printf("BL0 on the core: boot %llu instructions (BL0 %llu), stack %u bytes (budget %u)\n",
	       (unsigned long long)b->insns, (unsigned long long)b->window_insns[OTA_FW_CORE_BL0],
	       bl0_stack, BL0_STACK_BUDGET);
	ck_assert_uint_gt(bl0_stack, 0);
	ck_assert_uint_le(bl0_stack, BL0_STACK_BUDGET);
	ota_fw_core_close();
}
END_TEST

/* A BL0 refused by ROM_EXT: not one instruction in BL0's window; the mailbox has nobody to serve it. */
static void bl0_refused(ota_status_t want)
{
	static uint8_t resp[OTA_MBOX_RESPONSE_MAX_ANY];
	const struct core_result *b = ota_fw_core_boot_result();
	const struct ota_stage_record *a;
	uint32_t len = 1;

	ck_assert_int_eq(swhal_load_flash(flash0, flash_size), 0);
	ck_assert_int_eq(swhal_load_otp(&otp0, sizeof(otp0)), 0);
	ck_assert_int_eq(ota_fw_core_open(OTA_ROM_ELF), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_NO_BOOTABLE_SLOT);
	ck_assert_int_eq(b->stop, CORE_STOP_RETURNED);
	ck_assert_uint_gt(b->window_insns[OTA_FW_CORE_ROM_EXT], 0);
	ck_assert_uint_eq(b->window_insns[OTA_FW_CORE_BL0], 0);
	ck_assert_uint_eq(b->window_first_pc[OTA_FW_CORE_BL0], 0);
	a = tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A);
	ck_assert_ptr_nonnull(a);
	ck_assert_msg(a->status == want, "got %s, want %s", ota_status_name(a->status),
		      ota_status_name(want));
	ck_assert_uint_eq(call(OTA_CMD_GET_RECORD, NULL, 0, resp, &len), OTA_MBOX_NOT_READY);
	ck_assert_uint_eq(len, 0);
	ota_fw_core_close();
}

/* BL0's code altered after signing. */
START_TEST(an_altered_bl0_never_runs)
{
	alter_code(OTI_BL0_A, OTI_BL0_B);
	bl0_refused(OTA_SIG_ECDSA_INVALID);
}
END_TEST

/* BL0 signed by an owner key revoked in OTP. */
START_TEST(a_bl0_under_a_revoked_key_never_runs)
{
	revoke_signer(true);
	bl0_refused(OTA_ROOT_KEY_REVOKED);
}
END_TEST

/* GET_INFO's runtime version, from whoever runs the firmware now. */
static void runtime_version(char out[OTA_VERSION_STRING_BYTES + 1])
{
	static uint8_t resp[OTA_MBOX_RESPONSE_MAX_ANY];
	struct ota_resp_info info;
	uint32_t len = 0;

	ck_assert_uint_eq(call(OTA_CMD_GET_INFO, NULL, 0, resp, &len), OTA_OK);
	ck_assert_uint_eq(len, sizeof(info));
	memcpy(&info, resp, sizeof(info));
	memcpy(out, info.runtime_version, OTA_VERSION_STRING_BYTES);
	out[OTA_VERSION_STRING_BYTES] = 0;
}

/*
 * The ROM region as rom.elf's program headers lay it out, unused bytes
 * zero, and its SHA-256: written here from <elf.h>, apart from the core's
 * loader, as a reader of the ELF would compute the ROM identity.
 */
static void rom_region_digest(const struct tu_blob *elf, uint8_t out[32])
{
	const Elf32_Ehdr *eh = (const Elf32_Ehdr *)elf->data;
	uint8_t *region = calloc(1, TOP_ROM_SIZE);
	uint32_t i, n = 0;

	ck_assert_ptr_nonnull(region);
	ck_assert_uint_ge(elf->len, sizeof(*eh));
	for (i = 0; i < eh->e_phnum; i++) {
		const Elf32_Phdr *ph = (const Elf32_Phdr *)(elf->data + eh->e_phoff + i * eh->e_phentsize);

		if (ph->p_type != PT_LOAD || ph->p_filesz == 0 || ph->p_paddr < TOP_ROM_BASE_ADDR ||
		    ph->p_paddr >= TOP_ROM_BASE_ADDR + TOP_ROM_SIZE)
			continue;
		ck_assert_uint_le(ph->p_paddr - TOP_ROM_BASE_ADDR + ph->p_filesz, TOP_ROM_SIZE);
		ck_assert_uint_le(ph->p_offset + ph->p_filesz, elf->len);
		memcpy(region + (ph->p_paddr - TOP_ROM_BASE_ADDR), elf->data + ph->p_offset, ph->p_filesz);
		n++;
	}
	ck_assert_uint_gt(n, 0);
	tu_sha256(region, TOP_ROM_SIZE, out);
	free(region);
}

/* ATTEST on the core and libotattest's verdict on it under trust. */
static ota_status_t attest_verdict(const struct ota_trust *trust)
{
	static uint8_t resp[OTA_MBOX_RESPONSE_MAX_ANY];
	struct ota_verdict *v = calloc(1, sizeof(*v));
	struct ota_req_attest a;
	uint32_t len = 0;
	ota_status_t st;

	ck_assert_ptr_nonnull(v);
	memset(&a, 0, sizeof(a));
	a.nonce_len = 32;
	memset(a.nonce, 0x5e, 32);
	ck_assert_uint_eq(call(OTA_CMD_ATTEST, &a, sizeof(a), resp, &len), OTA_OK);
	st = ota_verify_evidence(resp, len, trust, a.nonce, 32, NULL, NULL, 0, v);
	free(v);
	return st;
}

/*
 * The ROM identity is the digest of the mask ROM the board loaded (issue
 * 26, build item 1), not the model's constant: rom_ctrl reads it to the
 * firmware, the key manager roots the device's keys in it, so the
 * identity certificate issued for this ROM's identity key verifies the
 * device's evidence, and the same chip under another ROM's identity is
 * another device whose evidence that certificate does not vouch for. A
 * ROM image one byte apart has another identity. Closing the core brings
 * the host build's constant back.
 */
START_TEST(the_rom_identity_is_the_rom_images_digest)
{
	uint8_t want[32], def[32], seen[32], other[32];
	struct ota_trust *trust;
	struct tu_blob alt;
	char path[] = "/tmp/test_core_rom.XXXXXX";
	const Elf32_Ehdr *eh;
	const Elf32_Phdr *ph;
	ota_status_t st;
	int fd;

	rom_region_digest(&rom_elf, want);
	swhal_default_rom_identity(def);
	ck_assert_mem_ne(want, def, sizeof(want));
	ck_assert_int_eq(ota_fw_core_open(OTA_ROM_ELF), 0);
	hal_rom_identity(seen);
	ck_assert_mem_eq(seen, want, sizeof(want));

	/* The certificate issued for the key this ROM's identity roots (the binding the
	 * first boot's record names): after the next boot, the evidence verifies. */
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	trust = tu_identity_provision(&dev);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(attest_verdict(trust), OTA_OK);

	/* The same chip and flash under another ROM's identity (the model's constant) is
	 * another device: the boot data this ROM's device sealed under its keys is not its
	 * own (BOOT_DATA_ROLLED_BACK), so no runtime boots to attest. */
	swhal_set_rom_identity(def);
	ck_assert_int_eq(swhal_power_on(), 0);
	st = ota_fw_boot(OTA_RESET_COLD);
	ck_assert_msg(st != OTA_OK, "the flash of rom.elf's device booted under another ROM");
	printf("the same flash under another ROM identity: %s\n", ota_status_name(st));
	ota_trust_free(trust);
	ota_fw_core_close();
	hal_rom_identity(seen);
	ck_assert_mem_eq(seen, def, sizeof(def));

	/* A ROM one byte apart (the last byte of its first loaded segment): another identity. */
	alt = tu_blob_dup(&rom_elf);
	eh = (const Elf32_Ehdr *)alt.data;
	ph = (const Elf32_Phdr *)(alt.data + eh->e_phoff);
	while (ph->p_type != PT_LOAD || ph->p_filesz == 0)
		ph = (const Elf32_Phdr *)((const uint8_t *)ph + eh->e_phentsize);
	alt.data[ph->p_offset + ph->p_filesz - 1] ^= 0x01;
	rom_region_digest(&alt, other);
	ck_assert_mem_ne(other, want, sizeof(want));
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, alt.data, alt.len), (ssize_t)alt.len);
	close(fd);
	ck_assert_int_eq(ota_fw_core_open(path), 0);
	unlink(path); /* read whole at open: nothing is left behind should a check below fail */
	hal_rom_identity(seen);
	ck_assert_mem_eq(seen, other, sizeof(other));
	ota_fw_core_close();
	tu_blob_free(&alt);
}
END_TEST

/*
 * Build item 5: BL0 v2 (build/rv32/bl0-v2.elf, the same tree with its
 * version string the one difference) installed in slot B; an update
 * reset to it changes the code that answers, on the core; a revert to
 * slot A brings back v1's answer. The host build, which runs the runtime
 * compiled into it whatever the slot holds, answers v1 after the same
 * update: the weakness the issue describes.
 */
START_TEST(an_update_changes_the_code_that_answers)
{
	struct tu_blob v2 = tu_read_blob(OTA_BL0_V2_ELF);
	struct ota_resp_reset rr;
	char v[OTA_VERSION_STRING_BYTES + 1];

	stage_slot_svn(OTI_BL0_B, &v2, 0, 6);
	tu_device_write_slot(OTI_BL0_B, &dev.slot[OTI_BL0_B]);
	snapshot();

	/* The host build: the update verifies and boots slot B, the same code answers. */
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_fw_update_reset(OTA_SLOT_B, &rr), OTA_OK);
	ck_assert_uint_eq(rr.booted_slot, OTA_SLOT_B);
	runtime_version(v);
	ck_assert_str_eq(v, "1.0.0");

	/* On the core, from the same flash. */
	ck_assert_int_eq(swhal_load_flash(flash0, flash_size), 0);
	ck_assert_int_eq(swhal_load_otp(&otp0, sizeof(otp0)), 0);
	ck_assert_int_eq(ota_fw_core_open(OTA_ROM_ELF), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	runtime_version(v);
	ck_assert_str_eq(v, "1.0.0");
	ck_assert_uint_eq(ota_fw_update_reset(OTA_SLOT_B, &rr), OTA_OK);
	ck_assert_uint_eq(rr.boot_status, OTA_OK);
	ck_assert_uint_eq(rr.booted_slot, OTA_SLOT_B);
	runtime_version(v);
	ck_assert_str_eq(v, "2.0.0");
	/* The revert: back to slot A, v1's code answers again. */
	ck_assert_uint_eq(ota_fw_update_reset(OTA_SLOT_A, &rr), OTA_OK);
	ck_assert_uint_eq(rr.booted_slot, OTA_SLOT_A);
	runtime_version(v);
	ck_assert_str_eq(v, "1.0.0");
	ota_fw_core_close();
	tu_blob_free(&v2);
}
END_TEST

/*
 * The cycle model (docs/hal.md): with the core, MTIME counts modelled
 * cycles (instructions retired times the CPI, plus each peripheral's
 * cost), so the record's per-stage cycles are the device's, not the
 * host's. The span between the two hal_cycles() reads of a stage check
 * is found in the clock's log of MTIME reads (swhal_clock_span).
 */

/* A cold boot on the core from the snapshot; the record as published (times kept), BL0's check span. */
static void modelled_boot(struct ota_record *rec, struct swhal_clock *bl0_span)
{
	struct boot_outcome r;
	const struct ota_stage_record *bl0 = NULL;
	uint32_t i;

	swhal_clock_reads_clear();
	boot(true, &r);
	ck_assert_uint_eq(r.status, OTA_OK);
	/* The block hook counts what the per-instruction count does. */
	ck_assert_uint_eq(r.run.insns16 + r.run.insns32, r.run.insns);
	ck_assert_uint_gt(r.run.insns16, 0);
	ck_assert_uint_gt(r.run.insns32, 0);
	ck_assert_uint_gt(swhal_last_record(rec, sizeof(*rec)), 0);
	for (i = 0; i < rec->hdr.stage_count; i++) {
		const struct ota_stage_record *st = &rec->stage[i];

		ck_assert_uint_gt(st->verify_cycles, 0);
		/* Device time is the cycles at the nominal 100 MHz. */
		ck_assert_uint_eq(st->verify_time_ns, st->verify_cycles * (1000000000u / SWHAL_CYCLE_HZ));
		if (st->stage == OTA_STAGE_BL0 && (st->flags & OTA_STAGE_F_BOOTED))
			bl0 = st;
	}
	ck_assert_ptr_nonnull(bl0);
	ck_assert_msg(swhal_clock_span(bl0->verify_cycles, bl0_span),
		      "no span of %llu cycles between two MTIME reads", (unsigned long long)bl0->verify_cycles);
	/* The record's cycles are the model's count: instructions at the CPI plus the peripherals. */
	{
		uint64_t sum = bl0_span->core_cycles, k, insns = bl0_span->insns16 + bl0_span->insns32;

		/* CPI 1.5, each block rounded up: at most half a cycle more per block. */
		ck_assert_uint_ge(bl0_span->core_cycles, insns * 3 / 2);
		ck_assert_uint_le(2 * bl0_span->core_cycles, 3 * insns + bl0_span->blocks);

		for (k = 0; k < SWHAL_COST_COUNT; k++)
			sum += bl0_span->cost_cycles[k];
		ck_assert_uint_eq(sum, bl0->verify_cycles);
	}
}

START_TEST(the_record_counts_modelled_device_cycles)
{
	struct ota_record a, b, big;
	struct swhal_clock sa, sb, sbig;
	uint64_t image_blocks, extra;
	uint32_t i;

	/* First boot (signature path, tags written), then the tag path twice from the same state. */
	modelled_boot(&a, &sa);
	snapshot();
	modelled_boot(&a, &sa);
	modelled_boot(&b, &sb);
	/* The same boot costs the same cycles, stage by stage: nothing of the host's time is in them. */
	ck_assert_uint_eq(a.hdr.stage_count, b.hdr.stage_count);
	/*
	 * (Not the whole boot's boot_time_ns: it moves by a few hundred cycles
	 * with what random bytes the boot draws, e.g. its ECDSA signatures.)
	 */
	for (i = 0; i < a.hdr.stage_count; i++) {
		ck_assert_uint_eq(a.stage[i].path, OTA_PATH_TAG);
		ck_assert_uint_eq(a.stage[i].verify_cycles, b.stage[i].verify_cycles);
	}
	ck_assert_mem_eq(&sa, &sb, sizeof(sa));
	/* BL0's tag-path check hashes its whole image in the SHA-256 engine, and runs no ECDSA. */
	image_blocks = dev.slot[OTI_BL0_A].len / 64u;
	ck_assert_uint_ge(sa.units[SWHAL_COST_SHA256_BLOCK], image_blocks);
	ck_assert_uint_eq(sa.units[SWHAL_COST_P256_VERIFY], 0);
	ck_assert_uint_gt(sa.units[SWHAL_COST_KMAC_BLOCK], 0);
	ck_assert_msg(sa.insns16 + sa.insns32 <= TAG_CHECK_INSN_BUDGET,
		      "the tag-path check retired %llu instructions, budget %u",
		      (unsigned long long)(sa.insns16 + sa.insns32), TAG_CHECK_INSN_BUDGET);

	/* The same BL0 padded by 64 KiB: its check costs the extra engine blocks and their cycles. */
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	dev.slot[OTI_BL0_A] = tu_bl0_stage(&bl0_elf, 0, false, (uint32_t)code_size(&bl0_elf) + (64u << 10));
	tu_device_write_slot(OTI_BL0_A, &dev.slot[OTI_BL0_A]);
	snapshot();
	bl0_padded = true;
	modelled_boot(&big, &sbig);
	snapshot();
	modelled_boot(&big, &sbig);
	bl0_padded = false;
	extra = (64u << 10) / 64u;
	ck_assert_uint_ge(sbig.units[SWHAL_COST_SHA256_BLOCK], sa.units[SWHAL_COST_SHA256_BLOCK] + extra);
	ck_assert_uint_ge(sbig.cycles, sa.cycles + extra * swhal_cost_info(SWHAL_COST_SHA256_BLOCK)->cycles);
	printf("modelled: BL0 tag-path check %llu cycles (%llu instructions, %llu SHA-256 blocks); "
	       "64 KiB bigger: %llu cycles (%llu blocks)\n", (unsigned long long)sa.cycles,
	       (unsigned long long)(sa.insns16 + sa.insns32),
	       (unsigned long long)sa.units[SWHAL_COST_SHA256_BLOCK], (unsigned long long)sbig.cycles,
	       (unsigned long long)sbig.units[SWHAL_COST_SHA256_BLOCK]);
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
	tcase_add_test(rom, rom_runs_the_rom_ext_it_verified);
	tcase_add_test(rom, stage_images_fit_their_code_budgets);
	tcase_add_test(rom, an_altered_rom_ext_never_runs);
	tcase_add_test(rom, a_rom_ext_under_a_revoked_key_never_runs);
	tcase_add_test(rom, rom_ext_code_outside_its_window_is_refused);
	tcase_add_test(rom, bl0_serves_the_mailbox_on_the_core);
	tcase_add_test(rom, an_altered_bl0_never_runs);
	tcase_add_test(rom, a_bl0_under_a_revoked_key_never_runs);
	tcase_add_test(rom, an_update_changes_the_code_that_answers);
	tcase_add_test(rom, the_rom_identity_is_the_rom_images_digest);
	tcase_add_test(rom, the_record_counts_modelled_device_cycles);
	suite_add_tcase(s, rom);
	return s;
}

OTA_TEST_MAIN(core_suite)
