/* SPDX-License-Identifier: MIT */
/*
 * The update agent's mailbox calls, through the board's own path
 * (ota_fw_command: a command that resets the device is answered by the
 * runtime that boots). The last response is in tu_resp / tu_resp_len.
 */
#ifndef OTATTEST_TU_MBOX_H
#define OTATTEST_TU_MBOX_H

#include <otattest/mailbox.h>

#include "tu_device.h"

extern uint8_t tu_resp[OTA_MBOX_RESPONSE_MAX_ANY];
extern uint32_t tu_resp_len;

ota_status_t tu_cmd(uint32_t command, const void *req, uint32_t len);
ota_status_t tu_install_begin(uint32_t stage, uint32_t slot, uint32_t length, uint32_t flags);
ota_status_t tu_install_chunk(uint32_t offset, const uint8_t *data, uint32_t len);
ota_status_t tu_install_finish(void);
/* BEGIN, every chunk in order, FINISH: the first refusal. */
ota_status_t tu_install(uint32_t stage, uint32_t slot, const uint8_t *img, uint32_t len,
			uint32_t flags);
ota_status_t tu_commit(uint32_t slot);
ota_status_t tu_ratchet(uint32_t stage, uint32_t floor);
/* RATCHET with OTA_RATCHET_F_* flags (tu_ratchet: none). */
ota_status_t tu_ratchet_flags(uint32_t stage, uint32_t floor, uint32_t flags);
ota_status_t tu_update_reset(uint32_t slot);
ota_status_t tu_revoke(const struct ota_revocation *r);
/* A revocation command signed by key (otimage's builder); device NULL: fleet-wide. */
struct ota_revocation tu_revocation(enum tu_key_id key, uint32_t action, uint32_t target,
				    uint32_t value, uint32_t seq, const uint8_t *device);
/* REVOKE_HYBRID with a hybrid command. */
ota_status_t tu_revoke_hybrid(const struct ota_revocation_hybrid *h);
/* A hybrid command (both halves) signed by a hybrid key, into *out. */
void tu_revocation_hybrid(enum tu_key_id key, uint32_t action, uint32_t target, uint32_t value,
			  uint32_t seq, const uint8_t *device, struct ota_revocation_hybrid *out);

#endif /* OTATTEST_TU_MBOX_H */
