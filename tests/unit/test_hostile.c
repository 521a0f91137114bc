// SPDX-License-Identifier: MIT
/*
 * A compromised runtime is attacker code (issue 27). The device boots the
 * real ROM (build/rv32/rom.elf) and ROM_EXT (rom_ext.elf) on the emulated
 * core, and BL0's slot holds build/rv32/hostile-bl0.elf
 * (tests/rv32/hostile/), signed with the owner key the device trusts, as
 * a compromised owner would sign it. It serves the mailbox like BL0 and
 * takes the attacker's orders (HOSTILE_CMD): each test gives one, the
 * image runs the attack with registers, memory and service calls only,
 * and answers what the chip said. Each test holds the chip to refusing,
 * and checks that nothing changed: flash, OTP, retention RAM and the key
 * vault compared before and after. docs/threat-model.md has the table.
 */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/mailbox.h>
#include <otattest/verify.h>

#include "aon_timer_regs.h"
#include "mprot_regs.h"
#include "otp_ctrl_regs.h"
#include "sram_ctrl_ret_regs.h"
#include "bus.h"
#include "core.h"
#include "firmware.h"
#include "fw_run.h"
#include "handoff.h"
#include "hal.h"
#include "hal/svc.h"
#include "hostile.h"
#include "swhal.h"
#include "testutil.h"
#include "tu_device.h"
#include "tu_mbox.h"
#include "tu_main.h"

/* Unicorn 2.0.1's own leak when code it translated is overwritten (test_core.c says more). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libunicorn.so\n";
}

static struct tu_device dev;
static struct tu_blob rom_elf, rom_ext_elf, hostile_elf;

static uint32_t elf_sym(const struct tu_blob *elf, const char *name)
{
	uint32_t v = 0;

	ck_assert_msg(core_elf_symbol(elf->data, elf->len, name, &v) == OTA_OK, "no %s", name);
	return v;
}

/*
 * What the attack must leave as it was: flash, OTP, retention RAM (the
 * data vault and the requests), the key manager's state, and the key
 * vault, by what its keys give (the public key of a signing key, a MAC
 * under a child of a KDF key): the same keys give the same fingerprint.
 */
struct chip_state {
	uint8_t flash_digest[32];
	struct ota_otp otp;
	uint8_t retention[HAL_RETENTION_BYTES];
	uint32_t keymgr_state;
	uint8_t vault[HAL_RETAINED_KEY_SLOTS][OTA_P256_PUBKEY_BYTES];
	ota_status_t vault_status[HAL_RETAINED_KEY_SLOTS];
};

static void key_fingerprint(uint32_t slot, struct chip_state *s)
{
	static const uint8_t msg[] = "key vault fingerprint";
	hal_key_t k = HAL_KEY_INVALID, mac = HAL_KEY_INVALID;
	ota_status_t st = hal_key_retained(slot, &k);

	memset(s->vault[slot], 0, sizeof(s->vault[slot]));
	if (st == OTA_OK)
		st = hal_ecdsa_pubkey(k, s->vault[slot]);
	if (st == OTA_HAL_KEY_PURPOSE) {
		ck_assert_uint_eq(hal_keymgr_derive(k, "test-hostile-fingerprint", NULL, 0, 0, 0,
						    HAL_KEY_PURPOSE_MAC, &mac), OTA_OK);
		ck_assert_uint_eq(hal_kmac_start(mac, NULL, 0), OTA_OK);
		ck_assert_uint_eq(hal_kmac_update(msg, sizeof(msg)), OTA_OK);
		st = hal_kmac_finish(s->vault[slot], 32);
		hal_key_destroy(mac);
	}
	s->vault_status[slot] = st;
	hal_key_destroy(k);
}

static void chip_state(struct chip_state *s)
{
	uint32_t size = hal_flash_size(), i;
	uint8_t *flash = malloc(size);

	memset(s, 0, sizeof(*s));
	ck_assert_ptr_nonnull(flash);
	ck_assert_int_eq(swhal_peek_flash(0, flash, size), 0);
	tu_sha256(flash, size, s->flash_digest);
	free(flash);
	ck_assert_int_eq(swhal_peek_otp(0, &s->otp, sizeof(s->otp)), 0);
	ck_assert_int_eq(swhal_peek_retention(0, s->retention, sizeof(s->retention)), 0);
	s->keymgr_state = hal_keymgr_state();
	for (i = 0; i < HAL_RETAINED_KEY_SLOTS; i++)
		key_fingerprint(i, s);
}

static void same_chip_state(const struct chip_state *a, const struct chip_state *b)
{
	ck_assert_mem_eq(a->flash_digest, b->flash_digest, sizeof(a->flash_digest));
	ck_assert_mem_eq(&a->otp, &b->otp, sizeof(a->otp));
	ck_assert_mem_eq(a->retention, b->retention, sizeof(a->retention));
	ck_assert_uint_eq(a->keymgr_state, b->keymgr_state);
	ck_assert_mem_eq(a->vault_status, b->vault_status, sizeof(a->vault_status));
	ck_assert_mem_eq(a->vault, b->vault, sizeof(a->vault));
}

static struct chip_state before;

