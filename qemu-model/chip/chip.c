// SPDX-License-Identifier: MIT
/*
 * The device as a whole: opening its state, power, resets, factory
 * programming and the test-only views of raw storage.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "bus.h"
#include "mprot.h"
#include "swhal_priv.h"

struct swhal_device swhal_dev;

/* What the ROM identity measures; see docs/hal.md. */
#define ROM_IDENTITY_TEXT "otattest-swhal-rom-v1"

#define HOST_FILE_MAGIC OTA_FOURCC('O', 'T', 'H', 'G')
struct host_file {
	uint32_t magic;
	uint32_t generation_mark;
};

void swhal_default_rom_identity(uint8_t out[OTA_SHA256_BYTES])
{
	unsigned int len = 0;

	if (EVP_Digest(ROM_IDENTITY_TEXT, strlen(ROM_IDENTITY_TEXT), out, &len,
		       EVP_sha256(), NULL) != 1 || len != OTA_SHA256_BYTES)
		abort();
}

void swhal_set_rom_identity(const uint8_t id[OTA_SHA256_BYTES])
{
	memcpy(swhal_dev.rom_identity, id, OTA_SHA256_BYTES);
}

void swhal_reset_engines(void)
{
	swhal_dev.sha_active = false;
	swhal_dev.kmac_active = false;
	/* Every block's registers to their reset values (bus.h). */
	chip_bus_reset();
	chip_mbox_reset();
	chip_mprot_reset();
}

static int load_flash(uint32_t want_size)
{
	long have = swhal_dev.dir ? swhal_file_size("flash.bin") : -ENOENT;
	uint32_t size;

	if (have >= 0) {
		if (have < OTA_FLASH_PAGE_SIZE || have > SWHAL_MAX_FLASH_SIZE ||
		    have % OTA_FLASH_PAGE_SIZE)
			return -EINVAL;
		size = (uint32_t)have;
	} else if (have == -ENOENT) {
		size = want_size ? want_size : SWHAL_DEFAULT_FLASH_SIZE;
		if (size < OTA_FLASH_PAGE_SIZE || size > SWHAL_MAX_FLASH_SIZE ||
		    size % OTA_FLASH_PAGE_SIZE)
			return -EINVAL;
	} else {
		return (int)have;
	}
	swhal_dev.flash = malloc(size);
	if (!swhal_dev.flash)
		return -ENOMEM;
	swhal_dev.flash_size = size;
	if (have >= 0)
		return swhal_file_read("flash.bin", swhal_dev.flash, size);
	memset(swhal_dev.flash, 0xff, size);
	return swhal_persist_flash();
}

static int load_optional(const char *name, void *buf, size_t len)
{
	int r;

	if (!swhal_dev.dir)
		return 0;
	r = swhal_file_read(name, buf, len);
	return r == -ENOENT ? 0 : r;
}

int swhal_open(const char *state_dir, const struct swhal_options *opt)
{
	struct host_file hf = { 0 };
	int r;

	if (swhal_dev.open)
		return -EBUSY;
	if (swhal_crypto_init() != 0)
		return -ENOTSUP;
	memset(&swhal_dev, 0, sizeof(swhal_dev));
	swhal_dev.no_fsync = opt && opt->no_fsync;
	if (state_dir && !(swhal_dev.dir = strdup(state_dir)))
		return -ENOMEM;
	r = load_flash(opt ? opt->flash_size : 0);
	if (r == 0)
		r = load_optional("otp.bin", &swhal_dev.otp, sizeof(swhal_dev.otp));
	if (r == 0 && load_optional("retention.bin", &swhal_dev.ret, sizeof(swhal_dev.ret)) != 0)
		memset(&swhal_dev.ret, 0, sizeof(swhal_dev.ret)); /* unreadable RAM is blank RAM */
	if (r == 0)
		r = load_optional("host.bin", &hf, sizeof(hf));
	if (r == 0 && hf.magic == HOST_FILE_MAGIC) {
		swhal_dev.generation = hf.generation_mark;
		swhal_dev.generation_mark = hf.generation_mark;
	}
	if (r < 0) {
		swhal_persist_close();
		free(swhal_dev.flash);
		free(swhal_dev.dir);
		memset(&swhal_dev, 0, sizeof(swhal_dev));
		return r;
	}
	swhal_default_rom_identity(swhal_dev.rom_identity);
	swhal_keys_seed();
	chip_soc_wire();
	swhal_dev.open = true;
	return 0;
}

void swhal_close(void)
{
	if (!swhal_dev.open)
		return;
	swhal_persist_close();
	free(swhal_dev.flash);
	free(swhal_dev.dir);
	swhal_wipe(&swhal_dev, sizeof(swhal_dev));
	memset(&swhal_dev, 0, sizeof(swhal_dev));
}

