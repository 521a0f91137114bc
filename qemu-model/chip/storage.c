// SPDX-License-Identifier: MIT
/*
 * Flash (NOR semantics, page erase, fault injection), OTP (OR-only, the
 * secret partition unreadable) and retention RAM.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "bus.h"
#include "otp_ctrl_regs.h"
#include "sram_ctrl_ret_regs.h"
#include "swhal_priv.h"

/* Units of the cycle model (clock.c): words of w bytes, a partial one counted. */
#define WORDS(len, w) (((uint64_t)(len) + (w) - 1) / (w))

/* ---- flash ---------------------------------------------------------------- */

uint32_t hal_flash_size(void)
{
	return swhal_dev.flash_size;
}

uint32_t hal_flash_page_size(void)
{
	return OTA_FLASH_PAGE_SIZE;
}

ota_status_t hal_flash_read(uint32_t addr, void *buf, uint32_t len)
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!ota_range_ok(addr, len, swhal_dev.flash_size))
		return OTA_HAL_FLASH_BAD_ADDRESS;
	if (!buf && len)
		return OTA_HAL_BAD_ARGUMENT;
	if (len)
		memcpy(buf, swhal_dev.flash + addr, len);
	swhal_clock_charge(SWHAL_COST_FLASH_READ_WORD, WORDS(len, 4));
	return OTA_OK;
}

/* Whether [addr, addr + len) touches a protected region (and the lock applies). */
static bool flash_locked(uint32_t addr, uint32_t len)
{
	uint32_t i;

	if (swhal_dev.external_programmer)
		return false;
	for (i = 0; i < swhal_dev.flash_protect_count; i++) {
		uint32_t a = swhal_dev.flash_protect[i].addr, l = swhal_dev.flash_protect[i].len;

		if (addr < a + l && a < addr + len)
			return true;
	}
	return false;
}

ota_status_t hal_flash_protect(uint32_t addr, uint32_t len)
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!len || addr % OTA_FLASH_PAGE_SIZE || len % OTA_FLASH_PAGE_SIZE ||
	    !ota_range_ok(addr, len, swhal_dev.flash_size))
		return OTA_HAL_FLASH_BAD_ADDRESS;
	if (swhal_dev.flash_protect_count >= HAL_FLASH_PROTECT_REGIONS)
		return OTA_HAL_BAD_ARGUMENT;
	swhal_dev.flash_protect[swhal_dev.flash_protect_count].addr = addr;
	swhal_dev.flash_protect[swhal_dev.flash_protect_count].len = len;
	swhal_dev.flash_protect_count++;
	return OTA_OK;
}

void swhal_external_programmer(bool on)
{
	swhal_dev.external_programmer = on;
}

void swhal_locks_clear(void)
{
	/* The vault and OTP counters locks are w1s registers: the bus reset clears them. */
	swhal_dev.flash_protect_count = 0;
	memset(swhal_dev.flash_protect, 0, sizeof(swhal_dev.flash_protect));
}

/*
 * Count a write and decide its fate. Returns true when it must tear;
 * then finish_write() reports the fault the way it was armed.
 */