/* The device with the hostile BL0, cold booted on the core: the hostile image runs and waits. */
static void setup(void)
{
	const struct core_result *b = ota_fw_core_boot_result();

	rom_elf = tu_read_blob(OTA_ROM_ELF);
	rom_ext_elf = tu_read_blob(OTA_ROM_EXT_ELF);
	hostile_elf = tu_read_blob(OTA_HOSTILE_BL0_ELF);
	tu_device_stages(&dev, &rom_ext_elf, &hostile_elf);
	ck_assert_int_eq(ota_fw_core_open(OTA_ROM_ELF), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_int_eq(b->stop, CORE_STOP_WAIT);
	ck_assert_uint_eq(b->window_first_pc[OTA_FW_CORE_BL0], elf_sym(&hostile_elf, "_start"));
	ck_assert_uint_eq(hal_keymgr_state(), HAL_KEYMGR_RUNTIME);
	chip_state(&before);
	/* The hostile BL0 is a working runtime too: it serves the product's commands. */
	{
		static uint8_t resp[OTA_MBOX_RESPONSE_MAX_ANY];
		uint32_t len = 0;

		ck_assert_uint_eq(ota_fw_command(OTA_CMD_GET_RECORD, NULL, 0, resp, sizeof(resp), &len),
				  OTA_OK);
		ck_assert_uint_gt(len, 0);
	}
}

static void teardown(void)
{
	ota_fw_core_close();
	tu_blob_free(&rom_elf);
	tu_blob_free(&rom_ext_elf);
	tu_blob_free(&hostile_elf);
	tu_device_free(&dev);
	swhal_close();
}

/* One order to the hostile BL0; its report. */
static ota_status_t order(const struct hostile_req *q, struct hostile_report *rep)
{
	static uint8_t resp[OTA_MBOX_RESPONSE_MAX_ANY];
	uint32_t len = 0;
	ota_status_t st;

	memset(rep, 0, sizeof(*rep));
	st = ota_fw_command(HOSTILE_CMD, (const uint8_t *)q, sizeof(*q), resp, sizeof(resp), &len);
	if (st == OTA_OK) {
		ck_assert_uint_eq(len, sizeof(*rep));
		memcpy(rep, resp, sizeof(*rep));
		ck_assert_uint_eq(rep->magic, HOSTILE_REPORT_MAGIC);
		ck_assert_uint_eq(rep->attack, q->attack);
		ck_assert_uint_le(rep->steps, HOSTILE_STEPS);
	}
	return st;
}

static struct hostile_report attack(uint32_t which)
{
	struct hostile_req q;
	struct hostile_report rep;

	memset(&q, 0, sizeof(q));
	q.attack = which;
	ck_assert_uint_eq(order(&q, &rep), OTA_OK);
	return rep;
}

static void print_report(const char *name, const struct hostile_report *rep)
{
	uint32_t i;

	printf("%s: %u steps:", name, rep->steps);
	for (i = 0; i < rep->steps; i++)
		printf(" %u:%s/0x%x", rep->step[i].what, ota_status_name(rep->step[i].status),
		       rep->step[i].value);
	printf("\n");
}

/* What steps_are accepts beside one status or value. */
#define ANY 0xffffffffu    /* status or value: any */
#define NOT_OK 0xfffffffeu /* status: a refusal, whichever */
#define NONZERO 0xfffffffeu /* value: anything but 0 */

static bool matches(uint32_t got, uint32_t want, uint32_t special, bool is_status)
{
	if (want == ANY)
		return true;
	if (want == special)
		return is_status ? got != OTA_OK : got != 0;
	return got == want;
}

/* Every step of kind what answered status and read value (or ANY, NOT_OK, NONZERO); at least one such step. */
static void steps_are(const struct hostile_report *rep, uint32_t what, uint32_t status, uint32_t value)
{
	uint32_t i, n = 0;

	for (i = 0; i < rep->steps; i++) {
		const struct hostile_step *s = &rep->step[i];

		if (s->what != what)
			continue;
		n++;
		ck_assert_msg(matches(s->status, status, NOT_OK, true) &&
				      matches(s->value, value, NONZERO, false),
			      "step %u (kind %u): %s, value 0x%x", i, what, ota_status_name(s->status),
			      s->value);
	}
	ck_assert_msg(n > 0, "no step of kind %u", what);
}

static void all_refused(const struct hostile_report *rep, uint32_t what, ota_status_t want)
{
	steps_are(rep, what, want, ANY);
}

/* The runtime's own paths work (the attack was live, not refused for another reason). */
static void controls_ok(const struct hostile_report *rep)
{
	all_refused(rep, HW_CONTROL, OTA_OK);
}

static void nothing_changed(void)
{
	struct chip_state after;

	chip_state(&after);
	same_chip_state(&before, &after);
}

#define WDOG(reg) (TOP_AON_TIMER_BASE_ADDR + AON_TIMER_##reg##_REG_OFFSET)

static uint32_t wdog_rd(uint32_t addr)
{
	uint32_t v = 0;

	ck_assert_uint_eq(chip_bus_read32(addr, &v), OTA_OK);
	return v;
}

/* The clock, played by the test: the watchdog's count at its bite threshold, as after 2 s unpetted. */
static void wdog_time_passes(void)
{
	ck_assert_uint_eq(chip_bus_write32(WDOG(WDOG_COUNT), wdog_rd(WDOG(WDOG_BITE_THOLD))), OTA_OK);
}

#define MPROT(reg) (TOP_MPROT_BASE_ADDR + MPROT_##reg##_REG_OFFSET)

/* ROM_EXT's code in SRAM is its signed payload, byte for byte. */
static void rom_ext_code_is_as_signed(void)
{
	struct tu_blob img = dev.slot[OTI_ROM_EXT_A];
	const struct ota_manifest *m = (const struct ota_manifest *)img.data;
	uint8_t *code = malloc(m->payload_length);

	ck_assert_ptr_nonnull(code);
	ck_assert_uint_eq(core_mem_read(ota_fw_core(), elf_sym(&rom_ext_elf, "__rom_ext_window"), code,
					m->payload_length),
			  OTA_OK);
	ck_assert_mem_eq(code, img.data + m->payload_offset, m->payload_length);
	free(code);
}

/*
 * An order the chip stops (mprot, docs/hal.md "Memory protection"): the
 * core faults on the access, the request is never answered, and the block
 * names the access - FAULT_STATUS its kind (1 read, 2 write, 3 execute),
 * FAULT_ADDR its address, FAULT_PC the instruction (BL0's code; for a
 * fetch, the address fetched). Nothing of the device changed, ROM_EXT's
 * code is as signed, and the watchdog's bite boots the device again, with
 * the record cleared and the regions in force again.
 */
static void stopped_by_mprot(const struct hostile_req *q, uint32_t kind, uint32_t addr)
{
	const struct core_result *r = ota_fw_core_request_result();
	struct hostile_report rep;
	uint32_t pc, len = 0;
	ota_status_t st = order(q, &rep);

	pc = wdog_rd(MPROT(FAULT_PC));
	printf("attack %u/%u: %s, stop %d at 0x%x; FAULT_STATUS 0x%x ADDR 0x%x PC 0x%x\n", q->attack,
	       q->arg[0], ota_status_name(st), r->stop, r->pc, wdog_rd(MPROT(FAULT_STATUS)),
	       wdog_rd(MPROT(FAULT_ADDR)), pc);
	ck_assert_uint_ne(st, OTA_OK);
	ck_assert_int_eq(r->stop, CORE_STOP_FAULT);
	ck_assert_uint_eq(r->fault_addr, addr);
	ck_assert_uint_eq(wdog_rd(MPROT(FAULT_STATUS)),
			  MPROT_FAULT_STATUS_FAULT_MASK | (kind << MPROT_FAULT_STATUS_KIND_OFFSET));
	ck_assert_uint_eq(wdog_rd(MPROT(FAULT_ADDR)), addr);
	if (kind == 3)
		ck_assert_uint_eq(pc, addr);
	else
		ck_assert_msg(pc >= elf_sym(&hostile_elf, "_start") &&
				      pc < elf_sym(&hostile_elf, "__bl0_window_end"),
			      "FAULT_PC 0x%x not in BL0's code", pc);
	nothing_changed();
	rom_ext_code_is_as_signed();
	/* A halted core pets nothing: the watchdog bites, and the device boots again. */
	wdog_time_passes();
	ota_fw_idle();
	ck_assert(swhal_wdog_due());
	ck_assert_uint_eq(swhal_wdog_bite(), OTA_OK);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(wdog_rd(MPROT(FAULT_STATUS)), 0);
	ck_assert_uint_eq(wdog_rd(MPROT(LOCK)), MPROT_LOCK_LOCKED_MASK);
	ck_assert_uint_eq(ota_fw_command(OTA_CMD_GET_RECORD, NULL, 0, (uint8_t *)&rep, sizeof(rep), &len),
			  OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.reset_reason, OTA_RESET_WARM);
	nothing_changed();
}

static void variant_stopped(uint32_t attack, uint32_t arg0, uint32_t arg1, uint32_t kind, uint32_t addr)
{
	struct hostile_req q;

	memset(&q, 0, sizeof(q));
	q.attack = attack;
	q.arg[0] = arg0;
	q.arg[1] = arg1;
	stopped_by_mprot(&q, kind, addr);
}

/*
 * Locked flash: the layout page, both boot data copies, both tag tables,
 * the owner config, the identity certificate and the running ROM_EXT and
 * BL0 slots (first and last page), each erased and programmed through
 * flash_ctrl: HAL_FLASH_LOCKED every time (rom_ext_lockdown's ranges).
 */
START_TEST(locked_flash_stays_locked)
{
	struct hostile_report rep = attack(HOSTILE_FLASH_LOCKED);

	print_report("flash", &rep);
	controls_ok(&rep);
	ck_assert_uint_eq(rep.steps, 1 + 2 * 11);
	all_refused(&rep, HW_FLASH_ERASE, OTA_HAL_FLASH_LOCKED);
	all_refused(&rep, HW_FLASH_PROGRAM, OTA_HAL_FLASH_LOCKED);
	nothing_changed();
}
END_TEST

/*
 * OTP: the secret partition unreadable (HAL_OTP_SECRET), every counter
 * (revocations, epoch, both floors, the lifecycle transition, the boot
 * data anchor, the revocation sequences, the tag key version) locked
 * until reset, the fixed partitions locked for good. COUNTERS_LOCK's
 * register is out of BL0's reach (mprot): a 0 written to it faults, and
 * the lock stays set.
 */
START_TEST(otp_secrets_and_counters_hold)
{
	struct hostile_report rep = attack(HOSTILE_OTP);

	print_report("otp", &rep);
	controls_ok(&rep);
	all_refused(&rep, HW_OTP_READ_SECRET, OTA_HAL_OTP_SECRET);
	all_refused(&rep, HW_OTP_PROGRAM_COUNTER, OTA_HAL_OTP_COUNTERS_LOCKED);
	all_refused(&rep, HW_OTP_PROGRAM_FIXED, OTA_HAL_OTP_LOCKED);
	nothing_changed();
	variant_stopped(HOSTILE_OTP, HOSTILE_REGS, 0, 2,
			TOP_OTP_CTRL_BASE_ADDR + OTP_CTRL_COUNTERS_LOCK_REG_OFFSET);
	ck_assert_uint_eq(wdog_rd(TOP_OTP_CTRL_BASE_ADDR + OTP_CTRL_COUNTERS_LOCK_REG_OFFSET), 1);
}
END_TEST

/*
 * The data vault (min-SVN since cold boot, the chain flag, the running
 * slot): a copy claiming a higher min-SVN, with a good digest, refused
 * (HAL_RETENTION_LOCKED); the key vault takes no key from the runtime,
 * not the alias key over the chain link, not a state secret
 * (HAL_KEYMGR_STATE). VAULT_LOCK's register and retention SRAM's address
 * in the memory map are out of BL0's reach (mprot): a 0 written to the
 * lock, or a store to retention SRAM, faults.
 */
START_TEST(the_vaults_hold)
{
	struct hostile_report rep = attack(HOSTILE_VAULT);

	print_report("vault", &rep);
	controls_ok(&rep);
	all_refused(&rep, HW_VAULT_WRITE, OTA_HAL_RETENTION_LOCKED);
	all_refused(&rep, HW_KEY_RETAIN, OTA_HAL_KEYMGR_STATE);
	nothing_changed();
	variant_stopped(HOSTILE_VAULT, HOSTILE_REGS, 0, 2,
			TOP_SRAM_CTRL_RET_BASE_ADDR + SRAM_CTRL_RET_VAULT_LOCK_REG_OFFSET);
	variant_stopped(HOSTILE_VAULT, HOSTILE_RET_STORE, 0, 2, TOP_RET_SRAM_BASE_ADDR + 8u);
}
END_TEST

/*
 * The key manager: no way back to ROM_EXT or ROM, no second RUNTIME;
 * ROM_EXT's identity derivation run from the runtime's CDI gives another
 * key; no key works in an engine not of its purpose; no handle-shaped
 * word ROM or ROM_EXT left in the hand-off state names a live key.
 */
START_TEST(the_kdf_does_not_run_back_up)
{
	struct hostile_report rep = attack(HOSTILE_KEYMGR);

	print_report("keymgr", &rep);
	controls_ok(&rep);
	all_refused(&rep, HW_KEYMGR_ADVANCE, OTA_HAL_KEYMGR_STATE);
	all_refused(&rep, HW_KEY_PURPOSE, OTA_HAL_KEY_PURPOSE);
	steps_are(&rep, HW_KEYMGR_STATE, OTA_OK, HAL_KEYMGR_RUNTIME);
	/* The derivation runs, and gives not ROM_EXT's key. */
	steps_are(&rep, HW_KDF_IDENTITY, OTA_OK, 0);
	steps_are(&rep, HW_HANDLE_GUESS, OTA_OK, 0);
	nothing_changed();
}
END_TEST

/* Whether [lo, hi) of the core's memory is all zero. */
static bool mem_zero(uint32_t lo, uint32_t hi)
{
	uint8_t *p = malloc(hi - lo);
	uint32_t i;
	bool zero = true;

	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(core_mem_read(ota_fw_core(), lo, p, hi - lo), OTA_OK);
	for (i = 0; i < hi - lo; i++)
		zero &= p[i] == 0;
	free(p);
	return zero;
}

/*
 * ROM's RAM and stack, and ROM_EXT's, wiped at their hand-offs (all zero,
 * as the chip holds them) and out of BL0's reach (mprot): its first load
 * there faults.
 */
START_TEST(rom_and_rom_ext_leave_nothing_in_ram)
{
	struct hostile_req q;

	ck_assert(mem_zero(elf_sym(&rom_elf, "__bss_start"), elf_sym(&rom_elf, "__stack_top")));
	ck_assert(mem_zero(elf_sym(&rom_ext_elf, "__bss_start"), elf_sym(&rom_ext_elf, "__stack_top")));
	memset(&q, 0, sizeof(q));
	q.attack = HOSTILE_SRAM;
	q.arg[0] = elf_sym(&rom_elf, "__bss_start");
	q.arg[1] = elf_sym(&rom_elf, "__stack_top");
	stopped_by_mprot(&q, 1, q.arg[0]);
	q.arg[0] = elf_sym(&rom_ext_elf, "__bss_start");
	q.arg[1] = elf_sym(&rom_ext_elf, "__stack_top");
	stopped_by_mprot(&q, 1, q.arg[0]);
}
END_TEST

/*
 * Boot-services requests ROM_EXT must refuse, left in retention RAM as the
 * runtime leaves one (magic, version, digest right), then a warm reset:
 * BL0's floor or ROM_EXT's above the running SVN, a commit of the slot
 * that did not boot, an owner key revoked without a valid signature. The
 * boot after it runs (the hostile BL0 answers, resumed), ROM_EXT refused
 * the request, and OTP, flash, the vaults and the key manager's state are
 * as before.
 */
START_TEST(rom_ext_refuses_the_runtimes_boot_service_requests)
{
	static const char *const name[HOSTILE_SVC_COUNT] = {
		NULL, "ratchet BL0 above", "ratchet ROM_EXT above", "commit other slot",
		"revoke unsigned" };
	struct hostile_req q;
	struct hostile_report rep;
	uint32_t v;

	for (v = HOSTILE_SVC_RATCHET_BL0_ABOVE; v < HOSTILE_SVC_COUNT; v++) {
		memset(&q, 0, sizeof(q));
		q.attack = HOSTILE_BOOT_SVC;
		q.arg[0] = v;
		ck_assert_uint_eq(order(&q, &rep), OTA_OK);
		print_report(name[v], &rep);
		ck_assert_uint_eq(rep.resumed, 1); /* answered by the BL0 of the boot after the reset */
		steps_are(&rep, HW_BOOT_STATUS, OTA_OK, HAL_KEYMGR_RUNTIME);
		steps_are(&rep, HW_SVC_STATUS, NOT_OK, ANY);
		ck_assert_uint_eq(tu_record()->hdr.reset_reason, OTA_RESET_WARM);
		nothing_changed();
	}
}
END_TEST

/* Evidence from the hostile BL0: the genuine alias key, over the record it chose. */
static ota_status_t verify(const uint8_t *ev, uint32_t len, const struct ota_trust *trust,
			   const uint8_t nonce[32], struct ota_verdict *v)
{
	memset(v, 0, sizeof(*v));
	return ota_verify_evidence(ev, len, trust, nonce, 32, NULL, NULL, 0, v);
}

/*
 * Forged evidence: the hostile BL0 changes one field of the record (BL0's
 * SVN, its measurement, the path, the lifecycle, the debug usage flag,
 * min-SVN, the root key id) and has the alias key sign evidence over it,
 * with ROM_EXT's certificates. The same image's honest ATTEST verifies;
 * every lie is refused by libotattest's verifier, because ROM_EXT
 * certified the true values in the alias certificate.
 */
START_TEST(a_verifier_refuses_what_the_runtime_signs_about_itself)
{
	static const char *const name[HOSTILE_LIE_COUNT] = {
		NULL, "BL0 SVN", "measurement", "path", "lifecycle", "debug", "min-SVN", "key id" };
	static uint8_t resp[OTA_MBOX_RESPONSE_MAX_ANY];
	struct ota_verdict *v = calloc(1, sizeof(*v));
	struct ota_req_attest a;
	struct hostile_req q;
	struct ota_trust *trust;
	struct chip_state after;
	uint32_t len = 0, lie;
	ota_status_t st;

	ck_assert_ptr_nonnull(v);
	trust = tu_identity_provision(&dev);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	chip_state(&before);

	/* The honest answer of the same image verifies: the chain and the alias key are genuine. */
	memset(&a, 0, sizeof(a));
	a.nonce_len = 32;
	memset(a.nonce, 0x3c, 32);
	ck_assert_uint_eq(ota_fw_command(OTA_CMD_ATTEST, (const uint8_t *)&a, sizeof(a), resp,
					 sizeof(resp), &len), OTA_OK);
	st = verify(resp, len, trust, a.nonce, v);
	ck_assert_msg(st == OTA_OK, "honest evidence: %s", ota_status_name(st));

	for (lie = HOSTILE_LIE_BL0_SVN; lie < HOSTILE_LIE_COUNT; lie++) {
		memset(&q, 0, sizeof(q));
		q.attack = HOSTILE_FORGE_EVIDENCE;
		q.arg[0] = lie;
		memcpy(q.nonce, a.nonce, 32);
		len = 0;
		ck_assert_uint_eq(ota_fw_command(HOSTILE_CMD, (const uint8_t *)&q, sizeof(q), resp,
						 sizeof(resp), &len), OTA_OK);
		ck_assert_uint_gt(len, 0); /* the device signed it */
		st = verify(resp, len, trust, a.nonce, v);
		printf("forged %s: %s (%u failures, first: %s)\n", name[lie], ota_status_name(st),
		       v->failure_count, v->failure_count ? v->failures[0].detail : "");
		ck_assert_msg(st != OTA_OK, "a lie about %s verified", name[lie]);
		ck_assert(v->authentic); /* signed by the genuine alias key: refused for what it says */
	}
	chip_state(&after);
	same_chip_state(&before, &after);
	ota_trust_free(trust);
	free(v);
}
END_TEST

/* Whether v names status among its failures. */
static bool fails_with(const struct ota_verdict *v, ota_status_t status)
{
	uint32_t i;

	for (i = 0; i < v->failure_count; i++)
		if (v->failures[i].status == status)
			return true;
	return false;
}

/* BL0's stage as the device's record says it booted. */
static const struct ota_stage_record *booted_bl0(void)
{
	const struct ota_record *r = tu_record();
	uint32_t i;

	for (i = 0; i < r->hdr.stage_count && i < OTA_RECORD_MAX_STAGES; i++)
		if (r->stage[i].stage == OTA_STAGE_BL0 && (r->stage[i].flags & OTA_STAGE_F_BOOTED))
			return &r->stage[i];
	ck_abort_msg("no booted BL0 in the record");
	return NULL;
}

/* " VALUE" for a field the device's own value of which decides the lie: one unlike it. */
static void other_value(const char *field, char *out, size_t cap)
{
	const struct ota_stage_record *bl0 = booted_bl0();

	if (strcmp(field, "bl0-path") == 0)
		snprintf(out, cap, " %s",
			 ota_path_name(bl0->path == OTA_PATH_TAG ? OTA_PATH_SIGNATURE : OTA_PATH_TAG));
	else if (strcmp(field, "bl0-depth") == 0)
		snprintf(out, cap, " %u", bl0->delegation_depth ? 0u : 1u);
	else if (strcmp(field, "bl0-usage-flags") == 0)
		snprintf(out, cap, " %u", bl0->effective.usage.flags ^ OTA_CAP_DEBUG);
	else
		ck_abort_msg("no value for %s", field);
}

/* ATTEST over nonce (len bytes) through the product's command; the evidence in resp. */
static uint32_t attest(const void *nonce, uint32_t nonce_len, uint8_t *resp, uint32_t cap)
{
	struct ota_req_attest a;
	uint32_t len = 0;

	memset(&a, 0, sizeof(a));
	a.nonce_len = nonce_len;
	memcpy(a.nonce, nonce, nonce_len);
	ck_assert_uint_eq(ota_fw_command(OTA_CMD_ATTEST, (const uint8_t *)&a, sizeof(a), resp, cap, &len),
			  OTA_OK);
	ck_assert_uint_gt(len, 0);
	return len;
}

/*
 * The lying runtime of the e2e scenario kernel-lying-runtime, reached as
 * there through the product's commands only: an ATTEST whose nonce is
 * the attacker's knock (HOSTILE_KNOCK "FIELD VALUE") has the hostile BL0
 * edit its own RAM copy of the record, and every ATTEST after it, over
 * the verifier's nonce, is signed by the genuine alias key over the lie.
 * Each lie is refused for the reason the scenario expects (the claim
 * against ROM_EXT's alias certificate: RESULT_MISMATCH for BL0's
 * certified claims, STATE_MISMATCH for the device state), nothing of the
 * chip changed, and a cold boot ends it: the same image's evidence
 * verifies again. A knock it cannot parse is no order.
 */
START_TEST(a_knocked_runtime_lies_and_the_verifier_refuses_each_lie)
{
	static const struct {
		const char *order;
		ota_status_t want;
	} lies[] = {
		{ "bl0-path", OTA_VERIFY_RESULT_MISMATCH }, /* the path the boot did not take */
		{ "bl0-scheme ecdsa-p256+slh-dsa-sha2-128s", OTA_VERIFY_RESULT_MISMATCH },
		{ "bl0-depth", OTA_VERIFY_RESULT_MISMATCH }, /* another depth than the chain's */
		{ "bl0-root-key flip", OTA_VERIFY_RESULT_MISMATCH },
		{ "bl0-usage-flags", OTA_VERIFY_RESULT_MISMATCH }, /* DEBUG the other way */
		{ "min-svn 7", OTA_VERIFY_STATE_MISMATCH },
		{ "epoch 9", OTA_VERIFY_STATE_MISMATCH },
		{ "floor-bl0 9", OTA_VERIFY_STATE_MISMATCH },
		{ "lifecycle prod", OTA_VERIFY_STATE_MISMATCH },
		{ "epoch nine", OTA_OK }, /* not an order */
		{ "no-such-field 1", OTA_OK },
	};
	static uint8_t resp[OTA_MBOX_RESPONSE_MAX_ANY];
	struct ota_verdict *v = calloc(1, sizeof(*v));
	struct ota_trust *trust;
	uint8_t nonce[32], knock_nonce[OTA_NONCE_MAX];
	uint32_t i, len;
	ota_status_t st;

	ck_assert_ptr_nonnull(v);
	memset(nonce, 0x5e, sizeof(nonce));
	trust = tu_identity_provision(&dev);
	for (i = 0; i < sizeof(lies) / sizeof(lies[0]); i++) {
		ck_assert_int_eq(swhal_power_on(), 0);
		ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
		chip_state(&before);
		len = attest(nonce, sizeof(nonce), resp, sizeof(resp));
		st = verify(resp, len, trust, nonce, v);
		ck_assert_msg(st == OTA_OK, "honest evidence before '%s': %s", lies[i].order,
			      ota_status_name(st));
		memset(knock_nonce, 0, sizeof(knock_nonce));
		snprintf((char *)knock_nonce, sizeof(knock_nonce), "%s%s", HOSTILE_KNOCK, lies[i].order);
		if (!strchr(lies[i].order, ' '))
			other_value(lies[i].order, (char *)knock_nonce + strlen((char *)knock_nonce),
				    sizeof(knock_nonce) - strlen((char *)knock_nonce));
		(void)attest(knock_nonce, sizeof(knock_nonce), resp, sizeof(resp));
		len = attest(nonce, sizeof(nonce), resp, sizeof(resp));
		st = verify(resp, len, trust, nonce, v);
		printf("knock '%s': %s (%u failures, first: %s)\n", lies[i].order, ota_status_name(st),
		       v->failure_count, v->failure_count ? v->failures[0].detail : "");
		if (lies[i].want == OTA_OK) {
			ck_assert_msg(st == OTA_OK, "'%s' changed the evidence: %s", lies[i].order,
				      ota_status_name(st));
		} else {
			ck_assert_msg(st != OTA_OK, "the lie '%s' verified", lies[i].order);
			ck_assert(v->authentic); /* the genuine alias key signed it */
			ck_assert_msg(fails_with(v, lies[i].want), "'%s': %s not among the failures",
				      lies[i].order, ota_status_name(lies[i].want));
		}
		nothing_changed();
	}
	ota_trust_free(trust);
	free(v);
}
END_TEST

/*
 * ROM_EXT's code in SRAM, overwritten by BL0 after the hand-off: BL0 has
 * no region there (mprot), so the first store faults and ROM_EXT's code
 * stays as signed. Before mprot was enforced the stores landed (a known
 * limit then); ROM copying the verified image again at each reset was
 * all that held.
 */
START_TEST(rom_ext_overwritten_after_hand_off_runs_as_signed_at_the_next_boot)
{
	const struct core_result *b = ota_fw_core_boot_result();
	uint32_t entry = elf_sym(&rom_ext_elf, "_start");

	variant_stopped(HOSTILE_ROM_EXT_WRITE, entry, 0, 2, entry);
	ck_assert_int_eq(b->stop, CORE_STOP_WAIT);
	ck_assert_uint_eq(b->window_first_pc[OTA_FW_CORE_ROM_EXT], entry);
	rom_ext_code_is_as_signed();
}
END_TEST

/*
 * ROM_EXT entered again at its entry point by BL0 after the hand-off:
 * BL0 may execute only its own code (mprot), so the fetch faults and not
 * one instruction of ROM_EXT runs. (Before mprot was enforced ROM_EXT ran
 * with the key manager at RUNTIME until its first check refused.)
 */
START_TEST(rom_ext_entered_again_holds_nothing_of_rom_exts)
{
	const struct core_result *r = ota_fw_core_request_result();
	uint32_t entry = elf_sym(&rom_ext_elf, "_start");

	variant_stopped(HOSTILE_ROM_EXT_EXEC, entry, 0, 3, entry);
	(void)r;
}
END_TEST

/*
 * mprot rewritten by BL0 after ROM_EXT locked it (region 0 to reach
 * everything, LOCK written with 0): BL0 has no region for the block, so
 * the first store faults; the regions are as ROM_EXT left them.
 */
START_TEST(bl0_cannot_rewrite_mprot)
{
	uint32_t cfg = wdog_rd((TOP_MPROT_BASE_ADDR + MPROT_REGION_CFG_REG_OFFSET(0))), base = wdog_rd((TOP_MPROT_BASE_ADDR + MPROT_REGION_BASE_REG_OFFSET(0))),
		 limit = wdog_rd((TOP_MPROT_BASE_ADDR + MPROT_REGION_LIMIT_REG_OFFSET(0)));

	ck_assert_uint_eq(cfg, MPROT_REGION_CFG_EN_MASK | MPROT_REGION_CFG_R_MASK | MPROT_REGION_CFG_X_MASK);
	variant_stopped(HOSTILE_MPROT, elf_sym(&rom_ext_elf, "_start"), 0, 2, (TOP_MPROT_BASE_ADDR + MPROT_REGION_CFG_REG_OFFSET(0)));
	ck_assert_uint_eq(wdog_rd((TOP_MPROT_BASE_ADDR + MPROT_REGION_CFG_REG_OFFSET(0))), cfg);
	ck_assert_uint_eq(wdog_rd((TOP_MPROT_BASE_ADDR + MPROT_REGION_BASE_REG_OFFSET(0))), base);
	ck_assert_uint_eq(wdog_rd((TOP_MPROT_BASE_ADDR + MPROT_REGION_LIMIT_REG_OFFSET(0))), limit);
}
END_TEST

/* Code BL0 writes into its own RAM and calls: RAM is never executable (mprot), the fetch faults. */
START_TEST(bl0_cannot_execute_its_data)
{
	variant_stopped(HOSTILE_EXEC_DATA, 0, 0, 3, elf_sym(&hostile_elf, "hostile_code_buf"));
}
END_TEST

/* The hostile BL0 leaves r for ROM_EXT as it is, asks for a warm reset; ROM_EXT's answer. */
static ota_status_t revoke_behind_the_runtimes_back(const struct ota_revocation *r)
{
	struct hostile_req q;
	struct hostile_report rep;
	uint32_t i;

	memset(&q, 0, sizeof(q));
	q.attack = HOSTILE_BOOT_SVC;
	q.arg[0] = HOSTILE_SVC_REVOKE_GIVEN;
	q.revocation = *r;
	ck_assert_uint_eq(order(&q, &rep), OTA_OK);
	print_report("revoke", &rep);
	ck_assert_uint_eq(rep.resumed, 1);
	steps_are(&rep, HW_BOOT_STATUS, OTA_OK, HAL_KEYMGR_RUNTIME);
	for (i = 0; i < rep.steps; i++)
		if (rep.step[i].what == HW_SVC_STATUS)
			return rep.step[i].status;
	ck_abort_msg("no boot services status");
	return OTA_OK;
}

/*
 * Field revocations signed by the owner key the device trusts (the
 * compromised owner has it), left by the hostile BL0 in retention RAM
 * without the runtime's pre-checks: one bound to another device, a
 * replay of one the device applied, a floor above the running SVN, and an
 * owner key ordering ROM_EXT's floor. ROM_EXT refuses each, and OTP is as
 * it was after the one genuine revocation.
 */
START_TEST(rom_ext_refuses_revocations_for_another_device_replayed_or_above_running)
{
	static const uint8_t other[OTA_DEVICE_ID_BYTES] = { 0xee, 0xee };
	struct ota_revocation ok, r;
	ota_status_t st;

	/* One genuine revocation through the product's command: BL0's floor to its running SVN (5). */
	ok = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 5, 1, dev.device_id);
	ck_assert_uint_eq(tu_revoke(&ok), OTA_OK);
	chip_state(&before);

	r = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 5, 2, other);
	st = revoke_behind_the_runtimes_back(&r);
	ck_assert_msg(st == OTA_REVOKE_WRONG_DEVICE, "another device's: %s", ota_status_name(st));
	nothing_changed();
	st = revoke_behind_the_runtimes_back(&ok);
	ck_assert_msg(st == OTA_REVOKE_REPLAYED, "replayed: %s", ota_status_name(st));
	nothing_changed();
	r = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 6, 2, dev.device_id);
	st = revoke_behind_the_runtimes_back(&r);
	ck_assert_msg(st == OTA_REVOKE_FLOOR_ABOVE_RUNNING, "above running: %s", ota_status_name(st));
	nothing_changed();
	r = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_ROM_EXT, 1, 2, dev.device_id);
	st = revoke_behind_the_runtimes_back(&r);
	ck_assert_msg(st == OTA_REVOKE_NOT_AUTHORIZED, "owner on ROM_EXT: %s", ota_status_name(st));
	nothing_changed();
}
END_TEST

