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
static uint64_t mmio_read(uc_engine *uc, uint64_t offset, unsigned size, void *user)
{
	struct mmio_ctx *m = user;
	uint32_t v = 0, addr = m->base + (uint32_t)offset;
	ota_status_t st = size == 4 ? chip_bus_read32(addr, &v) : chip_bus_read(addr, &v, size);

	(void)uc;
	if (st == OTA_HAL_BUS_ERROR)
		fault(m->c, addr, st);
	return v;
}

static void mmio_write(uc_engine *uc, uint64_t offset, unsigned size, uint64_t value, void *user)
{
	struct mmio_ctx *m = user;
	uint32_t v = (uint32_t)value, addr = m->base + (uint32_t)offset;
	ota_status_t st = size == 4 ? chip_bus_write32(addr, v) : chip_bus_write(addr, &v, size);

	(void)uc;
	if (st == OTA_HAL_BUS_ERROR)
		fault(m->c, addr, st);
}

static void on_code(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
	struct core *c = user;
	uint32_t i;

	(void)size;
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

static bool on_unmapped(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value,
			void *user)
{
	struct core *c = user;

	(void)uc;
	(void)type;
	(void)size;
	(void)value;
	fault(c, (uint32_t)address, 0);
	return false;
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
	    uc_hook_add(c->uc, &c->bad_hook, UC_HOOK_MEM_INVALID, (void *)on_unmapped, c, 1, 0) !=
		    UC_ERR_OK)
		goto fail;
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
	swhal_clock_get(&before);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = uc_emu_start(c->uc, entry, 0xffffffffu, 0, max_insns);
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
