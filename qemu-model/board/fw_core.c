// SPDX-License-Identifier: MIT
/*
 * The board with the emulated core (fw_run.h, otattest-model --core=rv32):
 * the mask ROM image is loaded at power-on and every reset starts the
 * core at its entry; ROM verifies ROM_EXT and jumps to it, ROM_EXT
 * verifies BL0 and jumps to it, and BL0 serves the mailbox over the mbox
 * registers until it waits (hal/svc.h, HAL_SVC_WFI). A request is posted
 * to the mbox block and the core resumed; BL0 answers with
 * DOORBELL.RESPONSE, or asks the reset manager for a reset, which the
 * board performs when BL0 waits, booting the core from ROM again: the
 * runtime that boots answers the request (STATUS.RESUMED).
 *
 * When a boot ends without BL0 (a stage refused, or the core faulted),
 * the core is halted until the next reset; the board then answers each
 * request itself, with MBOX_NOT_READY, or, for the request whose reset
 * led there, with the failed boot's status.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <otu/file.h>

#include "core.h"
#include "fw_run.h"
#include "swhal.h"
#include "top_regs.h"

/* More than any boot or request takes (a first boot is about 2 million instructions). */
#define FW_CORE_MAX_INSNS 2000000000ull

static struct {
	struct core *core;
	uint8_t *rom;
	size_t rom_len;
	uint32_t entry;
	bool waiting;                 /* BL0 runs and waits for a request */
	struct core_result boot;      /* the last boot's run */
	struct core_result request;   /* the last request's run */
	uint64_t request_limit;       /* 0: FW_CORE_MAX_INSNS */
} fc;

static const struct ota_fw_runner core_runner;

static uint32_t symbol(const char *name)
{
	uint32_t v = 0;

	(void)core_elf_symbol(fc.rom, fc.rom_len, name, &v);
	return v;
}

/*
 * rom_ctrl digests the mask ROM at power-on: the whole ROM region as the
 * loader laid the image out (unused bytes zero), so the ROM identity and
 * every key the device derives belong to this ROM (docs/hal.md).
 */
static int rom_identity(void)
{
	uint8_t *region = malloc(TOP_ROM_SIZE);
	int r = -ENOMEM;

	if (region) {
		r = core_mem_read(fc.core, TOP_ROM_BASE_ADDR, region, TOP_ROM_SIZE) == OTA_OK
			    ? swhal_rom_contents(region, TOP_ROM_SIZE)
			    : -EIO;
		free(region);
	}
	return r;
}

int ota_fw_core_open(const char *rom_elf)
{
	int r;

	if (fc.core)
		return -EBUSY;
	r = otu_read_file(rom_elf, TOP_ROM_SIZE * 4u, &fc.rom, &fc.rom_len);
	if (r < 0)
		return r;
	r = core_open(&fc.core);
	if (r == 0 && core_load_elf(fc.core, fc.rom, fc.rom_len, &fc.entry) != OTA_OK)
		r = -ENOEXEC;
	if (r == 0)
		r = rom_identity();
	if (r < 0) {
		ota_fw_core_close();
		return r;
	}
	/* The stages' windows (firmware/base/stage.ld), as the images were linked. */
	core_watch(fc.core, OTA_FW_CORE_ROM, TOP_ROM_BASE_ADDR, TOP_ROM_BASE_ADDR + TOP_ROM_SIZE);
	core_watch(fc.core, OTA_FW_CORE_ROM_EXT, symbol("__rom_ext_window"),
		   symbol("__rom_ext_window_end"));
	core_watch(fc.core, OTA_FW_CORE_BL0, symbol("__bl0_window"), symbol("__bl0_window_end"));
	ota_fw_set_runner(&core_runner);
	return 0;
}

