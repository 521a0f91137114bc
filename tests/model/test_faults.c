// SPDX-License-Identifier: MIT
/*
 * Every fault knob does what docs/model.md says, from the control socket
 * and from the command line, and a bad knob value changes nothing.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <otattest/flash.h>

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

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void ctl(const char *request)
{
	char reply[2048];

	rig_ctl_ok(&rig, request, reply, sizeof(reply));
}

static void get_record(void *buf, uint32_t cap, uint32_t *len)
{
	ck_assert_uint_eq(rig_call(&rig, OTA_CMD_GET_RECORD, NULL, 0, buf, cap, len), OTA_OK);
}

static uint32_t info_event_counter(void)
{
	struct ota_shm_info info;

	ck_assert_uint_eq(devc_read_info(&rig.dev, &info), OTA_OK);
	return info.event_counter;
}

START_TEST(delay_answers_late_and_busy_meanwhile)
{
	struct ota_mbox_header a = { .seq = 10, .command = OTA_CMD_GET_RECORD };
	struct ota_mbox_header b = { .seq = 11, .command = OTA_CMD_GET_RECORD };
	struct ota_mbox_header resp;
	uint8_t buf[2048];
	int64_t t0, busy_ms, late_ms;

	ctl("fault delay 400");
	t0 = now_ms();
	ck_assert_uint_eq(devc_send(&rig.dev, &a, NULL, 0), OTA_OK);
	rig_wait_status(&rig, "pending", "yes", 1000);
	/* A request while the answer is held back: MBOX_BUSY, at once. */
	ck_assert_uint_eq(devc_exchange(&rig.dev, &b, NULL, 0, &resp, buf, sizeof(buf), 300), OTA_OK);
	busy_ms = now_ms() - t0;
	ck_assert_uint_eq(resp.status, OTA_MBOX_BUSY);
	ck_assert_int_lt(busy_ms, 350);
	/* Then the late answer to the first one. */
	ck_assert_uint_eq(devc_await(&rig.dev, a.seq, &resp, buf, sizeof(buf), 3000), OTA_OK);
	late_ms = now_ms() - t0;
	ck_assert_uint_eq(resp.status, OTA_OK);
	ck_assert_int_ge(late_ms, 400);
	ck_assert_int_lt(late_ms, 2000);
	ck_assert_int_eq(mp_log_count(&rig.mp, "mbox-answer-late seq=10"), 1);
	/* Off again: answers come at once. */
	ctl("fault delay off");
	t0 = now_ms();
	get_record(buf, sizeof(buf), &(uint32_t){ 0 });
	ck_assert_int_lt(now_ms() - t0, 300);
}
END_TEST

START_TEST(delay_lost_on_power_cycle)
{
	struct ota_mbox_header a = { .seq = 20, .command = OTA_CMD_GET_RECORD };
	struct ota_mbox_header resp;
	uint8_t buf[2048];

	ctl("fault delay 300");
	ck_assert_uint_eq(devc_send(&rig.dev, &a, NULL, 0), OTA_OK);
	rig_wait_status(&rig, "pending", "yes", 1000);
	ctl("power-cycle");
	/* A reset loses the answer in flight: the host must time out, not hang. */
	ck_assert_uint_eq(devc_await(&rig.dev, a.seq, &resp, buf, sizeof(buf), 800),
			  OTA_HOST_TIMEOUT);
	ck_assert_int_eq(mp_log_count(&rig.mp, "mbox-answer-lost seq=20"), 1);
}
END_TEST

START_TEST(drop_never_answers)
{
	uint8_t buf[2048];
	uint32_t len;
	ota_status_t st;

	ctl("fault drop on");
	ck_assert_uint_eq(devc_call(&rig.dev, OTA_CMD_GET_RECORD, NULL, 0, buf, sizeof(buf), &len,
				    &st, 300),
			  OTA_HOST_TIMEOUT);
	ck_assert_int_eq(rig_status(&rig, "dropped"), 1);
	ck_assert_int_eq(rig_status(&rig, "answered"), 0);
	ctl("fault drop off");
	get_record(buf, sizeof(buf), &len);
	ck_assert_int_eq(rig_status(&rig, "answered"), 1);
}
END_TEST

