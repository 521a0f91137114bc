// SPDX-License-Identifier: MIT
/*
 * A compromised BL0 (issue 27; hostile.h): BL0's own code, which serves
 * the mailbox as BL0 does (ota_runtime_serve), plus the attacker's order
 * HOSTILE_CMD. Each attack uses what any code running after ROM_EXT's
 * hand-off has: every instruction, the chip's registers and memory, and
 * the service calls of the blocks not behind registers yet (hal/svc.h),
 * which it makes with any arguments it likes. It judges nothing: it
 * records what the chip answered and the test holds the chip to it.
 * Linked like BL0 (firmware/base/bl0.ld), signed with a valid owner key
 * by the test (tests/unit/test_hostile.c).
 */
#include <string.h>

#include <otattest/sha256.h>

#include "firmware.h"
#include "hal/svc.h"
#include "hostile.h"
#include "mmio.h"
#include "aon_timer_regs.h"
#include "mprot_regs.h"
#include "otp_ctrl_regs.h"
#include "sram_ctrl_ret_regs.h"
#include "top_regs.h"
#include "../../../firmware/runtime/runtime.h"

uint32_t hostile_bl0_start(void);

/* The linker script's symbols (firmware/base/stage.ld): the same layout in every image. */
extern uint32_t __handoff_start[], __handoff_end[], __bl0_ram_end[];

static struct hostile_req req;
static struct hostile_report rep;
static uint8_t evidence[OTA_EVIDENCE_MAX_BYTES];
static struct ota_boot_state forged;

/*
 * Above BL0's stack in its RAM window: nothing clears it (ROM clears the
 * hand-off state, each stage its own .bss), so it outlives a jump into
 * ROM_EXT and back, and a reset.
 */
#define SCRATCH ((volatile uint32_t *)((uintptr_t)__bl0_ram_end - 64u))
#define SCRATCH_EXEC 0x45584543u /* "EXEC": the jump into ROM_EXT was made */
#define SCRATCH_BACK 0x4241434bu /* "BACK": ROM_EXT jumped to BL0's entry again */

static void step(uint32_t what, uint32_t status, uint32_t value)
{
	if (rep.steps < HOSTILE_STEPS) {
		rep.step[rep.steps].what = what;
		rep.step[rep.steps].status = status;
		rep.step[rep.steps].value = value;
	}
	rep.steps++;
}

/* Erase and program a page of every region ROM_EXT must have locked, and the layout page. */
static void attack_flash(void)
{
	static const uint32_t types[] = { OTA_REGION_BOOT_DATA_0, OTA_REGION_BOOT_DATA_1,
					  OTA_REGION_TAG_TABLE_0, OTA_REGION_TAG_TABLE_1,
					  OTA_REGION_OWNER_CONFIG, OTA_REGION_IDENTITY_CERT };
	const struct ota_boot_state *bs = ota_boot_state();
	struct ota_flash_layout l;
	uint32_t addr[OTA_REGION_TYPE_MAX + 4], n = 0, i;
	const uint32_t zero = 0;
	ota_status_t st;

	st = hal_flash_read(0, &l, sizeof(l));
	step(HW_CONTROL, st, 0);
	if (st != OTA_OK || !bs)
		return;
	addr[n++] = 0;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		const struct ota_flash_region *r = ota_flash_layout_region(&l, types[i]);

		if (r)
			addr[n++] = r->offset;
	}
	{
		const struct ota_flash_region *a =
			ota_flash_layout_region(&l, ota_region_for_slot(OTA_STAGE_ROM_EXT, bs->rom_ext_slot));
		const struct ota_flash_region *b =
			ota_flash_layout_region(&l, ota_region_for_slot(OTA_STAGE_BL0, bs->bl0_slot));

		if (a) {
			addr[n++] = a->offset;
			addr[n++] = a->offset + a->size - l.page_size; /* its last page */
		}
		if (b) {
			addr[n++] = b->offset;
			addr[n++] = b->offset + b->size - l.page_size;
		}
	}
	for (i = 0; i < n; i++) {
		step(HW_FLASH_PROGRAM, hal_flash_program(addr[i], &zero, sizeof(zero)), addr[i]);
		step(HW_FLASH_ERASE, hal_flash_erase_page(addr[i]), addr[i]);
	}
}