static bool write_faults(void)
{
	/* The part's own erase/program time, when the board gives it one. */
	if (swhal_dev.flash_latency_us) {
		struct timespec ts = { .tv_sec = swhal_dev.flash_latency_us / 1000000u,
				       .tv_nsec = (long)(swhal_dev.flash_latency_us % 1000000u) * 1000 };

		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
	swhal_dev.flash_writes++;
	if (swhal_dev.fault_kind == SWHAL_FAULT_NONE || swhal_dev.flash_writes != swhal_dev.fault_at)
		return false;
	return true;
}

/* An injected power cut: everything off, the host told (tests longjmp out there). */
static ota_status_t lose_power(void)
{
	swhal_power_off();
	if (swhal_dev.ops.power_loss)
		swhal_dev.ops.power_loss(swhal_dev.ops_ctx);
	return OTA_HAL_POWER_LOST;
}

/*
 * The write of [addr, addr + len) is in flash: persist its bytes (a torn
 * write's too, as much as landed, with the rest of its range as it was),
 * then report the fault if it tore.
 */
static ota_status_t finish_write(bool torn, uint32_t addr, uint32_t len)
{
	enum swhal_fault kind = swhal_dev.fault_kind;
	int r = swhal_persist_flash_range(addr, len);

	if (!torn)
		return r == 0 ? OTA_OK : OTA_HAL_FLASH_WRITE_FAILED;
	swhal_dev.fault_kind = SWHAL_FAULT_NONE;
	swhal_dev.fault_at = 0;
	if (kind == SWHAL_FAULT_POWER_LOSS)
		return lose_power();
	return OTA_HAL_FLASH_WRITE_FAILED;
}

ota_status_t hal_flash_erase_page(uint32_t addr)
{
	bool torn;

	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (addr % OTA_FLASH_PAGE_SIZE || !ota_range_ok(addr, OTA_FLASH_PAGE_SIZE, swhal_dev.flash_size))
		return OTA_HAL_FLASH_BAD_ADDRESS;
	/* The protection, not the caller, decides (hal_flash_protect). */
	if (flash_locked(addr, OTA_FLASH_PAGE_SIZE))
		return OTA_HAL_FLASH_LOCKED;
	swhal_clock_charge(SWHAL_COST_FLASH_ERASE_PAGE, 1);
	torn = write_faults();
	memset(swhal_dev.flash + addr, 0xff,
	       torn ? swhal_tear_landed(true, addr, NULL, OTA_FLASH_PAGE_SIZE) : OTA_FLASH_PAGE_SIZE);
	return finish_write(torn, addr, OTA_FLASH_PAGE_SIZE);
}

ota_status_t hal_flash_program(uint32_t addr, const void *buf, uint32_t len)
{
	const uint8_t *src = buf;
	uint8_t *dst;
	uint32_t i, n;
	bool torn;

	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!ota_range_ok(addr, len, swhal_dev.flash_size))
		return OTA_HAL_FLASH_BAD_ADDRESS;
	if (!buf && len)
		return OTA_HAL_BAD_ARGUMENT;
	if (len && flash_locked(addr, len))
		return OTA_HAL_FLASH_LOCKED;
	dst = swhal_dev.flash + addr;
	/* NOR: programming only clears bits. Refused whole, before anything changes. */
	for (i = 0; i < len; i++)
		if (src[i] & ~dst[i])
			return OTA_HAL_FLASH_NOT_ERASED;
	if (!len)
		return OTA_OK;
	swhal_clock_charge(SWHAL_COST_FLASH_PROGRAM_WORD, WORDS(len, 8));
	torn = write_faults();
	n = torn ? swhal_tear_landed(false, addr, src, len) : len;
	for (i = 0; i < n; i++)
		dst[i] &= src[i];
	return finish_write(torn, addr, len);
}

void swhal_fault_flash(uint32_t nth, enum swhal_fault kind)
{
	swhal_dev.fault_kind = nth ? kind : SWHAL_FAULT_NONE;
	swhal_dev.fault_at = nth ? swhal_dev.flash_writes + nth : 0;
}

uint64_t swhal_flash_writes(void)
{
	return swhal_dev.flash_writes;
}

/* ---- OTP ------------------------------------------------------------------- */

static bool touches_secret(uint32_t offset, uint32_t len)
{
	return len && offset < OTA_OTP_SECRET_DIGEST_END && offset + len > OTA_OTP_SECRET_START;
}

ota_status_t hal_otp_read(uint32_t offset, void *buf, uint32_t len)
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!ota_range_ok(offset, len, sizeof(swhal_dev.otp)) || (!buf && len))
		return OTA_HAL_BAD_ARGUMENT;
	/* Only the key manager reads the secret partition (digest included). */
	if (touches_secret(offset, len))
		return OTA_HAL_OTP_SECRET;
	if (len)
		memcpy(buf, (const uint8_t *)&swhal_dev.otp + offset, len);
	swhal_clock_charge(SWHAL_COST_OTP_READ_WORD, WORDS(len, 4));
	return OTA_OK;
}

