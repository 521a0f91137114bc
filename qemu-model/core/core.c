// SPDX-License-Identifier: MIT
/*
 * The core (core.h) on Unicorn 2.0.1: memory regions from the generated
 * map, every register block as MMIO into the chip's bus, ELF loading with
 * libelf, service calls for the blocks not behind registers yet (svc.c),
 * runs that end at the start-up code's ecall (Unicorn 2.0.1 reports a
 * compressed ebreak as an invalid instruction, not to the interrupt hook).
 *
 * The core is the chip's clock while it is open (swhal_clock_model): a
 * block hook reports each translation block it runs to the cycle model,
 * its compressed and 32-bit instructions counted from their encodings
 * once per block and address in a run (the decode cache below), not per
 * instruction.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <unicorn/unicorn.h>

#include "bus.h"
#include "core.h"
#include "hal/svc.h"
#include "mprot.h"
#include "mprot_regs.h"
#include "svc.h"
#include "swhal.h"

/*
 * RISC-V exception numbers Unicorn reports to an interrupt hook: an ecall
 * from U, S or M mode (Unicorn 2.0.1 runs the hart in U mode from reset).
 */
#define RISCV_EXCP_U_ECALL 8u
#define RISCV_EXCP_M_ECALL 11u

/*
 * Blocks decoded in this run: start address and size in bytes, and how
 * many compressed and 32-bit instructions they hold. Emptied at each
 * core_run: a run writes code (ROM copies ROM_EXT, ROM_EXT copies BL0)
 * only where none ran before in that run. A block that does not fit is
 * decoded every time it runs.
 */
#define BLOCK_CACHE 8192u /* a power of two */
#define BLOCK_PROBE 8u

struct block_info {
	uint32_t addr, size;
	uint32_t n16, n32;
};

struct mmio_ctx {
	struct core *c;
	uint32_t base;
};

struct core {
	uc_engine *uc;
	uc_hook code_hook, block_hook, intr_hook, bad_hook;
	struct block_info *blocks; /* BLOCK_CACHE entries; size 0: free */
	struct mmio_ctx mmio[TOP_BLOCK_COUNT];
	struct core_result *res; /* the run in progress */
	struct {
		uint32_t lo, hi;
	} window[CORE_WINDOWS];
	uint32_t resume_pc; /* where a run that waited goes on (0: none) */
	uint32_t pc;        /* the instruction running (the code hook's last address) */
	/*
	 * The memory protection applied to the pages (mprot.h): the chip's
	 * generation it was applied for. arm: LOCK was written during this
	 * run, by code in arm_page; the first block that starts outside that
	 * page stops the run before it executes (arm_stop), and run() goes on
	 * there with the regions in force.
	 */
	uint32_t prot_gen;
	bool arm, arm_stop;
	uint32_t arm_page;
};

/* The memories the core sees as RAM or ROM (flash is mapped with the flash model). */
static const struct {
	enum top_memory id;
	uint32_t perms;
} memories[] = {
	{ TOP_MEMORY_ROM, UC_PROT_READ | UC_PROT_EXEC },
	{ TOP_MEMORY_SRAM, UC_PROT_ALL },
	{ TOP_MEMORY_RET_SRAM, UC_PROT_READ | UC_PROT_WRITE },
};

static void fault(struct core *c, uint32_t addr, ota_status_t st)
{
	if (c->res && c->res->stop != CORE_STOP_FAULT) {
		c->res->stop = CORE_STOP_FAULT;
		c->res->fault = st;
		c->res->fault_addr = addr;
	}
	uc_emu_stop(c->uc);
}

/* A block's status (ERR_CODE-style) is the peripheral's answer; only a bus error faults. */
/*
 * A register access the memory protection denies (mprot.h): recorded in
 * the block, and the core faults as on any violation. Register blocks are
 * MMIO callbacks already, so the check costs nothing on memory accesses.
 */