/* OTP: the secret partition read, every counter raised, a fixed partition rewritten, the lock cleared. */
static void attack_otp(void)
{
	static const uint32_t counters[] = {
		offsetof(struct ota_otp, creator_key_revoked), offsetof(struct ota_otp, owner_key_revoked),
		offsetof(struct ota_otp, epoch), offsetof(struct ota_otp, floor_rom_ext),
		offsetof(struct ota_otp, floor_bl0), offsetof(struct ota_otp, lifecycle_transition),
		offsetof(struct ota_otp, boot_data_anchor), offsetof(struct ota_otp, revocation_seq),
		offsetof(struct ota_otp, revocation_seq_device),
		offsetof(struct ota_otp, revocation_seq_owner),
		offsetof(struct ota_otp, revocation_seq_owner_device),
		offsetof(struct ota_otp, tag_key_version),
	};
	static const uint32_t fixed[] = { offsetof(struct ota_otp, lifecycle),
					  offsetof(struct ota_otp, owner_config_digest),
					  offsetof(struct ota_otp, chain_max_svn),
					  offsetof(struct ota_otp, device_secret) };
	static const uint32_t secret[] = { offsetof(struct ota_otp, device_secret),
					   offsetof(struct ota_otp, secret_digest),
					   offsetof(struct ota_otp, device_secret) - 4u };
	uint8_t buf[32];
	const uint8_t ones[4] = { 0xff, 0xff, 0xff, 0xff };
	uint32_t i, v;

	step(HW_CONTROL, hal_otp_read(0, buf, sizeof(buf)), 0);
	for (i = 0; i < sizeof(secret) / sizeof(secret[0]); i++) {
		memset(buf, 0, sizeof(buf));
		step(HW_OTP_READ_SECRET, hal_otp_read(secret[i], buf, sizeof(buf)), secret[i]);
	}
	for (i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		step(HW_OTP_PROGRAM_COUNTER, hal_otp_program(counters[i], ones, sizeof(ones)), counters[i]);
	if (req.arg[0] == HOSTILE_REGS) {
		/* COUNTERS_LOCK is w1s; and BL0 has no region for otp_ctrl (mprot): the store faults. */
		ota_mmio_write32(TOP_OTP_CTRL_BASE_ADDR + OTP_CTRL_COUNTERS_LOCK_REG_OFFSET, 0);
		v = ota_mmio_read32(TOP_OTP_CTRL_BASE_ADDR + OTP_CTRL_COUNTERS_LOCK_REG_OFFSET);
		step(HW_LOCK_REG_CLEAR, OTA_OK, v);
		return;
	}
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		step(HW_OTP_PROGRAM_FIXED, hal_otp_program(fixed[i], ones, sizeof(ones)), fixed[i]);
	step(HW_OTP_PROGRAM_COUNTER,
	     hal_otp_program(offsetof(struct ota_otp, floor_bl0), ones, sizeof(ones)),
	     offsetof(struct ota_otp, floor_bl0));
}

/* The data vault rewritten with a higher min-SVN, its lock cleared, keys parked in the key vault. */
static void attack_vault(void)
{
	struct ota_retention r;
	volatile uint32_t *ret = (volatile uint32_t *)(uintptr_t)TOP_RET_SRAM_BASE_ADDR;
	hal_key_t alias = HAL_KEY_INVALID, cdi;
	uint32_t v;
	ota_status_t st;

	st = hal_retention_read(0, &r, sizeof(r));
	step(HW_CONTROL, st, r.min_svn);
	r.min_svn += 100;
	ota_sha256(&r, offsetof(struct ota_retention, digest), r.digest);
	step(HW_VAULT_WRITE, hal_retention_write(0, &r, sizeof(r)), r.min_svn);
	if (req.arg[0] == HOSTILE_REGS) {
		/* VAULT_LOCK is w1s; and BL0 has no region for sram_ctrl_ret (mprot): the store faults. */
		ota_mmio_write32(TOP_SRAM_CTRL_RET_BASE_ADDR + SRAM_CTRL_RET_VAULT_LOCK_REG_OFFSET, 0);
		v = ota_mmio_read32(TOP_SRAM_CTRL_RET_BASE_ADDR + SRAM_CTRL_RET_VAULT_LOCK_REG_OFFSET);
		step(HW_LOCK_REG_CLEAR, OTA_OK, v);
		step(HW_VAULT_WRITE, hal_retention_write(0, &r, sizeof(r)), r.min_svn);
		return;
	}
	if (req.arg[0] == HOSTILE_RET_STORE) {
		/* A store to retention SRAM's address in the memory map: no region of BL0's holds it. */
		ret[2] = r.min_svn;
		st = hal_retention_read(0, &r, sizeof(r));
		step(HW_RET_SRAM_STORE, st, st == OTA_OK && ret[2] == r.min_svn);
		return;
	}
	/* The key vault: the alias key parked over the chain link and in a free slot; a state secret. */
	st = hal_key_retained(OTA_RETAINED_KEY_ALIAS, &alias);
	step(HW_CONTROL, st, 0);
	step(HW_KEY_RETAIN, hal_key_retain(alias, OTA_RETAINED_KEY_CHAIN), OTA_RETAINED_KEY_CHAIN);
	step(HW_KEY_RETAIN, hal_key_retain(alias, 3), 3);
	cdi = hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST);
	step(HW_KEY_RETAIN, hal_key_retain(cdi, 2), 2);
	hal_key_destroy(alias);
}