/*
 * Firmware programs only the COUNTERS partition (floors, epoch,
 * revocations); everything below is fixed at provisioning and locked by
 * its digest, as OpenTitan's OTP controller locks a partition.
 */
ota_status_t hal_otp_program(uint32_t offset, const void *buf, uint32_t len)
{
	uint8_t *dst = (uint8_t *)&swhal_dev.otp + offset;
	const uint8_t *src = buf;
	uint32_t i;

	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!ota_range_ok(offset, len, sizeof(swhal_dev.otp)) || (!buf && len))
		return OTA_HAL_BAD_ARGUMENT;
	if (len && offset < OTA_OTP_COUNTERS_START)
		return OTA_HAL_OTP_LOCKED;
	if (len && chip_lock_set(TOP_BLOCK_OTP_CTRL, OTP_CTRL_COUNTERS_LOCK_REG_OFFSET) &&
	    !swhal_dev.external_programmer)
		return OTA_HAL_OTP_COUNTERS_LOCKED;
	for (i = 0; i < len; i++)
		if (dst[i] & ~src[i])
			return OTA_OTP_CLEARS_BITS;
	if (!len || !memcmp(dst, src, len))
		return OTA_OK;
	swhal_clock_charge(SWHAL_COST_OTP_PROGRAM_WORD, WORDS(len, 4));
	memcpy(dst, src, len);
	if (swhal_persist_otp_range(offset, len) != 0)
		return OTA_HAL_OTP_WRITE_FAILED;
	if (++swhal_dev.otp_programs == swhal_dev.otp_power_cut_at) {
		swhal_dev.otp_power_cut_at = 0;
		return lose_power();
	}
	return OTA_OK;
}

void swhal_fault_otp_power_cut(uint32_t nth)
{
	swhal_dev.otp_power_cut_at = nth ? swhal_dev.otp_programs + nth : 0;
}

uint64_t swhal_otp_programs(void)
{
	return swhal_dev.otp_programs;
}

/* hal_otp_lock_counters is firmware/drivers/otp_ctrl.c over COUNTERS_LOCK (locks.c). */

/* ---- retention RAM ------------------------------------------------------------ */

ota_status_t hal_retention_read(uint32_t offset, void *buf, uint32_t len)
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!ota_range_ok(offset, len, HAL_RETENTION_BYTES) || (!buf && len))
		return OTA_HAL_BAD_ARGUMENT;
	if (len)
		memcpy(buf, swhal_dev.ret.ram + offset, len);
	swhal_clock_charge(SWHAL_COST_RET_SRAM_WORD, WORDS(len, 4));
	return OTA_OK;
}

ota_status_t hal_retention_write(uint32_t offset, const void *buf, uint32_t len)
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	if (!ota_range_ok(offset, len, HAL_RETENTION_BYTES) || (!buf && len))
		return OTA_HAL_BAD_ARGUMENT;
	/* The lock, not the caller, decides: no write into the vault once locked. */
	if (chip_lock_set(TOP_BLOCK_SRAM_CTRL_RET, SRAM_CTRL_RET_VAULT_LOCK_REG_OFFSET) && len &&
	    offset < HAL_RETENTION_VAULT_BYTES)
		return OTA_HAL_RETENTION_LOCKED;
	swhal_clock_charge(SWHAL_COST_RET_SRAM_WORD, WORDS(len, 4));
	if (!len || !memcmp(swhal_dev.ret.ram + offset, buf, len))
		return OTA_OK; /* unchanged: no file write on the fast path */
	memcpy(swhal_dev.ret.ram + offset, buf, len);
	swhal_persist_retention();
	return OTA_OK;
}

/* hal_retention_lock is firmware/drivers/sram_ctrl_ret.c over VAULT_LOCK (locks.c). */

void swhal_set_flash_latency(uint32_t us)
{
	swhal_dev.flash_latency_us = us;
}
