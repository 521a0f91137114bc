/* SPDX-License-Identifier: MIT */
/*
 * The device's face in ivshmem shared memory (BAR2), shared by the model
 * (qemu-model/) and the kernel driver (kernel/). Everything here is
 * untrusted input to the driver: it copies, then validates, then uses.
 *
 *   0x0000  struct ota_shm_info              (device writes)
 *   rec     struct ota_shm_record + record   (device writes, seqlock)
 *   req     struct ota_mbox_header + payload (host writes)
 *   resp    struct ota_mbox_header + payload (device writes)
 *
 * Record seqlock: the device makes `generation` odd, writes the record,
 * then makes it even again (with release ordering). A reader reads the
 * generation, copies, reads it again; an odd or changed value means a torn
 * copy, retried a bounded number of times.
 *
 * Mailbox: one request in flight. The host writes the request payload,
 * then its header with a fresh sequence number, then rings vector
 * OTA_VEC_MAILBOX at the device's peer (OTA_SHM_DEVICE_PEER_ID). The device answers by writing the
 * response payload, then the response header with the same sequence
 * number, then ringing the host's OTA_VEC_MAILBOX. A response whose
 * sequence number is not the one awaited is stale (a late answer to a
 * request that timed out) and is ignored. Sequence 0 is never valid; the
 * device refuses a request that repeats the last sequence it answered.
 */
#ifndef OTATTEST_SHM_H
#define OTATTEST_SHM_H

#include "common.h"
#include "mailbox.h" /* the commands, their payloads and bounds */
#include "record.h"
#include "status.h"

#define OTA_SHM_MAGIC OTA_FOURCC('O', 'T', 'S', 'M')
#define OTA_SHM_ABI_MAJOR 1u /* incompatible changes; the driver requires equality */
#define OTA_SHM_ABI_MINOR 0u /* compatible additions */
#define OTA_SHM_SIZE 0x10000u /* 64 KiB, a power of two as a PCI BAR must be */

/* PCI identity of QEMU's ivshmem device. */
#define OTA_PCI_VENDOR 0x1af4u
#define OTA_PCI_DEVICE 0x1110u

/* Doorbell vectors (ivshmem: Doorbell register = peer << 16 | vector). */
enum ota_vector {
	OTA_VEC_MAILBOX = 0, /* host->device: request; device->host: response */
	OTA_VEC_EVENT = 1,   /* device->host: record or state changed */
};
#define OTA_VEC_COUNT 2u

/*
 * The device's ivshmem peer id, the doorbell the host rings: fixed by this
 * ABI, as a real device's doorbell is where its hardware puts it, and
 * reserved for the device by the ivshmem server (the model's never gives
 * it to a guest). Never read from shared memory: whoever can write the
 * memory - any peer of the region - must not choose whom the host's
 * doorbell rings. (It was the info block's device_peer_id, now reserved0.)
 */
#define OTA_SHM_DEVICE_PEER_ID 0u

/* ivshmem BAR0 register offsets. */
#define OTA_IVSHMEM_INTR_MASK 0x0u
#define OTA_IVSHMEM_INTR_STATUS 0x4u
#define OTA_IVSHMEM_IV_POSITION 0x8u
#define OTA_IVSHMEM_DOORBELL 0xcu

enum ota_device_state {
	OTA_DEV_OFF = 0,       /* powered off / model not running */
	OTA_DEV_BOOTING = 1,   /* firmware is verifying stages */
	OTA_DEV_READY = 2,     /* runtime serves requests */
	OTA_DEV_FAILED = 3,    /* no runtime booted; state_detail says why */
	OTA_DEV_RESETTING = 4, /* warm or update reset in progress */
	OTA_DEV_ROTATING = 5,  /* tag rotation in progress (progress_*) */
};
#define OTA_DEV_STATE_MAX 5u

/* At offset 0. 64 bytes. */
struct ota_shm_info {
	uint32_t magic;          /* 0: OTA_SHM_MAGIC */
	uint16_t abi_major;      /* 4 */
	uint16_t abi_minor;      /* 6 */
	uint32_t info_size;      /* 8: sizeof(struct ota_shm_info) */
	uint32_t shm_size;       /* 12: bytes the device believes are shared */
	uint32_t reserved0;      /* 16: 0 (was device_peer_id; see OTA_SHM_DEVICE_PEER_ID) */
	uint32_t device_state;   /* 20: enum ota_device_state */
	uint32_t state_detail;   /* 24: status code explaining the state */
	uint32_t event_counter;  /* 28: moves on every state or record change */
	uint32_t record_offset;  /* 32 */
	uint32_t record_size;    /* 36: region capacity, header included */
	uint32_t request_offset; /* 40 */
	uint32_t request_size;   /* 44 */
	uint32_t response_offset; /* 48 */
	uint32_t response_size;  /* 52 */
	uint32_t progress_done;  /* 56: rotation: stages re-tagged so far */
	uint32_t progress_total; /* 60: rotation: stages to re-tag */
};
OTA_STATIC_ASSERT(sizeof(struct ota_shm_info) == 64, "ota_shm_info layout");

/* Record region header; the record follows. 16 bytes. */
struct ota_shm_record {
	uint32_t generation; /* seqlock: odd while the device writes */
	uint32_t length;     /* bytes of record that follow */
	uint32_t reserved[2];
};
OTA_STATIC_ASSERT(sizeof(struct ota_shm_record) == 16, "ota_shm_record layout");

