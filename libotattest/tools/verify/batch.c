// SPDX-License-Identifier: MIT
/*
 * otattest-verify --batch: a stream of evidences through one trust store.
 *
 * The main thread lists the inputs (files; directories, whose files are
 * taken in name order; "-", a path per line on standard input) into a
 * ring of jobs; worker threads, one per CPU, verify them (the trust store
 * is shared: libotattest remembers each certificate chain it verified, so
 * a device's next evidence costs one signature check, and every thread
 * gains from what another verified). A worker that finishes the oldest
 * unprinted job prints it and every finished job after it, so the output
 * is in input order whatever the threads do. The ring bounds the memory
 * to RING jobs however long the stream; the main thread refills it when it
 * is half empty, and nobody is woken per evidence while work flows.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <otu/file.h>
#include <otu/hex.h>

#include "batch.h"
#include "output.h"

#define RING 256u
#define MAX_JOBS 256u

enum job_state { JOB_FREE, JOB_QUEUED, JOB_RUNNING, JOB_DONE };
enum job_result { RESULT_PASS, RESULT_FAIL, RESULT_UNUSABLE };

struct job {
	enum job_state state;
	enum job_result result;
	char *path;
	char *out; /* what to print for it */
	size_t out_len;
};

struct batch {
	const struct vb_options *o;
	pthread_mutex_t lock;
	pthread_cond_t queued, done;
	struct job ring[RING];
	uint64_t added, taken, printed; /* jobs queued, handed to a worker, printed */
	bool closed;                    /* no more jobs will be queued */
	/*
	 * Who sleeps: a wakeup is sent only to a thread that waits for it, so
	 * a stream that keeps every worker busy costs no context switch per
	 * evidence.
	 */
	unsigned int idle_workers;
	bool main_waits;
	uint64_t count[3];              /* by enum job_result */
};

/* ---- one evidence ------------------------------------------------------------- */

/* PATH with its extension (after the last '.' of the last component) replaced by ext. */
static char *beside(const char *path, const char *ext)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t stem = dot && dot != base ? (size_t)(dot - path) : strlen(path);
	char *s = malloc(stem + strlen(ext) + 1);

	if (s) {
		memcpy(s, path, stem);
		strcpy(s + stem, ext);
	}
	return s;
}

/* A side file's contents; a message in why when it cannot be used. */
static uint8_t *read_beside(const char *path, const char *ext, size_t max, size_t *len,
			    char *why, size_t why_len)
{
	char *side = beside(path, ext);
	uint8_t *buf = NULL;
	int r;

	if (side == NULL) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	r = otu_read_file(side, max, &buf, len);
	if (r < 0)
		snprintf(why, why_len, "%s: %s", side,
			 r == -EFBIG ? "larger than any valid input of its kind" : strerror(-r));
	free(side);
	return r < 0 ? NULL : buf;
}

/*
 * The evidence's nonce from its .nonce file: hex, surrounding white space
 * allowed. OTA_OK, HOST_IO (unreadable) or HOST_BAD_ARGUMENT (not a nonce).
 */
static ota_status_t nonce_beside(const char *path, uint8_t nonce[OTA_NONCE_MAX],
				 size_t *nonce_len, char *why, size_t why_len)
{
	size_t len = 0, start = 0;
	uint8_t *text = read_beside(path, ".nonce", 4 * OTA_NONCE_MAX, &len, why, why_len);
	ssize_t n;

	if (text == NULL)
		return OTA_HOST_IO;
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' '))
		text[--len] = '\0';
	while (start < len && text[start] == ' ')
		start++;
	n = otu_hex_decode((const char *)text + start, nonce, OTA_NONCE_MAX);
	free(text);
	if (n < (ssize_t)OTA_NONCE_MIN) {
		snprintf(why, why_len, "%s's nonce file is not 16 to 64 bytes of hex", path);
		return OTA_HOST_BAD_ARGUMENT;
	}
	*nonce_len = (size_t)n;
	return OTA_OK;
}

/* One line for a person: the file and its verdict, with every failed check. */
static void print_line(FILE *out, const char *path, const struct ota_verdict *v, ota_status_t st)
{
	uint32_t i;

	fprintf(out, "%s: %s", path, st == OTA_OK ? "PASS" : "FAIL");
	for (i = 0; i < v->failure_count; i++)
		fprintf(out, "%s%s", i ? ", " : " ", vo_status_name(v->failures[i].status));
	if (v->failures_truncated)
		fprintf(out, ", ...");
	fputc('\n', out);
}

