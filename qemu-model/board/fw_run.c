// SPDX-License-Identifier: MIT
/*
 * The board's part of running the firmware (fw_run.h). On silicon the
 * CPU starts in ROM at every reset and jumps to each stage the previous
 * one verified; here the board calls the stages' entry points in that
 * order, and only when the previous one handed off. A reset the firmware
 * requests (hal_reset_request) is performed by the chip's reset manager
 * once the request returns, never by the firmware calling its own ROM.
 * With the emulated core open (fw_core.c) the core runs the stage images
 * instead.
 */
#include <string.h>

#include "firmware.h"
#include "fw_run.h"
#include "swhal.h"

static const struct ota_fw_runner *runner;

void ota_fw_set_runner(const struct ota_fw_runner *r)
{
	runner = r;
}

ota_status_t ota_fw_boot(uint32_t reset_reason)
{
	ota_status_t st;

	if (runner)
		return runner->boot(reset_reason);
	st = ota_rom_main(reset_reason);

	if (st == OTA_OK)
		st = ota_rom_ext_main();
	return st;
}

ota_status_t ota_fw_command(uint32_t command, const uint8_t *req, uint32_t req_len,
			    uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len)
{
	ota_status_t st;
	uint32_t reason;

	if (runner)
		return runner->command(command, req, req_len, resp, resp_cap, resp_len);
	st = ota_runtime_command(command, req, req_len, resp, resp_cap, resp_len);
	if (!swhal_reset_take(&reason))
		return st;
	st = swhal_reset(reason);
	if (st != OTA_OK) {
		*resp_len = 0;
		return st;
	}
	(void)ota_fw_boot(reason);
	return ota_runtime_resume(command, req, req_len, resp, resp_cap, resp_len);
}

void ota_fw_idle(void)
{
	if (runner)
		runner->idle();
	else
		ota_runtime_idle();
}

/* A reset command with its fixed-size response, copied out on any status. */
static ota_status_t run_fixed(uint32_t command, const void *req, uint32_t req_len, void *out,
			      uint32_t out_len)
{
	uint8_t resp[64];
	uint32_t resp_len = 0;
	ota_status_t st;

	st = ota_fw_command(command, req, req_len, resp, sizeof(resp), &resp_len);
	if (out) {
		memset(out, 0, out_len);
		memcpy(out, resp, resp_len < out_len ? resp_len : out_len);
	}
	return st;
}

ota_status_t ota_fw_rotate_tags(struct ota_resp_rotate *out)
{
	struct ota_req_rotate req;

	memset(&req, 0, sizeof(req));
	return run_fixed(OTA_CMD_ROTATE_TAGS, &req, sizeof(req), out, sizeof(*out));
}

ota_status_t ota_fw_update_reset(uint32_t slot, struct ota_resp_reset *out)
{
	struct ota_req_update req;

	memset(&req, 0, sizeof(req));
	req.slot = slot;
	return run_fixed(OTA_CMD_UPDATE_RESET, &req, sizeof(req), out, sizeof(*out));
}

ota_status_t ota_fw_warm_reset(struct ota_resp_reset *out)
{
	return run_fixed(OTA_CMD_WARM_RESET, NULL, 0, out, sizeof(*out));
}
