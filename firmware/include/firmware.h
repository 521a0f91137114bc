/* SPDX-License-Identifier: MIT */
/*
 * What the device calls into: the boot flow at every reset and the
 * runtime's command handler for every mailbox request. The model
 * (qemu-model/board) and the unit tests drive the firmware only through
 * these two entry points, with the software HAL underneath.
 *
 * Also the state the boot stages hand to the runtime across resets: the
 * retention RAM layout and the retained key slots.
 */
#ifndef OTATTEST_FIRMWARE_H
#define OTATTEST_FIRMWARE_H

#include <otattest/record.h>
#include <otattest/shm.h>
#include <otattest/status.h>

/*
 * Run the boot flow for a reset: ROM verifies ROM_EXT, ROM_EXT verifies
 * BL0 (and establishes the SVN key chain and the evidence key), then the
 * runtime starts. Publishes the record and the device state through the
 * HAL. Returns the boot status (OTA_OK when a runtime runs).
 */
ota_status_t ota_fw_boot(uint32_t reset_reason);

/*
 * Serve one mailbox request (command from enum ota_command). The request
 * payload is untrusted and exactly req_len bytes; the response payload is
 * written to resp (capacity resp_cap) and its length to *resp_len. The
 * return value is the response status. Commands that reset the device
 * (update reset, warm reset, tag rotation) run the reset before returning.
 */
ota_status_t ota_fw_command(uint32_t command, const uint8_t *req, uint32_t req_len,
			    uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len);

/* Retained key vault slots (hal_key_retain). */
enum ota_retained_key {
	OTA_RETAINED_KEY_CHAIN = 0, /* SVN key chain link for min_svn */
	OTA_RETAINED_KEY_ALIAS = 1, /* evidence signing (alias) key */
};

#define OTA_RETENTION_MAGIC OTA_FOURCC('O', 'T', 'R', 'R')
#define OTA_RETENTION_VERSION 1u
#define OTA_HARDENED_TRUE 0x739u
#define OTA_HARDENED_FALSE 0x1d4u
#define OTA_NEXT_SLOT_NONE 0xffffffffu

/*
 * Retention RAM contents, at offset 0. Survives warm and update resets;
 * zero after a cold boot. A bad magic, version or digest is treated as
 * "no retained state": no pending request, and on a warm or update reset
 * no SVN key chain until the next cold boot (re-deriving it from the top
 * would let a runtime that damages retention RAM raise its own minimum;
 * docs/keychain.md).
 */
struct ota_retention {
	uint32_t magic;            /* 0 */
	uint32_t version;          /* 4 */
	uint32_t min_svn;          /* 8: min runtime SVN since cold boot */
	uint32_t chain_valid;      /* 12: OTA_HARDENED_TRUE when the CHAIN slot holds link(min_svn) */
	uint32_t running_bl0_slot; /* 16 */
	uint32_t next_bl0_slot;    /* 20: one-shot slot for the next update reset, or OTA_NEXT_SLOT_NONE */
	uint32_t rotate_requested; /* 24: OTA_HARDENED_TRUE: the next boot rotates tag keys */
	uint32_t reserved;         /* 28 */
	uint8_t digest[OTA_SHA256_BYTES]; /* 32: SHA-256 of bytes [0, 32) */
};
OTA_STATIC_ASSERT(sizeof(struct ota_retention) == 64, "ota_retention layout");

#endif /* OTATTEST_FIRMWARE_H */