/*
 * One-way resources: the OTP thermometers a runtime's requests make ROM_EXT
 * program. A COMMIT of the slot that booted, which is the primary already,
 * left again and again with a warm reset each time: ROM_EXT serves it
 * (status OK) and writes nothing, so no boot data write, no anchor bit, no
 * flash erase is spent on it (boot_data_services: a write only when
 * something changes).
 */
START_TEST(requests_that_change_nothing_spend_no_anchor_bit)
{
	struct hostile_req q;
	struct hostile_report rep;
	uint32_t i;

	for (i = 0; i < 4; i++) {
		memset(&q, 0, sizeof(q));
		q.attack = HOSTILE_BOOT_SVC;
		q.arg[0] = HOSTILE_SVC_COMMIT_RUNNING;
		ck_assert_uint_eq(order(&q, &rep), OTA_OK);
		ck_assert_uint_eq(rep.resumed, 1);
		steps_are(&rep, HW_SVC_SERVED, OTA_OK, OTA_SVC_COMMIT);
		steps_are(&rep, HW_SVC_STATUS, OTA_OK, ANY);
		nothing_changed();
	}
}
END_TEST

/*
 * The trial revert against a hostile image on trial that spins or crashes
 * at every boot: BL0 slot B holds the hostile BL0 too, an update reset
 * takes it on trial, and each boot it is ordered to disarm the watchdog
 * and hang (spin, then crash, in turn). Each hang is bitten (the board
 * pets nothing for a halted core), each bite uses a trial boot, and after
 * OTA_TRIAL_MAX_BOOTS the primary slot runs again, the revert recorded as
 * the watchdog's. (A trial image that does not hang may COMMIT itself:
 * the trial guards against failing images, signing against hostile ones.)
 */
