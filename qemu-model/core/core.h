/* SPDX-License-Identifier: MIT */
/*
 * The emulated rv32imc core (issue 26): Unicorn's RISC-V CPU (QEMU's TCG
 * as a library, Debian's libunicorn-dev) with the chip's memory map
 * (qemu-model/regs/top.yaml): ROM and SRAM and retention SRAM as memory,
 * flash read-mapped, every register block as MMIO whose accesses go to
 * the chip's bus (qemu-model/chip/bus.h), so a driver running on the core
 * meets the same registers and rules as on the host build.
 *
 * The board runs the stage images here with otattest-model --core=rv32
 * (qemu-model/board/fw_core.c); tests/unit/test_core.c runs them too.
 */
#ifndef OTATTEST_CORE_H
#define OTATTEST_CORE_H

#include <stddef.h>
#include <stdint.h>

#include <otattest/status.h>

struct core;

/* Why a run ended. */
enum core_stop {
	CORE_STOP_RETURNED = 1, /* the image's start-up code made its ecall: a0 is the result */
	CORE_STOP_FAULT,        /* a bus error, an unmapped access, an illegal instruction,
				 * a service call refused */
	CORE_STOP_LIMIT,        /* max_insns retired */
	CORE_STOP_WAIT,         /* the image waits for a request (hal/svc.h, HAL_SVC_WFI):
				 * core_resume goes on */
};

/* Address windows whose instructions a run counts apart (a stage's code). */
#define CORE_WINDOWS 4u

struct core_result {
	enum core_stop stop;
	uint32_t a0;            /* the stage's result (CORE_STOP_RETURNED) */
	uint32_t pc;            /* where it stopped */
	uint32_t first_pc;      /* the first instruction fetched */
	uint64_t insns;         /* instructions retired */
	/*
	 * The same, as the cycle model counts them: per translation block run
	 * (the block hook), compressed and 32-bit apart.
	 */
	uint64_t insns16, insns32;
	uint64_t cycles;        /* modelled device cycles of the run (swhal.h, the cycle model) */
	uint64_t host_ns;       /* host time the run took (CLOCK_MONOTONIC): the emulator's, not the device's */
	uint32_t fault_addr;    /* CORE_STOP_FAULT by a register access: its address */
	ota_status_t fault;     /* CORE_STOP_FAULT: HAL_BUS_ERROR for a register access,
				 * HAL_BAD_ARGUMENT for a refused service call, else 0 */
	uint32_t svc_refused;   /* that call's number (firmware/include/hal/svc.h) */
	uint32_t svc_calls;     /* service calls answered */
	/* Per window set with core_watch: instructions retired there, the first one's PC (0: none). */
	uint64_t window_insns[CORE_WINDOWS];
	uint32_t window_first_pc[CORE_WINDOWS];
	/*
	 * The lowest stack pointer any of the window's instructions ran with
	 * (0: none): its stack's high-water mark, even when the stage wipes
	 * its stack before handing off, which defeats painting.
	 */
	uint32_t window_min_sp[CORE_WINDOWS];
	int uc_err;             /* CORE_STOP_FAULT otherwise: Unicorn's error (unmapped, illegal...) */
};

/*
 * A core with the memory map, nothing loaded; 0 or a negative errno. While
 * it is open, the chip's MTIME counts the cycle model (swhal.h,
 * swhal_clock_model): the instructions it retires and the peripherals' costs.
 */
int core_open(struct core **out);
void core_close(struct core *c);

/*
 * Load an ELF32 rv32 executable's PT_LOAD segments (file bytes, the rest
 * zero) into ROM or SRAM; each must lie inside one of them. Its entry
 * point in *entry. OTA_OK, or HAL_BAD_ARGUMENT for anything else (not
 * ELF32 RISC-V, a segment outside ROM and SRAM, a truncated file).
 */
ota_status_t core_load_elf(struct core *c, const uint8_t *elf, size_t len, uint32_t *entry);

/* Count the instructions of [lo, hi) as window i (0 <= i < CORE_WINDOWS); lo == hi: none. */
void core_watch(struct core *c, uint32_t i, uint32_t lo, uint32_t hi);

/*
 * Run from entry, with x1..x31 zero (each run starts the hart as a reset
 * does), until the image returns, faults or retires max_insns.
 */
ota_status_t core_run(struct core *c, uint32_t entry, uint64_t max_insns, struct core_result *res);

/*
 * Go on after a run that ended in CORE_STOP_WAIT, registers as they were
 * (the board brought a request); the result counts this run only.
 * HAL_BAD_ARGUMENT when the last run did not end waiting.
 */
ota_status_t core_resume(struct core *c, uint64_t max_insns, struct core_result *res);

/* The value of an ELF image's symbol (the stack's bounds, a result's address). */
ota_status_t core_elf_symbol(const uint8_t *elf, size_t len, const char *name, uint32_t *value);

/*
 * Stack painting: fill [lo, hi) of SRAM with a pattern before a run; after
 * it, the bytes from lo up to the first one the run changed were never
 * used, so hi minus that is the stack's high-water mark in bytes.
 */
ota_status_t core_stack_paint(struct core *c, uint32_t lo, uint32_t hi);
ota_status_t core_stack_used(struct core *c, uint32_t lo, uint32_t hi, uint32_t *used);

/* Bytes of the core's memory (ROM, SRAM, retention SRAM), for the board and tests. */
ota_status_t core_mem_read(struct core *c, uint32_t addr, void *buf, uint32_t len);
ota_status_t core_mem_write(struct core *c, uint32_t addr, const void *buf, uint32_t len);

#endif /* OTATTEST_CORE_H */
