/* SPDX-License-Identifier: MIT */
/*
 * A compromised BL0 (issue 27): tests/rv32/hostile/hostile.c, signed with
 * a valid owner key as a compromised owner would sign it, serves the
 * mailbox like BL0 and takes one more order from whoever holds the host:
 * HOSTILE_CMD with a struct hostile_req names an attack, the image runs
 * it against the chip's registers, memory and service calls, and answers
 * with a struct hostile_report (what the chip answered, step by step) or,
 * for HOSTILE_FORGE_EVIDENCE, with the evidence it got signed.
 * tests/unit/test_hostile.c is the other side; both include this layout.
 */
#ifndef OTATTEST_HOSTILE_H
#define OTATTEST_HOSTILE_H

#include <stdint.h>

#include <otattest/revocation.h>

/* Not a mailbox command of the product (those run 1..OTA_CMD_MAX): the attacker's own. */
#define HOSTILE_CMD 0x4854u

/*
 * The attacker's other way in, for a host that reaches the device only
 * through the product's commands (the driver, the daemon: the e2e
 * scenarios kernel-lying-runtime and veraison-fleet): an ATTEST whose
 * nonce starts with HOSTILE_KNOCK is an order, as an implant takes its
 * orders from traffic it is sent. The rest of the nonce, up to a NUL or
 * its end, is "FIELD VALUE": the image edits its own RAM copy of the boot
 * record - what GET_RECORD serves and ATTEST signs with the genuine alias
 * key - until the next reset, then answers this ATTEST like any other.
 * FIELD VALUE: bl0-path NAME (ota_path_name; to the tag path the reason
 * cleared, from it tag-mismatch given), bl0-scheme NAME (ota_scheme_name), bl0-depth N (the delegates'
 * key ids past it cleared), bl0-root-key flip, bl0-usage-flags N (0..3),
 * min-svn N, epoch N, floor-bl0 N, lifecycle NAME (ota_lifecycle_name);
 * N decimal. Anything else is no order: the ATTEST is answered honestly.
 */
#define HOSTILE_KNOCK "hostile-lie "

enum hostile_attack {
	HOSTILE_FLASH_LOCKED = 1, /* erase and program the layout page, every locked region, the running slots */
	HOSTILE_OTP,              /* read the secret partition; program counters, floors and fixed partitions
				   * (arg[0] HOSTILE_REGS: write COUNTERS_LOCK with 0 instead) */
	HOSTILE_VAULT,            /* write the data vault, park keys in the key vault (arg[0] HOSTILE_REGS:
				   * write VAULT_LOCK with 0 instead; HOSTILE_RET_STORE: store to retention SRAM) */
	HOSTILE_KEYMGR,           /* move the key manager back, rederive ROM_EXT's identity, misuse purposes */
	HOSTILE_SRAM,             /* read what ROM and ROM_EXT left in their RAM and stacks */
	HOSTILE_BOOT_SVC,         /* a boot-services request ROM_EXT must refuse, then a warm reset */
	HOSTILE_FORGE_EVIDENCE,   /* evidence signed by the alias key over a record that lies */
	HOSTILE_ROM_EXT_WRITE,    /* overwrite ROM_EXT's code after the hand-off, then a warm reset */
	HOSTILE_ROM_EXT_EXEC,     /* jump into ROM_EXT's entry point after the hand-off */
	HOSTILE_SVC_INTO_ROM,     /* a service call told to write its output into the mask ROM */
	HOSTILE_PROGRAM,          /* run struct hostile_req.prog: the fuzzer's operations (below) */
	HOSTILE_WATCHDOG,         /* disarm the watchdog, then spin or crash (arg[0]: enum hostile_hang) */
	HOSTILE_MPROT,            /* after ROM_EXT locked mprot: region 0 rewritten to reach everything, LOCK cleared */
	HOSTILE_EXEC_DATA,        /* write code into its own RAM (hostile_code_buf) and call it */
};

/* HOSTILE_OTP's and HOSTILE_VAULT's variants (arg[0]); 0: the service-call attack. */
#define HOSTILE_REGS 1u      /* the block's lock register written with 0 */
#define HOSTILE_RET_STORE 2u /* HOSTILE_VAULT: a store to retention SRAM's address in the memory map */

/* HOSTILE_WATCHDOG's ends (arg[0]): the request is never answered. */
enum hostile_hang {
	HOSTILE_HANG_SPIN = 0,  /* loop forever, never petting */
	HOSTILE_HANG_CRASH,     /* load from an address nothing answers: a bus fault */
};

/*
 * HOSTILE_PROGRAM (tests/fuzz/fuzz_hostile_bl0.c): prog is a byte code the
 * image runs until its end or a zero opcode byte. Each operation is an
 * opcode byte (taken modulo HOSTILE_OP_COUNT) and its operands:
 *   LOAD    addr            a 32-bit load; step HW_PROG_LOAD, value read
 *   STORE32 addr, u32       a 32-bit store
 *   STORE8  addr, u8        a byte store
 *   SVC     u8 nr, arg x3   ecall nr (any, modulo HAL_SVC_COUNT + 1); step HW_PROG_SVC, a0
 * An addr is a region byte (modulo HOSTILE_REGIONS: ROM, SRAM, retention
 * SRAM, each block's registers) and a u32 offset (modulo the region's
 * size, 4-aligned for 32-bit accesses). An arg is a tag byte and a u32:
 * tag bit 7 set, an addr (region tag & 0x7f); clear, the u32 as it is.
 * Multi-byte operands are little endian.
 */