static bool mmio_denied(struct mmio_ctx *m, uint32_t addr, unsigned size, enum chip_mprot_kind kind)
{
	if (chip_mprot_allows(addr, size, kind == CHIP_MPROT_READ ? CHIP_MPROT_R : CHIP_MPROT_W))
		return false;
	chip_mprot_fault(kind, addr, m->c->pc);
	if (m->c->res && m->c->res->stop != CORE_STOP_FAULT)
		m->c->res->uc_err = kind == CHIP_MPROT_READ ? UC_ERR_READ_PROT : UC_ERR_WRITE_PROT;
	fault(m->c, addr, 0);
	return true;
}

static uint64_t mmio_read(uc_engine *uc, uint64_t offset, unsigned size, void *user)
{
	struct mmio_ctx *m = user;
	uint32_t v = 0, addr = m->base + (uint32_t)offset;
	ota_status_t st;

	(void)uc;
	if (mmio_denied(m, addr, size, CHIP_MPROT_READ))
		return 0;
	st = size == 4 ? chip_bus_read32(addr, &v) : chip_bus_read(addr, &v, size);
	if (st == OTA_HAL_BUS_ERROR)
		fault(m->c, addr, st);
	return v;
}

static void mmio_write(uc_engine *uc, uint64_t offset, unsigned size, uint64_t value, void *user)
{
	struct mmio_ctx *m = user;
	uint32_t v = (uint32_t)value, addr = m->base + (uint32_t)offset;
	ota_status_t st;

	(void)uc;
	if (mmio_denied(m, addr, size, CHIP_MPROT_WRITE))
		return;
	st = size == 4 ? chip_bus_write32(addr, v) : chip_bus_write(addr, &v, size);
	if (st == OTA_HAL_BUS_ERROR)
		fault(m->c, addr, st);
	/*
	 * LOCK put the regions in force: the page protections change between
	 * runs (run), from the first block that starts outside the page of
	 * this store: the hand-off's jump to the next stage (firmware/base/jump.S).
	 */
	if (m->c->prot_gen != chip_mprot_generation() && m->c->res && !m->c->arm) {
		m->c->arm = true;
		m->c->arm_page = m->c->pc & ~(CHIP_MPROT_PAGE - 1u);
	}
}

static void on_code(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
	struct core *c = user;
	uint32_t i;

	(void)size;
	c->pc = (uint32_t)address;
	if (!c->res)
		return;
	if (c->res->insns == 0)
		c->res->first_pc = (uint32_t)address;
	c->res->insns++;
	for (i = 0; i < CORE_WINDOWS; i++) {
		uint32_t sp = 0;

		if (address < c->window[i].lo || address >= c->window[i].hi)
			continue;
		if (c->res->window_insns[i]++ == 0)
			c->res->window_first_pc[i] = (uint32_t)address;
		uc_reg_read(uc, UC_RISCV_REG_SP, &sp);
		if (sp && (!c->res->window_min_sp[i] || sp < c->res->window_min_sp[i]))
			c->res->window_min_sp[i] = sp;
	}
}

/* Compressed and 32-bit instructions in [addr, addr + size), from the encodings (the low two bits). */
static void decode_block(uc_engine *uc, uint32_t addr, uint32_t size, struct block_info *b)
{
	uint8_t buf[256];
	uint32_t off = 0, i;

	b->addr = addr;
	b->size = size;
	b->n16 = b->n32 = 0;
	while (off < size) {
		uint32_t n = size - off < sizeof(buf) ? size - off : (uint32_t)sizeof(buf);

		if (uc_mem_read(uc, addr + off, buf, n) != UC_ERR_OK)
			return;
		for (i = 0; i < n;) {
			if ((buf[i] & 3u) == 3u) {
				b->n32++;
				i += 4;
			} else {
				b->n16++;
				i += 2;
			}
		}
		off += i; /* an instruction straddling the buffer's end is counted once */
	}
}