START_TEST(a_hanging_trial_is_reverted)
{
	struct tu_blob b = tu_stage_image(&hostile_elf, OTA_STAGE_BL0, 5, 0);
	struct ota_resp_reset out;
	const struct ota_record_update *u;
	struct hostile_req q;
	struct hostile_report rep;
	uint32_t i;

	tu_device_write_slot(OTI_BL0_B, &b);
	tu_blob_free(&b);
	ck_assert_uint_eq(ota_fw_update_reset(OTA_SLOT_B, &out), OTA_OK);
	for (i = 1; i <= OTA_TRIAL_MAX_BOOTS; i++) {
		u = ota_record_update_of(tu_record());
		ck_assert_uint_eq(u->running_bl0_slot, OTA_SLOT_B);
		ck_assert_uint_eq(u->trial_boots, i);
		ota_fw_core_set_request_limit(200000);
		memset(&q, 0, sizeof(q));
		q.attack = HOSTILE_WATCHDOG;
		q.arg[0] = i % 2 ? HOSTILE_HANG_SPIN : HOSTILE_HANG_CRASH;
		ck_assert_uint_ne(order(&q, &rep), OTA_OK);
		ota_fw_core_set_request_limit(0);
		wdog_time_passes();
		ota_fw_idle();
		ck_assert_msg(swhal_wdog_due(), "trial boot %u: not bitten", i);
		ck_assert_uint_eq(swhal_wdog_bite(), OTA_OK);
		ck_assert_uint_eq(ota_fw_boot(OTA_RESET_WARM), OTA_OK);
	}
	u = ota_record_update_of(tu_record());
	ck_assert_uint_eq(u->running_bl0_slot, OTA_SLOT_A);
	ck_assert_uint_eq(u->revert_reason, OTA_REVERT_WATCHDOG);
	ck_assert_uint_eq(u->reverted_slot, OTA_SLOT_B);
}
END_TEST