enum hostile_op { HOSTILE_OP_END, HOSTILE_OP_LOAD, HOSTILE_OP_STORE32, HOSTILE_OP_STORE8, HOSTILE_OP_SVC,
		  HOSTILE_OP_COUNT };
#define HOSTILE_PROG_BYTES 160u

/* HOSTILE_BOOT_SVC's variants (arg[0]). */
enum hostile_boot_svc {
	HOSTILE_SVC_RATCHET_BL0_ABOVE = 1, /* BL0's floor above the running SVN */
	HOSTILE_SVC_RATCHET_ROM_EXT_ABOVE, /* ROM_EXT's floor above its running SVN */
	HOSTILE_SVC_COMMIT_OTHER,          /* commit the slot that did not boot */
	HOSTILE_SVC_REVOKE_UNSIGNED,       /* revoke owner key 0 with no valid signature */
	HOSTILE_SVC_REVOKE_GIVEN,          /* the signed revocation in the order, as it is (not counted in COUNT) */
	HOSTILE_SVC_COMMIT_RUNNING,        /* commit the slot that booted, the primary already (not in COUNT) */
};
#define HOSTILE_SVC_COUNT HOSTILE_SVC_REVOKE_GIVEN

/* HOSTILE_FORGE_EVIDENCE's lies (arg[0]): each a field of the record the evidence claims. */
enum hostile_lie {
	HOSTILE_LIE_BL0_SVN = 1,     /* BL0's SVN one higher */
	HOSTILE_LIE_MEASUREMENT,     /* BL0's measurement another image's */
	HOSTILE_LIE_PATH,            /* another verification path */
	HOSTILE_LIE_LIFECYCLE,       /* another lifecycle state */
	HOSTILE_LIE_DEBUG,           /* a debug image claimed not debug, or the other way */
	HOSTILE_LIE_MIN_SVN,         /* a higher min-SVN since cold boot */
	HOSTILE_LIE_KEY_ID,          /* another root key id */
	HOSTILE_LIE_COUNT
};

struct hostile_req {
	uint32_t attack;
	uint32_t arg[7];      /* per attack: addresses the attacker knows from the public images */
	uint8_t nonce[32];    /* HOSTILE_FORGE_EVIDENCE */
	struct ota_revocation revocation; /* HOSTILE_SVC_REVOKE_GIVEN: one the attacker has, signed */
	uint8_t prog[HOSTILE_PROG_BYTES]; /* HOSTILE_PROGRAM */
};

/* What a step tried (struct hostile_step.what): the test holds each to the chip's answer. */
enum hostile_what {
	HW_CONTROL = 1,       /* something the runtime may do: proves the path is live (OTA_OK) */
	HW_FLASH_ERASE,       /* value: the flash address */
	HW_FLASH_PROGRAM,     /* value: the flash address */
	HW_OTP_READ_SECRET,   /* value: the OTP offset */
	HW_OTP_PROGRAM_COUNTER, /* value: the OTP offset (floors, revocations, epoch, anchor, sequences) */
	HW_OTP_PROGRAM_FIXED, /* value: the OTP offset (below the counters) */
	HW_LOCK_REG_CLEAR,    /* a lock register written with 0; value: what it reads back */
	HW_VAULT_WRITE,       /* value: the min-SVN the forged vault claims */
	HW_RET_SRAM_STORE,    /* a store to retention SRAM's address; value: 1 if the chip's vault then reads it */
	HW_KEY_RETAIN,        /* value: the vault slot */
	HW_KEYMGR_ADVANCE,    /* value: the state asked for */
	HW_KEYMGR_STATE,      /* value: the state read */
	HW_KDF_IDENTITY,      /* ROM_EXT's identity derivation rerun; value: 1 if the key is ROM_EXT's */
	HW_KEY_PURPOSE,       /* a key in an engine not of its purpose; value: which (per attack) */
	HW_HANDLE_GUESS,      /* handle-shaped words of the hand-off state tried; value: how many worked */
	HW_SRAM_NONZERO,      /* value: nonzero words found in the range (arg pair) */
	HW_SVC_SERVED,        /* after the reset: value: services ROM_EXT served (bs->svc_served) */
	HW_SVC_STATUS,        /* after the reset: status: ROM_EXT's outcome (bs->svc_status) */
	HW_CODE_WRITE,        /* value: 1 if ROM_EXT's code read back as written */
	HW_BOOT_STATUS,       /* after the reset: status: the boot's; value: keymgr state */
	HW_SVC_OUTPUT,        /* a service call's output buffer in ROM; value: 1 if ROM then held the output */
	HW_PROG_LOAD,         /* HOSTILE_PROGRAM's load; value: what it read */
	HW_PROG_SVC,          /* HOSTILE_PROGRAM's ecall; status: a0 after it; value: the call's number */
};

#define HOSTILE_STEPS 64u

/* One step: what the image tried (an id per attack) and what the chip answered. */
struct hostile_step {
	uint32_t what;
	uint32_t status;      /* the chip's status, or OTA_OK */
	uint32_t value;       /* what the step read, counted or compared (per step) */
};

#define HOSTILE_REPORT_MAGIC 0x48535452u /* "HSTR" */

struct hostile_report {
	uint32_t magic;
	uint32_t attack;
	uint32_t resumed;     /* answered by the BL0 that booted after the reset it asked for */
	uint32_t steps;
	struct hostile_step step[HOSTILE_STEPS];
};

#endif /* OTATTEST_HOSTILE_H */
