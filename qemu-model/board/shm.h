/* SPDX-License-Identifier: MIT */
/*
 * The device's face in shared memory (libotattest/include/otattest/shm.h,
 * byte by byte in docs/shm-abi.md).
 *
 * The model keeps the truth in private memory and only ever writes it out:
 * the guest can write every byte of BAR2, so nothing the model decides is
 * read back from shared memory except the request region, which is
 * hostile input to the mailbox.
 *
 * Two seqlocks, both "odd while the device writes, even when done":
 *  - ota_shm_record.generation around the record region;
 *  - ota_shm_info.event_counter around the info block's mutable fields
 *    (state, detail, progress), and moved on by 2 for a record change too,
 *    so "the counter moved" means "something changed" for either.
 */
#ifndef MODEL_SHM_H
#define MODEL_SHM_H

#include <stdbool.h>
#include <stdint.h>

#include <otattest/shm.h>

struct faults;

struct shm {
	int fd;        /* memfd, sealed against resizing */
	uint8_t *base; /* OTA_SHM_SIZE bytes, MAP_SHARED */
	struct ota_shm_info info; /* what the info block must say */
	uint32_t record_seq;      /* seqlock value last written (even) */
	uint32_t shown_record_len; /* bytes of record now in the region */
	/* The record as the firmware last published it, before any fault. */
	uint8_t record[OTA_RECORD_MAX_BYTES];
	uint32_t record_len;
	bool have_record;
};

/* memfd of OTA_SHM_SIZE with the default layout; state OFF. 0 or -errno. */
int shm_create(struct shm *s);
/*
 * A split model's device process: map the memory its server made (fd is
 * ours from now on, closed by shm_destroy, also when this fails) and take
 * it over as a power-on does: info block rewritten (state OFF), record region emptied, response
 * region cleared, the two seqlock counters carried on from where the last
 * device left them. 0, -EPROTO for memory of the wrong size or unsealed,
 * or -errno.
 */
int shm_attach(struct shm *s, int fd);
void shm_destroy(struct shm *s);

/* Each of these moves event_counter; the caller rings OTA_VEC_EVENT. */
void shm_set_state(struct shm *s, uint32_t state, uint32_t detail);
void shm_set_progress(struct shm *s, uint32_t done, uint32_t total);
/* A record longer than the region is cut (and logged); faults may alter what is shown. */
void shm_publish_record(struct shm *s, const void *record, uint32_t len,
			const struct faults *f);
/* Show the last published record again, e.g. after a fault knob changed. */
void shm_republish_record(struct shm *s, const struct faults *f);

/* Request/response regions: base pointers and payload capacities. */
volatile uint8_t *shm_request(const struct shm *s);
volatile uint8_t *shm_response(const struct shm *s);
uint32_t shm_request_capacity(const struct shm *s);
uint32_t shm_response_capacity(const struct shm *s);
/* Zero both mailbox regions (a new guest starts from a clean mailbox). */
void shm_clear_mailbox(struct shm *s);

#endif /* MODEL_SHM_H */
