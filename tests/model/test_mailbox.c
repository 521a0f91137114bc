// SPDX-License-Identifier: MIT
/*
 * The ivshmem server and the mailbox transport, on a blank device (no
 * provisioning needed: the cold boot fails and says why, and GET_RECORD
 * is served all the same). Every malformed request must get its specific
 * error status, and the model must keep serving afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static struct rig rig;

static void setup(void)
{
	rig_up(&rig, false, NULL);
}

static void teardown(void)
{
	rig_down(&rig);
}

/* The model must still answer a plain GET_RECORD correctly. */
static void assert_still_serving(void)
{
	struct ota_record rec, via_mbox;
	uint32_t len, resp_len = 0;

	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_GET_RECORD, NULL, 0, &via_mbox,
				   sizeof(via_mbox), &resp_len),
			  OTA_OK);
	len = rig_record(&rig, &rec);
	ck_assert_uint_eq(resp_len, len);
	ck_assert_mem_eq(&via_mbox, &rec, len);
}

/* A raw exchange whose answer must carry exactly `want`. */
static void expect_status(const struct ota_mbox_header *h, const void *payload, uint32_t len,
			  ota_status_t want)
{
	struct ota_mbox_header resp;
	uint8_t buf[OTA_SHM_RESPONSE_SIZE];
	ota_status_t t = devc_exchange(&rig.dev, h, payload, len, &resp, buf, sizeof(buf),
				       MBOX_TIMEOUT_MS);

	ck_assert_msg(t == OTA_OK, "no answer to seq %u command %u: %s", h->seq, h->command,
		      ota_status_name(t));
	ck_assert_msg(resp.status == want, "seq %u command %u length %u: got %s (0x%x), want %s",
		      h->seq, h->command, h->length,
		      ota_status_name(resp.status) ? ota_status_name(resp.status) : "?",
		      resp.status, ota_status_name(want));
	ck_assert_uint_eq(resp.seq, h->seq);
	ck_assert_uint_eq(resp.length, 0);
}

START_TEST(greeting_gives_memory_and_vectors)
{
	const struct ivshmem_remote *dev;
	struct ota_shm_info info;
	int seals;

	ck_assert_int_ge(rig.dev.iv.cl.own_id, 1); /* guests never get 0: IVPosition 0 is ambiguous */
	ck_assert_uint_eq(rig.dev.iv.shm_size, OTA_SHM_SIZE);
	dev = ivc_find_peer(&rig.dev.iv, 0);
	ck_assert_ptr_nonnull(dev);
	for (unsigned v = 0; v < OTA_VEC_COUNT; v++) {
		ck_assert_int_ge(dev->fd[v], 0);
		ck_assert_int_ge(rig.dev.iv.cl.own_fd[v], 0);
	}
	/* The memory cannot be resized under the other peers. */
	seals = fcntl(rig.dev.iv.cl.shm_fd, F_GET_SEALS);
	ck_assert_int_eq(seals & (F_SEAL_SHRINK | F_SEAL_GROW), F_SEAL_SHRINK | F_SEAL_GROW);

	ck_assert_uint_eq(devc_read_info(&rig.dev, &info), OTA_OK);
	ck_assert_uint_eq(info.magic, OTA_SHM_MAGIC);
	ck_assert_uint_eq(info.abi_major, OTA_SHM_ABI_MAJOR);
	ck_assert_uint_eq(info.info_size, sizeof(info));
	ck_assert_uint_eq(info.reserved0, 0);
	ck_assert_uint_eq(info.record_offset, OTA_SHM_RECORD_OFFSET);
	ck_assert_uint_eq(info.request_offset, OTA_SHM_REQUEST_OFFSET);
	ck_assert_uint_eq(info.response_offset, OTA_SHM_RESPONSE_OFFSET);
	ck_assert_uint_eq(info.event_counter % 2, 0);
	/* A blank part has no OTP: the boot fails and the state says why. */
	ck_assert_uint_eq(info.device_state, OTA_DEV_FAILED);
	ck_assert_uint_ne(info.state_detail, OTA_OK);
	ck_assert_ptr_nonnull(ota_status_name(info.state_detail));
}
END_TEST

START_TEST(record_region_matches_get_record)
{
	struct ota_record rec;

	rig_record(&rig, &rec);
	ck_assert_uint_eq(rec.hdr.reset_reason, OTA_RESET_COLD);
	ck_assert_uint_ne(rec.hdr.boot_status, OTA_OK);
	ck_assert_uint_ge(rec.hdr.generation, 1);
	assert_still_serving();
}
END_TEST

/*
 * The device's doorbell peer is fixed by the ABI, as a real device's
 * doorbell is where the hardware puts it: the model is always peer
 * OTA_SHM_DEVICE_PEER_ID, names no peer in its info block (byte 16 is
 * reserved, 0), and has no option to move it (--device-peer-id=7 moved
 * it, and the info block told the driver whom to ring).
 */
