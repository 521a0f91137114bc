/* SPDX-License-Identifier: MIT */
/*
 * The board running the firmware on the emulated chip, as the CPU and the
 * reset manager would: the stages in order at every reset, and mailbox
 * requests with the resets they ask for. The model's device process and
 * the unit tests drive the firmware through these calls only.
 */
#ifndef OTATTEST_BOARD_FW_RUN_H
#define OTATTEST_BOARD_FW_RUN_H

#include <otattest/shm.h>
#include <otattest/status.h>

/*
 * Run the stages after a reset the caller performed (swhal_power_on for a
 * cold boot): ROM, then ROM_EXT when ROM hands off. Returns the boot
 * status (OTA_OK when a runtime runs).
 */
ota_status_t ota_fw_boot(uint32_t reset_reason);

/*
 * One mailbox request to the runtime. When it asks for a reset, perform
 * it, boot, and return the response the runtime that booted gives.
 */
ota_status_t ota_fw_command(uint32_t command, const uint8_t *req, uint32_t req_len,
			    uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len);

/* The reset commands as one call each, for tests and benchmarks. */
ota_status_t ota_fw_rotate_tags(struct ota_resp_rotate *out);
ota_status_t ota_fw_update_reset(uint32_t slot, struct ota_resp_reset *out);
ota_status_t ota_fw_warm_reset(struct ota_resp_reset *out);

#endif /* OTATTEST_BOARD_FW_RUN_H */