/* Every word of the hand-off state shaped like a key handle (generation << 8 | slot + 1), tried. */
static uint32_t guess_handles(uint32_t *tried)
{
	uint8_t pub[OTA_P256_PUBKEY_BYTES];
	uint32_t *w, found = 0;

	*tried = 0;
	for (w = __handoff_start; w < __handoff_end && *tried < 4096u; w++) {
		uint32_t h = *w;

		if ((h & 0xffu) < 1 || (h & 0xffu) > 16 || !(h >> 8) || (h >> 8) > 0xffffffu)
			continue;
		(*tried)++;
		if (hal_ecdsa_pubkey(h, pub) != OTA_HAL_BAD_HANDLE)
			found++;
	}
	return found;
}

/* The key manager: back to an earlier state, ROM_EXT's identity key derived again, purposes crossed. */
static void attack_keymgr(void)
{
	static const uint32_t back[] = { HAL_KEYMGR_ROM, HAL_KEYMGR_ROM_EXT, HAL_KEYMGR_RUNTIME };
	const struct ota_runtime *rt = ota_runtime_current(ota_boot_state());
	struct hal_keymgr_binding bind;
	uint8_t pub[OTA_P256_PUBKEY_BYTES], mac[32];
	hal_key_t cdi, id = HAL_KEY_INVALID, chain = HAL_KEY_INVALID, alias = HAL_KEY_INVALID,
			 k = HAL_KEY_INVALID;
	uint32_t i, tried = 0, found;
	ota_status_t st;

	step(HW_KEYMGR_STATE, OTA_OK, hal_keymgr_state());
	memset(&bind, 0x5a, sizeof(bind));
	for (i = 0; i < sizeof(back) / sizeof(back[0]); i++)
		step(HW_KEYMGR_ADVANCE, hal_keymgr_advance(back[i], &bind), back[i]);
	step(HW_KEYMGR_STATE, OTA_OK, hal_keymgr_state());
	/* ROM_EXT's derivation of the identity key (label, key version 0, SIGN) from the CDI the runtime has. */
	cdi = hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST);
	st = hal_keymgr_derive(cdi, OTA_IDENTITY_LABEL, NULL, 0, 0, 0, HAL_KEY_PURPOSE_SIGN, &id);
	if (st == OTA_OK)
		st = hal_ecdsa_pubkey(id, pub);
	step(HW_KDF_IDENTITY, st,
	     st == OTA_OK && rt && memcmp(pub, rt->identity_pubkey, sizeof(pub)) == 0);
	hal_key_destroy(id);
	/* Purposes: the chain link (KDF) in KMAC, the alias key (SIGN) in KMAC and as a KDF parent, a CDI signing. */
	step(HW_CONTROL, hal_key_retained(OTA_RETAINED_KEY_CHAIN, &chain), 0);
	step(HW_CONTROL, hal_key_retained(OTA_RETAINED_KEY_ALIAS, &alias), 0);
	step(HW_KEY_PURPOSE, hal_kmac_start(chain, NULL, 0), 1);
	step(HW_KEY_PURPOSE, hal_kmac_start(alias, NULL, 0), 2);
	step(HW_KEY_PURPOSE,
	     hal_keymgr_derive(alias, "otattest-stable", NULL, 0, 0, 0, HAL_KEY_PURPOSE_MAC, &k), 3);
	memset(mac, 0, sizeof(mac));
	step(HW_KEY_PURPOSE, hal_ecdsa_sign(cdi, mac, evidence), 4);
	step(HW_KEY_PURPOSE, hal_ecdsa_pubkey(chain, pub), 5);
	hal_key_destroy(chain);
	hal_key_destroy(alias);
	hal_key_destroy(k);
	/* Handles ROM and ROM_EXT may have left in the hand-off state. */
	found = guess_handles(&tried);
	step(HW_HANDLE_GUESS, tried ? OTA_OK : OTA_HAL_BAD_ARGUMENT, found);
}

/* Nonzero words in [lo, hi): what a stage left in its RAM. */
static void scan(uint32_t lo, uint32_t hi)
{
	const volatile uint32_t *p;
	uint32_t nonzero = 0;

	if (lo >= hi || (lo & 3u)) {
		step(HW_SRAM_NONZERO, OTA_HAL_BAD_ARGUMENT, 0);
		return;
	}
	for (p = (const volatile uint32_t *)(uintptr_t)lo; (uintptr_t)p < hi; p++)
		nonzero += *p != 0;
	step(HW_SRAM_NONZERO, OTA_OK, nonzero);
}

/* arg[0..1]: ROM's RAM and stack; arg[2..3]: ROM_EXT's (from the public images' symbols). */
static void attack_sram(void)
{
	scan(req.arg[0], req.arg[1]);
	scan(req.arg[2], req.arg[3]);
}

