// SPDX-License-Identifier: MIT
/*
 * The kill test: power is cut at many distinct moments inside tag rotation
 * and inside update reset, and every time the next cold boot succeeds and
 * leaves the device in a state it promises.
 *
 * Two kinds of moment, both verified to fall inside the operation, before
 * its reply:
 *
 *  - a power cut inside a flash write (die-at-flash-write N with a
 *    flash-tear setting): the Nth write of the operation lands nothing, a
 *    byte, a word, half, all but a word, all of it unacknowledged, or a
 *    chosen number of bytes. The model's log says which write tore and how
 *    much of it landed and changed, and the flash left behind must show
 *    exactly that: the torn page byte for byte, judged on the page itself
 *    (it may already have held the same bytes), and the stores before it
 *    whole. A point is named by what it left: "write N landed L" for a
 *    write stopped part way, "after N writes" when the tear changed
 *    nothing (the moment before write N+1) or all it would (the moment
 *    after write N), an erase of a page already blank counting as nothing,
 *    so two cuts that leave flash the same count once.
 *  - a SIGKILL from here at a random time after the device announced the
 *    reset (its event counter moved); one counts only when the reply had
 *    not been written when the model died. It is named by what the device
 *    had shown (state, progress, a record, or "publishing" when it died
 *    inside a write of its info block) and the writes that had landed.
 *
 * After every cut, a model restarted on the same state directory must cold
 * boot (status OK, a valid record, a generation above every one shown
 * before) into what flash and OTP say: the tag key version OTP holds (the
 * boot data copy's only where higher), a rotation committed exactly when
 * its OTP bit landed - after both tag tables, before the boot data copy,
 * so always when all of its flash writes landed - (and then every slot's
 * tag is of the new version), each booted stage on
 * the tag path exactly when the picked tag table holds a tag of that
 * version for it, otherwise re-tagged on the slow path; and the boot after
 * that on the tag path for both stages. An update cut leaves the old image
 * running (a cold boot decides A/B by SVN, then boot data, not by the
 * interrupted request); the same update asked for again boots the new
 * image, on the tag path exactly when the cut came after its tag landed.
 *
 * OTATTEST_KILL_SEED=N repeats a run; OTATTEST_KILL_POINTS=N is how many
 * distinct flash-write points each operation must reach (default 30, at
 * least 25), and OTATTEST_KILL_TIMED=N how many timed kills inside each
 * (default 10).
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <otattest/otp.h>
#include <otu/num.h>

#include "fixture.h"
#include "flashview.h"
#include "harness.h"

enum op { OP_ROTATE, OP_UPDATE, OP_COUNT };
enum kind { KIND_TEAR, KIND_TIMED };

#define MAX_WRITES 16u
#define MAX_POINTS 512u

static const char *const named_tears[] = { "none", "byte", "word", "half", "all-but-word",
					   "all" };

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

static void sleep_us(int64_t us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000 };

	while (us > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * Wait without sleeping: a reset now runs in about a millisecond (the
 * model's state files take no time), shorter than a sleep's slack, so the
 * timed kills watch the device and aim their delay on the clock, giving
 * the CPU away between looks rather than for a whole timer tick.
 */
static void yield_until(int64_t deadline_us)
{
	while (now_us() < deadline_us)
		sched_yield();
}

/*
 * The model and this test on different CPUs while it times a reset. A
 * woken model tends to run on the CPU of the test that woke it and, with
 * nothing to wait for, holds it until the reset is done: the test would
 * only ever look again after the reply. No-op with a single CPU.
 */