static enum job_result unusable(FILE *out, const struct vb_options *o, const char *path,
				ota_status_t st, const char *why)
{
	if (o->json)
		vo_print_json_error(out, path, st, why);
	else
		fprintf(out, "%s: ERROR %s\n", path, why);
	return RESULT_UNUSABLE;
}

static enum job_result verify_one(const struct vb_options *o, const char *path,
				  struct ota_verdict *v, FILE *out)
{
	uint8_t *ev = NULL, *rec = NULL, nonce_buf[OTA_NONCE_MAX];
	const uint8_t *nonce = o->nonce;
	size_t ev_len = 0, rec_len = 0, nonce_len = o->nonce_len;
	enum job_result res;
	char why[512];
	ota_status_t st;
	int r;

	r = otu_read_file(path, OTA_EVIDENCE_MAX_BYTES * 4u, &ev, &ev_len);
	if (r < 0) {
		snprintf(why, sizeof(why), "evidence %s: %s", path,
			 r == -EFBIG ? "larger than any valid input of its kind" : strerror(-r));
		return unusable(out, o, path, r == -EFBIG ? OTA_HOST_BAD_ARGUMENT : OTA_HOST_IO, why);
	}
	if (o->nonce_files) {
		st = nonce_beside(path, nonce_buf, &nonce_len, why, sizeof(why));
		if (st != OTA_OK) {
			free(ev);
			return unusable(out, o, path, st, why);
		}
		nonce = nonce_buf;
	}
	if (o->record_files) {
		rec = read_beside(path, ".record", OTA_RECORD_MAX_BYTES, &rec_len, why, sizeof(why));
		if (rec == NULL) {
			free(ev);
			return unusable(out, o, path, OTA_HOST_IO, why);
		}
	}
	st = ota_verify_evidence(ev, ev_len, o->ca, nonce, nonce_len, o->policy, rec, rec_len, v);
	res = st == OTA_OK ? RESULT_PASS : RESULT_FAIL;
	if (o->json)
		vo_print_json(out, path, v, st);
	else
		print_line(out, path, v, st);
	free(ev);
	free(rec);
	return res;
}

/* ---- the workers ---------------------------------------------------------------- */

static void print_done(struct batch *b);

static void *worker(void *arg)
{
	struct batch *b = arg;
	struct ota_verdict *v = calloc(1, sizeof(*v));

	for (;;) {
		struct job *j;
		FILE *out;

		pthread_mutex_lock(&b->lock);
		while (b->taken == b->added && !b->closed) {
			b->idle_workers++;
			pthread_cond_wait(&b->queued, &b->lock);
			b->idle_workers--;
		}
		if (b->taken == b->added) {
			pthread_mutex_unlock(&b->lock);
			break;
		}
		j = &b->ring[b->taken++ % RING];
		j->state = JOB_RUNNING;
		pthread_mutex_unlock(&b->lock);

		/* Each job's output goes to its own buffer, printed in order by the main thread. */
		out = open_memstream(&j->out, &j->out_len);
		if (v == NULL || out == NULL) {
			if (out)
				fclose(out);
			j->result = RESULT_UNUSABLE;
			fprintf(stderr, PROG ": %s: out of memory\n", j->path);
		} else {
			j->result = verify_one(b->o, j->path, v, out);
			fclose(out);
		}

		pthread_mutex_lock(&b->lock);
		j->state = JOB_DONE;
		print_done(b);
		if (b->main_waits && b->added - b->printed <= RING / 2)
			pthread_cond_signal(&b->done);
		pthread_mutex_unlock(&b->lock);
	}
	free(v);
	return NULL;
}

/* Print the jobs that are done, in order. Called with the lock held, by any thread. */
static void print_done(struct batch *b)
{
	while (b->printed < b->added) {
		struct job *j = &b->ring[b->printed % RING];

		if (j->state != JOB_DONE)
			break;
		if (!b->o->quiet && j->out_len)
			fwrite(j->out, 1, j->out_len, stdout);
		b->count[j->result]++;
		free(j->out);
		free(j->path);
		memset(j, 0, sizeof(*j));
		b->printed++;
	}
}

/*
 * The main thread waits until the ring is at most half full (or, at the
 * end, empty), which the workers, printing, tell it. Called with the lock
 * held.
 */
static void wait_room(struct batch *b, uint64_t in_flight)
{
	b->main_waits = true;
	while (b->added - b->printed > in_flight)
		pthread_cond_wait(&b->done, &b->lock);
	b->main_waits = false;
}

