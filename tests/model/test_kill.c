// SPDX-License-Identifier: MIT
/*
 * The kill test: power is cut at random moments of tag rotation and of
 * update reset, and the device must cold boot afterwards, every time (at
 * worst on the slow path). Before each update reset the idle BL0 slot gets
 * a freshly signed build (an update agent's flash write), so the update
 * always has an image to verify on the slow path and tag: that is where an
 * update reset writes flash. A moment is either a flash write (the model's
 * die-at-flash-write fault: that write is left torn, then SIGKILL) or a
 * random time after the request (SIGKILL from here). Every point tried is
 * printed with the boot that followed.
 *
 * OTATTEST_KILL_SEED=N repeats a run; OTATTEST_KILL_POINTS=N changes how
 * many flash-write points each operation gets (default 30, so >= 60 in all,
 * plus 10 timed kills each).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fixture.h"
#include "harness.h"

enum op { OP_ROTATE, OP_UPDATE };

static const char *op_name(enum op op)
{
	return op == OP_ROTATE ? "tag rotation" : "update reset";
}

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static struct ota_mbox_header op_request(struct rig *r, enum op op, void *payload,
					 uint32_t *len)
{
	struct ota_mbox_header h = { .seq = r->dev.next_seq++ };

	memset(payload, 0, 8);
	if (op == OP_ROTATE) {
		h.command = OTA_CMD_ROTATE_TAGS;
	} else {
		h.command = OTA_CMD_UPDATE_RESET;
		((struct ota_req_update *)payload)->slot = OTA_UPDATE_SLOT_OTHER;
	}
	h.length = *len = 8;
	return h;
}

static uint32_t running_bl0_slot(struct rig *r)
{
	struct ota_record rec;

	rig_record(r, &rec);
	for (uint32_t i = 0; i < rec.hdr.stage_count; i++)
		if (rec.stage[i].stage == OTA_STAGE_BL0 && (rec.stage[i].flags & OTA_STAGE_F_BOOTED))
			return rec.stage[i].slot;
	ck_abort_msg("no BL0 booted");
	return 0;
}

/* What comes before the operation: for an update, a new image in the idle slot. */
static void prepare(struct rig *r, enum op op)
{
	static unsigned build;
	char image[256], req[512], reply[512];
	uint32_t idle;

	if (op != OP_UPDATE)
		return;
	idle = 1u - running_bl0_slot(r);
	ck_assert_int_eq(fixture_sign_bl0(++build, 1, image, sizeof(image)), 0);
	snprintf(req, sizeof(req), "install bl0 %s %s", idle == OTA_SLOT_A ? "a" : "b", image);
	rig_ctl_ok(r, req, reply, sizeof(reply));
}

/* Run one operation to completion (its preparation done); its mailbox status. */
static ota_status_t run_op(struct rig *r, enum op op)
{
	struct ota_mbox_header h, resp;
	uint8_t payload[8], out[256];
	uint32_t len;

	h = op_request(r, op, payload, &len);
	ck_assert_uint_eq(devc_exchange(&r->dev, &h, payload, len, &resp, out, sizeof(out), 30000),
			  OTA_OK);
	return resp.status;
}

/*
 * The check after every cut: a fresh model on the state directory cold
 * boots to a runtime, and the record says how. Returns a short
 * description ("rom_ext=tag bl0=signature-retagged") for the report.
 */
static void check_cold_boot(struct rig *r, char *how, size_t cap)
{
	static const char *const path_names[] = { "none", "tag", "signature",
						   "signature-retagged" };
	struct ota_record rec;
	size_t used = 0;
	int e = mp_start(&r->mp, NULL);

	ck_assert_msg(e == 0, "the model did not restart after the cut (%d), log %s", e, r->mp.log);
	rig_join(r);
	rig_record(r, &rec);
	ck_assert_msg(rec.hdr.boot_status == OTA_OK,
		      "cold boot after the cut failed: %s (state kept in %s)",
		      ota_status_name(rec.hdr.boot_status), r->mp.state_dir);
	ck_assert_uint_eq(rec.hdr.reset_reason, OTA_RESET_COLD);
	rig_wait_status(r, "state", "ready", 1000);
	how[0] = '\0';
	for (uint32_t i = 0; i < rec.hdr.stage_count && used < cap; i++) {
		const struct ota_stage_record *s = &rec.stage[i];

		if (!(s->flags & OTA_STAGE_F_BOOTED))
			continue;
		used += (size_t)snprintf(how + used, cap - used, "%s%s=%s",
					 used ? " " : "",
					 s->stage == OTA_STAGE_ROM_EXT ? "rom_ext" : "bl0",
					 s->path <= OTA_PATH_MAX ? path_names[s->path] : "?");
	}
	used += (size_t)snprintf(how + (used < cap ? used : cap), used < cap ? cap - used : 0,
				 " tag-key-version=%u", rec.hdr.tag_key_version);
}

/* Flash writes and time one run of the operation takes on this device now. */
static long long writes_of(struct rig *r, enum op op, int64_t *usec)
{
	long long before;
	int64_t t0;

	prepare(r, op);
	before = rig_status(r, "flash-writes");
	t0 = now_us();
	ck_assert_uint_eq(run_op(r, op), OTA_OK);
	*usec = now_us() - t0;
	return rig_status(r, "flash-writes") - before;
}

static unsigned points_per_op(void)
{
	const char *env = getenv("OTATTEST_KILL_POINTS");
	unsigned n = env ? (unsigned)atoi(env) : 30u;

	return n ? n : 30u;
}

