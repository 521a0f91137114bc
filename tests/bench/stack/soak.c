// SPDX-License-Identifier: MIT
/*
 * `otattest-loadgen soak`: many clients for minutes, mixing what real
 * users do, and a judgement of every answer.
 *
 * Role "readers": each client (own thread, own bus connection) loops over
 * a weighted mix of State reads, Stages reads, GetRecord and Attest, with
 * a random think time between requests. Every evidence is verified with
 * the libotattest verifier against the CA and the nonce the client sent;
 * every record must validate. Role "rotator": one client that rotates the
 * boot tags every few seconds (it must run as a member of otattest-update).
 *
 * Each request ends as exactly one of
 *   ok          the answer is right
 *   named       one of the errors a client must expect while the harness
 *               kills things: otattestd's Busy, Timeout, DeviceUnavailable,
 *               LimitExceeded
 *   retried     the bus said otattestd disconnected without replying (it
 *               was SIGKILLed); the reader asks again (counted once more
 *               under its final outcome)
 *   wrong       an answer that is not right: evidence that does not
 *               verify, a record that does not validate, a rotation that
 *               skipped a version
 *   unexpected  any other error (an unknown name, a local failure)
 *   lost        no answer within the call timeout
 * The run passes when wrong, unexpected and lost are all zero, the
 * readers got answers throughout, and otattestd's memory did not grow
 * beyond the bound (see rss_check below).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <otattest/verify.h>
#include <otu/json.h>

#include "../../../daemon/common/dbus-api.h"
#include "loadgen.h"

/* Far above any deadline in the stack (kernel 3 s, otattestd 30 s and
 * 120 s for admin calls): a call that reaches it was lost. */
#define CALL_TIMEOUT_USEC (180ull * 1000000ull)

enum outcome { O_OK, O_NAMED, O_RETRIED, O_WRONG, O_UNEXPECTED, O_LOST, O_COUNT };
static const char *const outcome_name[O_COUNT] = {
	"ok", "named", "retried", "wrong", "unexpected", "lost",
};

struct mix_entry {
	const char *name;
	int (*run)(struct lg_client *c);
	unsigned weight;
};

/* What ops teams and verifiers do, roughly in their proportions. */
static const struct mix_entry reader_mix[] = {
	{ "property", lg_op_property, 40 },
	{ "stages", lg_op_stages, 15 },
	{ "record", lg_op_record, 15 },
	{ "attest", lg_op_attest, 30 },
};
static const struct mix_entry rotator_mix[] = {
	{ "rotate", lg_op_rotate, 1 },
};
#define MIX_MAX 4

#define NAMES_MAX 16
struct tally {
	uint64_t outcome[O_COUNT];
	uint64_t verified; /* attest: evidence checked and valid */
	struct {
		char name[128];
		uint64_t count;
	} names[NAMES_MAX]; /* errors by name, for the report */
	char first_bad[400];
};

static struct {
	pthread_mutex_t lock;
	const struct mix_entry *mix;
	size_t mix_len;
	struct tally per_op[MIX_MAX];
	struct ota_trust *trust;
	struct ota_policy policy;
	uint64_t end_ns;
	double think_min, think_max;
	uint64_t last_ok_ns; /* when any client last got a right answer */
	uint64_t longest_gap_ns;
} soak = { .lock = PTHREAD_MUTEX_INITIALIZER };

static const char *const expected_errors[] = {
	OTA_BUS_ERROR_PREFIX "Busy",
	OTA_BUS_ERROR_PREFIX "Timeout",
	OTA_BUS_ERROR_PREFIX "DeviceUnavailable",
	OTA_BUS_ERROR_PREFIX "LimitExceeded",
};

static bool is_expected(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(expected_errors) / sizeof(expected_errors[0]); i++)
		if (!strcmp(name, expected_errors[i]))
			return true;
	return false;
}

static enum outcome classify(const struct lg_client *c, int rc, uint64_t elapsed_ns)
{
	if (elapsed_ns >= CALL_TIMEOUT_USEC * 1000u - 1000000000ull)
		return O_LOST;
	if (rc == 0)
		return O_OK;
	if (!strncmp(c->err_name, "wrong:", 6))
		return O_WRONG;
	/* dbus-daemon's words when the callee's connection went away. */
	if (!strcmp(c->err_name, "org.freedesktop.DBus.Error.NoReply") &&
	    strstr(c->err_msg, "disconnected"))
		return O_RETRIED;
	if (!strcmp(c->err_name, "org.freedesktop.DBus.Error.NoReply") ||
	    !strcmp(c->err_name, "local:Connection timed out"))
		return O_LOST;
	return is_expected(c->err_name) ? O_NAMED : O_UNEXPECTED;
}

