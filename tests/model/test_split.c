// SPDX-License-Identifier: MIT
/*
 * Split mode (docs/model.md): an 'otattest-model server' process keeps the
 * guest's ivshmem connection and the shared memory while the device
 * process (--connect) is killed and started again, as firmware crashes
 * and reboots under a host that keeps its PCI function.
 *
 * This test stands where QEMU stands and stays connected throughout. It
 * must see what a driver sees on such hardware: the device goes silent
 * (a request times out; the info block and the record stay readable),
 * then comes back by itself (a valid record of a newer generation, the
 * seqlock counters moved forward and never back, the mailbox working,
 * doorbells from before the restart dropped, state kept in the state
 * directory such as the tag key version after a rotation), and the
 * ivshmem connection carries no message meanwhile: the device peer and
 * its eventfds never change as far as QEMU can tell (devsock.c says why).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <otu/file.h>

#include "fixture.h"
#include "harness.h"

#define DEAD_TIMEOUT_MS 300
#define KILLS 4

struct split {
	struct model_proc mp;
	struct devc dev;
	bool joined;
	char load_flash[256], load_otp[256];
};

static struct split sp;

/* A device process, with the factory images the first time only. */
static void device_start(bool factory)
{
	const char *load[] = { sp.load_flash, sp.load_otp, NULL };
	int e = mp_start(&sp.mp, factory ? load : NULL);

	ck_assert_msg(e == 0, "device process did not start (%d); log %s", e, sp.mp.log);
}

static void setup(void)
{
	const struct fixture *fx = fixture_get();
	int e;

	ck_assert_msg(fx != NULL, "provisioning a device with otimage failed");
	memset(&sp, 0, sizeof(sp));
	ck_assert_int_eq(mp_init(&sp.mp), 0);
	snprintf(sp.load_flash, sizeof(sp.load_flash), "--load-flash=%s", fx->flash);
	snprintf(sp.load_otp, sizeof(sp.load_otp), "--load-otp=%s", fx->otp);
	e = mp_start_server(&sp.mp, NULL);
	ck_assert_msg(e == 0, "server did not start (%d); log %s", e, sp.mp.log);
}

static void leave_guest(void)
{
	if (sp.joined)
		devc_close(&sp.dev);
	sp.joined = false;
}

static void teardown(void)
{
	leave_guest();
	mp_cleanup(&sp.mp);
}

static void join_guest(void)
{
	int e = devc_open(&sp.dev, sp.mp.socket, CONNECT_TIMEOUT_MS);

	ck_assert_msg(e == 0, "joining the server as guest failed: %d (log %s)", e, sp.mp.log);
	sp.joined = true;
}

/* Until the device process's status says key=value (or fail after 5 s). */
static void wait_device_status(const char *key, const char *value)
{
	char reply[2048], got[64] = "";

	for (int waited = 0; waited < 5000; waited += 5) {
		if (mp_ctl(&sp.mp, "status", reply, sizeof(reply)) == 0 &&
		    mp_reply_value(reply, key, got, sizeof(got)) && strcmp(got, value) == 0)
			return;
		usleep(5000);
	}
	ck_abort_msg("device status %s stayed '%s', wanted '%s'", key, got, value);
}

/* A record region that reads consistently and validates; its seqlock value in *seq. */
static uint32_t read_record(struct ota_record *out, uint32_t *seq)
{
	uint32_t len = 0;
	ota_status_t st = devc_read_record(&sp.dev, out, sizeof(*out), &len, seq);

	ck_assert_msg(st == OTA_OK, "record region read: %s", ota_status_name(st));
	st = ota_record_validate(out, len);
	ck_assert_msg(st == OTA_OK, "record does not validate: %s", ota_status_name(st));
	return len;
}

static ota_status_t call(uint32_t command, const void *req, uint32_t req_len, void *resp,
			 uint32_t cap, uint32_t *resp_len, int timeout_ms)
{
	ota_status_t status = 0, transport;

	transport = devc_call(&sp.dev, command, req, req_len, resp, cap, resp_len, &status,
			      timeout_ms);
	return transport == OTA_OK ? status : transport;
}

/* Forward in the counter's own wrap-around arithmetic. */
static bool moved_forward(uint32_t before, uint32_t after)
{
	return (int32_t)(after - before) > 0;
}

static uint32_t response_seq(void)
{
	volatile const struct ota_mbox_header *h =
		(volatile const struct ota_mbox_header *)(sp.dev.iv.shm + sp.dev.info.response_offset);

	return __atomic_load_n(&h->seq, __ATOMIC_ACQUIRE);
}