START_TEST(device_peer_fixed_by_the_abi)
{
	const uint8_t *info = (const uint8_t *)rig.dev.iv.shm;
	uint32_t byte16;

	ck_assert_ptr_nonnull(ivc_find_peer(&rig.dev.iv, OTA_SHM_DEVICE_PEER_ID));
	ck_assert_int_ne(rig.dev.iv.cl.own_id, OTA_SHM_DEVICE_PEER_ID);
	memcpy(&byte16, info + 16, sizeof(byte16));
	ck_assert_uint_eq(byte16, 0);
	/* A usage error, exit 2 (timeout: a model that took the option would run on). */
	ck_assert_int_eq(shell_run("timeout 10 %s -d %s/peer7 --device-peer-id=7 2>/dev/null",
				   mp_binary(), rig.mp.dir),
			 2);
	ck_assert_int_eq(shell_run("timeout 10 %s server --socket=%s/s7 --device-socket=%s/d7 "
				   "--device-peer-id=7 2>/dev/null",
				   mp_binary(), rig.mp.dir, rig.mp.dir),
			 2);
	assert_still_serving();
}
END_TEST

START_TEST(second_guest_is_refused)
{
	struct ivc second;
	int e;

	/* Turned away with a version no client speaks (QEMU exits on it). */
	e = ivc_connect(&second, rig.mp.socket, CONNECT_TIMEOUT_MS);
	ck_assert_int_eq(e, -EBUSY);
	ck_assert_int_eq(rig_status(&rig, "guests-refused"), 1);
	ck_assert_int_eq(mp_log_count(&rig.mp, "guest-refused reason=busy"), 1);
	/* The first guest is untouched. */
	assert_still_serving();
	ck_assert_int_eq(rig_status(&rig, "guest-peer"), rig.dev.iv.cl.own_id);
}
END_TEST

START_TEST(disconnect_then_reconnect)
{
	int64_t first = rig.dev.iv.cl.own_id;

	assert_still_serving();
	rig_leave(&rig);
	rig_wait_status(&rig, "guest", "no", 2000);
	rig_join(&rig);
	ck_assert_int_ne(rig.dev.iv.cl.own_id, first); /* a new connection, a new id */
	ck_assert_int_eq(rig_status(&rig, "guests-accepted"), 2);
	/* The new guest owes nothing to the old one's sequence numbers. */
	rig.dev.next_seq = 1;
	assert_still_serving();
	ck_assert_int_eq(mp_log_count(&rig.mp, "guest-disconnected"), 1);
}
END_TEST

START_TEST(a_guest_that_talks_is_dropped)
{
	char junk[8] = "garbage";

	/* The protocol is one-way; a client that writes is not QEMU. */
	ck_assert_int_eq(write(rig.dev.iv.cl.sock, junk, sizeof(junk)), (ssize_t)sizeof(junk));
	rig_wait_status(&rig, "guest", "no", 2000);
	ck_assert_int_eq(mp_log_count(&rig.mp, "guest-protocol-error"), 1);
	rig_leave(&rig);
	rig_join(&rig);
	assert_still_serving();
}
END_TEST

START_TEST(sequence_zero_is_refused)
{
	struct ota_mbox_header h = { .seq = 0, .command = OTA_CMD_GET_RECORD };

	expect_status(&h, NULL, 0, OTA_MBOX_BAD_SEQUENCE);
	assert_still_serving();
}
END_TEST

START_TEST(repeated_sequence_is_refused)
{
	struct ota_mbox_header h = { .seq = 41, .command = OTA_CMD_GET_RECORD };
	struct ota_mbox_header resp;
	uint8_t buf[2048];

	ck_assert_uint_eq(devc_exchange(&rig.dev, &h, NULL, 0, &resp, buf, sizeof(buf),
					MBOX_TIMEOUT_MS),
			  OTA_OK);
	ck_assert_uint_eq(resp.status, OTA_OK);
	expect_status(&h, NULL, 0, OTA_MBOX_BAD_SEQUENCE);
	/* Refusing the repeat did not make it "answered" twice: 42 works, then 41 again. */
	h.seq = 42;
	ck_assert_uint_eq(devc_exchange(&rig.dev, &h, NULL, 0, &resp, buf, sizeof(buf),
					MBOX_TIMEOUT_MS),
			  OTA_OK);
	ck_assert_uint_eq(resp.status, OTA_OK);
	h.seq = 41;
	ck_assert_uint_eq(devc_exchange(&rig.dev, &h, NULL, 0, &resp, buf, sizeof(buf),
					MBOX_TIMEOUT_MS),
			  OTA_OK);
	ck_assert_uint_eq(resp.status, OTA_OK);
	ck_assert_int_eq(rig_status(&rig, "last-seq"), 41);
}
END_TEST

