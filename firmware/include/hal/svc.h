/* SPDX-License-Identifier: MIT */
/*
 * Service calls: how a stage image running on the emulated core reaches
 * the hal.h calls of the blocks that are not behind registers yet
 * (docs/hal.md, "Registers and the bus"). Not hardware: a stand-in that
 * shrinks as blocks convert, and goes when the last one has.
 *
 * The image's stub (firmware/base/hal_svc.c, rv32 only) puts the call's
 * number in a7 and its arguments in a0..a5 (pointers are core addresses)
 * and executes ecall; the core (qemu-model/core/svc.c) runs the chip's
 * implementation of that call, copying the buffers between the core's
 * memory and the chip, and resumes after the ecall with the result in a0.
 * A buffer the core cannot address is a fault that ends the run.
 *
 * Number 0 is no call: the start-up code's final ecall, the stage
 * returning (firmware/base/crt0.S). HAL_SVC_WFI is the core waiting for
 * an interrupt, not a block's call.
 */
#ifndef OTATTEST_HAL_SVC_H
#define OTATTEST_HAL_SVC_H

#include <stdint.h>

enum hal_svc {
	HAL_SVC_STAGE_END = 0,
	/* hmac */
	HAL_SVC_SHA256_START = 1,
	HAL_SVC_SHA256_UPDATE,
	HAL_SVC_SHA256_FINISH,
	/* kmac */
	HAL_SVC_KMAC_START,
	HAL_SVC_KMAC_UPDATE,
	HAL_SVC_KMAC_FINISH,
	/* otbn */
	HAL_SVC_ECDSA_VERIFY,
	HAL_SVC_ECDSA_SIGN,
	HAL_SVC_ECDSA_PUBKEY,
	/* keymgr */
	HAL_SVC_KEYMGR_ADVANCE,
	HAL_SVC_KEYMGR_STATE,
	HAL_SVC_KEYMGR_CDI,
	HAL_SVC_KEYMGR_DERIVE,
	HAL_SVC_KEY_DESTROY,
	HAL_SVC_KEY_RETAIN,
	HAL_SVC_KEY_RETAINED,
	HAL_SVC_KEY_RETAINED_CLEAR,
	/* flash_ctrl */
	HAL_SVC_FLASH_SIZE,
	HAL_SVC_FLASH_PAGE_SIZE,
	HAL_SVC_FLASH_READ,
	HAL_SVC_FLASH_ERASE_PAGE,
	HAL_SVC_FLASH_PROGRAM,
	HAL_SVC_FLASH_PROTECT,
	HAL_SVC_FLASH_READ_SHA256,
	/* otp_ctrl (the direct access interface; the counters lock is a register) */
	HAL_SVC_OTP_READ,
	HAL_SVC_OTP_PROGRAM,
	/* sram_ctrl_ret (the RAM; the vault lock is a register) */
	HAL_SVC_RETENTION_READ,
	HAL_SVC_RETENTION_WRITE,
	/*
	 * Not a block's call: wfi with the mailbox's request interrupt as the
	 * only wake-up (hal_wait_for_interrupt). Unicorn 2.0.1 runs the hart
	 * in U mode, where wfi is an illegal instruction, so the image asks
	 * the core to stop here instead; the board resumes it after the ecall
	 * when it posts the next request (qemu-model/core, core_resume).
	 */
	HAL_SVC_WFI,
	/* keymgr, the identity hand-over (appended: earlier numbers stay) */
	HAL_SVC_KEYMGR_SET_PREDECESSOR,
	HAL_SVC_KEYMGR_HANDOVER,
	HAL_SVC_COUNT
};

/* hal_keymgr_derive's eight arguments, passed by address (a0). */
struct hal_svc_derive {
	uint32_t parent;
	uint32_t label;       /* core address of a NUL-terminated label */
	uint32_t context;     /* core address */
	uint32_t context_len;
	uint32_t key_version;
	uint32_t max_key_version;
	uint32_t purpose;
	uint32_t out;         /* core address of the hal_key_t result */
};

/* The longest label hal_keymgr_derive takes through a service call, NUL included. */
#define HAL_SVC_LABEL_MAX 64u

#endif /* OTATTEST_HAL_SVC_H */