START_TEST(corrupt_record_shows_in_the_region_only)
{
	struct ota_record clean, shown;
	uint32_t len, shown_len, gen_before, gen_after, ev_before;
	uint8_t buf[2048];

	len = rig_record(&rig, &clean);
	ck_assert_uint_eq(devc_read_record(&rig.dev, &shown, sizeof(shown), &shown_len, &gen_before),
			  OTA_OK);
	ev_before = info_event_counter();
	ivc_drain(&rig.dev.iv, OTA_VEC_EVENT);

	ctl("fault corrupt-record 0:0x01");
	ctl("fault corrupt-record 20:0x80");
	ctl("fault corrupt-record 9999"); /* past the record: no effect */
	/* The change is announced like any record change. */
	ck_assert_uint_gt(ivc_wait(&rig.dev.iv, OTA_VEC_EVENT, 1000), 0);
	ck_assert_uint_gt(info_event_counter(), ev_before);
	ck_assert_uint_eq(devc_read_record(&rig.dev, &shown, sizeof(shown), &shown_len, &gen_after),
			  OTA_OK);
	ck_assert_uint_gt(gen_after, gen_before);
	ck_assert_uint_eq(shown_len, len);
	ck_assert_uint_eq(((uint8_t *)&shown)[0], ((uint8_t *)&clean)[0] ^ 0x01);
	ck_assert_uint_eq(((uint8_t *)&shown)[20], ((uint8_t *)&clean)[20] ^ 0x80);
	ck_assert_mem_eq((uint8_t *)&shown + 21, (uint8_t *)&clean + 21, len - 21);
	ck_assert_uint_eq(ota_record_validate(&shown, shown_len), OTA_RECORD_BAD_MAGIC);
	/* The mailbox still hands out the device's real record. */
	get_record(buf, sizeof(buf), &len);
	ck_assert_mem_eq(buf, &clean, len);
	/* And it holds for records published later. */
	ctl("power-cycle");
	ck_assert_uint_eq(devc_read_record(&rig.dev, &shown, sizeof(shown), &shown_len, &gen_after),
			  OTA_OK);
	ck_assert_uint_eq(ota_record_validate(&shown, shown_len), OTA_RECORD_BAD_MAGIC);
	ctl("fault corrupt-record off");
	rig_record(&rig, &shown);
}
END_TEST

START_TEST(corrupt_response_flips_payload_bytes)
{
	uint8_t clean[2048], bad[2048];
	uint32_t len, bad_len;

	get_record(clean, sizeof(clean), &len);
	ctl("fault corrupt-response 0");
	ctl("fault corrupt-response 127:0x10");
	get_record(bad, sizeof(bad), &bad_len);
	ck_assert_uint_eq(bad_len, len);
	ck_assert_uint_eq(bad[0], clean[0] ^ 0xff);
	ck_assert_uint_eq(bad[127], clean[127] ^ 0x10);
	ck_assert_mem_eq(bad + 1, clean + 1, 126);
	ck_assert_uint_eq(ota_record_validate(bad, bad_len), OTA_RECORD_BAD_MAGIC);
	ctl("fault clear");
	get_record(bad, sizeof(bad), &bad_len);
	ck_assert_mem_eq(bad, clean, len);
}
END_TEST

START_TEST(record_length_lies)
{
	struct ota_record rec;
	uint32_t len, gen;

	ctl("fault record-length 8192"); /* more than the 4 KiB region holds */
	ck_assert_uint_eq(devc_read_record(&rig.dev, &rec, sizeof(rec), &len, &gen),
			  OTA_RECORD_BAD_LENGTH);
	ck_assert_uint_eq(len, 8192);
	ctl("fault record-length 0xffffffff");
	ck_assert_uint_eq(devc_read_record(&rig.dev, &rec, sizeof(rec), &len, &gen),
			  OTA_RECORD_BAD_LENGTH);
	ck_assert_uint_eq(len, 0xffffffffu);
	ctl("fault record-length 100"); /* shorter than the record: a validation failure */
	ck_assert_uint_eq(devc_read_record(&rig.dev, &rec, sizeof(rec), &len, &gen), OTA_OK);
	ck_assert_uint_eq(len, 100);
	ck_assert_uint_eq(ota_record_validate(&rec, len), OTA_RECORD_TRUNCATED);
	ctl("fault record-length off");
	rig_record(&rig, &rec);
}
END_TEST