/* An attestation is right only when the verifier says so. */
static int check_evidence(struct lg_client *c)
{
	struct ota_verdict v;
	ota_status_t st;

	st = ota_verify_evidence(c->evidence, c->evidence_len, soak.trust, c->nonce,
				 sizeof(c->nonce), &soak.policy, NULL, 0, &v);
	if (st == OTA_OK)
		return 0;
	snprintf(c->err_name, sizeof(c->err_name), "wrong:evidence");
	snprintf(c->err_msg, sizeof(c->err_msg), "evidence of %zu bytes does not verify: %s",
		 c->evidence_len, v.failure_count ? v.failures[0].detail : ota_status_name(st));
	return -1;
}

static void count(size_t op, enum outcome o, const struct lg_client *c, uint64_t now)
{
	struct tally *t = &soak.per_op[op];
	size_t i;

	pthread_mutex_lock(&soak.lock);
	t->outcome[o]++;
	if (o == O_OK) {
		/* Clients report out of order: only a later answer moves the mark. */
		if (now > soak.last_ok_ns) {
			if (soak.last_ok_ns && now - soak.last_ok_ns > soak.longest_gap_ns)
				soak.longest_gap_ns = now - soak.last_ok_ns;
			soak.last_ok_ns = now;
		}
	} else {
		for (i = 0; i < NAMES_MAX; i++) {
			if (!t->names[i].name[0])
				snprintf(t->names[i].name, sizeof(t->names[i].name), "%s", c->err_name);
			if (!strcmp(t->names[i].name, c->err_name)) {
				t->names[i].count++;
				break;
			}
		}
		if (o >= O_WRONG && !t->first_bad[0])
			snprintf(t->first_bad, sizeof(t->first_bad), "%s: %s: %s", outcome_name[o],
				 c->err_name, c->err_msg);
	}
	pthread_mutex_unlock(&soak.lock);
}

static double rand_unit(void)
{
	uint32_t r;

	if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r))
		return 0.5;
	return (double)r / 4294967296.0;
}

static size_t pick(void)
{
	unsigned total = 0, x;
	size_t i;

	for (i = 0; i < soak.mix_len; i++)
		total += soak.mix[i].weight;
	x = (unsigned)(rand_unit() * total);
	for (i = 0; i < soak.mix_len; i++) {
		if (x < soak.mix[i].weight)
			return i;
		x -= soak.mix[i].weight;
	}
	return soak.mix_len - 1;
}

/* One request, judged; a reader asks again after its daemon was killed. */
static void one_request(struct lg_client *c, size_t op, bool retry)
{
	uint64_t t0 = lg_now_ns(), t1;
	enum outcome o;
	int rc;

	rc = soak.mix[op].run(c);
	if (rc == 0 && soak.mix[op].run == lg_op_attest)
		rc = check_evidence(c);
	t1 = lg_now_ns();
	o = classify(c, rc, t1 - t0);
	if (o == O_OK && soak.mix[op].run == lg_op_attest) {
		pthread_mutex_lock(&soak.lock);
		soak.per_op[op].verified++;
		pthread_mutex_unlock(&soak.lock);
	}
	count(op, o, c, t1);
	if (o == O_RETRIED && retry && t1 < soak.end_ns)
		one_request(c, op, false);
}

static void *client_main(void *arg)
{
	struct lg_client *c = arg;
	bool retry = soak.mix != rotator_mix; /* a rotation is not repeated blindly */

	if (lg_bus_open(c) < 0)
		return (void *)1;
	sd_bus_set_method_call_timeout(c->bus, CALL_TIMEOUT_USEC);
	/* Spread the clients out so they do not march in step. */
	usleep((useconds_t)(rand_unit() * soak.think_max * 1e6));
	while (lg_now_ns() < soak.end_ns) {
		double think;

		one_request(c, pick(), retry);
		think = soak.think_min + rand_unit() * (soak.think_max - soak.think_min);
		usleep((useconds_t)(think * 1e6));
	}
	lg_bus_close(c);
	return NULL;
}