int swhal_power_on(void)
{
	if (!swhal_dev.open)
		return -ENODEV;
	swhal_wipe(&swhal_dev.ret, sizeof(swhal_dev.ret));
	swhal_persist_retention();
	swhal_keys_reset(true);
	swhal_reset_engines();
	swhal_mbox_cancel(); /* a power cycle drops the host's request; a reset keeps it */
	swhal_locks_clear();
	swhal_dev.powered = true;
	chip_rstmgr_started(OTA_RESET_COLD);
	return 0;
}

void swhal_power_off(void)
{
	swhal_dev.powered = false;
	swhal_dev.reset_pending = false;
	swhal_keys_reset(true);
	swhal_reset_engines();
	swhal_mbox_cancel();
}

bool swhal_powered(void)
{
	return swhal_dev.open && swhal_dev.powered;
}

/* hal_reset_request is firmware/drivers/rstmgr.c over rstmgr.c's registers. */

bool swhal_reset_take(uint32_t *reason)
{
	if (!swhal_dev.reset_pending)
		return false;
	swhal_dev.reset_pending = false;
	*reason = swhal_dev.reset_reason;
	return true;
}

ota_status_t swhal_reset(uint32_t reason)
{
	if (!swhal_powered())
		return OTA_HAL_POWER_LOST;
	swhal_dev.reset_pending = false;
	switch (reason) {
	case OTA_RESET_COLD:
		return swhal_power_on() == 0 ? OTA_OK : OTA_HAL_POWER_LOST;
	case OTA_RESET_WARM:
	case OTA_RESET_UPDATE:
		/* Retention RAM and the vault survive; everything else restarts. */
		swhal_locks_clear();
		swhal_keys_reset(false);
		swhal_reset_engines();
		chip_rstmgr_started(reason);
		return OTA_OK;
	}
	return OTA_HAL_BAD_ARGUMENT;
}

/* ---- factory programming and raw access -------------------------------- */

int swhal_load_flash(const void *image, uint32_t len)
{
	if (!swhal_dev.open || len > swhal_dev.flash_size)
		return -EINVAL;
	memcpy(swhal_dev.flash, image, len);
	memset(swhal_dev.flash + len, 0xff, swhal_dev.flash_size - len);
	return swhal_persist_flash();
}

int swhal_load_otp(const void *image, uint32_t len)
{
	if (!swhal_dev.open || len != sizeof(swhal_dev.otp))
		return -EINVAL;
	memcpy(&swhal_dev.otp, image, len);
	return swhal_persist_otp();
}

int swhal_peek_flash(uint32_t addr, void *buf, uint32_t len)
{
	if (!swhal_dev.open || !ota_range_ok(addr, len, swhal_dev.flash_size))
		return -EINVAL;
	memcpy(buf, swhal_dev.flash + addr, len);
	return 0;
}

int swhal_poke_flash(uint32_t addr, const void *buf, uint32_t len)
{
	if (!swhal_dev.open || !ota_range_ok(addr, len, swhal_dev.flash_size))
		return -EINVAL;
	memcpy(swhal_dev.flash + addr, buf, len);
	return swhal_persist_flash();
}

int swhal_peek_otp(uint32_t offset, void *buf, uint32_t len)
{
	if (!swhal_dev.open || !ota_range_ok(offset, len, sizeof(swhal_dev.otp)))
		return -EINVAL;
	memcpy(buf, (const uint8_t *)&swhal_dev.otp + offset, len);
	return 0;
}

int swhal_peek_retention(uint32_t offset, void *buf, uint32_t len)
{
	if (!swhal_dev.open || !ota_range_ok(offset, len, HAL_RETENTION_BYTES))
		return -EINVAL;
	memcpy(buf, swhal_dev.ret.ram + offset, len);
	return 0;
}

int swhal_poke_retention(uint32_t offset, const void *buf, uint32_t len)
{
	if (!swhal_dev.open || !ota_range_ok(offset, len, HAL_RETENTION_BYTES))
		return -EINVAL;
	memcpy(swhal_dev.ret.ram + offset, buf, len);
	swhal_persist_retention();
	return 0;
}

/* ---- host interface bookkeeping ---------------------------------------- */

void swhal_set_host_ops(const struct swhal_host_ops *ops, void *ctx)
{
	if (ops)
		swhal_dev.ops = *ops;
	else
		memset(&swhal_dev.ops, 0, sizeof(swhal_dev.ops));
	swhal_dev.ops_ctx = ctx;
}

int swhal_persist_generation_mark(uint32_t mark)
{
	struct host_file hf = { HOST_FILE_MAGIC, mark };

	return swhal_file_write("host.bin", &hf, sizeof(hf), true);
}
