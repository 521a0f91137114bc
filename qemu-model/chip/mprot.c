// SPDX-License-Identifier: MIT
/*
 * The memory protection block's behaviour (mprot.h): which region
 * writes take, LOCK, the violation record. The regions the block
 * accepted are kept here, so that a write the block refuses (after
 * LOCK, an unaligned BASE or LIMIT) puts the register back.
 */
#include <string.h>

#include "bus.h"
#include "mprot.h"
#include "mprot_regs.h"
#include "swhal_priv.h"

#define MPROT_REGIONS MPROT_REGION_CFG_COUNT

static struct {
	uint32_t base[MPROT_REGIONS], limit[MPROT_REGIONS], cfg[MPROT_REGIONS];
	bool locked;
	uint32_t generation;
} mp;

bool chip_mprot_locked(void)
{
	return mp.locked;
}

uint32_t chip_mprot_generation(void)
{
	return mp.generation;
}

uint32_t chip_mprot_perms(uint32_t addr)
{
	uint32_t i;

	if (!mp.locked)
		return CHIP_MPROT_RWX;
	for (i = 0; i < MPROT_REGIONS; i++)
		if ((mp.cfg[i] & MPROT_REGION_CFG_EN_MASK) && addr >= mp.base[i] && addr < mp.limit[i])
			return mp.cfg[i] & CHIP_MPROT_RWX;
	return 0;
}

bool chip_mprot_allows(uint32_t addr, uint32_t len, uint32_t need)
{
	uint64_t a = addr, end = (uint64_t)addr + len;

	if (!mp.locked || !len)
		return true;
	if (end > 0x100000000ull)
		return false;
	/* Regions are page-aligned: one check per page. */
	for (; a < end; a = (a & ~(uint64_t)(CHIP_MPROT_PAGE - 1)) + CHIP_MPROT_PAGE)
		if ((chip_mprot_perms((uint32_t)a) & need) != need)
			return false;
	return true;
}

void chip_mprot_fault(enum chip_mprot_kind kind, uint32_t addr, uint32_t pc)
{
	if (chip_reg_get(TOP_BLOCK_MPROT, MPROT_FAULT_STATUS_REG_OFFSET) & MPROT_FAULT_STATUS_FAULT_MASK)
		return;
	chip_reg_set(TOP_BLOCK_MPROT, MPROT_FAULT_STATUS_REG_OFFSET,
		     MPROT_FAULT_STATUS_FAULT_MASK |
			     (((uint32_t)kind << MPROT_FAULT_STATUS_KIND_OFFSET) & MPROT_FAULT_STATUS_KIND_MASK));
	chip_reg_set(TOP_BLOCK_MPROT, MPROT_FAULT_ADDR_REG_OFFSET, addr);
	chip_reg_set(TOP_BLOCK_MPROT, MPROT_FAULT_PC_REG_OFFSET, pc);
}

void chip_mprot_reset(void)
{
	bool was = mp.locked;
	uint32_t gen = mp.generation;

	memset(&mp, 0, sizeof(mp));
	mp.generation = gen + (was ? 1u : 0u);
}

static ota_status_t mprot_write(uint32_t reg, uint32_t value)
{
	uint32_t i = (reg % 0x40u) / 4u, *keep;
	bool addr_reg;

	if (reg == MPROT_LOCK_REG_OFFSET) {
		if ((chip_reg_get(TOP_BLOCK_MPROT, reg) & MPROT_LOCK_LOCKED_MASK) && !mp.locked) {
			mp.locked = true;
			mp.generation++;
		}
		return OTA_OK;
	}
	if (reg >= MPROT_LOCK_REG_OFFSET)
		return OTA_OK; /* FAULT_*: the bus applied w1c / ro */
	if (reg < MPROT_REGION_LIMIT_REG_OFFSET(0))
		keep = &mp.base[i];
	else if (reg < MPROT_REGION_CFG_REG_OFFSET(0))
		keep = &mp.limit[i];
	else
		keep = &mp.cfg[i];
	addr_reg = keep != &mp.cfg[i];
	if (mp.locked || (addr_reg && (value % CHIP_MPROT_PAGE))) {
		chip_reg_set(TOP_BLOCK_MPROT, reg, *keep); /* refused: the register keeps its value */
		return OTA_OK;
	}
	*keep = chip_reg_get(TOP_BLOCK_MPROT, reg);
	return OTA_OK;
}

const struct chip_block_ops chip_mprot_ops = { .write = mprot_write };
