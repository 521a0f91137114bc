// SPDX-License-Identifier: MIT
/* The driver's view of the device; see devclient.h. */
#include "devclient.h"

#include <errno.h>
#include <string.h>
#include <time.h>

/*
 * A copy the writer tore is retried: back to back at first, then with a
 * pause, because the writer is another process that the scheduler may
 * stop between its two seqlock stores for milliseconds on a loaded
 * machine. Still bounded (about a second), as the driver is, so a writer
 * that died mid-write is reported, not waited for.
 */
#define SEQLOCK_SPINS 100
#define SEQLOCK_RETRIES (SEQLOCK_SPINS + 10000)
#define SEQLOCK_PAUSE_NS 100000L

static void seqlock_pause(int attempt)
{
	struct timespec pause = { 0, SEQLOCK_PAUSE_NS };

	if (attempt >= SEQLOCK_SPINS)
		nanosleep(&pause, NULL);
}

static uint32_t load32(volatile const void *p)
{
	return __atomic_load_n((volatile const uint32_t *)p, __ATOMIC_ACQUIRE);
}

static void copy_from(void *dst, volatile const uint8_t *src, uint32_t len)
{
	memcpy(dst, (const void *)src, len);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

ota_status_t devc_read_info(struct devc *d, struct ota_shm_info *out)
{
	volatile const struct ota_shm_info *in = (volatile const struct ota_shm_info *)d->iv.shm;

	for (int i = 0; i < SEQLOCK_RETRIES; seqlock_pause(i++)) {
		uint32_t before = load32(&in->event_counter);

		if (before & 1u)
			continue;
		copy_from(out, d->iv.shm, sizeof(*out));
		if (load32(&in->event_counter) == before) {
			out->event_counter = before;
			return ota_shm_info_validate(out, (uint32_t)d->iv.shm_size);
		}
	}
	return OTA_RECORD_TORN;
}

int devc_open(struct devc *d, const char *socket_path, int timeout_ms)
{
	const struct ota_mbox_header *resp;
	int r;

	memset(d, 0, sizeof(*d));
	r = ivc_connect(&d->iv, socket_path, timeout_ms);
	if (r < 0)
		return r;
	if (d->iv.shm_size > UINT32_MAX || devc_read_info(d, &d->info) != OTA_OK ||
	    !ivc_find_peer(&d->iv, OTA_SHM_DEVICE_PEER_ID)) {
		ivc_close(&d->iv);
		return -EPROTO;
	}
	/* Continue after whatever sequence the device last answered. */
	resp = (const struct ota_mbox_header *)(d->iv.shm + d->info.response_offset);
	d->next_seq = load32(&resp->seq) + 1u;
	if (d->next_seq == 0)
		d->next_seq = 1;
	return 0;
}

void devc_close(struct devc *d)
{
	ivc_close(&d->iv);
}

ota_status_t devc_read_record(struct devc *d, void *buf, uint32_t cap, uint32_t *len,
			      uint32_t *shm_generation)
{
	volatile const uint8_t *region = d->iv.shm + d->info.record_offset;
	volatile const struct ota_shm_record *h = (volatile const struct ota_shm_record *)region;
	uint32_t room = d->info.record_size - (uint32_t)sizeof(*h);

	for (int i = 0; i < SEQLOCK_RETRIES; seqlock_pause(i++)) {
		uint32_t before = load32(&h->generation), n;

		if (before & 1u)
			continue;
		n = load32(&h->length);
		if (n > room || n > cap) {
			if (load32(&h->generation) != before)
				continue;
			*len = n;
			*shm_generation = before;
			return OTA_RECORD_BAD_LENGTH;
		}
		copy_from(buf, region + sizeof(*h), n);
		if (load32(&h->generation) == before) {
			*len = n;
			*shm_generation = before;
			return OTA_OK;
		}
	}
	return OTA_RECORD_TORN;
}

ota_status_t devc_send(struct devc *d, const struct ota_mbox_header *hdr, const void *payload,
		       uint32_t payload_len)
{
	volatile uint8_t *req = d->iv.shm + d->info.request_offset;
	volatile const struct ota_mbox_header *rh =
		(volatile const struct ota_mbox_header *)(d->iv.shm + d->info.response_offset);
	uint32_t req_room = d->info.request_size - (uint32_t)sizeof(*hdr);

	/*
	 * A region that already shows this sequence (a test repeating one on
	 * purpose, or seq 0 over a cleared region) proves nothing until the
	 * device rings again.
	 */
	d->need_ring = load32(&rh->seq) == hdr->seq;
	/* Payload first, header last: the device reads the header after the doorbell. */
	memcpy((void *)(req + sizeof(*hdr)), payload, payload_len < req_room ? payload_len : req_room);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy((void *)req, hdr, sizeof(*hdr));
	__atomic_thread_fence(__ATOMIC_RELEASE);
	ivc_drain(&d->iv, OTA_VEC_MAILBOX);
	if (ivc_ring(&d->iv, OTA_SHM_DEVICE_PEER_ID, OTA_VEC_MAILBOX) < 0)
		return OTA_HOST_DEVICE_GONE;
	return OTA_OK;
}

ota_status_t devc_await(struct devc *d, uint32_t seq, struct ota_mbox_header *resp_hdr,
			void *resp, uint32_t cap, int timeout_ms)
{
	volatile const uint8_t *rsp = d->iv.shm + d->info.response_offset;
	volatile const struct ota_mbox_header *rh = (volatile const struct ota_mbox_header *)rsp;
	uint32_t room = d->info.response_size - (uint32_t)sizeof(*rh);
	int64_t deadline = now_ms() + timeout_ms;

	for (;;) {
		int64_t left = deadline - now_ms();

		if (load32(&rh->seq) == seq && !d->need_ring) {
			copy_from(resp_hdr, rsp, sizeof(*resp_hdr));
			if (resp_hdr->length > room || resp_hdr->length > cap) {
				if (load32(&rh->seq) == seq)
					return OTA_HOST_PROTOCOL;
				continue;
			}
			copy_from(resp, rsp + sizeof(*rh), resp_hdr->length);
			if (load32(&rh->seq) == seq)
				return OTA_OK;
			continue; /* rewritten while we copied: look again */
		}
		if (left <= 0)
			return OTA_HOST_TIMEOUT;
		if (ivc_wait(&d->iv, OTA_VEC_MAILBOX, (int)left))
			d->need_ring = false;
	}
}

ota_status_t devc_exchange(struct devc *d, const struct ota_mbox_header *hdr, const void *payload,
			   uint32_t payload_len, struct ota_mbox_header *resp_hdr, void *resp,
			   uint32_t cap, int timeout_ms)
{
	OTA_TRY(devc_send(d, hdr, payload, payload_len));
	return devc_await(d, hdr->seq, resp_hdr, resp, cap, timeout_ms);
}

ota_status_t devc_call(struct devc *d, uint32_t command, const void *req, uint32_t req_len,
		       void *resp, uint32_t cap, uint32_t *resp_len, ota_status_t *status,
		       int timeout_ms)
{
	struct ota_mbox_header hdr = { .seq = d->next_seq, .command = command, .length = req_len };
	struct ota_mbox_header out;
	ota_status_t st;

	d->next_seq = d->next_seq + 1u ? d->next_seq + 1u : 1u;
	st = devc_exchange(d, &hdr, req, req_len, &out, resp, cap, timeout_ms);
	if (st != OTA_OK)
		return st;
	if (out.command != command)
		return OTA_HOST_PROTOCOL;
	*status = out.status;
	*resp_len = out.length;
	return OTA_OK;
}
