// SPDX-License-Identifier: MIT
/* Latency lists, quantiles, and what a process costs in memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "loadgen.h"

uint64_t lg_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void lat_reserve(struct lg_lat *l, size_t want)
{
	size_t cap = l->cap ? l->cap : 1024;
	uint64_t *p;

	if (want <= l->cap)
		return;
	while (cap < want)
		cap *= 2;
	p = realloc(l->ns, cap * sizeof(*p));
	if (!p) {
		/* A benchmark that cannot keep its samples has no figures. */
		perror("otattest-loadgen: realloc");
		exit(1);
	}
	l->ns = p;
	l->cap = cap;
}

void lg_lat_add(struct lg_lat *l, uint64_t ns)
{
	lat_reserve(l, l->n + 1);
	l->ns[l->n++] = ns;
}

void lg_lat_merge(struct lg_lat *into, const struct lg_lat *from)
{
	lat_reserve(into, into->n + from->n);
	if (from->n)
		memcpy(into->ns + into->n, from->ns, from->n * sizeof(*from->ns));
	into->n += from->n;
}

void lg_lat_free(struct lg_lat *l)
{
	free(l->ns);
	memset(l, 0, sizeof(*l));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t lg_lat_quantile(struct lg_lat *l, double q)
{
	size_t rank;

	if (!l->n)
		return 0;
	qsort(l->ns, l->n, sizeof(*l->ns), cmp_u64);
	/* Nearest rank: the smallest sample with at least q of all at or below. */
	rank = (size_t)(q * (double)l->n + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > l->n)
		rank = l->n;
	return l->ns[rank - 1];
}

/* Read /proc/PID/FILE into buf (NUL-terminated); 0, or -1 if it is gone. */
static int read_proc(uint32_t pid, const char *file, char *buf, size_t size)
{
	char path[64];
	size_t n;
	FILE *f;

	if (!pid)
		return -1;
	snprintf(path, sizeof(path), "/proc/%u/%s", pid, file);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

uint64_t lg_rss_kib(uint32_t pid)
{
	unsigned long long kib = 0;
	char buf[4096];
	const char *p;

	if (read_proc(pid, "status", buf, sizeof(buf)) < 0 || !(p = strstr(buf, "\nVmRSS:")))
		return 0;
	if (sscanf(p, "\nVmRSS: %llu kB", &kib) != 1)
		return 0;
	return kib;
}

uint32_t lg_bus_name_pid(sd_bus *bus, const char *name)
{
	sd_bus_creds *creds = NULL;
	pid_t pid = 0;

	if (sd_bus_get_name_creds(bus, name, SD_BUS_CREDS_PID, &creds) < 0)
		return 0;
	if (sd_bus_creds_get_pid(creds, &pid) < 0)
		pid = 0;
	sd_bus_creds_unref(creds);
	return (uint32_t)pid;
}

/* utime + stime of a process from /proc/PID/stat, in ns (clock-tick
 * resolution: good over a window of seconds, not for one request). */
uint64_t lg_proc_cpu_ns(uint32_t pid)
{
	unsigned long long ut = 0, st = 0;
	char buf[1024], *p;

	if (read_proc(pid, "stat", buf, sizeof(buf)) < 0)
		return 0;
	/* The command name may hold spaces and parentheses: skip past the last ')'. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return 0;
	return (ut + st) * (1000000000ull / (unsigned long long)sysconf(_SC_CLK_TCK));
}

uint64_t lg_self_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

/* CPU time of the whole machine that was not idle, in ns, from /proc/stat. */
uint64_t lg_system_busy_ns(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "re");
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n != 8)
		return 0;
	/* user nice system [idle iowait] irq softirq steal */
	return (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) *
	       (1000000000ull / (unsigned long long)sysconf(_SC_CLK_TCK));
}