static uint32_t otp_anchor(void)
{
	struct ota_otp otp;
	uint32_t v = 0;

	ck_assert_int_eq(swhal_peek_otp(0, &otp, sizeof(otp)), 0);
	ck_assert_uint_eq(ota_thermometer_decode(otp.boot_data_anchor, sizeof(otp.boot_data_anchor), &v),
			  OTA_OK);
	return v;
}

/*
 * The anchor is spent only by security changes (issue 27, issue 28 item
 * 3). A COMMIT that changes the primary slot is none: with a signed image
 * in each BL0 slot, an update reset into the other slot (the product's
 * UPDATE_RESET, which the runtime serves) and a COMMIT of it left by the
 * hostile BL0 write boot data each time (its counter moves) and spend no
 * anchor bit. On the old code each slot change spent one bit - about 2048
 * boots spent the 1024 bits, after which commits, ratchets and tag
 * rotations failed BOOT_DATA_COUNTER_EXHAUSTED.
 */
START_TEST(primary_slot_changes_spend_no_anchor_bit)
{
	struct tu_blob b = tu_stage_image(&hostile_elf, OTA_STAGE_BL0, 5, 0);
	struct ota_resp_reset out;
	struct hostile_req q;
	struct hostile_report rep;
	uint32_t a0, c0, i, slot;

	tu_device_write_slot(OTI_BL0_B, &b);
	tu_blob_free(&b);

	a0 = otp_anchor();
	c0 = tu_record()->hdr.boot_data_counter;
	for (i = 0; i < 6; i++) {
		slot = i % 2 ? OTA_SLOT_A : OTA_SLOT_B;
		ck_assert_uint_eq(ota_fw_update_reset(slot, &out), OTA_OK);
		memset(&q, 0, sizeof(q));
		q.attack = HOSTILE_BOOT_SVC;
		q.arg[0] = HOSTILE_SVC_COMMIT_RUNNING;
		ck_assert_uint_eq(order(&q, &rep), OTA_OK);
		steps_are(&rep, HW_SVC_STATUS, OTA_OK, ANY);
		ck_assert_uint_eq(ota_record_update_of(tu_record())->primary_slot, slot);
		ck_assert_msg(otp_anchor() == a0, "slot change %u spent anchor bits: %u -> %u", i, a0,
			      otp_anchor());
	}
	/* The slot changes were written (the boot data counter moved), and they hold. */
	ck_assert_uint_eq(tu_record()->hdr.boot_data_counter, c0 + 6u);
	printf("anchor: %u -> %u after 6 slot changes (12 boots)\n", a0, otp_anchor());
}
END_TEST

