/* SPDX-License-Identifier: MIT */
/*
 * The core's side of the service calls (firmware/include/hal/svc.h): the
 * blocks not behind registers yet, answered by the chip's hal.h calls.
 * Private to qemu-model/core.
 */
#ifndef OTATTEST_CORE_SVC_H
#define OTATTEST_CORE_SVC_H

#include <stdbool.h>
#include <stdint.h>

#include <unicorn/unicorn.h>

#include "top_regs.h"

/* Whether [addr, addr + len) lies inside one of the n memories of the map. */
bool core_range_in(uint32_t addr, uint32_t len, const enum top_memory *mem, uint32_t n);

/*
 * Run service call nr with the arguments in a0..a5 and put its result in
 * a0. false when the call is unknown or names memory the core cannot
 * address (the run ends as a fault at *bad_addr).
 */
bool core_svc(uc_engine *uc, uint32_t nr, uint32_t *bad_addr);

#endif /* OTATTEST_CORE_SVC_H */
