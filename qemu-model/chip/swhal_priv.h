/* SPDX-License-Identifier: MIT */
/*
 * State of the one emulated device, shared by the files of the software
 * HAL. Nothing outside qemu-model/chip/ includes this.
 */
#ifndef OTATTEST_SWHAL_PRIV_H
#define OTATTEST_SWHAL_PRIV_H

#include <otattest/flash.h>
#include <otattest/otp.h>

#include "hal.h"
#include "swhal.h"

#define SWHAL_KEY_BYTES 32u       /* every key: 256-bit secret or P-256 scalar */
#define SWHAL_WORKING_KEYS 16u    /* slots 0 and 1 are the state's secrets */
#define SWHAL_CDI_SLOTS 2u        /* HAL_KEYMGR_CDI_ATTEST, HAL_KEYMGR_CDI_SEAL */
#define SWHAL_MAX_LABEL 64u       /* KDF label (KMAC customization) bytes */
#define SWHAL_MAX_CONTEXT 256u    /* KDF context bytes */
#define SWHAL_MAX_CUSTOM 256u     /* hal_kmac_start customization bytes */

/* A key in two XOR shares; neither share alone says anything about it. */
struct swhal_key {
	uint32_t generation; /* bumped on every allocation and wipe: stale handles fail */
	uint32_t purpose;    /* enum hal_key_purpose, 0 when free */
	uint8_t share[2][SWHAL_KEY_BYTES];
};

/* Retention RAM as the device keeps it: firmware bytes plus the vault. */
struct swhal_retention {
	uint8_t ram[HAL_RETENTION_BYTES];
	struct swhal_key vault[HAL_RETAINED_KEY_SLOTS]; /* generation unused */
};

struct swhal_device {
	bool open;
	bool powered;
	bool reset_pending;    /* hal_reset_request: performed by the board */
	bool external_programmer; /* swhal_external_programmer: locks do not apply */
	uint32_t flash_protect_count; /* hal_flash_protect: until the next reset */
	struct {
		uint32_t addr, len;
	} flash_protect[HAL_FLASH_PROTECT_REGIONS];
	uint32_t reset_reason;
	bool no_fsync;
	char *dir; /* NULL: in memory */

	uint8_t *flash;
	uint32_t flash_size;
	struct ota_otp otp;
	struct swhal_retention ret;
	uint8_t rom_identity[OTA_SHA256_BYTES];

	uint32_t keymgr_state;
	struct swhal_key keys[SWHAL_WORKING_KEYS];
	/*
	 * The identity hand-over (handover.h): the attest binding ROM named
	 * as the identity's predecessor (ROM state only), and the ATTEST CDI
	 * ROM_EXT's state would have had under it - made at the advance into
	 * ROM_EXT, never reachable by a handle, used only by
	 * hal_keymgr_handover, wiped at the next advance or reset.
	 */
	bool pred_binding_set;
	uint8_t pred_binding[OTA_SHA256_BYTES];
	struct swhal_key pred_cdi;

	/* engines */
	bool sha_active;
	bool kmac_active;

	/* fault injection */
	uint64_t flash_writes;
	uint64_t fault_at; /* value of flash_writes that fails; 0: none */
	uint64_t otp_programs;     /* hal_otp_program calls that changed OTP */
	uint64_t otp_power_cut_at; /* value of otp_programs after which power is lost; 0: none */
	enum swhal_fault fault_kind;
	struct swhal_tear tear;             /* how much of a torn write lands */
	uint32_t flash_latency_us;          /* each erase or program takes this long */
	struct swhal_tear_report last_tear; /* valid when tore_once */
	bool tore_once;

	/* host interface */
	struct swhal_host_ops ops;
	void *ops_ctx;
	uint32_t generation;      /* last stamped; 0 before the first */
	uint32_t generation_mark; /* persisted: every generation below is used or skipped */
	struct ota_record last_record;
	uint32_t last_record_len;
	uint32_t state, state_detail, progress_done, progress_total;
};

extern struct swhal_device swhal_dev;

/* clock.c: charge units of a cost at its table price, or at the cycles given (overlapped work). */
void swhal_clock_charge(enum swhal_cost what, uint64_t units);
void swhal_clock_charge_cycles(enum swhal_cost what, uint64_t units, uint64_t cycles);
/* The modelled MTIME, logged as a read (swhal_clock_reads). */
uint64_t swhal_clock_mtime(void);

/* persist.c: the state files, written in place or replaced whole, and loading. */
int swhal_file_write(const char *name, const void *data, size_t len, bool durable);
/* Reads exactly len bytes: 0, -ENOENT when absent, -EINVAL when the size differs. */
int swhal_file_read(const char *name, void *data, size_t len);
/* Size of a file in the state directory, or a negative errno. */
long swhal_file_size(const char *name);
/* The whole file, replaced atomically (factory programming, a new device, pokes). */
int swhal_persist_flash(void);
int swhal_persist_otp(void);
/* One emulated write's bytes, in place (see persist.c for what survives what). */
int swhal_persist_flash_range(uint32_t addr, uint32_t len);
int swhal_persist_otp_range(uint32_t offset, uint32_t len);
void swhal_persist_retention(void);
/* Every lock the boot stages set (vault, flash protection, OTP counters) ends with a reset. */
void swhal_locks_clear(void);
/* Close the state files (swhal_close); flash and OTP are flushed first unless no_fsync. */
void swhal_persist_close(void);