START_TEST(response_length_lies)
{
	struct ota_mbox_header h = { .seq = 30, .command = OTA_CMD_GET_RECORD }, resp;
	uint8_t buf[OTA_SHM_RESPONSE_SIZE];

	ctl("fault response-length 65536");
	ck_assert_uint_eq(devc_exchange(&rig.dev, &h, NULL, 0, &resp, buf, sizeof(buf),
					MBOX_TIMEOUT_MS),
			  OTA_HOST_PROTOCOL);
	ck_assert_uint_eq(resp.length, 65536);
	ck_assert_uint_eq(resp.seq, 30);
	ctl("fault response-length off");
	h.seq = 31;
	ck_assert_uint_eq(devc_exchange(&rig.dev, &h, NULL, 0, &resp, buf, sizeof(buf),
					MBOX_TIMEOUT_MS),
			  OTA_OK);
}
END_TEST

/* Count rings on both vectors until want arrived on each, or a deadline. */
static void count_rings(uint64_t got[OTA_VEC_COUNT], uint64_t want0, uint64_t want1, int ms)
{
	int64_t deadline = now_ms() + ms;

	got[0] = got[1] = 0;
	while (now_ms() < deadline && (got[0] < want0 || got[1] < want1)) {
		got[0] += ivc_wait(&rig.dev.iv, OTA_VEC_MAILBOX, 5);
		got[1] += ivc_drain(&rig.dev.iv, OTA_VEC_EVENT);
	}
	/* Give extra rings (there must be none) a moment to show. */
	usleep(100000);
	got[0] += ivc_drain(&rig.dev.iv, OTA_VEC_MAILBOX);
	got[1] += ivc_drain(&rig.dev.iv, OTA_VEC_EVENT);
}

START_TEST(irq_storm_rings_with_nothing_pending)
{
	volatile const struct ota_mbox_header *rh =
		(volatile const struct ota_mbox_header *)(rig.dev.iv.shm + OTA_SHM_RESPONSE_OFFSET);
	uint32_t ev = info_event_counter(), seq = rh->seq;
	uint64_t got[OTA_VEC_COUNT];
	int64_t t0 = now_ms();

	ivc_drain(&rig.dev.iv, OTA_VEC_MAILBOX);
	ivc_drain(&rig.dev.iv, OTA_VEC_EVENT);
	ctl("fault irq-storm 40,1000,all");
	count_rings(got, 40, 40, 5000);
	ck_assert_uint_eq(got[0], 40);
	ck_assert_uint_eq(got[1], 40);
	/* 40 rings at 1 kHz take about 40 ms: a rate, not a burst. */
	ck_assert_int_ge(now_ms() - t0, 35);
	/* Nothing was pending: no new response, no state or record change. */
	ck_assert_uint_eq(info_event_counter(), ev);
	ck_assert_uint_eq(rh->seq, seq);
	ck_assert_int_eq(mp_log_count(&rig.mp, "irq-storm-done raised=40"), 1);

	ctl("fault irq-storm 25,5000,1");
	count_rings(got, 0, 25, 5000);
	ck_assert_uint_eq(got[0], 0);
	ck_assert_uint_eq(got[1], 25);
	{
		uint8_t buf[2048];
		uint32_t len;

		get_record(buf, sizeof(buf), &len);
	}
}
END_TEST

