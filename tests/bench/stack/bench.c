// SPDX-License-Identifier: MIT
/*
 * `otattest-loadgen bench`: N clients, each in its own thread with its own
 * connection, call one op back to back for a fixed time. Requests that
 * start after the warm-up and end before the deadline are counted: their
 * number over the window is the throughput, their latencies give p50/p99.
 * While they run, a sampler reads the resident memory of the daemon that
 * serves them, and the CPU time spent over the window is split between
 * the clients (this process), that daemon, the bus daemon and the rest of
 * the machine (the kernel's share of it all, interrupts, other daemons):
 * in a guest under TCG the CPU is what every request competes for.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <otu/json.h>
#include "loadgen.h"

struct worker {
	struct lg_client c;
	const struct lg_op *op;
	struct lg_lat lat;
	uint64_t errors;
	char first_error[400];
	pthread_t thread;
	int open_rc;
};

static pthread_barrier_t start_line;
static uint64_t window_start, window_end;

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->open_rc = w->op->family == LG_FAMILY_TPM ? lg_tpm_open(&w->c) : lg_bus_open(&w->c);
	pthread_barrier_wait(&start_line);
	if (w->open_rc < 0)
		return NULL;
	for (;;) {
		uint64_t t0 = lg_now_ns(), t1;
		int rc;

		if (t0 >= window_end)
			break;
		rc = w->op->run(&w->c);
		t1 = lg_now_ns();
		if (t0 < window_start || t1 > window_end)
			continue;
		if (rc == 0) {
			lg_lat_add(&w->lat, t1 - t0);
		} else {
			if (!w->errors)
				snprintf(w->first_error, sizeof(w->first_error), "%s: %s",
					 w->c.err_name, w->c.err_msg);
			w->errors++;
		}
	}
	return NULL;
}

struct sampler {
	pthread_t thread;
	uint32_t pid;
	uint64_t rss_start, rss_max;
	volatile int stop;
};

static void *sampler_main(void *arg)
{
	struct sampler *s = arg;

	while (!s->stop) {
		uint64_t kib = lg_rss_kib(s->pid);

		if (kib > s->rss_max)
			s->rss_max = kib;
		usleep(100000);
	}
	return NULL;
}

struct cpu_sample {
	uint64_t machine, self, daemon, bus;
};

static void cpu_sample(struct cpu_sample *c, uint32_t daemon_pid, uint32_t bus_pid)
{
	c->machine = lg_system_busy_ns();
	c->self = lg_self_cpu_ns();
	c->daemon = lg_proc_cpu_ns(daemon_pid);
	c->bus = lg_proc_cpu_ns(bus_pid);
}

static void sleep_until(uint64_t t)
{
	uint64_t now = lg_now_ns();

	if (t > now)
		usleep((useconds_t)((t - now) / 1000u));
}

int lg_bench_run(const struct lg_bench_args *a)
{
	struct worker *w = calloc(a->clients, sizeof(*w));
	struct sampler s = { 0 };
	struct lg_lat all = { 0 };
	uint64_t errors = 0;
	const char *first_error = "";
	double rps, mean = 0;
	struct cpu_sample cpu0, cpu1;
	/* Not from the bus itself: with socket activation the bus socket's
	 * peer credentials name systemd, which created it. */
	uint32_t bus_pid = a->bus_pid;
	sd_bus *bus = NULL;
	struct json_object *doc, *cpu;
	unsigned i;
	int failed_open = 0, ret;

	if (!w)
		return 1;
	if (sd_bus_open_system(&bus) >= 0) {
		if (a->rss_name)
			s.pid = lg_bus_name_pid(bus, a->rss_name);
		sd_bus_flush_close_unref(bus);
	}
	if (a->rss_name) {
		s.rss_start = s.rss_max = lg_rss_kib(s.pid);
		pthread_create(&s.thread, NULL, sampler_main, &s);
	}
	pthread_barrier_init(&start_line, NULL, a->clients + 1);
	for (i = 0; i < a->clients; i++) {
		w[i].c.index = i;
		w[i].op = a->op;
		pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
	}
	/* Every connection is set up: the clock starts now. */
	window_start = lg_now_ns() + (uint64_t)(a->warmup * 1e9);
	window_end = window_start + (uint64_t)(a->seconds * 1e9);
	pthread_barrier_wait(&start_line);
	sleep_until(window_start);
	cpu_sample(&cpu0, s.pid, bus_pid);
	sleep_until(window_end);
	cpu_sample(&cpu1, s.pid, bus_pid);
	for (i = 0; i < a->clients; i++) {
		pthread_join(w[i].thread, NULL);
		if (w[i].open_rc < 0)
			failed_open++;
		lg_lat_merge(&all, &w[i].lat);
		if (w[i].errors && !errors)
			first_error = w[i].first_error;
		errors += w[i].errors;
	}
	if (a->rss_name) {
		s.stop = 1;
		pthread_join(s.thread, NULL);
	}
	for (i = 0; i < all.n; i++)
		mean += (double)all.ns[i];
	mean = all.n ? mean / (double)all.n : 0;
	rps = (double)all.n / a->seconds;

	doc = json_object_new_object();
	otu_json_add_str(doc, "label", a->label ? a->label : a->op->name);
	otu_json_add_str(doc, "op", a->op->name);
	otu_json_add_u64(doc, "clients", a->clients);
	otu_json_add_u64(doc, "window_ms", (uint64_t)(a->seconds * 1000));
	otu_json_add_u64(doc, "requests", all.n);
	otu_json_add_u64(doc, "errors", errors);
	otu_json_add_u64(doc, "clients_failed", (uint64_t)failed_open);
	otu_json_add_u64(doc, "rps_milli", (uint64_t)(rps * 1000));
	otu_json_add_u64(doc, "mean_ns", (uint64_t)mean);
	otu_json_add_u64(doc, "p50_ns", lg_lat_quantile(&all, 0.50));
	otu_json_add_u64(doc, "p90_ns", lg_lat_quantile(&all, 0.90));
	otu_json_add_u64(doc, "p99_ns", lg_lat_quantile(&all, 0.99));
	otu_json_add_u64(doc, "max_ns", lg_lat_quantile(&all, 1.0));
	if (a->rss_name) {
		otu_json_add_str(doc, "rss_of", a->rss_name);
		otu_json_add_u64(doc, "rss_pid", s.pid);
		otu_json_add_u64(doc, "rss_start_kib", s.rss_start);
		otu_json_add_u64(doc, "rss_max_kib", s.rss_max);
	}
	cpu = json_object_new_object();
	otu_json_add_u64(cpu, "machine", (cpu1.machine - cpu0.machine) / 1000000u);
	otu_json_add_u64(cpu, "clients", (cpu1.self - cpu0.self) / 1000000u);
	otu_json_add_u64(cpu, "daemon", (cpu1.daemon - cpu0.daemon) / 1000000u);
	otu_json_add_u64(cpu, "bus", (cpu1.bus - cpu0.bus) / 1000000u);
	json_object_object_add(doc, "cpu_ms", cpu);
	otu_json_add_str(doc, "first_error", first_error);
	otu_json_emit(stdout, doc);
	fflush(stdout);

	fprintf(stderr, "%-12s %2u clients: %8.1f req/s  p50 %8.1f us  p99 %8.1f us  (%zu requests, %llu errors)\n",
		a->label ? a->label : a->op->name, a->clients, rps,
		(double)lg_lat_quantile(&all, 0.50) / 1e3, (double)lg_lat_quantile(&all, 0.99) / 1e3,
		all.n, (unsigned long long)errors);
	if (all.n)
		fprintf(stderr, "  CPU per request: machine %.0f us = clients %.0f + daemon %.0f + bus %.0f + rest\n",
			(double)(cpu1.machine - cpu0.machine) / 1e3 / (double)all.n,
			(double)(cpu1.self - cpu0.self) / 1e3 / (double)all.n,
			(double)(cpu1.daemon - cpu0.daemon) / 1e3 / (double)all.n,
			(double)(cpu1.bus - cpu0.bus) / 1e3 / (double)all.n);
	if (errors)
		fprintf(stderr, "  first error: %s\n", first_error);

	ret = failed_open || errors || !all.n ? 1 : 0;
	for (i = 0; i < a->clients; i++) {
		if (w[i].op->family == LG_FAMILY_TPM)
			lg_tpm_close(&w[i].c);
		else
			lg_bus_close(&w[i].c);
		lg_lat_free(&w[i].lat);
	}
	lg_lat_free(&all);
	free(w);
	pthread_barrier_destroy(&start_line);
	/* A benchmark with failures has no figures worth printing. */
	return ret;
}