START_TEST(reserved_status_word_is_refused)
{
	struct ota_mbox_header h = { .seq = 5, .command = OTA_CMD_GET_RECORD, .status = 1 };

	expect_status(&h, NULL, 0, OTA_MBOX_RESERVED_NONZERO);
	assert_still_serving();
}
END_TEST

START_TEST(length_past_the_region_is_refused)
{
	uint32_t lens[] = { OTA_SHM_REQUEST_SIZE - 16u + 1u, OTA_SHM_REQUEST_SIZE, 0x80000000u,
			    0xffffffffu };

	for (unsigned i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		struct ota_mbox_header h = { .seq = 100 + i, .command = OTA_CMD_ATTEST,
					     .length = lens[i] };

		expect_status(&h, NULL, 0, OTA_MBOX_BAD_LENGTH);
	}
	assert_still_serving();
}
END_TEST

/* Each command of the table (mailbox.h), through shared memory: near misses and the largest. */
START_TEST(length_wrong_for_command_is_refused)
{
	uint8_t payload[OTA_SHM_REQUEST_SIZE - 16u];
	uint32_t seq = 200;

	memset(payload, 0, sizeof(payload));
	for (uint32_t c = 1; c <= OTA_CMD_MAX; c++) {
		const uint32_t want = ota_mbox_command(c)->request_len;
		const uint32_t lengths[] = { want + 1u, want + 4u, want ? want - 1u : 4u,
					     want ? 0u : 8u, sizeof(payload) };

		for (unsigned i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
			struct ota_mbox_header h = { .seq = seq++, .command = c,
						     .length = lengths[i] };

			expect_status(&h, payload, lengths[i], OTA_MBOX_BAD_LENGTH);
		}
	}
	assert_still_serving();
}
END_TEST

START_TEST(unknown_commands_are_refused)
{
	uint32_t commands[] = { 0, OTA_CMD_MAX + 1u, 0x100, 0xffffffffu };

	for (unsigned i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		struct ota_mbox_header h = { .seq = 300 + i, .command = commands[i] };

		expect_status(&h, NULL, 0, OTA_MBOX_UNKNOWN_COMMAND);
	}
	assert_still_serving();
}
END_TEST

START_TEST(bad_payload_fields_are_refused)
{
	struct ota_req_attest att;
	struct ota_req_rotate rot = { .flags = 1 };
	struct ota_req_update upd = { .slot = 7 };
	struct ota_mbox_header h = { .seq = 400, .command = OTA_CMD_ATTEST,
				     .length = sizeof(att) };

	memset(&att, 0, sizeof(att));
	att.nonce_len = 8; /* below OTA_NONCE_MIN */
	expect_status(&h, &att, sizeof(att), OTA_MBOX_NONCE_LENGTH);
	att.nonce_len = 16;
	att.reserved = 1;
	h.seq++;
	expect_status(&h, &att, sizeof(att), OTA_MBOX_RESERVED_NONZERO);
	att.reserved = 0;
	att.nonce[40] = 1; /* padding past nonce_len */
	h.seq++;
	expect_status(&h, &att, sizeof(att), OTA_MBOX_RESERVED_NONZERO);

	h = (struct ota_mbox_header){ .seq = 410, .command = OTA_CMD_ROTATE_TAGS,
				      .length = sizeof(rot) };
	expect_status(&h, &rot, sizeof(rot), OTA_MBOX_RESERVED_NONZERO);
	h = (struct ota_mbox_header){ .seq = 411, .command = OTA_CMD_UPDATE_RESET,
				      .length = sizeof(upd) };
	expect_status(&h, &upd, sizeof(upd), OTA_MBOX_BAD_FIELD);
	assert_still_serving();
}
END_TEST

START_TEST(valid_requests_on_a_failed_device_say_not_ready)
{
	struct ota_req_attest att;
	uint8_t buf[4096];
	uint32_t len;

	memset(&att, 0, sizeof(att));
	att.nonce_len = 32;
	memset(att.nonce, 0xa5, 32);
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_ATTEST, &att, sizeof(att), buf, sizeof(buf), &len),
			  OTA_MBOX_NOT_READY);
	ck_assert_uint_eq(len, 0);
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_WARM_RESET, NULL, 0, buf, sizeof(buf), &len),
			  OTA_MBOX_NOT_READY);
	assert_still_serving();
}
END_TEST