START_TEST(irq_storm_from_the_command_line_greets_the_guest)
{
	static const char *const args[] = { "--fault-irq-storm=15,2000,0", NULL };
	struct rig r2;
	uint64_t got = 0;
	int64_t deadline;

	rig_up(&r2, false, args);
	deadline = now_ms() + 3000;
	while (got < 15 && now_ms() < deadline)
		got += ivc_wait(&r2.dev.iv, OTA_VEC_MAILBOX, 10);
	usleep(50000);
	got += ivc_drain(&r2.dev.iv, OTA_VEC_MAILBOX);
	ck_assert_uint_eq(got, 15);
	ck_assert_uint_eq(ivc_drain(&r2.dev.iv, OTA_VEC_EVENT), 0);
	rig_down(&r2);
}
END_TEST

START_TEST(storm_needs_a_guest)
{
	char reply[512];

	rig_leave(&rig);
	rig_wait_status(&rig, "guest", "no", 2000);
	ck_assert_int_eq(mp_ctl(&rig.mp, "fault irq-storm 5", reply, sizeof(reply)), 0);
	ck_assert_str_eq(reply, "error usage irq-storm needs a connected guest");
}
END_TEST

START_TEST(bad_values_change_nothing)
{
	static const char *const bad[] = {
		"fault delay -1",           "fault delay 600001",    "fault delay 1ms",
		"fault drop maybe",         "fault corrupt-record 1:0", "fault corrupt-record x",
		"fault corrupt-record 65536", "fault record-length 4294967296",
		"fault irq-storm 0",        "fault irq-storm 5,0",   "fault irq-storm 5,10,2",
		"fault irq-storm 1,2,3,4",  "fault die-at-flash-write 0", "fault nosuch 1",
		"fault delay",              "fault delay 1 2",       "fault flash-tear most",
		"fault flash-tear 2049",    "fault flash-tear -1",   "fault flash-latency 1000001",
		"fault flash-latency 5us",
	};
	char before[2048], after[2048], reply[512];

	rig_ctl_ok(&rig, "fault delay 5", before, sizeof(before));
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(mp_ctl(&rig.mp, bad[i], reply, sizeof(reply)), 0);
		ck_assert_msg(strncmp(reply, "error usage ", 12) == 0, "'%s' got '%s'", bad[i],
			      reply);
	}
	rig_ctl_ok(&rig, "fault", after, sizeof(after));
	ck_assert_str_eq(after, before);
	ck_assert_str_eq(after, "ok delay=5 drop=off corrupt-record=off corrupt-response=off "
				"record-length=off response-length=off irq-storm=off "
				"die-at-flash-write=off flash-tear=half flash-latency=0");
}
END_TEST

START_TEST(command_line_knobs_and_bad_ones)
{
	static const char *const args[] = { "--fault-delay=150", "--fault-corrupt-response=3:0x0f",
					    "--fault-response-length=99", NULL };
	struct model_proc mp;
	char reply[2048], cmd[512];
	struct rig r2;
	int status;

	rig_up(&r2, false, args);
	rig_ctl_ok(&r2, "fault flash-latency 2500", reply, sizeof(reply));
	ck_assert_ptr_nonnull(strstr(reply, " flash-latency=2500"));
	rig_ctl_ok(&r2, "fault flash-latency off", reply, sizeof(reply));
	rig_ctl_ok(&r2, "fault", reply, sizeof(reply));
	ck_assert_str_eq(reply, "ok delay=150 drop=off corrupt-record=off corrupt-response=3:0x0f "
				"record-length=off response-length=99 irq-storm=off "
				"die-at-flash-write=off flash-tear=half flash-latency=0");
	rig_down(&r2);

	/* A bad knob on the command line: exit 2 before anything starts. */
	ck_assert_int_eq(mp_init(&mp), 0);
	snprintf(cmd, sizeof(cmd), "%s --state-dir=%s --fault-delay=soon 2>%s", mp_binary(),
		 mp.state_dir, mp.log);
	status = system(cmd);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 2);
	ck_assert_int_eq(mp_log_count(&mp, "fault delay: 'soon' is not"), 1);
	ck_assert_int_ne(access(mp.state_dir, F_OK), 0); /* nothing was created */
	mp_cleanup(&mp);
}
END_TEST