static void on_block(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
	struct core *c = user;
	uint32_t addr = (uint32_t)address, h = (addr >> 1) * 2654435761u, i;
	struct block_info tmp, *b = NULL;

	if (c->arm && !c->arm_stop && (addr & ~(CHIP_MPROT_PAGE - 1u)) != c->arm_page) {
		/* Stop before this block runs (the code hook's exit check), uncounted: run() goes on here. */
		c->arm_stop = true;
		uc_emu_stop(uc);
		return;
	}

	for (i = 0; i < BLOCK_PROBE; i++) {
		struct block_info *e = &c->blocks[(h + i) & (BLOCK_CACHE - 1)];

		if (e->size == 0) {
			decode_block(uc, addr, size, e);
			b = e;
			break;
		}
		if (e->addr == addr && e->size == size) {
			b = e;
			break;
		}
	}
	if (!b) {
		decode_block(uc, addr, size, &tmp);
		b = &tmp;
	}
	swhal_clock_retire(b->n16, b->n32);
	if (c->res) {
		c->res->insns16 += b->n16;
		c->res->insns32 += b->n32;
	}
}

void core_watch(struct core *c, uint32_t i, uint32_t lo, uint32_t hi)
{
	if (i < CORE_WINDOWS) {
		c->window[i].lo = lo;
		c->window[i].hi = hi;
	}
}

/*
 * An environment call: number 0 in a7 is the start-up code's last one (the
 * stage returned, its result in a0); another is a service call
 * (firmware/include/hal/svc.h), answered here; the core resumes after the
 * ecall (Unicorn 2.0.1 hands the hook the PC of the next instruction
 * already, and continues there when the hook returns without stopping).
 * Any other exception ends the run as a fault.
 */
static void on_intr(uc_engine *uc, uint32_t intno, void *user)
{
	struct core *c = user;
	uint32_t a0 = 0, a7 = 0, pc = 0, bad = 0;
	bool ecall = intno >= RISCV_EXCP_U_ECALL && intno <= RISCV_EXCP_M_ECALL && intno != 10u;

	uc_reg_read(uc, UC_RISCV_REG_A0, &a0);
	uc_reg_read(uc, UC_RISCV_REG_A7, &a7);
	uc_reg_read(uc, UC_RISCV_REG_PC, &pc);
	if (ecall && a7 == HAL_SVC_WFI) {
		/* The image waits for a request: the run ends here, core_resume goes on after the ecall. */
		if (c->res) {
			c->res->pc = pc;
			c->res->stop = CORE_STOP_WAIT;
		}
		uc_emu_stop(uc);
		return;
	}
	if (ecall && a7 != HAL_SVC_STAGE_END) {
		if (core_svc(uc, a7, &bad)) {
			if (c->res)
				c->res->svc_calls++;
			return;
		}
		if (c->res) {
			c->res->pc = pc;
			c->res->svc_refused = a7;
		}
		fault(c, bad, OTA_HAL_BAD_ARGUMENT);
		return;
	}
	if (c->res) {
		c->res->pc = pc;
		if (ecall) {
			c->res->stop = CORE_STOP_RETURNED;
			c->res->a0 = a0;
		} else {
			c->res->stop = CORE_STOP_FAULT;
			c->res->uc_err = (int)intno;
		}
	}
	uc_emu_stop(uc);
}

/* The access kind of a refused access, as FAULT_STATUS.KIND numbers it. */
static enum chip_mprot_kind access_kind(uc_mem_type type)
{
	if (type == UC_MEM_FETCH_PROT || type == UC_MEM_FETCH_UNMAPPED)
		return CHIP_MPROT_EXEC;
	if (type == UC_MEM_WRITE_PROT || type == UC_MEM_WRITE_UNMAPPED)
		return CHIP_MPROT_WRITE;
	return CHIP_MPROT_READ;
}

/*
 * A load, store or fetch Unicorn refused (UC_HOOK_MEM_PROT: the pages'
 * protection, the regions' or a store to ROM; UC_HOOK_MEM_UNMAPPED: no
 * memory there). When the memory protection's regions deny it too, the
 * violation is recorded in the block (FAULT_STATUS/ADDR/PC; a fetch's PC
 * is its target). Either way the core faults.
 */