START_TEST(guest_stays_connected_while_the_device_restarts)
{
	static uint8_t buf[OTA_SHM_RESPONSE_SIZE];
	const struct ivshmem_remote *peer0;
	struct ota_req_rotate rot = { 0 };
	struct ota_resp_rotate rotated;
	struct ota_req_attest att;
	struct ota_shm_info info, before;
	struct ota_record rec, last;
	uint32_t len, seq, last_seq, tag_version;
	int fd0, fd1;

	device_start(true);
	join_guest();
	peer0 = ivc_find_peer(&sp.dev.iv, 0);
	ck_assert_ptr_nonnull(peer0);
	fd0 = peer0->fd[0];
	fd1 = peer0->fd[1];
	read_record(&last, &last_seq);
	ck_assert_uint_eq(last.hdr.boot_status, OTA_OK);
	/* A rotation before the first kill: the device must come back with its new key. */
	ck_assert_uint_eq(call(OTA_CMD_ROTATE_TAGS, &rot, sizeof(rot), &rotated, sizeof(rotated),
			       &len, MBOX_TIMEOUT_MS),
			  OTA_OK);
	tag_version = rotated.new_key_version;
	read_record(&last, &last_seq);

	for (int round = 0; round < KILLS; round++) {
		ck_assert_uint_eq(devc_read_info(&sp.dev, &before), OTA_OK);
		ck_assert_uint_eq(before.device_state, OTA_DEV_READY);

		mp_kill(&sp.mp);
		/* Silent: a doorbell goes unanswered; what it showed stays readable. */
		ck_assert_uint_eq(call(OTA_CMD_GET_RECORD, NULL, 0, buf, sizeof(buf), &len,
				       DEAD_TIMEOUT_MS),
				  OTA_HOST_TIMEOUT);
		ck_assert_uint_eq(devc_read_info(&sp.dev, &info), OTA_OK);
		ck_assert_uint_eq(info.event_counter, before.event_counter);
		read_record(&rec, &seq);
		ck_assert_uint_eq(rec.hdr.generation, last.hdr.generation);

		ivc_drain(&sp.dev.iv, OTA_VEC_EVENT);
		device_start(false);
		/* The guest's connection heard nothing: the peer and its eventfds are the same. */
		ck_assert_int_eq(ivc_poll_server(&sp.dev.iv, 0), 0);
		ck_assert_uint_eq(sp.dev.iv.cl.disconnects_seen, 0);
		peer0 = ivc_find_peer(&sp.dev.iv, 0);
		ck_assert_ptr_nonnull(peer0);
		ck_assert_int_eq(peer0->fd[0], fd0);
		ck_assert_int_eq(peer0->fd[1], fd1);
		/* It told the guest of its boot on the event vector. */
		ck_assert_uint_gt(ivc_wait(&sp.dev.iv, OTA_VEC_EVENT, MBOX_TIMEOUT_MS), 0);

		/* Back by itself, counters forward, a newer valid record, the state kept. */
		ck_assert_uint_eq(devc_read_info(&sp.dev, &info), OTA_OK);
		ck_assert_uint_eq(info.device_state, OTA_DEV_READY);
		ck_assert_uint_eq(info.state_detail, OTA_OK);
		ck_assert_uint_eq(info.reserved0, 0);
		ck_assert_msg(moved_forward(before.event_counter, info.event_counter),
			      "event counter %u -> %u", before.event_counter, info.event_counter);
		read_record(&rec, &seq);
		ck_assert_msg(moved_forward(last_seq, seq), "record seqlock %u -> %u", last_seq, seq);
		ck_assert_uint_gt(rec.hdr.generation, last.hdr.generation);
		ck_assert_uint_eq(rec.hdr.boot_status, OTA_OK);
		ck_assert_uint_eq(rec.hdr.reset_reason, OTA_RESET_COLD);
		ck_assert_uint_eq(rec.hdr.tag_key_version, tag_version);
		/* The doorbell rung at the dead device was not answered by the new one. */
		ck_assert_uint_eq(response_seq(), 0);

		/* The mailbox works, through the same eventfds. */
		ck_assert_uint_eq(call(OTA_CMD_GET_RECORD, NULL, 0, buf, sizeof(buf), &len,
				       MBOX_TIMEOUT_MS),
				  OTA_OK);
		ck_assert_uint_eq(len, read_record(&rec, &seq));
		ck_assert_mem_eq(buf, &rec, len);
		memset(&att, 0, sizeof(att));
		att.nonce_len = 16;
		att.nonce[0] = (uint8_t)round;
		ck_assert_uint_eq(call(OTA_CMD_ATTEST, &att, sizeof(att), buf, sizeof(buf), &len,
				       MBOX_TIMEOUT_MS),
				  OTA_OK);
		ck_assert_uint_gt(len, 0);
		last = rec;
		last_seq = seq;
	}
	ck_assert_int_eq(mp_log_count(&sp.mp, "device-connected peer=0"), KILLS + 1);
	ck_assert_int_eq(mp_log_count(&sp.mp, "device-disconnected peer=0 reason=hangup"),
			 KILLS);
	ck_assert_int_eq(mp_log_count(&sp.mp, "guest-connected"), 1);
}
END_TEST