/* A request ROM_EXT must refuse, left in retention RAM as the runtime leaves one, then a warm reset. */
static void attack_boot_svc(void)
{
	const struct ota_boot_state *bs = ota_boot_state();
	struct ota_boot_svc_request q;

	if (!bs) {
		step(HW_CONTROL, OTA_MBOX_NOT_READY, 0);
		return;
	}
	memset(&q, 0, sizeof(q));
	switch (req.arg[0]) {
	case HOSTILE_SVC_RATCHET_BL0_ABOVE:
		q.services = OTA_SVC_RATCHET;
		q.ratchet_stage = OTA_STAGE_BL0;
		q.ratchet_floor = bs->bl0_svn + 1;
		break;
	case HOSTILE_SVC_RATCHET_ROM_EXT_ABOVE:
		q.services = OTA_SVC_RATCHET;
		q.ratchet_stage = OTA_STAGE_ROM_EXT;
		q.ratchet_floor = bs->rom_ext_svn + 1;
		break;
	case HOSTILE_SVC_COMMIT_OTHER:
		q.services = OTA_SVC_COMMIT;
		q.commit_slot = bs->bl0_slot == OTA_SLOT_A ? OTA_SLOT_B : OTA_SLOT_A;
		break;
	case HOSTILE_SVC_REVOKE_UNSIGNED:
		q.services = OTA_SVC_REVOKE;
		q.revocation.magic = OTA_REVOCATION_MAGIC;
		q.revocation.version = OTA_REVOCATION_VERSION;
		q.revocation.size = sizeof(q.revocation);
		q.revocation.action = OTA_REVOKE_OWNER_KEY;
		q.revocation.target = 0;
		q.revocation.sequence = bs->otp.revocation_seq + 1;
		memset(q.revocation.signature, 0x11, sizeof(q.revocation.signature));
		break;
	case HOSTILE_SVC_REVOKE_GIVEN:
		q.services = OTA_SVC_REVOKE;
		q.revocation = req.revocation;
		break;
	case HOSTILE_SVC_COMMIT_RUNNING:
		q.services = OTA_SVC_COMMIT;
		q.commit_slot = bs->bl0_slot;
		break;
	default:
		step(HW_CONTROL, OTA_HAL_BAD_ARGUMENT, req.arg[0]);
		return;
	}
	step(HW_CONTROL, boot_svc_store(&q), q.services);
	step(HW_CONTROL, hal_reset_request(OTA_RESET_WARM), 0);
}

/* After the reset it asked for: what the boot did with the request. */
static void boot_svc_after(void)
{
	const struct ota_boot_state *bs = ota_boot_state();

	step(HW_BOOT_STATUS, bs ? bs->boot_status : OTA_MBOX_NOT_READY, hal_keymgr_state());
	step(HW_SVC_SERVED, OTA_OK, bs ? bs->svc_served : 0);
	step(HW_SVC_STATUS, bs ? bs->svc_status : OTA_MBOX_NOT_READY, 0);
}

/* The record changed in one field, then evidence over it signed with the genuine alias key. */
static ota_status_t forge_evidence(uint32_t *len)
{
	const struct ota_boot_state *bs = ota_boot_state();
	const struct ota_runtime *rt = ota_runtime_current(bs);
	struct ota_stage_record *s = NULL;
	uint32_t i;

	*len = 0;
	if (!bs || !rt)
		return OTA_MBOX_NOT_READY;
	forged = *bs;
	for (i = 0; i < forged.record.hdr.stage_count && i < OTA_RECORD_MAX_STAGES; i++)
		if (forged.record.stage[i].stage == OTA_STAGE_BL0 &&
		    forged.record.stage[i].status == OTA_OK)
			s = &forged.record.stage[i];
	if (!s)
		return OTA_MBOX_NOT_READY;
	switch (req.arg[0]) {
	case HOSTILE_LIE_BL0_SVN:
		s->security_version++;
		break;
	case HOSTILE_LIE_MEASUREMENT:
		s->measurement[0] ^= 0x80u;
		break;
	case HOSTILE_LIE_PATH:
		/* A consistent lie: the other path with a reason that path allows. */
		if (s->path == OTA_PATH_TAG) {
			s->path = OTA_PATH_SIGNATURE;
			s->path_reason = OTA_REASON_TAG_MISMATCH;
		} else {
			s->path = OTA_PATH_TAG;
			s->path_reason = OTA_REASON_NONE;
		}
		break;
	case HOSTILE_LIE_LIFECYCLE:
		forged.record.hdr.lifecycle =
			forged.record.hdr.lifecycle == OTA_LC_PROD ? OTA_LC_DEV : OTA_LC_PROD;
		break;
	case HOSTILE_LIE_DEBUG:
		s->effective.usage.flags ^= OTA_CAP_DEBUG;
		break;
	case HOSTILE_LIE_MIN_SVN:
		forged.record.hdr.min_svn++;
		break;
	case HOSTILE_LIE_KEY_ID:
		s->key_ids[0][0] ^= 0x80u;
		break;
	default:
		return OTA_HAL_BAD_ARGUMENT;
	}
	return ota_rt_attest(&forged, rt, req.nonce, sizeof(req.nonce), evidence, sizeof(evidence), len);
}

