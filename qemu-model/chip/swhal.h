/* SPDX-License-Identifier: MIT */
/*
 * Control interface of the software HAL: the emulated device that
 * firmware/include/hal.h runs on. The firmware sees only hal.h; the model
 * (qemu-model/board), the unit tests, the benchmarks and otimage use this
 * header to power the device on and off, load factory images, inject
 * faults and receive what the device publishes.
 *
 * One device per process, not thread-safe: the firmware is a single
 * hart, and the model drives it from one thread.
 *
 * State lives either in memory or in a state directory:
 *   flash.bin      raw flash contents (its size is the device's flash size)
 *   otp.bin        struct ota_otp, exactly 1024 bytes
 *   retention.bin  retention RAM and the retained key vault (volatile:
 *                  cleared by every cold boot, never flushed)
 *   host.bin       the reserved high-water mark of the record generation
 * An emulated write changes its file in place (the bytes it changed, one
 * pwrite, no rename, no flush), so killing the process at any moment
 * leaves each write whole or absent and costs the device's clock almost
 * nothing; factory programming replaces a file atomically (temporary
 * file, fsync, rename). A boot on the tag fast path writes nothing but
 * (when it changed) retention.bin. See docs/hal.md.
 */
#ifndef OTATTEST_SWHAL_H
#define OTATTEST_SWHAL_H

#include <otattest/record.h>
#include <otattest/status.h>

#define SWHAL_DEFAULT_FLASH_SIZE (4u << 20)
#define SWHAL_MAX_FLASH_SIZE (64u << 20)
/* hal_cycles() counts nominal cycles of a 100 MHz device clock. */
#define SWHAL_CYCLE_HZ 100000000u

/*
 * The cycle model (clock.c, docs/hal.md "The cycle model"). What each
 * peripheral operation costs the device, charged by the chip when the
 * firmware uses the block; one table, swhal_cost_info.
 */
enum swhal_cost {
	SWHAL_COST_SHA256_BLOCK,       /* hmac: a 64-byte block compressed */
	SWHAL_COST_KMAC_BLOCK,         /* kmac (and the key manager's KDF): a Keccak-f[1600] permutation */
	SWHAL_COST_P256_VERIFY,        /* otbn: an ECDSA P-256 verify */
	SWHAL_COST_P256_SIGN,          /* otbn: an ECDSA P-256 sign */
	SWHAL_COST_P256_PUBKEY,        /* otbn: a public key from a private one */
	SWHAL_COST_FLASH_READ_WORD,    /* flash_ctrl: a 32-bit word read (hidden under hashing on the DMA path) */
	SWHAL_COST_FLASH_PROGRAM_WORD, /* flash_ctrl: a 64-bit word programmed */
	SWHAL_COST_FLASH_ERASE_PAGE,   /* flash_ctrl: a page erased */
	SWHAL_COST_OTP_READ_WORD,      /* otp_ctrl: a 32-bit word read */
	SWHAL_COST_OTP_PROGRAM_WORD,   /* otp_ctrl: a 32-bit word programmed */
	SWHAL_COST_RET_SRAM_WORD,      /* sram_ctrl_ret: a 32-bit word read or written */
	SWHAL_COST_TRNG_WORD,          /* entropy_src: a 32-bit word read */
	SWHAL_COST_COUNT
};

struct swhal_cost_entry {
	const char *name; /* short, for tables: "sha256-block" */
	const char *unit; /* what one unit is */
	uint32_t cycles;  /* per unit */
};
const struct swhal_cost_entry *swhal_cost_info(enum swhal_cost what);

/* The clock's counts: instructions the core retired, each cost's units and cycles, the total. */
struct swhal_clock {
	uint64_t insns16, insns32; /* compressed and 32-bit instructions retired */
	uint64_t units[SWHAL_COST_COUNT];
	uint64_t cost_cycles[SWHAL_COST_COUNT];
	uint64_t blocks;      /* translation blocks run */
	uint64_t core_cycles; /* each block's instructions x CPI, rounded up per block */
	uint64_t cycles;      /* core_cycles + the sum of cost_cycles */
};