/* A layout-only flash: install writes pages, so the flash fault has something to hit. */
static void layout_rig(struct rig *r, const char *extra)
{
	char flash[256], arg[300];
	const char *args[3] = { arg, extra, NULL };

	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(mp_init(&r->mp), 0);
	snprintf(flash, sizeof(flash), "%s/layout.img", r->mp.dir);
	ck_assert_int_eq(write_layout_only_flash(flash, 4), 0);
	snprintf(arg, sizeof(arg), "--load-flash=%s", flash);
	ck_assert_int_eq(mp_start(&r->mp, args), 0);
}

static void make_image(const char *path, uint32_t len, uint8_t fill)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	for (uint32_t i = 0; i < len; i++)
		fputc(fill ^ (uint8_t)i, f);
	fclose(f);
}

START_TEST(die_at_flash_write_cuts_power_mid_install)
{
	char image[256], req[400], reply[512];
	long long before, per_install;
	struct rig r;
	int status;

	layout_rig(&r, NULL);
	snprintf(image, sizeof(image), "%s/bl0.bin", r.mp.dir);
	make_image(image, 3 * OTA_FLASH_PAGE_SIZE + 100, 0x3c);
	snprintf(req, sizeof(req), "install bl0 a %s", image);

	/* Into a blank slot: 4 programs; blank pages are not erased again. */
	before = rig_status(&r, "flash-writes");
	rig_ctl_ok(&r, req, reply, sizeof(reply));
	ck_assert_int_eq(rig_status(&r, "flash-writes") - before, 4);
	/* Over the image: 4 erases + 4 programs. */
	before = rig_status(&r, "flash-writes");
	rig_ctl_ok(&r, req, reply, sizeof(reply));
	per_install = rig_status(&r, "flash-writes") - before;
	ck_assert_int_eq(per_install, 8);

	/* Armed beyond this install: nothing happens. */
	rig_ctl_ok(&r, "fault die-at-flash-write 9", reply, sizeof(reply));
	rig_ctl_ok(&r, req, reply, sizeof(reply));
	/* The 9th write is the first of the next install. */
	ck_assert_int_eq(mp_ctl(&r.mp, req, reply, sizeof(reply)) == 0 &&
				 strncmp(reply, "ok", 2) == 0,
			 0);
	status = mp_wait(&r.mp, 5000);
	ck_assert_int_ge(status, 0);
	ck_assert(WIFSIGNALED(status));
	ck_assert_int_eq(WTERMSIG(status), SIGKILL);
	ck_assert_int_eq(mp_log_count(&r.mp, "fault-power-loss"), 1);

	/* The state directory boots again (the fault does not survive a restart). */
	ck_assert_int_eq(mp_start(&r.mp, NULL), 0);
	rig_ctl_ok(&r, "fault", reply, sizeof(reply));
	ck_assert_ptr_nonnull(strstr(reply, "die-at-flash-write=off"));
	rig_ctl_ok(&r, req, reply, sizeof(reply));
	rig_down(&r);
}
END_TEST

START_TEST(die_at_flash_write_from_the_command_line)
{
	char image[256], req[400], reply[512];
	struct rig r;
	int status;

	layout_rig(&r, "--fault-die-at-flash-write=3");
	snprintf(image, sizeof(image), "%s/bl0.bin", r.mp.dir);
	make_image(image, 3 * OTA_FLASH_PAGE_SIZE, 0x11);
	snprintf(req, sizeof(req), "install rom_ext b %s", image);
	mp_ctl(&r.mp, req, reply, sizeof(reply));
	status = mp_wait(&r.mp, 5000);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	ck_assert_int_eq(mp_log_count(&r.mp, "fault-power-loss flash-writes=3"), 1);
	rig_down(&r);
}
END_TEST

/* Bytes of the state directory's flash.bin at off (the model must be stopped or dead). */
static void peek_flash(struct rig *r, uint32_t off, uint8_t *buf, uint32_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/flash.bin", r->mp.state_dir);
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, (long)off, SEEK_SET), 0);
	ck_assert_uint_eq(fread(buf, 1, len, f), len);
	fclose(f);
}