static void separate_cpus(pid_t model)
{
	cpu_set_t avail, one;
	int cpu, first = -1, second = -1;

	if (sched_getaffinity(0, sizeof(avail), &avail) != 0)
		return;
	for (cpu = 0; cpu < CPU_SETSIZE && second < 0; cpu++)
		if (CPU_ISSET(cpu, &avail)) {
			if (first < 0)
				first = cpu;
			else
				second = cpu;
		}
	if (second < 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(second, &one);
	if (sched_setaffinity(model, sizeof(one), &one) != 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	(void)sched_setaffinity(0, sizeof(one), &one);
}

/* Back to every CPU for this test (a model it started later inherits them). */
static void any_cpu(const cpu_set_t *all)
{
	(void)sched_setaffinity(0, sizeof(*all), all);
}

/* ---- distinct points ------------------------------------------------------ */

static struct {
	char key[MAX_POINTS][64];
	enum op op[MAX_POINTS];
	enum kind kind[MAX_POINTS];
	unsigned n;
} points;

/* Note a point; true when no earlier cut was the same point. */
static bool point_add(enum op op, enum kind kind, const char *key)
{
	for (unsigned i = 0; i < points.n; i++)
		if (points.op[i] == op && points.kind[i] == kind && strcmp(points.key[i], key) == 0)
			return false;
	ck_assert_uint_lt(points.n, MAX_POINTS);
	snprintf(points.key[points.n], sizeof(points.key[0]), "%s", key);
	points.op[points.n] = op;
	points.kind[points.n] = kind;
	points.n++;
	return true;
}

static unsigned point_count(enum op op, enum kind kind)
{
	unsigned n = 0;

	for (unsigned i = 0; i < points.n; i++)
		n += points.op[i] == op && points.kind[i] == kind;
	return n;
}

/* ---- the operations ------------------------------------------------------- */

static struct ota_mbox_header op_request(struct rig *r, enum op op, void *payload, uint32_t *len)
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

static const struct ota_stage_record *booted(const struct ota_record *rec, uint32_t stage)
{
	for (uint32_t i = 0; i < rec->hdr.stage_count; i++)
		if (rec->stage[i].stage == stage && (rec->stage[i].flags & OTA_STAGE_F_BOOTED))
			return &rec->stage[i];
	ck_abort_msg("no stage %u booted", stage);
	return NULL;
}

static uint32_t running_bl0_slot(struct rig *r)
{
	struct ota_record rec;

	rig_record(r, &rec);
	return booted(&rec, OTA_STAGE_BL0)->slot;
}

/*
 * What comes before the operation: for an update, a freshly signed image
 * in slot B (an update agent's flash write) while A runs, so the update
 * always has a new image to verify on the slow path and tag.
 */
static void prepare(struct rig *r, enum op op)
{
	static unsigned build;
	char image[256], req[512], reply[512];

	if (op != OP_UPDATE)
		return;
	ck_assert_uint_eq(running_bl0_slot(r), OTA_SLOT_A);
	ck_assert_int_eq(fixture_sign_bl0(++build, 1, image, sizeof(image)), 0);
	snprintf(req, sizeof(req), "install bl0 b %s", image);
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

/* Whether the device has written its whole reply to request seq. */
static bool reply_shown(struct rig *r, uint32_t seq)
{
	volatile const struct ota_mbox_header *rh =
		(volatile const struct ota_mbox_header *)(r->dev.iv.shm +
							   r->dev.info.response_offset);

	return __atomic_load_n(&rh->seq, __ATOMIC_ACQUIRE) == seq;
}

/*
 * What the running device shows. OTA_RECORD_TORN is "busy, read again":
 * the model may be preempted between the two stores of its seqlock for
 * milliseconds on two busy cores, far longer than devc_read_info's quick
 * retries last.
 */
static struct ota_shm_info info_now(struct rig *r)
{
	struct ota_shm_info info;
	int64_t t0 = now_us();
	ota_status_t st;

	while ((st = devc_read_info(&r->dev, &info)) == OTA_RECORD_TORN &&
	       now_us() - t0 < 10000000)
		sleep_us(100);
	ck_assert_msg(st == OTA_OK, "info block: %s", ota_status_name(st));
	return info;
}

/*
 * What a dead device had shown; false when it died inside a write of the
 * info block, whose seqlock then stays odd: it had shown nothing new yet.
 */
static bool info_at_death(struct rig *r, struct ota_shm_info *out)
{
	ota_status_t st = devc_read_info(&r->dev, out);

	if (st == OTA_RECORD_TORN)
		return false;
	ck_assert_msg(st == OTA_OK, "info block of the dead device: %s", ota_status_name(st));
	return true;
}

/* Power off and on through the control socket: the next boot after a recovery. */
static void power_cycle(struct rig *r, struct ota_record *rec)
{
	char reply[512];

	rig_ctl_ok(r, "power-cycle", reply, sizeof(reply));
	rig_record(r, rec);
	ck_assert_uint_eq(rec->hdr.boot_status, OTA_OK);
}

/* ---- one cut ----------------------------------------------------------------- */

struct cut {
	enum op op;
	uint32_t seq;
	uint32_t old_version;
	uint32_t gen_shown;      /* the highest record generation shown before the cut */
	uint32_t event_counter;  /* before the request */
	struct ota_shm_info at_death;
	bool died_publishing;    /* inside a write of the info block: at_death is not valid */
	bool record_published;   /* the operation's reset published its record */
	struct flashview before, after;
	unsigned writes;         /* writes that landed whole */
	unsigned torn;           /* regions left torn */
	uint32_t otp_version;    /* OTP's tag_key_version thermometer after the cut */
	char state_dir[256];     /* kept for a failure's message */
	char key[64];
};

/* Everything before the request: the preparation and what the device shows. */
static void cut_prepare(struct rig *r, struct cut *c, enum op op)
{
	struct ota_record rec;

	memset(c, 0, sizeof(*c));
	c->op = op;
	prepare(r, op);
	rig_record(r, &rec);
	c->old_version = rec.hdr.tag_key_version;
	c->gen_shown = rec.hdr.generation;
	c->event_counter = info_now(r).event_counter;
	/* The model is idle: flash.bin holds every write it made (written in place). */
	ck_assert_int_eq(flashview_read(r->mp.state_dir, &c->before), 0);
}

static void cut_send(struct rig *r, struct cut *c)
{
	struct ota_mbox_header h;
	uint8_t payload[8];
	uint32_t len;

	h = op_request(r, c->op, payload, &len);
	c->seq = h.seq;
	ck_assert_uint_eq(devc_send(&r->dev, &h, payload, len), OTA_OK);
}

/* OTP's tag key version in a stopped model's state directory (otp.bin). */
static uint32_t otp_tag_key_version(const char *state_dir)
{
	struct ota_otp otp;
	char path[300];
	uint32_t v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/otp.bin", state_dir);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	ck_assert_uint_eq(fread(&otp, sizeof(otp), 1, f), 1);
	fclose(f);
	ck_assert_uint_eq(ota_thermometer_decode(otp.tag_key_version, sizeof(otp.tag_key_version), &v),
			  OTA_OK);
	return v;
}

/*
 * The model is dead: what it had shown when it died, then what its flash
 * and OTP hold. Returns whether it died before writing the reply.
 */
static bool cut_end(struct rig *r, struct cut *c)
{
	bool before_reply = !reply_shown(r, c->seq);
	struct ota_record rec;
	uint32_t len, shm_gen;

	c->died_publishing = !info_at_death(r, &c->at_death);
	if (devc_read_record(&r->dev, &rec, sizeof(rec), &len, &shm_gen) == OTA_OK &&
	    ota_record_validate(&rec, len) == OTA_OK && rec.hdr.generation > c->gen_shown) {
		c->gen_shown = rec.hdr.generation;
		c->record_published = true;
	}
	rig_leave(r);
	snprintf(c->state_dir, sizeof(c->state_dir), "%s", r->mp.state_dir);
	ck_assert_int_eq(flashview_read(r->mp.state_dir, &c->after), 0);
	c->otp_version = otp_tag_key_version(r->mp.state_dir);
	c->writes = flashview_writes(&c->before, &c->after, &c->torn);
	return before_reply;
}

static const char *path_name(uint32_t path)
{
	static const char *const names[] = { "none", "tag", "signature", "signature-retagged" };

	return path <= OTA_PATH_MAX ? names[path] : "?";
}

/*
 * The path a stage must boot on after the cut: the tag path when the tag
 * table the boot picks holds a tag of the version in force for its slot,
 * else the slow path, re-tagging.
 */
static uint32_t expected_path(const struct cut *c, const struct ota_stage_record *s,
			      uint32_t version)
{
	const struct ota_tag_entry *e = flashview_tag(&c->after, s->stage, s->slot);

	return e && e->state == OTA_TAG_STATE_VALID && e->key_version == version
		       ? OTA_PATH_TAG
		       : OTA_PATH_SIGNATURE_RETAGGED;
}

/*
 * Restart on the same state directory and hold the device to its promises
 * (see the top of the file). all_writes: the writes the whole operation
 * makes. how: a short description for the report.
 */
static void check_recovery(struct rig *r, const struct cut *c, unsigned all_writes, char *how,
			   size_t cap)
{
	const struct ota_stage_record *rom, *bl0;
	bool committed = c->writes == all_writes && c->torn == 0, rotated;
	struct ota_record rec;
	uint32_t version;
	int e = mp_start(&r->mp, NULL);

	ck_assert_msg(e == 0, "the model did not restart after the cut (%d), log %s", e, r->mp.log);
	rig_join(r);
	rig_record(r, &rec);
	ck_assert_msg(rec.hdr.boot_status == OTA_OK,
		      "cold boot after the cut failed: %s (state kept in %s)",
		      ota_status_name(rec.hdr.boot_status), r->mp.state_dir);
	ck_assert_uint_eq(rec.hdr.reset_reason, OTA_RESET_COLD);
	ck_assert_msg(rec.hdr.generation > c->gen_shown, "record generation %u after %u",
		      rec.hdr.generation, c->gen_shown);
	rig_wait_status(r, "state", "ready", 1000);
	/* Every image still verifies: one attempt per stage, no refusal, no fallback. */
	ck_assert_uint_eq(rec.hdr.stage_count, 2);
	rom = booted(&rec, OTA_STAGE_ROM_EXT);
	bl0 = booted(&rec, OTA_STAGE_BL0);
	ck_assert(!(rom->flags & OTA_STAGE_F_FALLBACK) && !(bl0->flags & OTA_STAGE_F_FALLBACK));

	/* The version in force is OTP's (the picked boot data copy's only where higher)... */
	ck_assert_int_ge(c->after.bd_pick, 0);
	version = c->otp_version > c->after.bd.tag_key_version ? c->otp_version
							       : c->after.bd.tag_key_version;
	ck_assert_uint_eq(rec.hdr.tag_key_version, version);
	/* ...a rotation is in force once its OTP bit landed, always when all its writes did. */
	rotated = c->op == OP_ROTATE && version == c->old_version + 1;
	ck_assert_uint_eq(version, c->old_version + rotated);
	if (c->op == OP_ROTATE && committed)
		ck_assert_msg(rotated, "rotation: all %u writes landed, version %u", c->writes,
			      version);
	if (rotated)
		for (uint32_t stage = OTA_STAGE_ROM_EXT; stage <= OTA_STAGE_BL0; stage++)
			for (uint32_t slot = 0; slot < OTA_SLOT_COUNT; slot++)
				ck_assert_uint_eq(flashview_tag(&c->after, stage, slot)->key_version,
						  version);
	if (c->op == OP_UPDATE)
		ck_assert_uint_eq(bl0->slot, OTA_SLOT_A); /* the old image runs */
	ck_assert_msg(rom->path == expected_path(c, rom, version) &&
			      bl0->path == expected_path(c, bl0, version),
		      "paths rom_ext=%s bl0=%s after %u writes (state kept in %s)",
		      path_name(rom->path), path_name(bl0->path), c->writes, r->mp.state_dir);
	snprintf(how, cap, "rom_ext=%s bl0=%s v%u", path_name(rom->path), path_name(bl0->path),
		 version);

	if (c->op == OP_UPDATE) {
		/* The update asked for again runs the new image; tagged if the cut's tag landed. */
		ck_assert_uint_eq(run_op(r, OP_UPDATE), OTA_OK);
		rig_record(r, &rec);
		bl0 = booted(&rec, OTA_STAGE_BL0);
		ck_assert_uint_eq(bl0->slot, OTA_SLOT_B);
		ck_assert_msg(bl0->path == (committed ? OTA_PATH_TAG : OTA_PATH_SIGNATURE_RETAGGED),
			      "update again after %u of %u writes: bl0 %s", c->writes, all_writes,
			      path_name(bl0->path));
	}
	/* At worst one slow boot: the next one is on the tag path (and runs A again). */
	power_cycle(r, &rec);
	ck_assert_uint_eq(booted(&rec, OTA_STAGE_ROM_EXT)->path, OTA_PATH_TAG);
	ck_assert_uint_eq(booted(&rec, OTA_STAGE_BL0)->path, OTA_PATH_TAG);
	ck_assert_uint_eq(booted(&rec, OTA_STAGE_BL0)->slot, OTA_SLOT_A);
}

/* ---- power cut inside a flash write ---------------------------------------------- */

struct tear_report {
	unsigned long long flash_writes;
	char write[16];
	uint32_t addr, length, landed, changed, of;
};

/* The last fault-power-loss line of the model's log. */
static void last_tear(const struct rig *r, struct tear_report *t)
{
	char line[1024];
	bool found = false;
	FILE *f = fopen(r->mp.log, "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "fault-power-loss ");

		if (p && sscanf(p, "fault-power-loss flash-writes=%llu write=%15s addr=0x%" SCNx32
				" length=%" SCNu32 " landed=%" SCNu32 " changed=%" SCNu32
				" of=%" SCNu32,
				&t->flash_writes, t->write, &t->addr, &t->length, &t->landed,
				&t->changed, &t->of) == 7)
			found = true;
	}
	fclose(f);
	ck_assert_msg(found, "no fault-power-loss line in %s", r->mp.log);
}

/* Cut power inside write k of the operation, landing as `tear` says. */
static void cut_at_write(struct rig *r, struct cut *c, enum op op, unsigned k, const char *tear,
			 struct tear_report *t)
{
	struct ota_mbox_header resp;
	char req[64], reply[512];
	long long before;
	uint8_t out[256];
	int status;

	cut_prepare(r, c, op);
	/* Armed after the preparation's writes: counted from the operation's first. */
	snprintf(req, sizeof(req), "fault flash-tear %s", tear);
	rig_ctl_ok(r, req, reply, sizeof(reply));
	snprintf(req, sizeof(req), "fault die-at-flash-write %u", k);
	rig_ctl_ok(r, req, reply, sizeof(reply));
	before = rig_status(r, "flash-writes");
	cut_send(r, c);
	while ((status = mp_wait(&r->mp, 20)) < 0)
		ck_assert_msg(devc_await(&r->dev, c->seq, &resp, out, sizeof(out), 0) != OTA_OK,
			      "%s finished before flash write %u: it writes the same each time",
			      op_name(op), k);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		      "the model ended with status 0x%x, not by the power cut", status);
	ck_assert_msg(cut_end(r, c), "the reply was written before the power cut");
	last_tear(r, t);
	ck_assert_uint_eq(t->flash_writes, (unsigned long long)before + k);
}

/*
 * Check the flash against the model's report, then name the point by what
 * it left. The torn write's page must hold exactly what that write leaves
 * (flashview_tear_check: judged on the page itself, since it may already
 * have held the same bytes before, left by an earlier cut that recovery
 * had no reason to rewrite), every other page must be as before or a
 * store the operation made whole before this one, and the count of those
 * must be what the writes before say: boot code stores a record as an
 * erase, then a program, each store to a page of its own, and every store
 * a new record (a sequence number above any the boot could pick).
 *
 * A tear that changed nothing is the moment before its write, one that
 * changed all it would the moment after; an erase that found its page
 * blank left flash as the write before it did, so "after N writes" counts
 * from there and cuts that leave flash the same count once.
 */
static void tear_key(struct cut *c, const struct tear_report *t, unsigned k, char *key,
		     size_t cap)
{
	struct fv_tear ft = { .erase = strcmp(t->write, "erase") == 0,
			      .addr = t->addr,
			      .length = t->length,
			      .landed = t->landed,
			      .changed = t->changed,
			      .of = t->of };
	int region = flashview_region_at(&c->after, t->addr);
	unsigned first = ft.erase ? k : k - 1; /* the erase that began the torn write's store */
	unsigned stores = 0, stray = 0, shown;
	char why[256];

	ck_assert_msg(ft.erase || strcmp(t->write, "program") == 0, "write %u is a %s", k,
		      t->write);
	ck_assert_msg(region >= 0, "write %u at 0x%x is not to a boot data or tag table copy", k,
		      t->addr);
	ck_assert_msg(flashview_tear_check(&c->before, &c->after, &ft, why, sizeof(why)),
		      "%s write %u (%s of %u at 0x%x, landed %u, changed %u of %u): %s (state in "
		      "%s, kept with OTATTEST_KEEP=1)",
		      op_name(c->op), k, t->write, t->length, t->addr, t->landed, t->changed, t->of,
		      why, c->state_dir);
	for (unsigned i = 0; i < FV_REGIONS; i++) {
		enum fv_change change;

		if (i == (unsigned)region)
			continue;
		change = flashview_change(&c->before, &c->after, i);
		stores += change == FV_RECORD;
		stray += change == FV_ERASED || change == FV_TORN;
	}
	ck_assert_msg(first >= 1 && stray == 0 && 2 * stores == first - 1,
		      "%s write %u (%s at 0x%x): the %u writes before its store show as %u whole "
		      "stores elsewhere and %u other pages erased or torn",
		      op_name(c->op), k, t->write, t->addr, first - 1, stores, stray);

	if (t->changed && t->changed < t->of) {
		c->writes = k - 1;
		c->torn = 1;
		snprintf(key, cap, "write %u landed %u", k, t->landed);
		return;
	}
	c->writes = t->changed ? k : k - 1;
	c->torn = 0;
	shown = c->writes;
	if (shown == first && flashview_blank(&c->before, (unsigned)region))
		shown--;
	snprintf(key, cap, "after %u writes", shown);
}

struct calib {
	unsigned writes;
	int64_t reset_us;                /* from the reset's first event to the reply */
	uint32_t length[MAX_WRITES + 1]; /* bytes each write covers */
};

static void tear_point(struct rig *r, enum op op, unsigned k, const char *tear,
		       struct calib *cal)
{
	struct tear_report t;
	struct cut c;
	char how[96];
	bool fresh;

	cut_at_write(r, &c, op, k, tear, &t);
	cal->length[k] = t.length;
	tear_key(&c, &t, k, c.key, sizeof(c.key));
	fresh = point_add(op, KIND_TEAR, c.key);
	check_recovery(r, &c, cal->writes, how, sizeof(how));
	printf("  %s, flash write %u/%u (%s of %u) tear %-12s -> %-20s%s cold boot OK (%s)\n",
	       op_name(op), k, cal->writes, t.write, t.length, tear, c.key,
	       fresh ? " new;" : " seen;", how);
}

/* ---- SIGKILL at a time ------------------------------------------------------------ */

/*
 * SIGKILL delay_us after the device announced the reset (its event
 * counter moved). Returns whether the model died before the reply.
 */
static bool timed_kill(struct rig *r, struct cut *c, enum op op, int64_t delay_us)
{
	cpu_set_t all;
	int64_t t0;
	int status;

	cut_prepare(r, c, op);
	if (sched_getaffinity(0, sizeof(all), &all) == 0)
		separate_cpus(r->mp.pid);
	cut_send(r, c);
	t0 = now_us();
	while (info_now(r).event_counter == c->event_counter && !reply_shown(r, c->seq)) {
		ck_assert_msg(now_us() - t0 < 30000000, "%s never started", op_name(op));
		sched_yield();
	}
	yield_until(now_us() + delay_us);
	kill(r->mp.pid, SIGKILL);
	any_cpu(&all);
	status = mp_wait(&r->mp, 5000);
	ck_assert(status >= 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	return cut_end(r, c);
}

/* One run to completion, timed: its writes and how long its reset runs. */
static void calibrate(struct rig *r, enum op op, struct calib *cal)
{
	struct ota_mbox_header resp;
	cpu_set_t all;
	int64_t t0, t_event = 0;
	struct ota_record rec;
	uint8_t out[256];
	long long before;
	struct cut c;

	memset(cal, 0, sizeof(*cal));
	cut_prepare(r, &c, op);
	before = rig_status(r, "flash-writes");
	if (sched_getaffinity(0, sizeof(all), &all) == 0)
		separate_cpus(r->mp.pid);
	cut_send(r, &c);
	t0 = now_us();
	while (!reply_shown(r, c.seq)) {
		if (!t_event && info_now(r).event_counter != c.event_counter)
			t_event = now_us();
		ck_assert_msg(now_us() - t0 < 30000000, "%s did not finish", op_name(op));
		sched_yield();
	}
	cal->reset_us = now_us() - (t_event ? t_event : t0);
	any_cpu(&all);
	ck_assert_uint_eq(devc_await(&r->dev, c.seq, &resp, out, sizeof(out), 0), OTA_OK);
	ck_assert_uint_eq(resp.status, OTA_OK);
	cal->writes = (unsigned)(rig_status(r, "flash-writes") - before);
	ck_assert_uint_ge(cal->writes, 1);
	ck_assert_uint_le(cal->writes, MAX_WRITES);
	if (op == OP_UPDATE)
		power_cycle(r, &rec); /* back to A: the A/B rule at a cold boot */
	ck_assert_uint_eq(running_bl0_slot(r), OTA_SLOT_A);
}

/* A knob from the environment: unset or empty is dflt; anything but a number stops the test. */
static unsigned env_number(const char *name, unsigned dflt)
{
	const char *env = getenv(name);
	uint32_t n;

	if (!env || !*env)
		return dflt;
	ck_assert_msg(otu_parse_u32(env, OTU_DEC_OR_HEX, 0, UINT32_MAX, &n) == 0,
		      "%s=%s is not a number", name, env);
	return n;
}

static unsigned env_count(const char *name, unsigned dflt)
{
	unsigned n = env_number(name, dflt);

	return n ? n : dflt;
}

static unsigned seed(void)
{
	return env_number("OTATTEST_KILL_SEED", (unsigned)time(NULL));
}

/* Every write with every named tear, then word boundaries inside writes, to `target` points. */
static unsigned tear_points(struct rig *r, enum op op, struct calib *cal, unsigned target)
{
	unsigned cuts = 0, tries = 0;

	for (unsigned k = 1; k <= cal->writes; k++)
		for (unsigned i = 0; i < sizeof(named_tears) / sizeof(named_tears[0]); i++, cuts++)
			tear_point(r, op, k, named_tears[i], cal);
	while (point_count(op, KIND_TEAR) < target) {
		unsigned k = 1 + (unsigned)rand() % cal->writes;
		uint32_t span = cal->length[k] < 256 ? cal->length[k] : 256;
		char tear[16];

		ck_assert_msg(++tries <= 4 * target, "%s: only %u distinct points in %u cuts",
			      op_name(op), point_count(op, KIND_TEAR), cuts);
		ck_assert_uint_ge(span, 8);
		snprintf(tear, sizeof(tear), "%u", 4u * (1u + (unsigned)rand() % ((span - 4) / 4)));
		tear_point(r, op, k, tear, cal);
		cuts++;
	}
	return cuts;
}

/* Random moments after the reset began until `want` fell before the reply. */
static void timed_points(struct rig *r, enum op op, struct calib *cal, unsigned want,
			 unsigned *late)
{
	for (unsigned done = 0, tries = 0; done < want;) {
		int64_t delay = rand() % (cal->reset_us + 1);
		char how[96], key[64];
		const char *verdict;
		struct cut c;

		ck_assert_msg(++tries <= 3 * want, "%s: %u of %u timed kills before the reply",
			      op_name(op), done, tries - 1);
		if (timed_kill(r, &c, op, delay)) {
			if (c.died_publishing)
				snprintf(key, sizeof(key), "publishing%s, after %u writes",
					 c.record_published ? " record" : "", c.writes);
			else
				snprintf(key, sizeof(key), "%s %u/%u%s, after %u writes",
					 ota_device_state_name(c.at_death.device_state),
					 c.at_death.progress_done, c.at_death.progress_total,
					 c.record_published ? " record" : "", c.writes);
			verdict = point_add(op, KIND_TIMED, key) ? "new" : "seen";
			done++;
		} else {
			/* This reset was shorter than the calibration run's: aim inside it. */
			snprintf(key, sizeof(key), "after the reply");
			verdict = "not counted";
			(*late)++;
			cal->reset_us = delay;
		}
		/* A SIGKILL at any moment leaves each write in the state files whole or absent. */
		ck_assert_uint_eq(c.torn, 0);
		check_recovery(r, &c, cal->writes, how, sizeof(how));
		printf("  %s, SIGKILL %6lld us into the reset -> %s, %s; cold boot OK (%s)\n",
		       op_name(op), (long long)delay, key, verdict, how);
	}
}

START_TEST(power_cuts_never_brick_the_device)
{
	unsigned s = seed(), target = env_count("OTATTEST_KILL_POINTS", 30),
		 timed = env_count("OTATTEST_KILL_TIMED", 10);
	unsigned cuts[OP_COUNT] = { 0 }, late[OP_COUNT] = { 0 }, total = 0;
	int64_t t_start = now_us();
	struct rig r;

	/* The issue asks for 50 points in all: never fewer than 25 each. */
	if (target < 25)
		target = 25;
	printf("kill test: seed %u (OTATTEST_KILL_SEED=%u repeats it)\n", s, s);
	srand(s);
	rig_up(&r, true, NULL);
	ck_assert_uint_eq(running_bl0_slot(&r), OTA_SLOT_A);
	for (int o = 0; o < OP_COUNT; o++) {
		struct calib cal;

		calibrate(&r, (enum op)o, &cal);
		printf("%s: %u flash writes; its reset runs %lld us\n", op_name((enum op)o),
		       cal.writes, (long long)cal.reset_us);
		cuts[o] = tear_points(&r, (enum op)o, &cal, target);
		timed_points(&r, (enum op)o, &cal, timed, &late[o]);
	}
	/* After all that, the device still does both operations. */
	ck_assert_uint_eq(run_op(&r, OP_ROTATE), OTA_OK);
	prepare(&r, OP_UPDATE);
	ck_assert_uint_eq(run_op(&r, OP_UPDATE), OTA_OK);

	for (int o = 0; o < OP_COUNT; o++) {
		printf("kill test: %s: %u distinct points inside flash writes (%u cuts), %u distinct "
		       "timed points (%u kills before the reply; %u after it, not counted)\n",
		       op_name((enum op)o), point_count((enum op)o, KIND_TEAR), cuts[o],
		       point_count((enum op)o, KIND_TIMED), timed, late[o]);
		total += point_count((enum op)o, KIND_TEAR) + point_count((enum op)o, KIND_TIMED);
	}
	printf("kill test: %u distinct points inside the operations, every cold boot succeeded, "
	       "%.1f s\n",
	       total, (double)(now_us() - t_start) / 1e6);
	fflush(stdout);
	/* The flash-write points alone make the 50: timed ones depend on scheduling. */
	ck_assert_uint_ge(point_count(OP_ROTATE, KIND_TEAR) + point_count(OP_UPDATE, KIND_TEAR), 50);
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
