// SPDX-License-Identifier: MIT
/*
 * BL0 serving the mailbox itself, over the mbox block's registers
 * (hal/mbox.h): take the request the host posted, run it through
 * ota_runtime_command - or ota_runtime_resume when it was already there
 * at the reset it asked for (STATUS.RESUMED) - and answer it, unless the
 * command asked for a reset: then the runtime that boots answers. On the
 * emulated core this is BL0's whole life (ota_bl0_start); the host
 * build's board calls ota_runtime_command itself, and the unit tests run
 * ota_runtime_serve against the same registers.
 */
#include "firmware.h"
#include "runtime.h"

/* The request as BL0 copies it out of REQ, and the response it writes to RESP. */
static uint8_t serve_req[OTA_MBOX_REQUEST_MAX_ANY];
static uint8_t serve_resp[OTA_MBOX_RESPONSE_MAX_ANY];

bool ota_runtime_serve(void)
{
	struct hal_mbox_request r;
	uint32_t resp_len = 0;
	ota_status_t st;

	if (hal_reset_pending() || !hal_mbox_request(&r))
		return false;
	/* REQ_LEN is the host's claim: a length no request has is refused unread. */
	if (r.len > sizeof(serve_req))
		st = OTA_MBOX_BAD_LENGTH;
	else if ((st = hal_mbox_read(serve_req, r.len)) == OTA_OK)
		st = r.resumed ? ota_runtime_resume(r.command, serve_req, r.len, serve_resp,
						    sizeof(serve_resp), &resp_len)
			       : ota_runtime_command(r.command, serve_req, r.len, serve_resp,
						     sizeof(serve_resp), &resp_len);
	/*
	 * An accepted reset command is answered after the reset, by the
	 * runtime that boots; until the reset nothing more is served.
	 */
	if (hal_reset_pending())
		return false;
	if (resp_len > sizeof(serve_resp))
		resp_len = 0;
	(void)hal_mbox_respond(st, serve_resp, resp_len);
	return true;
}

#if defined(__riscv)
uint32_t ota_bl0_start(void);

/*
 * BL0's C entry on the core (firmware/base/crt0.S calls it as stage_main,
 * after ROM_EXT jumped here): serve what waits, take the idle step (it
 * pets the watchdog ROM_EXT armed), then wait for the next request.
 * Never returns; a reset restarts the core in ROM.
 */
uint32_t ota_bl0_start(void)
{
	for (;;) {
		while (ota_runtime_serve())
			;
		ota_runtime_idle();
		hal_wait_for_interrupt();
	}
}
#endif