/* crypto.c: the engines, fetched once. */
int swhal_crypto_init(void);
ota_status_t swhal_kmac256(const uint8_t key[SWHAL_KEY_BYTES], const char *custom,
			   const uint8_t *msg1, uint32_t len1,
			   const uint8_t *msg2, uint32_t len2,
			   uint8_t *out, uint32_t out_len);
/* The SP 800-108r1 KMAC KDF step of hal_keymgr_derive, on clear key bytes. */
ota_status_t swhal_kdf(const uint8_t parent[SWHAL_KEY_BYTES], const char *label,
		       const uint8_t *context, uint32_t context_len,
		       uint32_t key_version, uint32_t purpose,
		       uint8_t out[SWHAL_KEY_BYTES]);
ota_status_t swhal_device_root(const uint8_t secret[32],
			       const uint8_t rom_identity[OTA_SHA256_BYTES],
			       uint8_t root[SWHAL_KEY_BYTES]);
ota_status_t swhal_p256_pubkey(const uint8_t scalar[SWHAL_KEY_BYTES],
			       uint8_t pubkey[OTA_P256_PUBKEY_BYTES]);
ota_status_t swhal_p256_sign(const uint8_t scalar[SWHAL_KEY_BYTES],
			     const uint8_t digest[OTA_SHA256_BYTES],
			     uint8_t sig[OTA_P256_SIG_BYTES]);
ota_status_t swhal_p256_verify(const uint8_t pubkey[OTA_P256_PUBKEY_BYTES],
			       const uint8_t digest[OTA_SHA256_BYTES],
			       const uint8_t sig[OTA_P256_SIG_BYTES]);
ota_status_t swhal_sha_engine_start(void);
ota_status_t swhal_sha_engine_update(const void *data, uint32_t len);
ota_status_t swhal_sha_engine_finish(uint8_t digest[OTA_SHA256_BYTES]);
ota_status_t swhal_kmac_engine_start(const uint8_t key[SWHAL_KEY_BYTES],
				     const uint8_t *custom, uint32_t custom_len);
ota_status_t swhal_kmac_engine_update(const void *data, uint32_t len);
ota_status_t swhal_kmac_engine_finish(uint8_t *out, uint32_t out_len);
void swhal_random(void *buf, uint32_t len);
void swhal_wipe(void *buf, size_t len);

/* keymgr.c */
void swhal_keys_reset(bool cold);
/* The clear key of a valid handle of `purpose` (HAL_KEY_PURPOSE otherwise), shares re-randomised; caller wipes out. */
ota_status_t swhal_key_use(hal_key_t h, uint32_t purpose, uint8_t out[SWHAL_KEY_BYTES]);

/* keymgr.c: random starting generations, so handles never repeat across opens. */
void swhal_keys_seed(void);

/* flash_tear.c: bytes of a torn write that land, noted for swhal_last_tear. */
uint32_t swhal_tear_landed(bool erase, uint32_t addr, const uint8_t *src, uint32_t len);

/* soc.c: each converted block's hooks on the bus (bus.h). */
void chip_soc_wire(void);
/* rstmgr.c: the reset manager's registers; the reason the core (re)started in ROM. */
struct chip_block_ops;
extern const struct chip_block_ops chip_rstmgr_ops;
void chip_rstmgr_started(uint32_t reason);
/* entropy_src.c, rv_timer.c, rom_ctrl.c: the TRNG, the timer, the ROM digest. */
extern const struct chip_block_ops chip_entropy_src_ops;
extern const struct chip_block_ops chip_rv_timer_ops;
extern const struct chip_block_ops chip_rom_ctrl_ops;
/* locks.c: the vault lock (sram_ctrl_ret) and the OTP counters lock (otp_ctrl), w1s until reset. */
extern const struct chip_block_ops chip_sram_ctrl_ret_ops;
extern const struct chip_block_ops chip_otp_ctrl_ops;
bool chip_lock_set(unsigned block, uint32_t reg_offset);
/* host.c: mbox's STATE/PROGRESS registers and DOORBELL.EVENT (publication to the host). */
extern const struct chip_block_ops chip_mbox_ops;
void chip_mbox_reset(void);
/* aon_timer.c: the watchdog (its bite is the board's to perform: swhal.h). */
extern const struct chip_block_ops chip_aon_timer_ops;
/* mprot.c: memory protection (mprot.h). */
extern const struct chip_block_ops chip_mprot_ops;

/* device.c */
void swhal_reset_engines(void);
int swhal_persist_generation_mark(uint32_t mark);

#endif /* OTATTEST_SWHAL_PRIV_H */