/*
 * The revocation sequence is a one-way resource, one series per signer
 * (issue 27, issue 28 item 3): one revocation the owner key signs - a
 * compromised owner has it - with the series' last number
 * (OTA_REVOCATION_SEQ_MAX), left by the hostile BL0 for ROM_EXT, spends
 * the owner's own fleet-wide series and nothing else. ROM_EXT applies it
 * (a sequence may jump: a device that missed revocations must take the
 * next one); the creator's fleet-wide series stays untouched, so the
 * silicon creator can still revoke fleet-wide - the owner's key too. On
 * the old layout (one fleet-wide series for both signers) the creator's
 * next fleet-wide command was REVOKE_REPLAYED.
 */
START_TEST(an_owner_key_spends_only_its_own_fleet_revocation_series)
{
	static const uint8_t fleet[OTA_DEVICE_ID_BYTES] = { 0 };
	struct ota_revocation r;
	struct ota_otp otp;
	uint32_t seq = 0;
	ota_status_t st;

	r = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 5, OTA_REVOCATION_SEQ_MAX, fleet);
	st = revoke_behind_the_runtimes_back(&r);
	ck_assert_msg(st == OTA_OK, "the owner's last-number revocation: %s", ota_status_name(st));
	ck_assert_int_eq(swhal_peek_otp(0, &otp, sizeof(otp)), 0);
	ck_assert_uint_eq(ota_thermometer_decode(otp.revocation_seq_owner,
						 sizeof(otp.revocation_seq_owner), &seq),
			  OTA_OK);
	ck_assert_uint_eq(seq, OTA_REVOCATION_SEQ_MAX);
	ck_assert_uint_eq(ota_thermometer_decode(otp.revocation_seq, sizeof(otp.revocation_seq), &seq),
			  OTA_OK);
	ck_assert_msg(seq == 0, "the creator's fleet-wide series spent by the owner: %u", seq);
	/* The owner's own series is spent: its next fleet-wide command is a replay. */
	chip_state(&before);
	r = tu_revocation(TU_OWNER0, OTA_REVOKE_RAISE_FLOOR, OTA_STAGE_BL0, 6, OTA_REVOCATION_SEQ_MAX, fleet);
	st = revoke_behind_the_runtimes_back(&r);
	ck_assert_msg(st == OTA_REVOKE_REPLAYED, "owner, fleet, last number again: %s", ota_status_name(st));
	nothing_changed();
	/* The creator's first fleet-wide revocation (creator key 1) still applies. */
	r = tu_revocation(TU_CREATOR0, OTA_REVOKE_CREATOR_KEY, 1, 0, 1, fleet);
	st = revoke_behind_the_runtimes_back(&r);
	ck_assert_msg(st == OTA_OK, "creator, fleet, number 1: %s", ota_status_name(st));
	ck_assert_int_eq(swhal_peek_otp(0, &otp, sizeof(otp)), 0);
	ck_assert_uint_eq(ota_thermometer_decode(otp.revocation_seq, sizeof(otp.revocation_seq), &seq),
			  OTA_OK);
	ck_assert_uint_eq(seq, 1);
	ck_assert_uint_ne(otp.creator_key_revoked[1], 0);
	/* And the device-bound series the creator's too. */
	r = tu_revocation(TU_CREATOR0, OTA_REVOKE_CREATOR_KEY, 2, 0, 1, dev.device_id);
	st = revoke_behind_the_runtimes_back(&r);
	ck_assert_msg(st == OTA_OK, "creator, this device: %s", ota_status_name(st));
}
END_TEST