/* Arm the cut, run the request that writes, and see the model die of it. */
static void cut_during(struct rig *r, const char *tear, unsigned nth, const char *req)
{
	char arm[64], reply[512];
	int status;

	snprintf(arm, sizeof(arm), "fault flash-tear %s", tear);
	rig_ctl_ok(r, arm, reply, sizeof(reply));
	snprintf(arm, sizeof(arm), "fault die-at-flash-write %u", nth);
	rig_ctl_ok(r, arm, reply, sizeof(reply));
	mp_ctl(&r->mp, req, reply, sizeof(reply));
	status = mp_wait(&r->mp, 5000);
	ck_assert_int_ge(status, 0);
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

/* Bytes of buf equal to image (XOR-filled from 0 as make_image writes), then all 0xff. */
static uint32_t landed_prefix(const uint8_t *buf, uint32_t len, uint8_t fill)
{
	uint32_t n = 0;

	while (n < len && buf[n] == (uint8_t)(fill ^ (uint8_t)n))
		n++;
	for (uint32_t i = n; i < len; i++)
		ck_assert_msg(buf[i] == 0xff, "byte %u after the landed prefix is 0x%02x", i,
			      buf[i]);
	return n;
}

/* Bytes a program of the first n of make_image(fill)'s image changes: those not 0xff. */
static uint32_t programmed(uint32_t n, uint8_t fill)
{
	uint32_t c = 0;

	for (uint32_t i = 0; i < n; i++)
		c += (uint8_t)(fill ^ (uint8_t)i) != 0xff;
	return c;
}

/*
 * flash-tear picks how much of the cut write lands: into a blank slot the
 * first write is a program of a page, so the page holds exactly that
 * prefix after the cut, and the log says which write tore and how far.
 * Each case starts from a layout-only flash, so the slot is blank.
 */
START_TEST(flash_tear_lands_the_prefix_it_names)
{
	static const struct {
		const char *tear;
		uint32_t landed;
	} cases[] = {
		{ "none", 0 },  { "byte", 1 },           { "word", 4 }, { "half", 1024 },
		{ "100", 100 }, { "all-but-word", 2044 }, { "all", 2048 },
	};
	uint32_t slot = layout_slot_offset(OTA_STAGE_BL0, OTA_SLOT_A, 4);
	char image[256], req[400], reply[512], line[160], flash[256], arg[300];
	const char *args[] = { arg, NULL };
	uint8_t page[OTA_FLASH_PAGE_SIZE];
	struct rig r;

	layout_rig(&r, NULL);
	snprintf(flash, sizeof(flash), "%s/layout.img", r.mp.dir);
	snprintf(arg, sizeof(arg), "--load-flash=%s", flash);
	snprintf(image, sizeof(image), "%s/bl0.bin", r.mp.dir);
	make_image(image, 2 * OTA_FLASH_PAGE_SIZE, 0x5c);
	snprintf(req, sizeof(req), "install bl0 a %s", image);
	rig_ctl_ok(&r, "fault flash-tear 4", reply, sizeof(reply));
	ck_assert_ptr_nonnull(strstr(reply, " flash-tear=word"));
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (i) {
			ck_assert_int_eq(mp_start(&r.mp, args), 0);
			rig_ctl_ok(&r, "fault", reply, sizeof(reply));
			ck_assert_ptr_nonnull(strstr(reply, " flash-tear=half")); /* not persisted */
		}
		cut_during(&r, cases[i].tear, 1, req);
		peek_flash(&r, slot, page, sizeof(page));
		ck_assert_uint_eq(landed_prefix(page, sizeof(page), 0x5c), cases[i].landed);
		snprintf(line, sizeof(line),
			 "write=program addr=0x%x length=2048 landed=%u changed=%u of=%u", slot,
			 cases[i].landed, programmed(cases[i].landed, 0x5c),
			 programmed(OTA_FLASH_PAGE_SIZE, 0x5c));
		ck_assert_msg(mp_log_count(&r.mp, line) == 1, "no '%s' in %s", line, r.mp.log);
	}
	rig_down(&r);
}
END_TEST