static bool on_bad_access(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value,
			  void *user)
{
	struct core *c = user;
	enum chip_mprot_kind kind = access_kind(type);
	static const uint32_t need[] = { [CHIP_MPROT_READ] = CHIP_MPROT_R,
					 [CHIP_MPROT_WRITE] = CHIP_MPROT_W,
					 [CHIP_MPROT_EXEC] = CHIP_MPROT_X };
	static const int err[] = { [CHIP_MPROT_READ] = UC_ERR_READ_PROT,
				   [CHIP_MPROT_WRITE] = UC_ERR_WRITE_PROT,
				   [CHIP_MPROT_EXEC] = UC_ERR_FETCH_PROT };
	uint32_t addr = (uint32_t)address;

	(void)uc;
	(void)value;
	if (!chip_mprot_allows(addr, size > 0 ? (uint32_t)size : 1u, need[kind])) {
		chip_mprot_fault(kind, addr, kind == CHIP_MPROT_EXEC ? addr : c->pc);
		if (c->res && c->res->stop != CORE_STOP_FAULT)
			c->res->uc_err = err[kind];
	}
	fault(c, addr, 0);
	return false;
}

/* The page permissions Unicorn gets for a memory's page: the memory's own, less what the regions deny. */
static uint32_t page_perms(uint32_t mem_perms, uint32_t addr)
{
	uint32_t p = chip_mprot_perms(addr), uc = 0;

	if (p & CHIP_MPROT_R)
		uc |= UC_PROT_READ;
	if (p & CHIP_MPROT_W)
		uc |= UC_PROT_WRITE;
	if (p & CHIP_MPROT_X)
		uc |= UC_PROT_EXEC;
	return mem_perms & uc;
}

/*
 * Apply the chip's memory protection to the pages (uc_mem_protect, runs
 * of pages with equal permissions), when it changed since the last time
 * (LOCK, a reset). The translation blocks of pages that lose their
 * execute permission are dropped, so that none translated before runs
 * again from there (a whole tb_flush costs seconds: it clears Unicorn's
 * code buffer).
 */
static void prot_sync(struct core *c)
{
	uint32_t gen = chip_mprot_generation(), i;

	if (gen == c->prot_gen)
		return;
	for (i = 0; i < sizeof(memories) / sizeof(memories[0]); i++) {
		const struct chip_memory *m = &chip_memories[memories[i].id];
		uint32_t run_lo = m->base, run_perms = page_perms(memories[i].perms, m->base), a;

		for (a = m->base + CHIP_MPROT_PAGE;; a += CHIP_MPROT_PAGE) {
			bool end = a - m->base >= m->size;
			uint32_t p = end ? 0 : page_perms(memories[i].perms, a);

			if (!end && p == run_perms)
				continue;
			(void)uc_mem_protect(c->uc, run_lo, a - run_lo, run_perms);
			if ((memories[i].perms & UC_PROT_EXEC) && !(run_perms & UC_PROT_EXEC))
				(void)uc_ctl_remove_cache(c->uc, run_lo, a);
			if (end)
				break;
			run_lo = a;
			run_perms = p;
		}
	}
	c->prot_gen = gen;
}