/*
 * MTIME counts the model (true; the core does this when it opens) or host
 * time (false, the host build's default). The counts run either way.
 */
void swhal_clock_model(bool on);
bool swhal_clock_modelled(void);
/* The core retired n16 compressed and n32 32-bit instructions (once per translation block run). */
void swhal_clock_retire(uint32_t n16, uint32_t n32);
void swhal_clock_get(struct swhal_clock *out);
/* The cycles of a block of insns instructions (the CPI, rounded up). */
uint64_t swhal_clock_core_cycles(uint64_t insns);
/*
 * The counts at each of the last (up to 64) reads of MTIME_LOW by the
 * firmware, oldest first: what a span between two hal_cycles() reads
 * (a stage check's verify_cycles) is made of. Cleared by ..._clear.
 */
uint32_t swhal_clock_reads(struct swhal_clock *out, uint32_t max);
void swhal_clock_reads_clear(void);
/*
 * The counts between two logged reads (at most 8 apart) that are cycles
 * apart: a stage check's span from its record's verify_cycles. false: none.
 */
bool swhal_clock_span(uint64_t cycles, struct swhal_clock *out);
/* Permutations of one KMAC256 with these lengths in bytes (the model's count, for tests). */
uint64_t swhal_kmac_permutations(uint64_t custom_len, uint64_t msg_len, uint64_t out_len);

struct swhal_options {
	/* Flash size for a new device (0: SWHAL_DEFAULT_FLASH_SIZE). An existing flash.bin keeps its size. */
	uint32_t flash_size;
	/*
	 * Skip the fsyncs of whole-file replacements and the flush at close
	 * (tests and benchmarks on throwaway directories). Writes stay whole.
	 */
	bool no_fsync;
};

/*
 * Open the device. state_dir NULL runs in memory. Missing files start as
 * a factory-fresh part: flash erased (0xff), OTP blank (zero), retention
 * zero. Returns 0 or a negative errno (EINVAL for a file of the wrong
 * size, EBUSY when a device is already open). The device is powered off
 * until swhal_power_on().
 */
int swhal_open(const char *state_dir, const struct swhal_options *opt);
void swhal_close(void);

/*
 * Power-on reset (cold boot): retention RAM and the retained key vault are
 * zeroed, the key manager returns to ROM, every key slot is wiped, the
 * engines are idle and a simulated power loss is over. The caller then
 * runs ota_fw_boot(OTA_RESET_COLD), as the ROM would.
 */
int swhal_power_on(void);
/* Power off: every HAL call fails (HAL_POWER_LOST) until swhal_power_on(). */
void swhal_power_off(void);
bool swhal_powered(void);

/*
 * The reset manager, as the board drives it. swhal_reset_take: whether
 * firmware asked for a reset (hal_reset_request) since the last one, and
 * which; the request is consumed. swhal_reset performs a reset: COLD is a
 * power-on reset; WARM and UPDATE return the key manager to ROM and wipe
 * working keys and engines, keeping retention RAM and the vault. The
 * caller then runs the ROM (ota_rom_main).
 */
bool swhal_reset_take(uint32_t *reason);
ota_status_t swhal_reset(uint32_t reason);

/*
 * The watchdog (aon_timer.c), as the board drives it: swhal_wdog_due says
 * the count reached the bite threshold; swhal_wdog_bite performs the
 * bite, a WARM reset after which hal_wdog_bitten() is true. The caller
 * then runs the ROM, as for swhal_reset.
 */
bool swhal_wdog_due(void);
ota_status_t swhal_wdog_bite(void);

/*
 * Factory programming, bypassing NOR and OR-only rules (what a
 * programmer does before the part is soldered): replace flash (len <=
 * flash size; the rest is erased) or OTP (exactly sizeof(struct ota_otp)).
 * Persisted at once. 0 or a negative errno.
 */
int swhal_load_flash(const void *image, uint32_t len);
int swhal_load_otp(const void *image, uint32_t len);

/*
 * Test access that no firmware has: read raw flash/OTP (the secret too),
 * and overwrite flash bytes without NOR rules, as an attacker with a
 * flash programmer would. Persisted like a program. 0 or -EINVAL.
 */