/*
 * otattestd's memory, once a second. Each instance (the harness restarts
 * it) is judged on its own: from its RSS 20 s after it was first seen
 * (start-up allocations and the first burst of clients are over) to its
 * last sample it may grow by at most rss_growth_max_kib. Instances seen
 * for less than a minute are too short to show a trend and are reported
 * only.
 */
#define RSS_SETTLE_S 20
#define RSS_MIN_LIFE_S 60
#define RSS_INSTANCES_MAX 64
struct rss_instance {
	uint32_t pid;
	uint64_t first_ns, last_ns;
	uint64_t settled_kib, last_kib, peak_kib;
};
static struct {
	pthread_t thread;
	struct rss_instance inst[RSS_INSTANCES_MAX];
	unsigned n;
	volatile int stop;
} rss;

static void *rss_main(void *arg)
{
	sd_bus *bus = NULL;

	(void)arg;
	if (sd_bus_open_system(&bus) < 0)
		return NULL;
	while (!rss.stop) {
		uint32_t pid = lg_bus_name_pid(bus, OTA_BUS_NAME);
		uint64_t kib = lg_rss_kib(pid), now = lg_now_ns();
		struct rss_instance *in = rss.n ? &rss.inst[rss.n - 1] : NULL;

		if (pid && kib) {
			if ((!in || in->pid != pid) && rss.n < RSS_INSTANCES_MAX) {
				in = &rss.inst[rss.n++];
				in->pid = pid;
				in->first_ns = now;
			}
			if (in && in->pid == pid) {
				in->last_ns = now;
				in->last_kib = kib;
				if (kib > in->peak_kib)
					in->peak_kib = kib;
				if (!in->settled_kib && now - in->first_ns >= RSS_SETTLE_S * 1000000000ull)
					in->settled_kib = kib;
			}
		}
		sleep(1);
	}
	sd_bus_flush_close_unref(bus);
	return NULL;
}