/* ROM_EXT's code, written over (no PMP in the emulated core), then a warm reset. arg[0]: its entry. */
static void attack_rom_ext_write(void)
{
	volatile uint32_t *code = (volatile uint32_t *)(uintptr_t)req.arg[0];
	uint32_t i, took = 1;

	for (i = 0; i < 16; i++)
		code[i] = 0x00100073u; /* ebreak */
	for (i = 0; i < 16; i++)
		took &= code[i] == 0x00100073u;
	step(HW_CODE_WRITE, OTA_OK, took);
	SCRATCH[4] = took; /* for the report after the reset */
	step(HW_CONTROL, hal_reset_request(OTA_RESET_WARM), 0);
}

/*
 * mprot after ROM_EXT locked it: region 0 made to reach everything, LOCK
 * written with 0 (w1s), then a store into ROM_EXT's code (arg[0]). BL0
 * has no region for the block: the first store faults.
 */
static void attack_mprot(void)
{
	volatile uint32_t *code = (volatile uint32_t *)(uintptr_t)req.arg[0];

	ota_mmio_write32(TOP_MPROT_BASE_ADDR + MPROT_REGION_CFG_REG_OFFSET(0), 0);
	ota_mmio_write32(TOP_MPROT_BASE_ADDR + MPROT_REGION_BASE_REG_OFFSET(0), 0);
	ota_mmio_write32(TOP_MPROT_BASE_ADDR + MPROT_REGION_LIMIT_REG_OFFSET(0), 0xfffff000u);
	ota_mmio_write32(TOP_MPROT_BASE_ADDR + MPROT_REGION_CFG_REG_OFFSET(0),
			 MPROT_REGION_CFG_R_MASK | MPROT_REGION_CFG_W_MASK | MPROT_REGION_CFG_X_MASK |
				 MPROT_REGION_CFG_EN_MASK);
	ota_mmio_write32(TOP_MPROT_BASE_ADDR + MPROT_LOCK_REG_OFFSET, 0);
	code[0] = 0x00100073u; /* ebreak */
	step(HW_CODE_WRITE, OTA_OK, code[0] == 0x00100073u);
}

/* Code written into BL0's own RAM, then called: li a0, 0x55; ret. */
uint32_t hostile_code_buf[4];

static void attack_exec_data(void)
{
	uint32_t (*fn)(void) = (uint32_t (*)(void))(uintptr_t)hostile_code_buf;

	hostile_code_buf[0] = 0x05500513u; /* addi a0, zero, 0x55 */
	hostile_code_buf[1] = 0x00008067u; /* jalr zero, 0(ra) */
	__asm__ volatile("" ::: "memory"); /* the stores before the call */
	step(HW_CONTROL, OTA_OK, fn());
}

/* ROM_EXT entered again at its entry point, after the hand-off. arg[0]: the entry. */
static void attack_rom_ext_exec(void)
{
	void (*entry)(void) = (void (*)(void))(uintptr_t)req.arg[0];
	const struct ota_boot_state *bs = ota_boot_state();

	if (SCRATCH[3] == SCRATCH_BACK) {
		/* ROM_EXT, entered again, jumped back here: the order is still waiting; report. */
		step(HW_KEYMGR_STATE, OTA_OK, SCRATCH[1]); /* before the jump */
		step(HW_KEYMGR_STATE, OTA_OK, SCRATCH[2]); /* when ROM_EXT jumped back */
		step(HW_BOOT_STATUS, bs ? bs->boot_status : OTA_MBOX_NOT_READY, hal_keymgr_state());
		SCRATCH[3] = 0;
		return;
	}
	SCRATCH[0] = SCRATCH_EXEC;
	SCRATCH[1] = hal_keymgr_state();
	entry();
}

/*
 * The mask ROM is read-only to the core's stores; a service call's output
 * buffer is written by the core on the image's behalf. arg[0]: a ROM
 * address (ROM's entry point: what the next reset runs).
 */
static void attack_svc_into_rom(void)
{
	const volatile uint8_t *rom = (const volatile uint8_t *)(uintptr_t)req.arg[0];
	uint8_t want[16];
	uint32_t i, same = 1;
	ota_status_t st;

	step(HW_CONTROL, hal_flash_read(0, want, sizeof(want)), 0);
	st = hal_flash_read(0, (void *)(uintptr_t)req.arg[0], sizeof(want));
	for (i = 0; i < sizeof(want); i++)
		same &= rom[i] == want[i];
	step(HW_SVC_OUTPUT, st, same);
	st = hal_otp_read(0, (void *)(uintptr_t)req.arg[0], sizeof(want));
	step(HW_SVC_OUTPUT, st, rom[0] == 'O' && rom[1] == 'T'); /* OTP's magic, "OTPI"-like */
}

