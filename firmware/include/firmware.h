/* SPDX-License-Identifier: MIT */
/*
 * The firmware's entry points, as the board (qemu-model/board) and the
 * unit tests drive them with the emulated chip underneath. One per stage,
 * in the order they run; a stage never calls another:
 *
 *   reset -> ota_rom_main -> (hand-off) ota_rom_ext_main -> (hand-off) BL0
 *
 * Like the CPU jumping to an address the previous stage verified, the
 * board enters ROM_EXT only when ROM returned OTA_OK, and serves mailbox
 * requests with ota_runtime_command only when ROM_EXT returned OTA_OK.
 * The state a stage leaves for the next lives in firmware/lib (handoff.h).
 *
 * Resets the runtime wants (update, warm, tag rotation) are requests to
 * the reset manager (hal_reset_request); the board performs them after
 * the request returns, runs the ROM again, and asks the runtime that
 * booted for the response with ota_runtime_resume - the request is still
 * in the mailbox, as on the device.
 */
#ifndef OTATTEST_FIRMWARE_H
#define OTATTEST_FIRMWARE_H

#include <otattest/record.h>
#include <otattest/shm.h>
#include <otattest/status.h>

/*
 * ROM, at every reset: load OTP and the flash records, verify ROM_EXT
 * with the creator keys, advance the key manager to ROM_EXT. OTA_OK hands
 * off to ROM_EXT; anything else means the ROM has published the failed
 * record and the device stays halted.
 */
ota_status_t ota_rom_main(uint32_t reset_reason);

/*
 * ROM_EXT, entered only after ota_rom_main returned OTA_OK: verify BL0,
 * commit a tag rotation, establish the SVN key chain, derive and certify
 * the alias key, advance the key manager to RUNTIME and publish the
 * record. OTA_OK hands off to BL0.
 */
ota_status_t ota_rom_ext_main(void);

/*
 * BL0: serve one mailbox request (command from enum ota_command). The
 * request payload is untrusted and exactly req_len bytes; the response
 * payload is written to resp (capacity resp_cap) and its length to
 * *resp_len. The return value is the response status. A command that
 * resets the device leaves a reset request pending and no response: the
 * board resets, boots, and calls ota_runtime_resume with the same request.
 */
ota_status_t ota_runtime_command(uint32_t command, const uint8_t *req, uint32_t req_len,
				 uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len);

/*
 * The response to a request that reset the device, made after the boot
 * that followed it (which may have failed: then the status is the boot's).
 */
ota_status_t ota_runtime_resume(uint32_t command, const uint8_t *req, uint32_t req_len,
				uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len);

/*
 * BL0 serving the mailbox over the mbox block's registers (hal/mbox.h):
 * one request, if one waits - answered with ota_runtime_command, or with
 * ota_runtime_resume when it asked for the reset that booted this runtime
 * - and its response rung, unless it asked for a reset (the next runtime
 * answers). Whether there was a request and more may be served (false
 * while a reset is pending). BL0's loop on the emulated core.
 */
bool ota_runtime_serve(void);

/*
 * BL0's main loop between requests: services the watchdog ROM_EXT armed.
 * The board calls it on its own clock and after each request, as a core
 * running BL0 would loop; a runtime that stops calling it is reset by the
 * watchdog (hal/aon_timer.h).
 */
void ota_runtime_idle(void);

#endif /* OTATTEST_FIRMWARE_H */
