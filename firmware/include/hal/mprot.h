/* SPDX-License-Identifier: MIT */
/*
 * hal.h, memory protection (the mprot block):
 * the calls the firmware makes to this block. Registers:
 * qemu-model/regs/mprot.yaml (docs/registers.md, docs/hal.md "Memory
 * protection"). The rules all blocks share are in hal.h.
 */
#ifndef OTATTEST_HAL_MPROT_H
#define OTATTEST_HAL_MPROT_H

#include <stdint.h>

#include <otattest/status.h>

/* A region's permissions (REGION_CFG's R, W, X). */
#define HAL_MPROT_R 0x1u
#define HAL_MPROT_W 0x2u
#define HAL_MPROT_X 0x4u
#define HAL_MPROT_PAGE 0x1000u /* a region's bounds are multiples of it */

/*
 * Region i (0..15) is [base, limit) with perms (HAL_MPROT_*), enabled.
 * Nothing is enforced until the regions are locked (hal_mprot_lock_reg);
 * then the first enabled region holding an address decides, and an
 * address none holds allows nothing. HAL_BAD_ARGUMENT for a bound that is
 * not a multiple of HAL_MPROT_PAGE, an empty region, i out of range, or
 * when the block refused the write (the regions are locked until reset).
 */
ota_status_t hal_mprot_region(uint32_t i, uint32_t base, uint32_t limit, uint32_t perms);

/*
 * The LOCK register's address: a store of 1 there locks the regions until
 * the next reset and puts them in force. A stage hands off by storing it
 * as its last act before the jump (firmware/base/jump.S), so that the
 * regions bind the next stage and not the code doing the hand-off.
 */
uint32_t hal_mprot_lock_reg(void);

#endif /* OTATTEST_HAL_MPROT_H */