/*
 * The watchdog ROM_EXT armed and locked: disable it, raise its bite
 * threshold, set its lock enable again, then never pet it: spin, or
 * crash. Nothing is answered; the test reads the registers from outside.
 */
static void attack_watchdog(void)
{
	const uint32_t base = TOP_AON_TIMER_BASE_ADDR;

	ota_mmio_write32(base + AON_TIMER_WDOG_REGWEN_REG_OFFSET, 1);
	ota_mmio_write32(base + AON_TIMER_WDOG_CTRL_REG_OFFSET, 0);
	ota_mmio_write32(base + AON_TIMER_WDOG_BITE_THOLD_REG_OFFSET, 0xffffffffu);
	ota_mmio_write32(base + AON_TIMER_WDOG_BARK_THOLD_REG_OFFSET, 0xffffffffu);
	if (req.arg[0] == HOSTILE_HANG_CRASH)
		(void)*(volatile uint32_t *)(uintptr_t)0xdead0000u;
	for (;;)
		;
}

/* HOSTILE_PROGRAM's regions (hostile.h): memory, then each block's register window. */
static const struct {
	uint32_t base, size;
} regions[] = {
	{ TOP_ROM_BASE_ADDR, TOP_ROM_SIZE },       { TOP_SRAM_BASE_ADDR, TOP_SRAM_SIZE },
	{ TOP_RET_SRAM_BASE_ADDR, TOP_RET_SRAM_SIZE }, { TOP_RV_TIMER_BASE_ADDR, 0x100 },
	{ TOP_OTP_CTRL_BASE_ADDR, 0x100 },         { TOP_RSTMGR_BASE_ADDR, 0x100 },
	{ TOP_AON_TIMER_BASE_ADDR, 0x100 },        { TOP_SRAM_CTRL_RET_BASE_ADDR, 0x100 },
	{ TOP_FLASH_CTRL_BASE_ADDR, 0x100 },       { TOP_HMAC_BASE_ADDR, 0x100 },
	{ TOP_KMAC_BASE_ADDR, 0x100 },             { TOP_OTBN_BASE_ADDR, 0x100 },
	{ TOP_KEYMGR_BASE_ADDR, 0x100 },           { TOP_ENTROPY_SRC_BASE_ADDR, 0x100 },
	{ TOP_ROM_CTRL_BASE_ADDR, 0x100 },         { TOP_MBOX_BASE_ADDR, 0x100 },
	{ TOP_MPROT_BASE_ADDR, 0x100 },
};
#define HOSTILE_REGIONS (sizeof(regions) / sizeof(regions[0]))

static uint32_t pc_, pend_;

static uint32_t prog_u8(void)
{
	return pc_ < pend_ ? req.prog[pc_++] : 0;
}

static uint32_t prog_u32(void)
{
	uint32_t v = prog_u8();

	v |= prog_u8() << 8;
	v |= prog_u8() << 16;
	return v | prog_u8() << 24;
}

static uint32_t prog_addr(uint32_t region, uint32_t align)
{
	uint32_t off = prog_u32();

	region %= HOSTILE_REGIONS;
	return regions[region].base + (off % regions[region].size & ~(align - 1u));
}

static uint32_t prog_arg(void)
{
	uint32_t tag = prog_u8();

	return tag & 0x80u ? prog_addr(tag & 0x7fu, 1) : prog_u32();
}

static uint32_t prog_svc(uint32_t nr, uint32_t x0, uint32_t x1, uint32_t x2)
{
	register uint32_t a0 __asm__("a0") = x0;
	register uint32_t a1 __asm__("a1") = x1;
	register uint32_t a2 __asm__("a2") = x2;
	register uint32_t a7 __asm__("a7") = nr;

	__asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
	return a0;
}

/* The fuzzer's operations (hostile.h), each against the chip as it is. */
static void run_program(void)
{
	pc_ = 0;
	pend_ = HOSTILE_PROG_BYTES;
	while (pc_ < pend_ && !hal_reset_pending()) {
		uint32_t op = prog_u8() % HOSTILE_OP_COUNT, a, v, nr, x0, x1;

		switch (op) {
		case HOSTILE_OP_END:
			return;
		case HOSTILE_OP_LOAD:
			a = prog_u8();
			a = prog_addr(a, 4);
			step(HW_PROG_LOAD, OTA_OK, *(volatile uint32_t *)(uintptr_t)a);
			break;
		case HOSTILE_OP_STORE32:
			a = prog_u8();
			a = prog_addr(a, 4);
			v = prog_u32();
			*(volatile uint32_t *)(uintptr_t)a = v;
			break;
		case HOSTILE_OP_STORE8:
			a = prog_u8();
			a = prog_addr(a, 1);
			*(volatile uint8_t *)(uintptr_t)a = (uint8_t)prog_u8();
			break;
		default:
			nr = prog_u8() % (HAL_SVC_COUNT + 1u);
			x0 = prog_arg();
			x1 = prog_arg();
			step(HW_PROG_SVC, prog_svc(nr, x0, x1, prog_arg()), nr);
			break;
		}
	}
}

