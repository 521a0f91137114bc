// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the model's mailbox engine (qemu-model/board/mailbox.c
 * and shm.c, the real code) against hostile request regions. Each input
 * is a run of requests: per request one control byte (fault knobs: late
 * answers, corrupted or lying responses), a 16-byte header and payload
 * bytes, written into the request region as a guest would, then the
 * doorbell. After every doorbell the response region must make sense: an
 * answer carries the request's sequence (or MBOX_BUSY for the newcomer),
 * a status from status.h, and never claims more payload than the region
 * holds unless the lying-length knob said so.
 *
 * The firmware is replaced by an echo that returns as many bytes as the
 * request asks (bounded by the capacity it is given): the firmware's
 * command parser is fuzzed on its own; this target is about the transport.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"

static struct model m;
static unsigned guest_rings;

void server_ring_guest(struct model *mm, unsigned vector)
{
	(void)mm;
	if (vector == OTA_VEC_MAILBOX)
		guest_rings++;
}

ota_status_t device_command(struct model *mm, uint32_t command, const uint8_t *req,
			    uint32_t req_len, uint8_t *resp, uint32_t resp_cap, uint32_t *resp_len)
{
	uint32_t want;

	(void)mm;
	*resp_len = 0;
	if (!ota_mbox_command(command))
		return OTA_MBOX_UNKNOWN_COMMAND;
	/* Touch every request byte: ASan proves they are all inside the copy. */
	want = 0;
	for (uint32_t i = 0; i < req_len; i++)
		want = want * 31u + req[i];
	want = req_len ? (want % 8192u) : 0;
	if (want > resp_cap)
		return OTA_MBOX_RESPONSE_TOO_LARGE;
	memset(resp, 0xa5, want);
	*resp_len = want;
	return OTA_OK;
}

/*
 * The board's hang knob (control 'hang', firmware_host.c): no runtime
 * runs here, so none hangs; the transport is fuzzed with every request read.
 */
bool device_runtime_hung(const struct model *mm)
{
	(void)mm;
	return false;
}

static void setup(void)
{
	if (m.event)
		return;
	log_set_level(LOG_LVL_ERROR);
	if (sd_event_new(&m.event) < 0 || shm_create(&m.shm) < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	volatile uint8_t *req;
	volatile const struct ota_mbox_header *resp;
	uint32_t cap, room;

	setup();
	req = shm_request(&m.shm);
	resp = (volatile const struct ota_mbox_header *)shm_response(&m.shm);
	cap = shm_response_capacity(&m.shm);
	room = shm_request_capacity(&m.shm);
	fault_clear_all(&m.faults);
	mbox_reset(&m);

	while (size >= 1 + sizeof(struct ota_mbox_header)) {
		struct ota_mbox_header h, out;
		uint8_t knobs = data[0];
		size_t payload;
		unsigned rings_before = guest_rings;

		memcpy(&h, data + 1, sizeof(h));
		data += 1 + sizeof(h);
		size -= 1 + sizeof(h);
		payload = size < 64 ? size : 64;

		m.faults.delay_ms = (knobs & 1u) ? 5u : 0u;
		m.faults.n_corrupt_response = (knobs & 2u) ? 1u : 0u;
		m.faults.corrupt_response[0] = (struct fault_corrupt){ .offset = knobs, .xor_mask = 0x5a };
		m.faults.response_length_set = (knobs & 4u) != 0;
		m.faults.response_length = 0xfffff000u | knobs;
		if (knobs & 8u) {
			/* An answer that was held back is lost (a power cycle). */
			mbox_cancel_pending(&m);
		}

		memcpy((void *)(req + sizeof(h)), data, payload);
		memcpy((void *)req, &h, sizeof(h));
		data += payload;
		size -= payload;

		mbox_doorbell(&m);

		if (guest_rings == rings_before)
			continue; /* held back, or dropped: nothing was published */
		memcpy(&out, (const void *)resp, sizeof(out));
		if (out.seq != h.seq)
			abort(); /* every published answer is for the request just rung */
		if (!ota_status_message(out.status))
			abort();
		if (!m.faults.response_length_set && out.length > cap)
			abort();
		if (!m.faults.response_length_set && out.status == OTA_OK &&
		    out.length > ota_mbox_command(h.command)->response_max)
			abort(); /* never more than the command table allows */
		if (out.status != OTA_OK && out.length != 0 && !m.faults.response_length_set)
			abort(); /* refusals carry no payload */
		if (out.status == OTA_MBOX_BAD_LENGTH && h.length <= room &&
		    ota_mbox_command(h.command) && h.seq != 0 && h.status == 0)
			abort(); /* the transport only refuses lengths past the region */
	}
	return 0;
}