/* Request and response header. 16 bytes. */
struct ota_mbox_header {
	uint32_t seq;     /* non-zero; the response repeats the request's */
	uint32_t command; /* enum ota_command */
	uint32_t length;  /* payload bytes that follow */
	uint32_t status;  /* request: zero; response: OTA_OK or a status code */
};
OTA_STATIC_ASSERT(sizeof(struct ota_mbox_header) == 16, "ota_mbox_header layout");

/* Default layout the model uses; the driver trusts only what it checks. */
#define OTA_SHM_RECORD_OFFSET 0x1000u
#define OTA_SHM_RECORD_SIZE 0x1000u
#define OTA_SHM_REQUEST_OFFSET 0x2000u
#define OTA_SHM_REQUEST_SIZE 0x2000u
#define OTA_SHM_RESPONSE_OFFSET 0x4000u
#define OTA_SHM_RESPONSE_SIZE 0xc000u

/*
 * The least payload room a region may offer, or ota_shm_info_validate
 * refuses the layout. A response region must hold the largest response of
 * any command in the table (mailbox.h), so whatever a command answers -
 * evidence included - fits every layout a driver accepts. The same rule
 * holds for requests: the request region must hold the largest request,
 * OTA_MBOX_REQUEST_MAX_ANY (4104, an INSTALL_CHUNK of 4 KiB; it was
 * 1032, SET_IDENTITY_CERT's whole certificate, before the install
 * commands, and 256 while every request was at most 72 bytes). A
 * certificate goes in one request rather than in chunks so that it lands
 * whole or not at all; an image (up to 1088 KiB) cannot, so the device
 * keeps an install session between chunks and writes nothing before the
 * whole image passed (docs/mailbox.md). The default layout has 8 KiB; no
 * layout between 272 and 1048 bytes has ever been offered, and none below
 * 4120 since the install commands.
 */
#define OTA_SHM_REQUEST_MIN_PAYLOAD OTA_MBOX_REQUEST_MAX_ANY
#define OTA_SHM_RESPONSE_MIN_PAYLOAD OTA_MBOX_RESPONSE_MAX_ANY
OTA_STATIC_ASSERT(OTA_MBOX_REQUEST_MAX_ANY <= OTA_SHM_REQUEST_MIN_PAYLOAD,
		  "every request fits the smallest request region");
OTA_STATIC_ASSERT(OTA_EVIDENCE_MAX_BYTES <= OTA_SHM_RESPONSE_MIN_PAYLOAD,
		  "evidence fits the smallest response region");
OTA_STATIC_ASSERT(OTA_SHM_REQUEST_SIZE - sizeof(struct ota_mbox_header) >=
			  OTA_SHM_REQUEST_MIN_PAYLOAD &&
		  OTA_SHM_RESPONSE_SIZE - sizeof(struct ota_mbox_header) >=
			  OTA_SHM_RESPONSE_MIN_PAYLOAD,
		  "the default layout passes ota_shm_info_validate");

/*
 * Check an info block copied out of shared memory against the BAR size
 * the host actually mapped: magic, ABI, sizes, every region in bounds,
 * no two regions overlapping, big enough for their contents.
 */
static inline ota_status_t ota_shm_info_validate(const struct ota_shm_info *in,
						 uint32_t bar_size)
{
	struct {
		uint32_t off, size, min;
	} r[3];
	uint32_t i, j;

	if (in->magic != OTA_SHM_MAGIC)
		return OTA_SHM_BAD_MAGIC;
	if (in->abi_major != OTA_SHM_ABI_MAJOR || in->info_size < sizeof(*in))
		return OTA_SHM_BAD_VERSION;
	if (in->shm_size != bar_size || in->info_size > bar_size)
		return OTA_SHM_BAD_LAYOUT;
	if (in->device_state > OTA_DEV_STATE_MAX)
		return OTA_SHM_BAD_STATE;

	r[0].off = in->record_offset;
	r[0].size = in->record_size;
	r[0].min = sizeof(struct ota_shm_record) + (uint32_t)OTA_RECORD_MAX_BYTES;
	r[1].off = in->request_offset;
	r[1].size = in->request_size;
	r[1].min = sizeof(struct ota_mbox_header) + OTA_SHM_REQUEST_MIN_PAYLOAD;
	r[2].off = in->response_offset;
	r[2].size = in->response_size;
	r[2].min = sizeof(struct ota_mbox_header) + OTA_SHM_RESPONSE_MIN_PAYLOAD;
	for (i = 0; i < 3; i++) {
		if (r[i].off < in->info_size || (r[i].off & 7u) ||
		    !ota_range_ok(r[i].off, r[i].size, bar_size) || r[i].size < r[i].min)
			return OTA_SHM_BAD_LAYOUT;
		for (j = 0; j < i; j++)
			if (r[i].off < r[j].off + r[j].size && r[j].off < r[i].off + r[i].size)
				return OTA_SHM_BAD_LAYOUT;
	}
	return OTA_OK;
}

static inline const char *ota_device_state_name(uint32_t st)
{
	switch (st) {
	case OTA_DEV_OFF: return "off";
	case OTA_DEV_BOOTING: return "booting";
	case OTA_DEV_READY: return "ready";
	case OTA_DEV_FAILED: return "failed";
	case OTA_DEV_RESETTING: return "resetting";
	case OTA_DEV_ROTATING: return "rotating";
	}
	return "unknown";
}

#endif /* OTATTEST_SHM_H */