static ota_status_t run(uint32_t *len)
{
	memset(&rep, 0, sizeof(rep));
	rep.magic = HOSTILE_REPORT_MAGIC;
	rep.attack = req.attack;
	*len = sizeof(rep);
	switch (req.attack) {
	case HOSTILE_FLASH_LOCKED:
		attack_flash();
		break;
	case HOSTILE_OTP:
		attack_otp();
		break;
	case HOSTILE_VAULT:
		attack_vault();
		break;
	case HOSTILE_KEYMGR:
		attack_keymgr();
		break;
	case HOSTILE_SRAM:
		attack_sram();
		break;
	case HOSTILE_BOOT_SVC:
		attack_boot_svc();
		break;
	case HOSTILE_FORGE_EVIDENCE:
		return forge_evidence(len);
	case HOSTILE_ROM_EXT_WRITE:
		attack_rom_ext_write();
		break;
	case HOSTILE_ROM_EXT_EXEC:
		attack_rom_ext_exec();
		break;
	case HOSTILE_SVC_INTO_ROM:
		attack_svc_into_rom();
		break;
	case HOSTILE_PROGRAM:
		run_program();
		break;
	case HOSTILE_WATCHDOG:
		attack_watchdog();
		break;
	case HOSTILE_MPROT:
		attack_mprot();
		break;
	case HOSTILE_EXEC_DATA:
		attack_exec_data();
		break;
	default:
		return OTA_MBOX_UNKNOWN_COMMAND;
	}
	return OTA_OK;
}

/* The order after the reset it asked for, answered by this boot's BL0 (STATUS.RESUMED). */
static ota_status_t resumed(uint32_t *len)
{
	memset(&rep, 0, sizeof(rep));
	rep.magic = HOSTILE_REPORT_MAGIC;
	rep.attack = req.attack;
	rep.resumed = 1;
	boot_svc_after();
	if (req.attack == HOSTILE_ROM_EXT_WRITE) {
		step(HW_CODE_WRITE, OTA_OK, SCRATCH[4]);
		SCRATCH[4] = 0;
	}
	*len = sizeof(rep);
	return OTA_OK;
}

/* The word of n bytes at w is s. */
static bool word_is(const char *w, uint32_t n, const char *s)
{
	return strlen(s) == n && memcmp(w, s, n) == 0;
}

/* A decimal number of n bytes at w, at most max. */
static bool word_num(const char *w, uint32_t n, uint32_t max, uint32_t *out)
{
	uint32_t i, v = 0;

	if (n == 0 || n > 9)
		return false;
	for (i = 0; i < n; i++) {
		if (w[i] < '0' || w[i] > '9')
			return false;
		v = v * 10u + (uint32_t)(w[i] - '0');
	}
	*out = v;
	return v <= max;
}

/* The value among 0..max whose name(value) is the word. */
static bool word_name(const char *w, uint32_t n, const char *(*name)(uint32_t), uint32_t max, uint32_t *out)
{
	uint32_t v;

	for (v = 0; v <= max; v++)
		if (word_is(w, n, name(v))) {
			*out = v;
			return true;
		}
	return false;
}

/*
 * HOSTILE_KNOCK (hostile.h): the order in an ATTEST's nonce, carried out
 * on the runtime's own copy of the boot record, which nothing but this
 * image's good behaviour protects.
 */