/*
 * The mask ROM from the runtime: a store faults (ROM is mapped read and
 * execute only), but a service call writes its output for the image:
 * hal_flash_read and hal_otp_read told to put it at ROM's entry point,
 * which every reset runs. The ROM must be as loaded afterwards. It was
 * not: Unicorn's uc_mem_write ignores page protections, the core wrote
 * the output there, and the next reset would have run the attacker's
 * code as ROM, with the device root. Fixed in qemu-model/core/svc.c: a
 * call's output buffer must lie in SRAM or retention SRAM.
 */
START_TEST(service_calls_do_not_write_the_mask_rom)
{
	struct hostile_req q;
	struct hostile_report rep;
	uint32_t entry = elf_sym(&rom_elf, "_start");
	uint8_t rom0[64], rom1[64];
	ota_status_t st;

	(void)rep;
	ck_assert_uint_eq(core_mem_read(ota_fw_core(), entry, rom0, sizeof(rom0)), OTA_OK);
	memset(&q, 0, sizeof(q));
	q.attack = HOSTILE_SVC_INTO_ROM;
	q.arg[0] = entry;
	st = order(&q, &rep);
	/* The call is refused before the chip acts, as a fault that halts the core (until a reset). */
	ck_assert_msg(st == OTA_HAL_BAD_ARGUMENT, "%s", ota_status_name(st));
	ck_assert_int_eq(ota_fw_core_request_result()->stop, CORE_STOP_FAULT);
	ck_assert_uint_eq(ota_fw_core_request_result()->svc_refused, HAL_SVC_FLASH_READ);
	ck_assert_uint_eq(ota_fw_core_request_result()->fault_addr, entry);
	ck_assert_uint_eq(core_mem_read(ota_fw_core(), entry, rom1, sizeof(rom1)), OTA_OK);
	ck_assert_mem_eq(rom0, rom1, sizeof(rom0));
	nothing_changed();
	/*
	 * ROM_EXT's code is SRAM, but not BL0's to write (mprot): named as the
	 * output, the call is refused the same way (service calls check their
	 * buffers against the regions), and ROM_EXT's code stays as signed.
	 */
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	q.arg[0] = elf_sym(&rom_ext_elf, "_start");
	st = order(&q, &rep);
	ck_assert_msg(st == OTA_HAL_BAD_ARGUMENT, "%s", ota_status_name(st));
	ck_assert_uint_eq(ota_fw_core_request_result()->svc_refused, HAL_SVC_FLASH_READ);
	ck_assert_uint_eq(ota_fw_core_request_result()->fault_addr, q.arg[0]);
	rom_ext_code_is_as_signed();
}
END_TEST

