/* SPDX-License-Identifier: MIT */
/*
 * The hardware abstraction the firmware runs on. This is the only way the
 * boot stages and the runtime touch hardware. Each block's calls are in
 * hal/<block>.h, named after the block whose registers they drive
 * (qemu-model/regs/<block>.yaml, docs/registers.md). A block converted to
 * registers is implemented by its driver (firmware/drivers/<block>.c, over
 * mmio.h); the others still by the emulated chip, qemu-model/chip/, that
 * the unit tests and the model use (docs/hal.md).
 *
 * Rules the implementation enforces (and tests check):
 *  - Key material never crosses this interface. Keys are handles; the
 *    implementation holds them in two XOR shares and offers no call that
 *    returns key bytes. Only public keys, signatures and MACs come out.
 *  - The key manager only moves forward: ROM -> ROM_EXT -> RUNTIME ->
 *    DISABLED until the next reset, and a state's secrets are one-way
 *    derivations of the previous state's and the binding of the stage
 *    entered: the device root exists only in ROM, ROM_EXT's identity,
 *    tag and chain-top keys only in ROM_EXT.
 *  - Every key has a purpose and each engine refuses keys of another
 *    (HAL_KEY_PURPOSE).
 *  - The OTP secret partition is not readable through hal_otp_read.
 *  - Flash behaves like NOR flash: erase sets a page to 0xff, program can
 *    only clear bits.
 *  - Advancing to RUNTIME wipes every working key slot: the runtime starts
 *    with the retained vault only, and only the boot stages (before
 *    RUNTIME) may put keys into the vault.
 *  - Firmware programs only the OTP COUNTERS partition, and only until
 *    the boot stages lock it (hal_otp_lock_counters).
 *  - Flash the boot stages protect (hal_flash_protect) cannot be erased or
 *    programmed until the next reset.
 */
#ifndef OTATTEST_HAL_H
#define OTATTEST_HAL_H

#include "hal/hmac.h"
#include "hal/keymgr.h"
#include "hal/kmac.h"
#include "hal/otbn.h"
#include "hal/otp_ctrl.h"
#include "hal/flash_ctrl.h"
#include "hal/sram_ctrl_ret.h"
#include "hal/rv_timer.h"
#include "hal/entropy_src.h"
#include "hal/rom_ctrl.h"
#include "hal/rstmgr.h"
#include "hal/mbox.h"
#include "hal/aon_timer.h"
#include "hal/mprot.h"

#endif /* OTATTEST_HAL_H */