static unsigned seed(void)
{
	const char *env = getenv("OTATTEST_KILL_SEED");

	return env && *env ? (unsigned)strtoul(env, NULL, 0) : (unsigned)time(NULL);
}

/*
 * Cut power at flash write k of the operation. Returns true when the cut
 * happened (the model died of SIGKILL mid-operation), false when the
 * operation finished first (k beyond its writes this time).
 */
static bool cut_at_write(struct rig *r, enum op op, long long k, ota_status_t *finished)
{
	struct ota_mbox_header h, resp;
	uint8_t payload[8], out[256];
	char req[64], reply[512];
	uint32_t len;
	int status;

	prepare(r, op);
	snprintf(req, sizeof(req), "fault die-at-flash-write %lld", k);
	rig_ctl_ok(r, req, reply, sizeof(reply));
	h = op_request(r, op, payload, &len);
	ck_assert_uint_eq(devc_send(&r->dev, &h, payload, len), OTA_OK);
	for (;;) {
		status = mp_wait(&r->mp, 20);
		if (status >= 0) {
			ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
				      "the model ended with status 0x%x, not by the power cut", status);
			rig_leave(r);
			return true;
		}
		if (devc_await(&r->dev, h.seq, &resp, out, sizeof(out), 0) == OTA_OK) {
			*finished = resp.status;
			rig_ctl_ok(r, "fault die-at-flash-write off", reply, sizeof(reply));
			rig_leave(r);
			mp_kill(&r->mp);
			return false;
		}
	}
}

/* SIGKILL from outside, delay_us after the request. */
static void cut_at_time(struct rig *r, enum op op, int64_t delay_us)
{
	struct ota_mbox_header h;
	uint8_t payload[8];
	uint32_t len;
	int64_t t0;

	prepare(r, op);
	h = op_request(r, op, payload, &len);
	t0 = now_us();
	ck_assert_uint_eq(devc_send(&r->dev, &h, payload, len), OTA_OK);
	/* Sleep, not spin: on two cores a spinning test would slow the model down. */
	{
		int64_t left = delay_us - (now_us() - t0);
		struct timespec ts = { .tv_sec = left > 0 ? left / 1000000 : 0,
				       .tv_nsec = left > 0 ? (left % 1000000) * 1000 : 0 };

		while (left > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
	}
	kill(r->mp.pid, SIGKILL);
	rig_leave(r);
	mp_kill(&r->mp);
}

START_TEST(power_cuts_never_brick_the_device)
{
	unsigned s = seed(), per_op = points_per_op(), point = 0, cuts = 0, write_cuts = 0;
	struct rig r;
	char how[160];

	printf("kill test: seed %u (OTATTEST_KILL_SEED=%u repeats it)\n", s, s);
	srand(s);
	rig_up(&r, true, NULL);
	for (int o = 0; o < 2; o++) {
		enum op op = o ? OP_UPDATE : OP_ROTATE;
		long long writes;
		int64_t op_us;
		unsigned done = 0, tries = 0;

		/* Calibrate on this device: how many writes, how long. */
		writes = writes_of(&r, op, &op_us);
		printf("%s: %lld flash writes, %lld us\n", op_name(op), writes, (long long)op_us);

		/* Flash-write points where the operation writes flash at all... */
		while (writes > 0 && done < per_op) {
			long long k = 1 + rand() % writes;

			ck_assert_msg(++tries < per_op * 4, "%s finished before the cut too often",
				      op_name(op));
			ota_status_t finished = 0;

			if (!cut_at_write(&r, op, k, &finished)) {
				printf("  try: %s finished (%s) before flash write %lld; not counted\n",
				       op_name(op), ota_status_name(finished), k);
				check_cold_boot(&r, how, sizeof(how));
				continue;
			}
			check_cold_boot(&r, how, sizeof(how));
			printf("  point %2u: %s, power cut at flash write %lld of %lld -> cold boot OK "
			       "(%s)\n",
			       ++point, op_name(op), k, writes, how);
			done++;
			cuts++;
			write_cuts++;
		}
		/* ...and random moments in time, all the points where it writes none. */
		for (unsigned i = 0; i < (writes > 0 ? 10u : per_op); i++) {
			int64_t delay = rand() % (op_us + 1);

			cut_at_time(&r, op, delay);
			check_cold_boot(&r, how, sizeof(how));
			printf("  point %2u: %s, SIGKILL %lld us after the request -> cold boot OK "
			       "(%s)\n",
			       ++point, op_name(op), (long long)delay, how);
			cuts++;
		}
	}
	/* After all that, the device still does both operations. */
	ck_assert_uint_eq(run_op(&r, OP_ROTATE), OTA_OK);
	prepare(&r, OP_UPDATE);
	ck_assert_uint_eq(run_op(&r, OP_UPDATE), OTA_OK);
	printf("kill test: %u cuts (%u at flash writes), every cold boot succeeded\n", cuts,
	       write_cuts);
	fflush(stdout);
	ck_assert_uint_ge(cuts, 50);
	rig_down(&r);
}
END_TEST

static Suite *kill_suite(void)
{
	Suite *s = suite_create("model-kill");
	TCase *tc = tcase_create("power-cuts");

	tcase_set_timeout(tc, 900);
	tcase_add_test(tc, power_cuts_never_brick_the_device);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	return harness_run(kill_suite(), true);
}