START_TEST(a_second_device_is_refused)
{
	struct model_proc other;
	uint8_t buf[2048];
	uint32_t len;

	device_start(true);
	join_guest();
	/* Another device process on the same server, with a state directory of its own. */
	ck_assert_int_eq(mp_init(&other), 0);
	other.server_pid = sp.mp.server_pid;
	snprintf(other.device_socket, sizeof(other.device_socket), "%s", sp.mp.device_socket);
	ck_assert_int_eq(mp_start(&other, NULL), -ECHILD);
	other.server_pid = -1; /* not other's to stop */
	ck_assert_int_eq(mp_log_count(&other, "error device-refused"), 1);
	mp_cleanup(&other);
	ck_assert_int_eq(mp_log_count(&sp.mp, "warn device-refused reason=busy"), 1);
	/* Its exit status says so: MODEL_DEVICE_REFUSED, class BUSY. */
	ck_assert_int_eq(shell_run("%s -d %s/other --connect=%s 2>/dev/null", mp_binary(), sp.mp.dir,
			     sp.mp.device_socket),
			 ota_class_exit_code(ota_status_class(OTA_MODEL_DEVICE_REFUSED)));
	/* The device that has the place is undisturbed. */
	ck_assert_uint_eq(call(OTA_CMD_GET_RECORD, NULL, 0, buf, sizeof(buf), &len, MBOX_TIMEOUT_MS),
			  OTA_OK);
	ck_assert_int_eq(ivc_poll_server(&sp.dev.iv, 0), 0);
}
END_TEST

/*
 * A guest that joins before any device: the device shows as off and its
 * doorbell goes nowhere; the device that joins later boots, and does not
 * answer what was rung before it ran.
 */
START_TEST(device_joins_after_the_guest)
{
	struct ota_shm_info info;
	struct ota_record rec;
	uint8_t buf[2048];
	uint32_t len, seq;

	join_guest();
	ck_assert_uint_eq(devc_read_info(&sp.dev, &info), OTA_OK);
	ck_assert_uint_eq(info.device_state, OTA_DEV_OFF);
	ck_assert_ptr_nonnull(ivc_find_peer(&sp.dev.iv, 0));
	ck_assert_uint_eq(call(OTA_CMD_GET_RECORD, NULL, 0, buf, sizeof(buf), &len,
			       DEAD_TIMEOUT_MS),
			  OTA_HOST_TIMEOUT);
	device_start(true);
	usleep(200 * 1000);
	ck_assert_uint_eq(response_seq(), 0);
	ck_assert_uint_eq(devc_read_info(&sp.dev, &info), OTA_OK);
	ck_assert_uint_eq(info.device_state, OTA_DEV_READY);
	read_record(&rec, &seq);
	ck_assert_uint_eq(call(OTA_CMD_GET_RECORD, NULL, 0, buf, sizeof(buf), &len, MBOX_TIMEOUT_MS),
			  OTA_OK);
	/* The device met the guest in its own greeting. */
	ck_assert_int_eq(mp_log_count(&sp.mp, "guest-announced"), 1);
	ck_assert_int_eq(mp_log_count(&sp.mp, "server-connected socket="), 1);
	ck_assert_int_eq(mp_log_count(&sp.mp, "device-peer=0 guest=yes"), 1);
}
END_TEST

/*
 * A new guest while the device runs: the device hears of it before the
 * guest can ring, so the new guest's first sequence number, the same as
 * the last guest's last one, is accepted (a device that kept the old
 * sequence would refuse it as a repeat).
 */
START_TEST(a_new_guest_starts_a_new_sequence)
{
	uint8_t buf[2048];
	uint32_t len;
	int64_t first;

	device_start(true);
	join_guest();
	first = sp.dev.iv.cl.own_id;
	ck_assert_uint_eq(sp.dev.next_seq, 1);
	ck_assert_uint_eq(call(OTA_CMD_GET_RECORD, NULL, 0, buf, sizeof(buf), &len, MBOX_TIMEOUT_MS),
			  OTA_OK);
	leave_guest();
	wait_device_status("guest", "no");
	join_guest();
	ck_assert_int_ne(sp.dev.iv.cl.own_id, first);
	ck_assert_uint_eq(sp.dev.next_seq, 1); /* the server cleared the mailbox */
	ck_assert_uint_eq(call(OTA_CMD_GET_RECORD, NULL, 0, buf, sizeof(buf), &len, MBOX_TIMEOUT_MS),
			  OTA_OK);
	ck_assert_int_eq(mp_log_count(&sp.mp, "info guest-gone"), 1);
	ck_assert_int_eq(mp_log_count(&sp.mp, "info guest-announced"), 2);
	ck_assert_int_eq(mp_log_count(&sp.mp, "MBOX_BAD_SEQUENCE"), 0);
}
END_TEST

