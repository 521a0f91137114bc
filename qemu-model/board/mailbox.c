// SPDX-License-Identifier: MIT
/*
 * The device's mailbox engine: one request in flight, served when the
 * guest rings OTA_VEC_MAILBOX at the device peer.
 *
 * The request region is hostile: its header is copied out once and
 * checked (sequence, reserved status word, length bounded by the region)
 * before its payload is copied and handed to the firmware, which checks
 * the payload itself. The firmware may answer with no more than the
 * command's response bound in the command table (otattest/mailbox.h), so
 * the model never publishes evidence over the limit every layer holds it
 * to. Every answer, refusals included, is a response
 * whose header is written last: the sequence word is zeroed first and
 * stored last with release ordering, so a reader that copies the response
 * and sees the same non-zero sequence before and after has a whole one.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model.h"

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Write the response in m->mbox.resp to shared memory and ring the guest. */
static void publish(struct model *m, const struct ota_mbox_header *h)
{
	volatile uint8_t *region = shm_response(&m->shm);
	volatile struct ota_mbox_header *out = (volatile struct ota_mbox_header *)region;
	uint32_t len = h->length, reported = h->length;

	/* Sequence 0 first: whoever looks now knows this response is in the making. */
	__atomic_store_n(&out->seq, 0u, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	memcpy((void *)(region + sizeof(*out)), m->mbox.resp, len);
	if (m->faults.n_corrupt_response)
		for (uint32_t i = 0; i < m->faults.n_corrupt_response; i++) {
			const struct fault_corrupt *c = &m->faults.corrupt_response[i];

			if (c->offset < len)
				region[sizeof(*out) + c->offset] ^= c->xor_mask;
		}
	if (m->faults.response_length_set)
		reported = m->faults.response_length;
	__atomic_store_n(&out->command, h->command, __ATOMIC_RELAXED);
	__atomic_store_n(&out->length, reported, __ATOMIC_RELAXED);
	__atomic_store_n(&out->status, h->status, __ATOMIC_RELAXED);
	__atomic_store_n(&out->seq, h->seq, __ATOMIC_RELEASE);
	m->mbox.answered++;
	server_ring_guest(m, OTA_VEC_MAILBOX);
}

static int on_delay_elapsed(sd_event_source *src, uint64_t usec, void *userdata)
{
	struct model *m = userdata;

	(void)src;
	(void)usec;
	if (!m->mbox.pending)
		return 0;
	m->mbox.pending = false;
	log_info("mbox-answer-late", "seq=%u delay-ms=%u", m->mbox.pending_hdr.seq,
		 m->faults.delay_ms);
	publish(m, &m->mbox.pending_hdr);
	return 0;
}

/* Answer now, or hold the answer back when the delay fault is set. */
static void answer(struct model *m, uint32_t seq, uint32_t command, ota_status_t st,
		   uint32_t len)
{
	struct ota_mbox_header h = { .seq = seq, .command = command, .length = len, .status = st };
	int r;

	if (m->faults.delay_ms == 0) {
		publish(m, &h);
		return;
	}
	m->mbox.pending_hdr = h;
	m->mbox.pending = true;
	if (!m->mbox.delay_src)
		r = sd_event_add_time_relative(m->event, &m->mbox.delay_src, CLOCK_MONOTONIC,
					       (uint64_t)m->faults.delay_ms * 1000u, 1,
					       on_delay_elapsed, m);
	else
		r = sd_event_source_set_time_relative(m->mbox.delay_src,
						      (uint64_t)m->faults.delay_ms * 1000u);
	if (r >= 0)
		r = sd_event_source_set_enabled(m->mbox.delay_src, SD_EVENT_ONESHOT);
	if (r < 0) {
		log_error("mbox-delay-failed", "seq=%u errno=%d", seq, -r);
		m->mbox.pending = false;
		publish(m, &h);
	}
}

static void refuse(struct model *m, const struct ota_mbox_header *h, ota_status_t st)
{
	m->mbox.refused++;
	log_info("mbox-refused", "seq=%u command=%u length=%u status=%s", h->seq, h->command,
		 h->length, status_str(st));
	answer(m, h->seq, h->command, st, 0);
}

/* Room the firmware gets for a command's answer: the region, the buffer, the table's bound. */
static uint32_t firmware_capacity(const struct model *m, uint32_t command, uint32_t region_cap)
{
	const struct ota_mbox_command_desc *desc = ota_mbox_command(command);
	uint32_t cap = region_cap < sizeof(m->mbox.resp) ? region_cap : (uint32_t)sizeof(m->mbox.resp);

	if (!desc)
		return 0; /* the firmware refuses it before writing anything */
	return desc->response_max < cap ? desc->response_max : cap;
}

/*
 * The slot an update reset or a commit named, for the log (the firmware
 * judged the request; this only shows it): what reached the device is the
 * first thing to know when an update agent and the device disagree.
 */
static const char *request_detail(const struct ota_mbox_header *h, const uint8_t *req)
{
	static char buf[32];
	uint32_t slot;

	if ((h->command != OTA_CMD_UPDATE_RESET && h->command != OTA_CMD_COMMIT) ||
	    h->length != sizeof(struct ota_req_update))
		return "";
	memcpy(&slot, req, sizeof(slot)); /* the first word of both requests */
	snprintf(buf, sizeof(buf), " slot=%s", slot == OTA_SLOT_A ? "a" : slot == OTA_SLOT_B ? "b"
						: slot == OTA_UPDATE_SLOT_OTHER ? "other" : "bad");
	return buf;
}

void mbox_doorbell(struct model *m)
{
	volatile const uint8_t *region = shm_request(&m->shm);
	struct ota_mbox_header h;
	uint32_t resp_len = 0, cap = shm_response_capacity(&m->shm);
	uint64_t t0, t1;
	ota_status_t st;

	/* One copy of the header; everything below looks only at the copy. */
	memcpy(&h, (const void *)region, sizeof(h));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	m->mbox.requests++;

	if (m->faults.drop || device_runtime_hung(m)) {
		/* Dropped on purpose, or a hung BL0 never reads it (watchdog.c). */
		m->mbox.dropped++;
		log_info("mbox-dropped", "seq=%u command=%u%s", h.seq, h.command,
			 m->faults.drop ? "" : " reason=runtime-hung");
		return;
	}
	if (m->mbox.pending) {
		if (h.seq == m->mbox.pending_hdr.seq) {
			/* The same request rung again: its answer is on its way. */
			log_debug("mbox-doorbell-again", "seq=%u", h.seq);
			return;
		}
		m->mbox.refused++;
		log_info("mbox-refused", "seq=%u command=%u status=%s pending-seq=%u", h.seq,
			 h.command, status_str(OTA_MBOX_BUSY), m->mbox.pending_hdr.seq);
		publish(m, &(struct ota_mbox_header){ .seq = h.seq, .command = h.command,
						       .length = 0, .status = OTA_MBOX_BUSY });
		return;
	}
	if (h.seq == 0 || h.seq == m->mbox.last_seq) {
		/* Refused without becoming the last answered sequence. */
		refuse(m, &h, OTA_MBOX_BAD_SEQUENCE);
		return;
	}
	m->mbox.last_seq = h.seq;
	if (h.status != 0) {
		refuse(m, &h, OTA_MBOX_RESERVED_NONZERO);
		return;
	}
	if (h.length > shm_request_capacity(&m->shm) || h.length > sizeof(m->mbox.req)) {
		refuse(m, &h, OTA_MBOX_BAD_LENGTH);
		return;
	}
	memcpy(m->mbox.req, (const void *)(region + sizeof(h)), h.length);

	t0 = now_usec();
	st = device_command(m, h.command, m->mbox.req, h.length, m->mbox.resp,
			    firmware_capacity(m, h.command, cap), &resp_len);
	t1 = now_usec();
	if (resp_len > cap) {
		/* Never publish past the region, whatever the firmware claims. */
		log_error("mbox-response-overflow", "seq=%u length=%u capacity=%u", h.seq,
			  resp_len, cap);
		st = OTA_MBOX_RESPONSE_TOO_LARGE;
		resp_len = 0;
	}
	log_info("mbox-request", "seq=%u command=%s length=%u status=%s response-length=%u usec=%llu%s",
		 h.seq, ota_mbox_command_name(h.command), h.length, status_str(st), resp_len,
		 (unsigned long long)(t1 - t0), request_detail(&h, m->mbox.req));
	answer(m, h.seq, h.command, st, resp_len);
}

void mbox_cancel_pending(struct model *m)
{
	if (m->mbox.pending)
		log_info("mbox-answer-lost", "seq=%u", m->mbox.pending_hdr.seq);
	m->mbox.pending = false;
	if (m->mbox.delay_src)
		sd_event_source_set_enabled(m->mbox.delay_src, SD_EVENT_OFF);
}

void mbox_forget(struct model *m)
{
	/* A new guest is a new driver: it owes nothing to the last one's sequence. */
	mbox_cancel_pending(m);
	m->mbox.last_seq = 0;
}

void mbox_reset(struct model *m)
{
	mbox_forget(m);
	shm_clear_mailbox(&m->shm);
}