int swhal_peek_flash(uint32_t addr, void *buf, uint32_t len);
int swhal_poke_flash(uint32_t addr, const void *buf, uint32_t len);
int swhal_peek_otp(uint32_t offset, void *buf, uint32_t len);
int swhal_peek_retention(uint32_t offset, void *buf, uint32_t len);
/* Raw write of retention RAM, lock or not: a fault, a probe, not firmware. */
int swhal_poke_retention(uint32_t offset, const void *buf, uint32_t len);

/* The ROM measurement hal_rom_identity() reports (see docs/hal.md). */
void swhal_default_rom_identity(uint8_t out[OTA_SHA256_BYTES]);
/* Emulate another ROM (tests): the device root changes with it. */
void swhal_set_rom_identity(const uint8_t id[OTA_SHA256_BYTES]);
/*
 * The mask ROM's contents as the board laid them into the ROM region:
 * rom_ctrl's digest of them (SHA-256) becomes the ROM identity, before
 * the first power-on. NULL: no ROM image, the model's constant again.
 * -EINVAL for an empty ROM.
 */
int swhal_rom_contents(const uint8_t *rom, uint32_t len);
/* The ROM identity the chip holds now. */
void swhal_rom_identity(uint8_t out[OTA_SHA256_BYTES]);

/* ---- fault injection -------------------------------------------------- */

enum swhal_fault {
	SWHAL_FAULT_NONE = 0,
	/* The write returns HAL_FLASH_WRITE_FAILED and leaves the page torn. */
	SWHAL_FAULT_WRITE_ERROR = 1,
	/*
	 * Power is cut during the write: the page is left torn and persisted,
	 * the device is powered off (every later HAL call fails), and the
	 * power_loss callback runs: the model exits, a test longjmps out.
	 */
	SWHAL_FAULT_POWER_LOSS = 2,
};

/*
 * Make the nth flash write from now (program or erase; 1 = the next one)
 * fail in the given way. Torn means: a program lands only a prefix of its
 * bytes, an erase erases only a prefix of the page: the first half
 * (rounded down) unless swhal_fault_flash_tear says otherwise. One fault
 * at a time; SWHAL_FAULT_NONE disarms.
 */
void swhal_fault_flash(uint32_t nth, enum swhal_fault kind);
/* Flash writes (programs and erases) the device performed since open. */
uint64_t swhal_flash_writes(void);
/*
 * Power lost right after the nth OTP program from now that changes OTP
 * (the fuses it burned stay burned), as SWHAL_FAULT_POWER_LOSS does for
 * flash: hal_otp_program returns HAL_POWER_LOST and the power-loss hook
 * runs. 0 disarms. swhal_otp_programs counts them.
 */
void swhal_fault_otp_power_cut(uint32_t nth);
uint64_t swhal_otp_programs(void);

/*
 * The factory's or the lab's programmer, outside the chip (the model's
 * control socket installing an image, fusing OTP; test fixtures): while on,
 * hal_flash_protect and hal_otp_lock_counters do not apply to the HAL
 * calls made. Firmware never calls it; it is not in hal.h.
 */
void swhal_external_programmer(bool on);

/*
 * How much of a write torn by swhal_fault_flash lands: always a prefix,
 * of the bytes a program writes or of the page an erase erases. A word is
 * 32 bits. swhal_open starts at SWHAL_TEAR_HALF.
 */
enum swhal_tear_kind {
	SWHAL_TEAR_HALF = 0,         /* the first half, rounded down */
	SWHAL_TEAR_BYTES = 1,        /* the first `bytes` (capped at the write's length):
					0 nothing, 1 one byte, 4 one word */
	SWHAL_TEAR_ALL_BUT_WORD = 2, /* all but the last word */
	SWHAL_TEAR_ALL = 3,          /* all of it: done, but power is gone before it is
					acknowledged */
};
struct swhal_tear {
	enum swhal_tear_kind kind;
	uint32_t bytes; /* SWHAL_TEAR_BYTES only */
};
/* Set how the next torn writes land; stays until changed or swhal_open. */
void swhal_fault_flash_tear(const struct swhal_tear *how);
/*
 * Give each flash erase and program this many microseconds (0: none), as
 * a real NOR part takes milliseconds: long operations (a rotation, an
 * update reset) then last long enough for a host to watch them.
 */