int core_open(struct core **out)
{
	struct core *c = calloc(1, sizeof(*c));
	uint32_t i;

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->blocks = calloc(BLOCK_CACHE, sizeof(*c->blocks));
	if (!c->blocks)
		goto fail;
	if (uc_open(UC_ARCH_RISCV, UC_MODE_RISCV32, &c->uc) != UC_ERR_OK)
		goto fail;
	for (i = 0; i < sizeof(memories) / sizeof(memories[0]); i++) {
		const struct chip_memory *m = &chip_memories[memories[i].id];

		if (uc_mem_map(c->uc, m->base, m->size, memories[i].perms) != UC_ERR_OK)
			goto fail;
	}
	for (i = 0; i < TOP_BLOCK_COUNT; i++) {
		c->mmio[i].c = c;
		c->mmio[i].base = chip_blocks[i].base;
		if (uc_mmio_map(c->uc, chip_blocks[i].base, chip_blocks[i].size, mmio_read, &c->mmio[i],
				mmio_write, &c->mmio[i]) != UC_ERR_OK)
			goto fail;
	}
	if (uc_hook_add(c->uc, &c->code_hook, UC_HOOK_CODE, (void *)on_code, c, 1, 0) != UC_ERR_OK ||
	    uc_hook_add(c->uc, &c->block_hook, UC_HOOK_BLOCK, (void *)on_block, c, 1, 0) != UC_ERR_OK ||
	    uc_hook_add(c->uc, &c->intr_hook, UC_HOOK_INTR, (void *)on_intr, c, 1, 0) != UC_ERR_OK ||
	    uc_hook_add(c->uc, &c->bad_hook, UC_HOOK_MEM_INVALID, (void *)on_bad_access, c, 1, 0) !=
		    UC_ERR_OK)
		goto fail;
	c->prot_gen = chip_mprot_generation() - 1u; /* the first run applies what the chip has */
	*out = c;
	swhal_clock_model(true); /* MTIME counts the model while a core exists */
	return 0;
fail:
	core_close(c);
	return -EIO;
}

void core_close(struct core *c)
{
	if (!c)
		return;
	if (c->uc)
		uc_close(c->uc);
	free(c->blocks);
	free(c);
	swhal_clock_model(false);
}

/* Whether [addr, addr + len) lies inside one of the loadable memories (ROM, SRAM). */
static bool loadable(uint64_t addr, uint64_t len)
{
	static const enum top_memory where[] = { TOP_MEMORY_ROM, TOP_MEMORY_SRAM };

	return addr <= UINT32_MAX && len <= UINT32_MAX &&
	       core_range_in((uint32_t)addr, (uint32_t)len, where, sizeof(where) / sizeof(where[0]));
}

/* libelf's view of an image in memory, or NULL. */
static Elf *elf_open_memory(const uint8_t *image, size_t len)
{
	if (elf_version(EV_CURRENT) == EV_NONE || !image || !len)
		return NULL;
	return elf_memory((char *)(uintptr_t)image, len);
}

ota_status_t core_load_elf(struct core *c, const uint8_t *image, size_t len, uint32_t *entry)
{
	ota_status_t st = OTA_HAL_BAD_ARGUMENT;
	Elf *elf = elf_open_memory(image, len);
	GElf_Ehdr eh;
	size_t n, i;

	if (!elf)
		return st;
	if (elf_kind(elf) != ELF_K_ELF || gelf_getclass(elf) != ELFCLASS32 || !gelf_getehdr(elf, &eh) ||
	    eh.e_machine != EM_RISCV || eh.e_type != ET_EXEC || elf_getphdrnum(elf, &n) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			goto out;
		if (ph.p_type != PT_LOAD || ph.p_memsz == 0)
			continue;
		if (ph.p_filesz > ph.p_memsz || ph.p_offset > len || ph.p_filesz > len - ph.p_offset ||
		    !loadable(ph.p_vaddr, ph.p_memsz))
			goto out;
		if (ph.p_filesz &&
		    uc_mem_write(c->uc, ph.p_vaddr, image + ph.p_offset, ph.p_filesz) != UC_ERR_OK)
			goto out;
	}
	*entry = (uint32_t)eh.e_entry;
	st = OTA_OK;
out:
	elf_end(elf);
	return st;
}

