// SPDX-License-Identifier: MIT
/*
 * How much the model costs a mailbox round trip, measured from a host peer
 * (no QEMU) against a baseline taken in the same run: the same doorbell
 * mechanism (eventfd write, poll, read) bounced off a process that does
 * nothing but ring back. Ratios, not absolute figures, are the result:
 * absolute times depend on the machine. Not part of `make test`.
 *
 *   make bench-model          (docs/model.md, "Performance")
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../devclient.h"
#include "../fixture.h"
#include "../modelproc.h"

#define ROUNDS 2000

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

struct stats {
	int64_t median, p99;
};

static struct stats summarize(int64_t *t, int n)
{
	qsort(t, (size_t)n, sizeof(t[0]), cmp64);
	return (struct stats){ .median = t[n / 2], .p99 = t[(n * 99) / 100] };
}

static void wait_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t v;

	while (poll(&p, 1, 5000) != 1)
		;
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		exit(1);
}

/* Baseline: ring a process that rings straight back. */
static struct stats bounce(int64_t *t)
{
	int there = eventfd(0, 0), back = eventfd(0, 0);
	uint64_t one = 1;
	pid_t child = fork();

	if (child == 0) {
		for (;;) {
			wait_readable(there);
			if (write(back, &one, sizeof(one)) != sizeof(one))
				_exit(1);
		}
	}
	for (int i = 0; i < ROUNDS; i++) {
		int64_t t0 = now_ns();

		if (write(there, &one, sizeof(one)) != sizeof(one))
			exit(1);
		wait_readable(back);
		t[i] = now_ns() - t0;
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(there);
	close(back);
	return summarize(t, ROUNDS);
}

static struct stats through_model(struct devc *d, uint32_t command, const void *req,
				  uint32_t req_len, int64_t *t)
{
	static uint8_t resp[OTA_SHM_RESPONSE_SIZE];
	uint32_t len;
	ota_status_t st;

	for (int i = 0; i < ROUNDS; i++) {
		int64_t t0 = now_ns();

		if (devc_call(d, command, req, req_len, resp, sizeof(resp), &len, &st, 5000) !=
			    OTA_OK ||
		    st != OTA_OK) {
			fprintf(stderr, "bench: command %u failed\n", command);
			exit(1);
		}
		t[i] = now_ns() - t0;
	}
	return summarize(t, ROUNDS);
}

int main(void)
{
	static int64_t t[ROUNDS];
	const struct fixture *fx = fixture_get();
	struct ota_req_attest att;
	struct model_proc mp;
	struct stats base, rec, ev;
	char flash[256], otp[256];
	const char *args[] = { flash, otp, "--log-level=warn", NULL };
	struct devc d;

	if (!fx || mp_init(&mp) < 0) {
		fprintf(stderr, "bench: provisioning failed\n");
		return 1;
	}
	snprintf(flash, sizeof(flash), "--load-flash=%s", fx->flash);
	snprintf(otp, sizeof(otp), "--load-otp=%s", fx->otp);
	if (mp_start(&mp, args) < 0 || devc_open(&d, mp.socket, 5000) < 0) {
		fprintf(stderr, "bench: model did not start, see %s\n", mp.log);
		return 1;
	}
	memset(&att, 0, sizeof(att));
	att.nonce_len = 32;

	base = bounce(t);
	rec = through_model(&d, OTA_CMD_GET_RECORD, NULL, 0, t);
	ev = through_model(&d, OTA_CMD_ATTEST, &att, sizeof(att), t);

	printf("mailbox round trips from a host peer, %d rounds each, median (p99):\n", ROUNDS);
	printf("  baseline eventfd bounce      %8.1f us (%8.1f us)\n", base.median / 1e3,
	       base.p99 / 1e3);
	printf("  GET_RECORD through the model %8.1f us (%8.1f us)  %5.2fx baseline\n",
	       rec.median / 1e3, rec.p99 / 1e3, (double)rec.median / (double)base.median);
	printf("  ATTEST through the model     %8.1f us (%8.1f us)  %5.2fx baseline, %5.2fx GET_RECORD\n",
	       ev.median / 1e3, ev.p99 / 1e3, (double)ev.median / (double)base.median,
	       (double)ev.median / (double)rec.median);

	devc_close(&d);
	mp_stop(&mp, 5000);
	mp_cleanup(&mp);
	fixture_remove();
	return 0;
}
