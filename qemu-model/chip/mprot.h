/* SPDX-License-Identifier: MIT */
/*
 * The memory protection block (qemu-model/regs/mprot.yaml, docs/hal.md
 * "Memory protection"): ePMP's rules as a peripheral, for the emulated
 * core (qemu-model/core), which enforces them with page protections.
 *
 * A stage programs up to 16 regions [BASE, LIMIT), both 4 KiB aligned
 * (a write of an unaligned BASE or LIMIT is refused: the register keeps
 * its value), each with R/W/X and EN. Nothing is enforced until LOCK:
 * from then on, until the next reset, the regions are fixed (writes to
 * them are ignored) and the core may read, write or execute an address
 * only as the first enabled region holding it allows; an address no
 * enabled region holds allows nothing (deny by default, ePMP's MML).
 */
#ifndef OTATTEST_CHIP_MPROT_H
#define OTATTEST_CHIP_MPROT_H

#include <stdbool.h>
#include <stdint.h>

#define CHIP_MPROT_PAGE 0x1000u

/* The access kinds, as FAULT_STATUS.KIND numbers them. */
enum chip_mprot_kind {
	CHIP_MPROT_READ = 1,
	CHIP_MPROT_WRITE = 2,
	CHIP_MPROT_EXEC = 3,
};

/* The permission bits, as REGION_CFG's R/W/X. */
#define CHIP_MPROT_R 0x1u
#define CHIP_MPROT_W 0x2u
#define CHIP_MPROT_X 0x4u
#define CHIP_MPROT_RWX 0x7u

/* Whether LOCK was written since the last reset (the regions are in force). */
bool chip_mprot_locked(void);
/* Bumped each time the regions in force change (LOCK, a reset): the core re-applies them. */
uint32_t chip_mprot_generation(void);
/* The R/W/X bits addr has: all when not locked, else the first enabled region's, else none. */
uint32_t chip_mprot_perms(uint32_t addr);
/* Whether every byte of [addr, addr + len) has the bits in need (len 0: true). */
bool chip_mprot_allows(uint32_t addr, uint32_t len, uint32_t need);
/* Record a violation in FAULT_STATUS/ADDR/PC, unless one is recorded and not cleared. */
void chip_mprot_fault(enum chip_mprot_kind kind, uint32_t addr, uint32_t pc);
/* A reset: the regions back to their reset values, unlocked. */
void chip_mprot_reset(void);

#endif /* OTATTEST_CHIP_MPROT_H */