/*
 * A runtime that spins or crashes to defeat the watchdog ROM_EXT armed
 * and locked (and with it the trial revert, which counts bites): the
 * hostile BL0 first clears the watchdog's enable, raises its thresholds
 * and sets its lock enable again, then spins without petting (the board
 * halts the core at its instruction limit) or faults. The configuration
 * held (the registers read as ROM_EXT locked them), and the board's
 * timer, which runs the runtime's idle loop, must not pet for a core that
 * runs no loop: the watchdog is due, bites, and the device boots again.
 * It did not: the board ran the host build's ota_runtime_idle() for the
 * core too, which pets the chip's watchdog whatever the image does, so a
 * spinning or crashed BL0 on the core was never bitten. A live image
 * pets by itself (the control, first).
 */
START_TEST(a_spinning_or_crashed_runtime_is_bitten)
{
	static const char *const name[] = { "spin", "crash" };
	const struct core_result *r = ota_fw_core_request_result();
	struct hostile_req q;
	struct hostile_report rep;
	uint32_t ctrl = wdog_rd(WDOG(WDOG_CTRL)), bite = wdog_rd(WDOG(WDOG_BITE_THOLD)), hang, len;
	ota_status_t st;

	ck_assert_uint_eq(wdog_rd(WDOG(WDOG_REGWEN)), 0); /* ROM_EXT locked it */
	ck_assert(ctrl & AON_TIMER_WDOG_CTRL_ENABLE_MASK);
	for (hang = HOSTILE_HANG_SPIN; hang <= HOSTILE_HANG_CRASH; hang++) {
		/* The control: a BL0 that waits for requests runs its loop at the tick and pets. */
		wdog_time_passes();
		ck_assert(swhal_wdog_due());
		ota_fw_idle();
		ck_assert_msg(!swhal_wdog_due(), "the live image did not pet");

		ota_fw_core_set_request_limit(200000);
		memset(&q, 0, sizeof(q));
		q.attack = HOSTILE_WATCHDOG;
		q.arg[0] = hang;
		st = order(&q, &rep);
		printf("watchdog %s: %s, stop %d\n", name[hang], ota_status_name(st), r->stop);
		ck_assert_uint_ne(st, OTA_OK);
		ck_assert_int_eq(r->stop, hang == HOSTILE_HANG_SPIN ? CORE_STOP_LIMIT : CORE_STOP_FAULT);
		/* The locked configuration held. */
		ck_assert_uint_eq(wdog_rd(WDOG(WDOG_REGWEN)), 0);
		ck_assert_uint_eq(wdog_rd(WDOG(WDOG_CTRL)), ctrl);
		ck_assert_uint_eq(wdog_rd(WDOG(WDOG_BITE_THOLD)), bite);
		/* Time passes; the board's tick runs the runtime's loop: nothing runs it now. */
		wdog_time_passes();
		ota_fw_idle();
		ck_assert_msg(swhal_wdog_due(), "%s: the watchdog was petted for a core that runs no loop",
			      name[hang]);
		/* The bite: a WARM reset, and the device boots again. */
		ck_assert_uint_eq(swhal_wdog_bite(), OTA_OK);
		ck_assert_uint_eq(ota_fw_boot(OTA_RESET_WARM), OTA_OK);
		ota_fw_core_set_request_limit(0);
		ck_assert_uint_eq(ota_fw_command(OTA_CMD_GET_RECORD, NULL, 0, (uint8_t *)&rep, sizeof(rep),
						 &len), OTA_OK);
		ck_assert_uint_eq(tu_record()->hdr.reset_reason, OTA_RESET_WARM);
	}
}
END_TEST

static Suite *hostile_suite(void)
{
	Suite *s = suite_create("hostile");
	TCase *tc = tcase_create("bl0");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, locked_flash_stays_locked);
	tcase_add_test(tc, otp_secrets_and_counters_hold);
	tcase_add_test(tc, the_vaults_hold);
	tcase_add_test(tc, the_kdf_does_not_run_back_up);
	tcase_add_test(tc, rom_and_rom_ext_leave_nothing_in_ram);
	tcase_add_test(tc, rom_ext_refuses_the_runtimes_boot_service_requests);
	tcase_add_test(tc, a_verifier_refuses_what_the_runtime_signs_about_itself);
	tcase_add_test(tc, a_knocked_runtime_lies_and_the_verifier_refuses_each_lie);
	tcase_add_test(tc, rom_ext_overwritten_after_hand_off_runs_as_signed_at_the_next_boot);
	tcase_add_test(tc, rom_ext_entered_again_holds_nothing_of_rom_exts);
	tcase_add_test(tc, rom_ext_refuses_revocations_for_another_device_replayed_or_above_running);
	tcase_add_test(tc, service_calls_do_not_write_the_mask_rom);
	tcase_add_test(tc, a_spinning_or_crashed_runtime_is_bitten);
	tcase_add_test(tc, a_hanging_trial_is_reverted);
	tcase_add_test(tc, requests_that_change_nothing_spend_no_anchor_bit);
	tcase_add_test(tc, primary_slot_changes_spend_no_anchor_bit);
	tcase_add_test(tc, an_owner_key_spends_only_its_own_fleet_revocation_series);
	tcase_add_test(tc, bl0_cannot_rewrite_mprot);
	tcase_add_test(tc, bl0_cannot_execute_its_data);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(hostile_suite)