/* Random headers and payloads: every one answered, none kills the model. */
START_TEST(random_requests_never_stop_the_model)
{
	uint8_t payload[512], buf[OTA_SHM_RESPONSE_SIZE];
	unsigned seed = 0x5eed1234u;

	for (unsigned i = 0; i < 300; i++) {
		struct ota_mbox_header h, resp;
		ota_status_t t;

		h.seq = 1000 + i;
		h.command = (uint32_t)rand_r(&seed) % 10u;
		h.length = (uint32_t)rand_r(&seed) % 4 == 0 ? (uint32_t)rand_r(&seed)
							    : (uint32_t)rand_r(&seed) % sizeof(payload);
		h.status = (uint32_t)rand_r(&seed) % 8 == 0 ? (uint32_t)rand_r(&seed) : 0;
		for (unsigned k = 0; k < sizeof(payload); k++)
			payload[k] = (uint8_t)rand_r(&seed);
		if (ota_mbox_command(h.command) &&
		    (ota_mbox_command(h.command)->flags & OTA_MBOX_F_RESETS))
			h.command = OTA_CMD_ATTEST; /* a reset would end the run, not test it */
		t = devc_exchange(&rig.dev, &h, payload,
				  h.length < sizeof(payload) ? h.length : sizeof(payload), &resp,
				  buf, sizeof(buf), MBOX_TIMEOUT_MS);
		ck_assert_msg(t == OTA_OK, "request %u not answered", i);
		ck_assert_ptr_nonnull(ota_status_message(resp.status));
	}
	assert_still_serving();
	ck_assert_int_eq(rig_status(&rig, "answered"), 301);
}
END_TEST

START_TEST(doorbell_on_the_event_vector_is_ignored)
{
	ck_assert_int_eq(ivc_ring(&rig.dev.iv, 0, OTA_VEC_EVENT), 0);
	/* Nothing answers it... */
	ck_assert_uint_eq(ivc_wait(&rig.dev.iv, OTA_VEC_MAILBOX, 200), 0);
	ck_assert_int_eq(mp_log_count(&rig.mp, "doorbell-unexpected vector=1"), 1);
	/* ...and the mailbox still works. */
	assert_still_serving();
}
END_TEST

START_TEST(guest_scribbling_on_the_info_block_is_healed)
{
	struct ota_shm_info info;

	/* The guest owns BAR2 and may write anything; the device keeps its own truth. */
	memset((void *)rig.dev.iv.shm, 0x5a, sizeof(info));
	memset((void *)(rig.dev.iv.shm + OTA_SHM_RECORD_OFFSET), 0x5a, 64);
	{
		/* The mailbox uses the device's own layout, not the scribble. */
		uint8_t buf[2048];
		uint32_t len;

		ck_assert_uint_eq(rig_call(&rig, OTA_CMD_GET_RECORD, NULL, 0, buf, sizeof(buf),
					   &len),
				  OTA_OK);
		ck_assert_uint_eq(ota_record_validate(buf, len), OTA_OK);
	}
	{
		char reply[256];

		rig_ctl_ok(&rig, "power-cycle", reply, sizeof(reply));
	}
	ck_assert_uint_eq(devc_read_info(&rig.dev, &info), OTA_OK);
	ck_assert_uint_eq(info.magic, OTA_SHM_MAGIC);
	{
		struct ota_record rec;

		rig_record(&rig, &rec);
	}
}
END_TEST

static Suite *mailbox_suite(void)
{
	Suite *s = suite_create("model-mailbox");
	TCase *ivs = tcase_create("ivshmem");
	TCase *mbox = tcase_create("mailbox");

	tcase_add_checked_fixture(ivs, setup, teardown);
	tcase_set_timeout(ivs, 60);
	tcase_add_test(ivs, greeting_gives_memory_and_vectors);
	tcase_add_test(ivs, record_region_matches_get_record);
	tcase_add_test(ivs, device_peer_fixed_by_the_abi);
	tcase_add_test(ivs, second_guest_is_refused);
	tcase_add_test(ivs, disconnect_then_reconnect);
	tcase_add_test(ivs, a_guest_that_talks_is_dropped);
	tcase_add_test(ivs, doorbell_on_the_event_vector_is_ignored);
	tcase_add_test(ivs, guest_scribbling_on_the_info_block_is_healed);
	suite_add_tcase(s, ivs);

	tcase_add_checked_fixture(mbox, setup, teardown);
	tcase_set_timeout(mbox, 120);
	tcase_add_test(mbox, sequence_zero_is_refused);
	tcase_add_test(mbox, repeated_sequence_is_refused);
	tcase_add_test(mbox, reserved_status_word_is_refused);
	tcase_add_test(mbox, length_past_the_region_is_refused);
	tcase_add_test(mbox, length_wrong_for_command_is_refused);
	tcase_add_test(mbox, unknown_commands_are_refused);
	tcase_add_test(mbox, bad_payload_fields_are_refused);
	tcase_add_test(mbox, valid_requests_on_a_failed_device_say_not_ready);
	tcase_add_test(mbox, random_requests_never_stop_the_model);
	suite_add_tcase(s, mbox);
	return s;
}

int main(void)
{
	return harness_run(mailbox_suite(), false);
}
