/* SPDX-License-Identifier: MIT */
/*
 * The driver's view of the device, for host tests and tools: read the
 * info block and the record the way the kernel driver must (copy, check
 * the seqlock, validate) and run mailbox requests with a timeout. Nothing
 * read from shared memory is trusted before it is copied and checked.
 */
#ifndef TESTS_MODEL_DEVCLIENT_H
#define TESTS_MODEL_DEVCLIENT_H

#include <otattest/record.h>
#include <otattest/shm.h>

#include "ivclient.h"

struct devc {
	struct ivc iv;
	struct ota_shm_info info; /* validated copy */
	uint32_t next_seq;
	bool need_ring; /* the awaited sequence was already shown before the request */
};

/* Connect as the guest and validate the info block. 0 or -errno / -EPROTO. */
int devc_open(struct devc *d, const char *socket_path, int timeout_ms);
void devc_close(struct devc *d);

/* A consistent copy of the info block (event-counter seqlock); OTA_OK or why not. */
ota_status_t devc_read_info(struct devc *d, struct ota_shm_info *out);

/*
 * A consistent copy of the record region: the seqlock generation, the
 * length (bounded by the region) and the bytes. RECORD_TORN after bounded
 * retries, RECORD_BAD_LENGTH when the length exceeds the region or cap.
 * The record itself is not validated here (callers run ota_record_validate).
 */
ota_status_t devc_read_record(struct devc *d, void *buf, uint32_t cap, uint32_t *len,
			      uint32_t *shm_generation);

/*
 * One mailbox exchange with a caller-built request header (tests use it
 * to send broken ones). Waits for a response whose sequence number is
 * hdr->seq. Returns OTA_OK with the response header and payload copied
 * out, HOST_TIMEOUT, or HOST_PROTOCOL for a response whose length exceeds
 * its region or cap (*resp_hdr still filled in).
 */
ota_status_t devc_exchange(struct devc *d, const struct ota_mbox_header *hdr, const void *payload,
			   uint32_t payload_len, struct ota_mbox_header *resp_hdr, void *resp,
			   uint32_t cap, int timeout_ms);

/* The two halves of devc_exchange, for tests that interleave requests. */
ota_status_t devc_send(struct devc *d, const struct ota_mbox_header *hdr, const void *payload,
		       uint32_t payload_len);
ota_status_t devc_await(struct devc *d, uint32_t seq, struct ota_mbox_header *resp_hdr,
			void *resp, uint32_t cap, int timeout_ms);

/*
 * A well-formed request with a fresh sequence number. Returns the
 * transport outcome; the device's answer is in *status.
 */
ota_status_t devc_call(struct devc *d, uint32_t command, const void *req, uint32_t req_len,
		       void *resp, uint32_t cap, uint32_t *resp_len, ota_status_t *status,
		       int timeout_ms);

#endif /* TESTS_MODEL_DEVCLIENT_H */