/* Queue one path (taken over; NULL: out of memory), waiting for room in the ring. */
static void add_job(struct batch *b, char *path)
{
	pthread_mutex_lock(&b->lock);
	if (path == NULL) {
		fprintf(stderr, PROG ": out of memory\n");
		b->count[RESULT_UNUSABLE]++;
		pthread_mutex_unlock(&b->lock);
		return;
	}
	if (b->added - b->printed == RING)
		wait_room(b, RING / 2);
	b->ring[b->added % RING] = (struct job){ .state = JOB_QUEUED, .path = path };
	b->added++;
	if (b->idle_workers)
		pthread_cond_signal(&b->queued);
	pthread_mutex_unlock(&b->lock);
}

/* ---- the inputs -------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_side_file(const char *name)
{
	size_t n = strlen(name);

	return (n > 6 && !strcmp(name + n - 6, ".nonce")) ||
	       (n > 7 && !strcmp(name + n - 7, ".record"));
}

/* Every regular file of a directory but hidden and side files, in name order. */
static int add_directory(struct batch *b, const char *dir)
{
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (d == NULL)
		return -errno;
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		char *path;

		if (e->d_name[0] == '.' || is_side_file(e->d_name))
			continue;
		if (asprintf(&path, "%s/%s", dir, e->d_name) < 0)
			break;
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		if (n == cap) {
			char **more = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*names));

			if (more == NULL) {
				free(path);
				break;
			}
			names = more;
		}
		names[n++] = path;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++)
		add_job(b, names[i]);
	free(names);
	return 0;
}

/* Paths on standard input, one per line. */
static void add_stdin(struct batch *b)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, stdin)) >= 0) {
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n)
			add_job(b, strdup(line));
	}
	free(line);
}

static void add_input(struct batch *b, const char *in)
{
	struct stat st;
	int r;

	if (!strcmp(in, "-")) {
		add_stdin(b);
		return;
	}
	if (stat(in, &st) == 0 && S_ISDIR(st.st_mode)) {
		r = add_directory(b, in);
		if (r < 0) {
			fprintf(stderr, PROG ": directory %s: %s\n", in, strerror(-r));
			pthread_mutex_lock(&b->lock);
			b->count[RESULT_UNUSABLE]++;
			pthread_mutex_unlock(&b->lock);
		}
		return;
	}
	add_job(b, strdup(in));
}

/* ---- the run ------------------------------------------------------------------------ */

static double seconds(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int vb_run(const struct vb_options *o)
{
	static struct batch b;
	pthread_t threads[MAX_JOBS];
	unsigned int jobs = o->jobs, started = 0, i;
	struct timespec t0, t1;
	double cpu0, wall, cpu;
	uint64_t total;
	int k;

	if (jobs == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = n > 0 ? (unsigned int)n : 1u;
	}
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	memset(&b, 0, sizeof(b));
	b.o = o;
	pthread_mutex_init(&b.lock, NULL);
	pthread_cond_init(&b.queued, NULL);
	pthread_cond_init(&b.done, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	cpu0 = cpu_seconds();
	for (i = 0; i < jobs; i++)
		if (pthread_create(&threads[started], NULL, worker, &b) == 0)
			started++;
	if (started == 0) {
		fprintf(stderr, PROG ": cannot start a worker thread\n");
		return vo_class_exit(OTA_HOST_INTERNAL);
	}

	for (k = 0; k < o->input_count; k++)
		add_input(&b, o->inputs[k]);

	pthread_mutex_lock(&b.lock);
	b.closed = true;
	pthread_cond_broadcast(&b.queued);
	wait_room(&b, 0);
	pthread_mutex_unlock(&b.lock);
	for (i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fflush(stdout);

	wall = seconds(&t0, &t1);
	cpu = cpu_seconds() - cpu0;
	total = b.count[RESULT_PASS] + b.count[RESULT_FAIL] + b.count[RESULT_UNUSABLE];
	if (!o->quiet)
		fprintf(stderr,
			PROG ": %llu evidences: %llu passed, %llu failed, %llu unusable; %.3f s on %u "
			"threads, %.0f evidences/s, %.0f per CPU-second\n",
			(unsigned long long)total, (unsigned long long)b.count[RESULT_PASS],
			(unsigned long long)b.count[RESULT_FAIL],
			(unsigned long long)b.count[RESULT_UNUSABLE], wall, started,
			wall > 0 ? (double)total / wall : 0.0, cpu > 0 ? (double)total / cpu : 0.0);
	pthread_mutex_destroy(&b.lock);
	pthread_cond_destroy(&b.queued);
	pthread_cond_destroy(&b.done);
	return b.count[RESULT_FAIL] || b.count[RESULT_UNUSABLE] ? OTA_EXIT_VERDICT_FAILED : 0;
}