/* An erase torn after its first word: only those bytes of the old image are gone. */
START_TEST(flash_tear_of_an_erase_from_the_command_line)
{
	static const char *const args[] = { "--fault-flash-tear=word", NULL };
	uint32_t slot = layout_slot_offset(OTA_STAGE_ROM_EXT, OTA_SLOT_B, 4);
	char image[256], req[400], reply[512], line[160];
	uint8_t page[OTA_FLASH_PAGE_SIZE];
	struct rig r;

	layout_rig(&r, NULL);
	snprintf(image, sizeof(image), "%s/img.bin", r.mp.dir);
	make_image(image, OTA_FLASH_PAGE_SIZE, 0x00);
	snprintf(req, sizeof(req), "install rom_ext b %s", image);
	rig_ctl_ok(&r, req, reply, sizeof(reply));
	mp_kill(&r.mp);
	ck_assert_int_eq(mp_start(&r.mp, args), 0);
	rig_ctl_ok(&r, "fault", reply, sizeof(reply));
	ck_assert_ptr_nonnull(strstr(reply, " flash-tear=word"));
	/* Over the image the first write is the erase of its page. */
	rig_ctl_ok(&r, "fault die-at-flash-write 1", reply, sizeof(reply));
	mp_ctl(&r.mp, req, reply, sizeof(reply));
	ck_assert_int_ge(mp_wait(&r.mp, 5000), 0);
	peek_flash(&r, slot, page, sizeof(page));
	for (uint32_t i = 0; i < sizeof(page); i++)
		ck_assert_uint_eq(page[i], i < 4 ? 0xff : (uint8_t)i);
	/* The image's eight 0xff bytes need no erasing: 2040 bytes would change, 4 did. */
	snprintf(line, sizeof(line),
		 "write=erase addr=0x%x length=2048 landed=4 changed=4 of=2040", slot);
	ck_assert_msg(mp_log_count(&r.mp, line) == 1, "no '%s' in %s", line, r.mp.log);
	rig_down(&r);
}
END_TEST

static Suite *faults_suite(void)
{
	Suite *s = suite_create("model-faults");
	TCase *mbox = tcase_create("mailbox");
	TCase *shm = tcase_create("shared-memory");
	TCase *irq = tcase_create("interrupts");
	TCase *knobs = tcase_create("knobs");
	TCase *flash = tcase_create("flash");

	tcase_add_checked_fixture(mbox, setup, teardown);
	tcase_set_timeout(mbox, 60);
	tcase_add_test(mbox, delay_answers_late_and_busy_meanwhile);
	tcase_add_test(mbox, delay_lost_on_power_cycle);
	tcase_add_test(mbox, drop_never_answers);
	tcase_add_test(mbox, corrupt_response_flips_payload_bytes);
	tcase_add_test(mbox, response_length_lies);
	suite_add_tcase(s, mbox);

	tcase_add_checked_fixture(shm, setup, teardown);
	tcase_set_timeout(shm, 60);
	tcase_add_test(shm, corrupt_record_shows_in_the_region_only);
	tcase_add_test(shm, record_length_lies);
	suite_add_tcase(s, shm);

	tcase_add_checked_fixture(irq, setup, teardown);
	tcase_set_timeout(irq, 60);
	tcase_add_test(irq, irq_storm_rings_with_nothing_pending);
	tcase_add_test(irq, irq_storm_from_the_command_line_greets_the_guest);
	tcase_add_test(irq, storm_needs_a_guest);
	suite_add_tcase(s, irq);

	tcase_add_checked_fixture(knobs, setup, teardown);
	tcase_set_timeout(knobs, 60);
	tcase_add_test(knobs, bad_values_change_nothing);
	tcase_add_test(knobs, command_line_knobs_and_bad_ones);
	suite_add_tcase(s, knobs);

	tcase_set_timeout(flash, 60);
	tcase_add_test(flash, die_at_flash_write_cuts_power_mid_install);
	tcase_add_test(flash, die_at_flash_write_from_the_command_line);
	tcase_add_test(flash, flash_tear_lands_the_prefix_it_names);
	tcase_add_test(flash, flash_tear_of_an_erase_from_the_command_line);
	suite_add_tcase(s, flash);
	return s;
}

int main(void)
{
	return harness_run(faults_suite(), false);
}