int lg_soak_run(const struct lg_soak_args *a)
{
	struct lg_client *clients = calloc(a->clients, sizeof(*clients));
	pthread_t *threads = calloc(a->clients, sizeof(*threads));
	bool readers = !strcmp(a->role, "readers"), pass = true;
	uint64_t totals[O_COUNT] = { 0 }, start;
	unsigned i, judged = 0;
	struct json_object *doc, *ops;
	FILE *out = stdout;
	size_t k;

	if (!clients || !threads)
		return 1;
	if (readers) {
		soak.mix = reader_mix;
		soak.mix_len = sizeof(reader_mix) / sizeof(reader_mix[0]);
		soak.think_min = a->think_max > 0 ? a->think_min : 0.05;
		soak.think_max = a->think_max > 0 ? a->think_max : 0.25;
		if (!a->ca_path || ota_trust_load_file(a->ca_path, &soak.trust) != OTA_OK) {
			fprintf(stderr, "otattest-loadgen: cannot load the CA %s\n",
				a->ca_path ? a->ca_path : "(none given: --ca)");
			return 2;
		}
		ota_policy_init(&soak.policy);
		pthread_create(&rss.thread, NULL, rss_main, NULL);
	} else {
		soak.mix = rotator_mix;
		soak.mix_len = 1;
		soak.think_min = a->rotate_every * 0.5;
		soak.think_max = a->rotate_every * 1.5;
	}
	start = lg_now_ns();
	soak.end_ns = start + (uint64_t)(a->seconds * 1e9);
	for (i = 0; i < a->clients; i++) {
		clients[i].index = i;
		pthread_create(&threads[i], NULL, client_main, &clients[i]);
	}
	for (i = 0; i < a->clients; i++) {
		void *rv = NULL;

		pthread_join(threads[i], &rv);
		if (rv) {
			fprintf(stderr, "otattest-loadgen: client %u could not connect\n", i);
			pass = false;
		}
	}
	if (readers) {
		rss.stop = 1;
		pthread_join(rss.thread, NULL);
	}

	for (k = 0; k < soak.mix_len; k++)
		for (i = 0; i < O_COUNT; i++)
			totals[i] += soak.per_op[k].outcome[i];
	if (totals[O_WRONG] || totals[O_UNEXPECTED] || totals[O_LOST] || !totals[O_OK])
		pass = false;

	if (a->out_path && !(out = fopen(a->out_path, "we"))) {
		perror(a->out_path);
		return 1;
	}
	doc = json_object_new_object();
	otu_json_add_str(doc, "role", a->role);
	otu_json_add_u64(doc, "clients", a->clients);
	otu_json_add_u64(doc, "seconds", (uint64_t)((lg_now_ns() - start) / 1000000000ull));
	for (i = 0; i < O_COUNT; i++)
		otu_json_add_u64(doc, outcome_name[i], totals[i]);
	otu_json_add_u64(doc, "longest_gap_ms", soak.longest_gap_ns / 1000000u);
	ops = json_object_new_object();
	json_object_object_add(doc, "ops", ops);
	for (k = 0; k < soak.mix_len; k++) {
		struct tally *t = &soak.per_op[k];
		struct json_object *op = json_object_new_object(), *errs = json_object_new_object();

		json_object_object_add(ops, soak.mix[k].name, op);
		for (i = 0; i < O_COUNT; i++)
			otu_json_add_u64(op, outcome_name[i], t->outcome[i]);
		if (soak.mix[k].run == lg_op_attest)
			otu_json_add_u64(op, "verified", t->verified);
		for (i = 0; i < NAMES_MAX && t->names[i].name[0]; i++)
			otu_json_add_u64(errs, t->names[i].name, t->names[i].count);
		json_object_object_add(op, "errors", errs);
		if (t->first_bad[0])
			otu_json_add_str(op, "first_bad", t->first_bad);
	}
	if (readers) {
		struct json_object *list = json_object_new_array();

		otu_json_add_u64(doc, "rss_growth_max_kib", a->rss_growth_max_kib);
		json_object_object_add(doc, "rss", list);
		for (i = 0; i < rss.n; i++) {
			struct rss_instance *in = &rss.inst[i];
			uint64_t life_s = (in->last_ns - in->first_ns) / 1000000000ull;
			bool judge = life_s >= RSS_MIN_LIFE_S && in->settled_kib;
			int64_t growth = (int64_t)in->last_kib - (int64_t)in->settled_kib;
			struct json_object *o = json_object_new_object();

			json_object_array_add(list, o);
			otu_json_add_u64(o, "pid", in->pid);
			otu_json_add_u64(o, "seen_s", life_s);
			otu_json_add_u64(o, "settled_kib", in->settled_kib);
			otu_json_add_u64(o, "last_kib", in->last_kib);
			otu_json_add_u64(o, "peak_kib", in->peak_kib);
			otu_json_add_bool(o, "judged", judge);
			otu_json_add_i64(o, "growth_kib", judge ? growth : 0);
			if (judge) {
				judged++;
				if (growth > (int64_t)a->rss_growth_max_kib) {
					fprintf(stderr, "  memory: otattestd %u grew %lld KiB in %llu s (bound %llu KiB)\n",
						in->pid, (long long)growth, (unsigned long long)life_s,
						(unsigned long long)a->rss_growth_max_kib);
					pass = false;
				}
			}
		}
		otu_json_add_u64(doc, "rss_instances_judged", judged);
		/* No instance lived long enough to judge: the run shows nothing. */
		if (!judged) {
			fprintf(stderr, "  memory: no otattestd of the %u seen lived %d s to be judged\n",
				rss.n, RSS_MIN_LIFE_S);
			pass = false;
		}
	}
	otu_json_add_bool(doc, "pass", pass);
	otu_json_emit(out, doc);
	if (out != stdout)
		fclose(out);

	fprintf(stderr, "soak %s: %u clients, ok %llu, named %llu, retried %llu, wrong %llu, "
			"unexpected %llu, lost %llu: %s\n",
		a->role, a->clients, (unsigned long long)totals[O_OK],
		(unsigned long long)totals[O_NAMED], (unsigned long long)totals[O_RETRIED],
		(unsigned long long)totals[O_WRONG], (unsigned long long)totals[O_UNEXPECTED],
		(unsigned long long)totals[O_LOST], pass ? "PASS" : "FAIL");
	for (k = 0; k < soak.mix_len; k++)
		if (soak.per_op[k].first_bad[0])
			fprintf(stderr, "  %s: %s\n", soak.mix[k].name, soak.per_op[k].first_bad);
	ota_trust_free(soak.trust);
	free(clients);
	free(threads);
	return pass ? 0 : 1;
}