static void knock(void)
{
	static struct ota_req_attest a;
	struct ota_boot_state *bs = (struct ota_boot_state *)(uintptr_t)ota_boot_state();
	struct ota_stage_record *bl0 = NULL;
	const char *f, *v;
	uint32_t k = sizeof(HOSTILE_KNOCK) - 1u, end, fn, vn, i, x;

	memset(&a, 0, sizeof(a));
	if (!bs || hal_mbox_read(&a, sizeof(a)) != OTA_OK || a.nonce_len > sizeof(a.nonce) ||
	    a.nonce_len <= k || memcmp(a.nonce, HOSTILE_KNOCK, k) != 0)
		return;
	for (end = k; end < a.nonce_len && a.nonce[end]; end++)
		;
	f = (const char *)a.nonce + k;
	for (fn = 0; k + fn < end && f[fn] != ' '; fn++)
		;
	if (k + fn >= end)
		return;
	v = f + fn + 1;
	vn = end - (k + fn + 1u);
	for (i = 0; i < bs->record.hdr.stage_count && i < OTA_RECORD_MAX_STAGES; i++)
		if (bs->record.stage[i].stage == OTA_STAGE_BL0 &&
		    (bs->record.stage[i].flags & OTA_STAGE_F_BOOTED))
			bl0 = &bs->record.stage[i];
	if (!bl0)
		return;
	if (word_is(f, fn, "bl0-path") && word_name(v, vn, ota_path_name, OTA_PATH_MAX, &x)) {
		/* A consistent lie: the tag path has no slow-path reason, a slow path one. */
		if (x == OTA_PATH_TAG)
			bl0->path_reason = OTA_REASON_NONE;
		else if (bl0->path == OTA_PATH_TAG)
			bl0->path_reason = OTA_REASON_TAG_MISMATCH;
		bl0->path = x;
	} else if (word_is(f, fn, "bl0-scheme") && word_name(v, vn, ota_scheme_name, OTA_SCHEME_HYBRID, &x)) {
		bl0->sig_scheme = x;
	} else if (word_is(f, fn, "bl0-depth") && word_num(v, vn, OTA_MAX_DELEGATION_DEPTH, &x)) {
		bl0->delegation_depth = x; /* the delegates' key ids go with the depth */
		memset(bl0->key_ids[x + 1u], 0, sizeof(bl0->key_ids) - (x + 1u) * OTA_KEY_ID_BYTES);
	} else if (word_is(f, fn, "bl0-root-key") && word_is(v, vn, "flip")) {
		bl0->key_ids[0][0] ^= 1u;
	} else if (word_is(f, fn, "bl0-usage-flags") && word_num(v, vn, OTA_CAP_ALL, &x)) {
		bl0->effective.usage.flags = x;
	} else if (word_is(f, fn, "min-svn") && word_num(v, vn, OTA_SVN_LIMIT, &x)) {
		bs->record.hdr.min_svn = x;
	} else if (word_is(f, fn, "epoch") && word_num(v, vn, OTA_OTP_EPOCH_BITS, &x)) {
		bs->record.hdr.epoch = x;
	} else if (word_is(f, fn, "floor-bl0") && word_num(v, vn, OTA_SVN_LIMIT, &x)) {
		bs->record.hdr.floor_bl0 = x;
	} else if (word_is(f, fn, "lifecycle") && word_name(v, vn, ota_lifecycle_name, OTA_LC_RMA, &x)) {
		bs->record.hdr.lifecycle = x;
	} else if ((bs->record.hdr.flags & OTA_RECORD_F_UPDATE_SECTION) &&
		   word_is(f, fn, "revocation-sequence") && word_num(v, vn, OTA_REVOCATION_SEQ_MAX, &x)) {
		((struct ota_record_update *)ota_record_update_of(&bs->record))->revocation_sequence = x;
	} else if ((bs->record.hdr.flags & OTA_RECORD_F_UPDATE_SECTION) && word_is(f, fn, "revert-reason") &&
		   word_name(v, vn, ota_revert_reason_name, OTA_REVERT_REASON_MAX, &x)) {
		struct ota_record_update *u = (struct ota_record_update *)ota_record_update_of(&bs->record);

		u->revert_reason = x; /* a consistent lie: a revert names slot B, none no slot */
		u->reverted_slot = x != OTA_REVERT_NONE ? OTA_SLOT_B : 0u;
	}
}

static bool serve(void)
{
	struct hal_mbox_request r;
	uint32_t len = 0;
	ota_status_t st;

	if (hal_reset_pending() || !hal_mbox_request(&r))
		return false;
	if (r.command != HOSTILE_CMD) {
		if (r.command == OTA_CMD_ATTEST)
			knock();
		return ota_runtime_serve();
	}
	memset(&req, 0, sizeof(req));
	st = hal_mbox_read(&req, r.len < sizeof(req) ? r.len : sizeof(req));
	if (st == OTA_OK)
		st = r.resumed ? resumed(&len) : run(&len);
	if (hal_reset_pending())
		return false; /* answered by the BL0 that boots */
	if (st != OTA_OK)
		len = 0;
	(void)hal_mbox_respond(st, req.attack == HOSTILE_FORGE_EVIDENCE ? (const void *)evidence
									 : (const void *)&rep,
			       len);
	return true;
}

/* crt0.S calls this as stage_main after ROM_EXT's jump, like BL0's ota_bl0_start. */
uint32_t hostile_bl0_start(void)
{
	if (SCRATCH[0] == SCRATCH_EXEC) {
		/* Back from ROM_EXT, entered again: it jumped here as at a boot. */
		SCRATCH[0] = 0;
		SCRATCH[2] = hal_keymgr_state();
		SCRATCH[3] = SCRATCH_BACK;
	}
	for (;;) {
		while (serve())
			;
		ota_runtime_idle(); /* BL0's idle step: it pets the watchdog, as BL0 does */
		hal_wait_for_interrupt();
	}
}