START_TEST(both_stop_cleanly)
{
	struct stat st;
	int status;

	device_start(true);
	join_guest();
	/* The device alone: exit 0, the server and the guest's connection stay. */
	status = mp_stop(&sp.mp, 5000);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_int_eq(ivc_poll_server(&sp.dev.iv, 200), 0);
	/* The server: exit 0, the guest sees EOF, both sockets gone. */
	device_start(false);
	status = mp_stop_server(&sp.mp, 5000);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
	ck_assert_int_eq(ivc_poll_server(&sp.dev.iv, 2000), -EPIPE);
	ck_assert_int_ne(lstat(sp.mp.socket, &st), 0);
	ck_assert_int_ne(lstat(sp.mp.device_socket, &st), 0);
	/* A device whose server is gone has lost its bus: it stops, MODEL_NO_SERVER. */
	status = mp_wait(&sp.mp, 5000);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status),
			 ota_class_exit_code(ota_status_class(OTA_MODEL_NO_SERVER)));
	ck_assert_int_eq(mp_log_count(&sp.mp, "error server-gone"), 1);
	/* And one started without a server says so at once. */
	ck_assert_int_eq(shell_run("%s -d %s --connect=%s 2>/dev/null", mp_binary(), sp.mp.state_dir,
			     sp.mp.device_socket),
			 ota_class_exit_code(ota_status_class(OTA_MODEL_NO_SERVER)));
}
END_TEST

START_TEST(help_and_usage)
{
	static const char *const server_words[] = {
		"--socket", "--device-socket", "--log-level", "--version",
		"ivshmem-doorbell,chardev=ota,vectors=2", "--connect=DEVICE-SOCKET", "EXIT STATUS",
		"double free", "device-refused",
	};
	char path[256];
	uint8_t *text;
	size_t n;

	snprintf(path, sizeof(path), "%s/help.txt", sp.mp.dir);
	ck_assert_int_eq(shell_run("%s server --help > %s", mp_binary(), path), 0);
	ck_assert_int_eq(otu_read_file(path, 1 << 16, &text, &n), 0);
	ck_assert_uint_gt(n, 0);
	for (unsigned i = 0; i < sizeof(server_words) / sizeof(server_words[0]); i++)
		ck_assert_msg(strstr((char *)text, server_words[i]), "server --help lacks '%s'",
			      server_words[i]);
	free(text);
	ck_assert_int_eq(shell_run("%s --help | grep -q -- '--connect=DEVICE-SOCKET'", mp_binary()), 0);
	ck_assert_int_eq(shell_run("%s --help | grep -q 'otattest-model server --socket=PATH'",
			     mp_binary()),
			 0);
	ck_assert_int_eq(shell_run("%s server --version | grep -q 'shared memory ABI'", mp_binary()), 0);
	/* Usage errors: exit 2, nothing started. */
	ck_assert_int_eq(shell_run("%s server --socket=%s/x 2>/dev/null", mp_binary(), sp.mp.dir), 2);
	ck_assert_int_eq(shell_run("%s server --device-socket=%s/x 2>/dev/null", mp_binary(), sp.mp.dir),
			 2);
	ck_assert_int_eq(shell_run("%s server --bogus 2>/dev/null", mp_binary()), 2);
	ck_assert_int_eq(shell_run("%s -d %s/d --connect=x --socket=y 2>/dev/null", mp_binary(),
			     sp.mp.dir),
			 2);
	ck_assert_int_eq(shell_run("%s -d %s/d --connect=x --device-peer-id=3 2>/dev/null", mp_binary(),
			     sp.mp.dir),
			 2);
	/* A second server on the same sockets: IO, as for the whole model. */
	ck_assert_int_eq(shell_run("%s server -s %s --device-socket=/nonexistent/dev.sock 2>/dev/null",
			     mp_binary(), sp.mp.socket),
			 22);
}
END_TEST

static Suite *split_suite(void)
{
	Suite *s = suite_create("model-split");
	TCase *tc = tcase_create("split");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, guest_stays_connected_while_the_device_restarts);
	tcase_add_test(tc, a_second_device_is_refused);
	tcase_add_test(tc, device_joins_after_the_guest);
	tcase_add_test(tc, a_new_guest_starts_a_new_sequence);
	tcase_add_test(tc, both_stop_cleanly);
	tcase_add_test(tc, help_and_usage);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return harness_run(split_suite(), true);
}