void ota_fw_core_close(void)
{
	if (fc.core) {
		ota_fw_set_runner(NULL);
		(void)swhal_rom_contents(NULL, 0); /* no mask ROM image: the host build's ROM */
	}
	core_close(fc.core);
	free(fc.rom);
	memset(&fc, 0, sizeof(fc));
}

const struct core_result *ota_fw_core_boot_result(void)
{
	return &fc.boot;
}

const struct core_result *ota_fw_core_request_result(void)
{
	return &fc.request;
}

struct core *ota_fw_core(void)
{
	return fc.core;
}

void ota_fw_core_set_request_limit(uint64_t max_insns)
{
	fc.request_limit = max_insns;
}

/* A run that ended neither waiting nor returning: the core halted on a fault or the limit. */
static ota_status_t halted(const struct core_result *r)
{
	if (r->stop == CORE_STOP_RETURNED)
		return r->a0;
	return r->fault ? r->fault : OTA_HAL_BUS_ERROR;
}

static ota_status_t core_boot(uint32_t reset_reason)
{
	(void)reset_reason; /* the ROM reads it from the reset manager's RESET_INFO */
	fc.waiting = false;
	if (core_run(fc.core, fc.entry, FW_CORE_MAX_INSNS, &fc.boot) != OTA_OK)
		return OTA_HAL_BAD_ARGUMENT;
	if (fc.boot.stop == CORE_STOP_WAIT && fc.boot.window_insns[OTA_FW_CORE_BL0]) {
		fc.waiting = true;
		return OTA_OK;
	}
	return fc.boot.stop == CORE_STOP_RETURNED && fc.boot.a0 == OTA_OK ? OTA_MBOX_NOT_READY
									   : halted(&fc.boot);
}

static ota_status_t core_command(uint32_t command, const uint8_t *req, uint32_t req_len,
			    uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len)
{
	ota_status_t st;
	uint32_t reason;

	*resp_len = 0;
	memset(&fc.request, 0, sizeof(fc.request));
	if (!fc.waiting)
		return OTA_MBOX_NOT_READY; /* no runtime booted: nothing serves the mailbox */
	if (swhal_mbox_post(0, command, req, req_len) < 0)
		return OTA_MBOX_BAD_LENGTH;
	if (core_resume(fc.core, fc.request_limit ? fc.request_limit : FW_CORE_MAX_INSNS, &fc.request) != OTA_OK)
		return OTA_MBOX_NOT_READY;
	if (fc.request.stop != CORE_STOP_WAIT) {
		fc.waiting = false;
		swhal_mbox_cancel();
		return halted(&fc.request);
	}
	if (swhal_mbox_take_response(&st, resp, resp_cap, resp_len))
		return st;
	if (!swhal_reset_take(&reason)) {
		swhal_mbox_cancel();
		return OTA_MBOX_NOT_READY; /* BL0 waited without answering */
	}
	/* The reset the request asked for; the runtime that boots answers it. */
	st = swhal_reset(reason);
	if (st == OTA_OK)
		st = core_boot(reason);
	if (swhal_mbox_take_response(&st, resp, resp_cap, resp_len))
		return st;
	swhal_mbox_cancel();
	return st == OTA_OK ? OTA_MBOX_NOT_READY : st;
}

/*
 * BL0's main loop between requests: the core resumed from its wait, as a
 * timer interrupt would wake it, until it waits again (ota_bl0_start pets
 * the watchdog on the way). The board never pets for the image: a core
 * that is not waiting (it faulted, spun past its limit, or no BL0 runs)
 * runs nothing here.
 */
static void core_idle(void)
{
	struct core_result r;

	if (!fc.waiting)
		return;
	if (core_resume(fc.core, fc.request_limit ? fc.request_limit : FW_CORE_MAX_INSNS, &r) != OTA_OK ||
	    r.stop != CORE_STOP_WAIT)
		fc.waiting = false;
}

static const struct ota_fw_runner core_runner = { .boot = core_boot, .command = core_command,
						  .idle = core_idle };