static ota_status_t run(struct core *c, uint32_t entry, uint64_t max_insns, struct core_result *res)
{
	struct swhal_clock before, after;
	struct timespec t0, t1;
	uc_err err;

	memset(res, 0, sizeof(*res));
	c->res = res;
	c->arm = c->arm_stop = false;
	prot_sync(c);
	swhal_clock_get(&before);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		err = uc_emu_start(c->uc, entry, 0xffffffffu, 0, max_insns - res->insns);
		if (!c->arm_stop || res->stop || err != UC_ERR_OK)
			break;
		/* LOCK was written: the regions are in force from this block on. */
		c->arm = c->arm_stop = false;
		uc_reg_read(c->uc, UC_RISCV_REG_PC, &entry);
		prot_sync(c);
		if (res->insns >= max_insns)
			break;
	}
	c->arm = c->arm_stop = false;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	swhal_clock_get(&after);
	res->cycles = after.cycles - before.cycles;
	res->host_ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t1.tv_nsec -
		       (uint64_t)t0.tv_nsec;
	if (!res->stop) {
		res->stop = err == UC_ERR_OK ? CORE_STOP_LIMIT : CORE_STOP_FAULT;
		res->uc_err = (int)err;
	}
	if (!res->pc)
		uc_reg_read(c->uc, UC_RISCV_REG_PC, &res->pc);
	c->res = NULL;
	c->resume_pc = res->stop == CORE_STOP_WAIT ? res->pc : 0;
	return OTA_OK;
}

ota_status_t core_run(struct core *c, uint32_t entry, uint64_t max_insns, struct core_result *res)
{
	memset(c->blocks, 0, BLOCK_CACHE * sizeof(*c->blocks));
	/* A run starts the hart afresh: x1..x31 zero, as after a reset, nothing of the last run. */
	for (uint32_t r = UC_RISCV_REG_X1; r <= UC_RISCV_REG_X31; r++) {
		uint32_t zero = 0;

		uc_reg_write(c->uc, (int)r, &zero);
	}
	return run(c, entry, max_insns, res);
}

ota_status_t core_resume(struct core *c, uint64_t max_insns, struct core_result *res)
{
	uint32_t pc = c->resume_pc;

	if (!pc)
		return OTA_HAL_BAD_ARGUMENT;
	return run(c, pc, max_insns, res);
}

ota_status_t core_mem_read(struct core *c, uint32_t addr, void *buf, uint32_t len)
{
	return uc_mem_read(c->uc, addr, buf, len) == UC_ERR_OK ? OTA_OK : OTA_HAL_BAD_ARGUMENT;
}

ota_status_t core_mem_write(struct core *c, uint32_t addr, const void *buf, uint32_t len)
{
	return uc_mem_write(c->uc, addr, buf, len) == UC_ERR_OK ? OTA_OK : OTA_HAL_BAD_ARGUMENT;
}

ota_status_t core_elf_symbol(const uint8_t *image, size_t len, const char *name, uint32_t *value)
{
	ota_status_t st = OTA_HAL_BAD_ARGUMENT;
	Elf *elf = elf_open_memory(image, len);
	Elf_Scn *scn = NULL;

	if (!elf)
		return st;
	while (st != OTA_OK && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			n = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (n && strcmp(n, name) == 0) {
				*value = (uint32_t)sym.st_value;
				st = OTA_OK;
				break;
			}
		}
	}
	elf_end(elf);
	return st;
}

#define STACK_PAINT 0x5au

ota_status_t core_stack_paint(struct core *c, uint32_t lo, uint32_t hi)
{
	uint8_t *p;
	ota_status_t st;

	if (hi <= lo || hi - lo > chip_memories[TOP_MEMORY_SRAM].size || !(p = malloc(hi - lo)))
		return OTA_HAL_BAD_ARGUMENT;
	memset(p, STACK_PAINT, hi - lo);
	st = core_mem_write(c, lo, p, hi - lo);
	free(p);
	return st;
}

ota_status_t core_stack_used(struct core *c, uint32_t lo, uint32_t hi, uint32_t *used)
{
	uint8_t *p;
	uint32_t i;
	ota_status_t st;

	if (hi <= lo || hi - lo > chip_memories[TOP_MEMORY_SRAM].size || !(p = malloc(hi - lo)))
		return OTA_HAL_BAD_ARGUMENT;
	st = core_mem_read(c, lo, p, hi - lo);
	for (i = 0; st == OTA_OK && i < hi - lo && p[i] == STACK_PAINT; i++)
		;
	if (st == OTA_OK)
		*used = hi - lo - i;
	free(p);
	return st;
}