void swhal_set_flash_latency(uint32_t us);

/* The last torn write, so a harness can say exactly where power was cut. */
struct swhal_tear_report {
	bool erase;            /* an erase, else a program */
	uint32_t addr;
	uint32_t len;          /* bytes the write covers (the page, for an erase) */
	uint32_t landed;       /* the prefix of them that landed */
	uint32_t changed;      /* bytes of flash the landed prefix changed */
	uint32_t would_change; /* bytes of flash the whole write changes */
};
/* False when no write has torn since swhal_open. */
bool swhal_last_tear(struct swhal_tear_report *out);

/* ---- what the device publishes ------------------------------------------ */

struct swhal_host_ops {
	/* A record was published (generation already stamped into it). */
	void (*record)(void *ctx, const struct ota_record_header *rec, uint32_t len);
	void (*state)(void *ctx, uint32_t state, uint32_t detail);
	void (*progress)(void *ctx, uint32_t done, uint32_t total);
	/* A SWHAL_FAULT_POWER_LOSS fired. May not return (exit, longjmp). */
	void (*power_loss)(void *ctx);
};
/* Install callbacks (any may be NULL); ops is copied. */
void swhal_set_host_ops(const struct swhal_host_ops *ops, void *ctx);

/* The last record published (0 when none yet), state and progress. */
uint32_t swhal_last_record(void *buf, uint32_t cap);
void swhal_last_state(uint32_t *state, uint32_t *detail);
void swhal_last_progress(uint32_t *done, uint32_t *total);
/* The generation the next publish will stamp. */
uint32_t swhal_next_generation(void);

/*
 * The mailbox's request/response registers (qemu-model/regs/mbox.yaml),
 * as the board's transport drives them for firmware that serves the
 * mailbox itself (BL0 on the emulated core). swhal_mbox_post: a request
 * for the firmware (STATUS.REQUEST), kept across device resets, dropped
 * by a power cycle; -EINVAL without power or over REQ's size.
 * swhal_mbox_take_response: whether the firmware rang DOORBELL.RESPONSE
 * since, and its answer (at most cap bytes). swhal_mbox_owed: a request
 * not answered yet. swhal_mbox_cancel: forget the request.
 */
int swhal_mbox_post(uint32_t seq, uint32_t command, const void *req, uint32_t len);
bool swhal_mbox_take_response(ota_status_t *status, void *resp, uint32_t cap, uint32_t *len);
bool swhal_mbox_owed(void);
void swhal_mbox_cancel(void);

/* ---- inspection for tests (never key bytes) --------------------------- */

/* Working key slots in use (leak checks). The root counts while it exists. */
uint32_t swhal_keys_in_use(void);
/*
 * True when needle appears anywhere in the HAL's own key storage (working
 * slots, the vault, retention RAM). Tests pass a key they computed
 * independently to prove no slot holds it in the clear.
 */
bool swhal_key_storage_contains(const void *needle, uint32_t len);

/* ---- host-side derivations (no device needed) ------------------------- */

/*
 * A public key ROM_EXT derives, computed on the host for tests: the device
 * root for a device secret and ROM identity, the key manager's advance to
 * ROM_EXT with attest binding `rom_ext_attest` (boot_binding_attest), then
 * one hal_keymgr_derive step of purpose SIGN (key_version 0) from the
 * ATTEST secret - what the device computes for the same inputs, by the
 * same code. The device's identity key is label "otattest-identity",
 * empty context. A factory never needs this: the device hands out a CSR.
 */
ota_status_t swhal_derive_rom_ext_pubkey(const uint8_t device_secret[32],
					 const uint8_t rom_identity[OTA_SHA256_BYTES],
					 const uint8_t rom_ext_attest[OTA_SHA256_BYTES],
					 const char *label, const uint8_t *context,
					 uint32_t context_len,
					 uint8_t pubkey[OTA_P256_PUBKEY_BYTES]);

#endif /* OTATTEST_SWHAL_H */
