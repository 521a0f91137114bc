// SPDX-License-Identifier: MIT
#include "log.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* The caller's location is added below: sd-journal's own would be this file. */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

#include "ratelimit.h"

static enum log_target target = LOG_TARGET_AUTO;
static int max_prio = LOG_INFO;

void log_setup(enum log_target t, int max_priority)
{
	if (t == LOG_TARGET_AUTO) {
		/*
		 * Started by systemd with stderr connected to the journal, or
		 * a journal socket exists: structured logging. Otherwise (a
		 * terminal, a test guest without journald) plain stderr.
		 */
		if (getenv("JOURNAL_STREAM") || access("/run/systemd/journal/socket", W_OK) == 0)
			t = LOG_TARGET_JOURNAL;
		else
			t = LOG_TARGET_STDERR;
	}
	target = t;
	max_prio = max_priority;
}

int log_max_priority(void)
{
	return max_prio;
}

/* Everything one line says besides its text. */
struct log_fields {
	const char *file, *func, *message_id, *device, *sender, *member;
	int line, prio, err;
	bool have_uid;
	uid_t uid;
	ota_status_t status;
	const char *const *extra; /* "NAME=value", NULL-terminated; NULL: none */
};

static void log_stderr(const struct log_fields *f, const char *msg)
{
	static const char *const names[] = { "emerg", "alert", "crit", "err",
					     "warning", "notice", "info", "debug" };

	fprintf(stderr, "otattestd[%s]: ", names[f->prio & 7]);
	if (f->device)
		fprintf(stderr, "%s: ", f->device);
	fputs(msg, stderr);
	if (f->status)
		fprintf(stderr, " [%s]", ota_status_name(f->status) ?: "unknown");
	if (f->sender || f->have_uid)
		fprintf(stderr, " (client %s", f->sender ?: "direct");
	if (f->have_uid)
		fprintf(stderr, ", uid %u", (unsigned)f->uid);
	if (f->sender || f->have_uid)
		fputc(')', stderr);
	fputc('\n', stderr);
}

/* One iovec entry "NAME=value", formatted into buf. */
#define ADD(buf, ...)                                                                  \
	do {                                                                           \
		int l_ = snprintf(buf, sizeof(buf), __VA_ARGS__);                      \
		iov[n].iov_base = buf;                                                 \
		iov[n].iov_len = l_ < (int)sizeof(buf) ? (size_t)l_ : sizeof(buf) - 1; \
		n++;                                                                   \
	} while (0)

static void log_emit(const struct log_fields *f, const char *msg)
{
	char f_msg[1100], f_prio[16], f_mid[48], f_dev[64], f_sender[300], f_uid[32],
		f_member[96], f_status[96], f_errno[32], f_file[256], f_line[32], f_func[128];
	struct iovec iov[12 + LOG_EXTRA_MAX];
	int n = 0, i;

	if (target == LOG_TARGET_JOURNAL) {
		ADD(f_msg, "MESSAGE=%s%s%s", f->device ?: "", f->device ? ": " : "", msg);
		ADD(f_prio, "PRIORITY=%d", f->prio);
		if (f->message_id)
			ADD(f_mid, "MESSAGE_ID=%s", f->message_id);
		if (f->device)
			ADD(f_dev, "OTATTEST_DEVICE=%s", f->device);
		if (f->sender)
			ADD(f_sender, "OTATTEST_SENDER=%s", f->sender);
		if (f->have_uid)
			ADD(f_uid, "OTATTEST_UID=%u", (unsigned)f->uid);
		if (f->member)
			ADD(f_member, "OTATTEST_METHOD=%s", f->member);
		if (f->status)
			ADD(f_status, "OTATTEST_STATUS=%s", ota_status_name(f->status) ?: "unknown");
		if (f->err)
			ADD(f_errno, "ERRNO=%d", f->err);
		ADD(f_file, "CODE_FILE=%s", f->file);
		ADD(f_line, "CODE_LINE=%d", f->line);
		ADD(f_func, "CODE_FUNC=%s", f->func);
		for (i = 0; f->extra && f->extra[i] && i < (int)LOG_EXTRA_MAX; i++) {
			iov[n].iov_base = (void *)f->extra[i];
			iov[n].iov_len = strlen(f->extra[i]);
			n++;
		}
		if (sd_journal_sendv(iov, n) >= 0)
			return;
		/* No journal after all: do not lose the line. */
	}
	log_stderr(f, msg);
}
#undef ADD

static void log_vemit(const struct log_fields *f, const char *fmt, va_list ap)
{
	char msg[1024];
	int saved = errno;

	errno = f->err; /* so %m in fmt names err */
	vsnprintf(msg, sizeof(msg), fmt, ap);
	log_emit(f, msg);
	errno = saved;
}

int log_event_at(const char *file, int line, const char *func, int prio, int err,
		 const char *message_id, const char *device, const char *sender,
		 ota_status_t status, const char *fmt, ...)
{
	struct log_fields f = { .file = file, .line = line, .func = func, .prio = prio,
				.err = err < 0 ? -err : err, .message_id = message_id,
				.device = device, .sender = sender, .status = status };
	va_list ap;

	if (prio <= max_prio) {
		va_start(ap, fmt);
		log_vemit(&f, fmt, ap);
		va_end(ap);
	}
	return f.err ? -f.err : 0;
}

int log_event_fields_at(const char *file, int line, const char *func, int prio,
			const char *message_id, const char *device, const char *const *fields,
			const char *fmt, ...)
{
	struct log_fields f = { .file = file, .line = line, .func = func, .prio = prio,
				.message_id = message_id, .device = device, .extra = fields };
	va_list ap;

	if (prio <= max_prio) {
		va_start(ap, fmt);
		log_vemit(&f, fmt, ap);
		va_end(ap);
	}
	return 0;
}

/* ---- refusals: limited, the rest counted by user ---- */

#define TOP_USERS 4

static struct {
	struct token_bucket bucket;
	bool init;
	sd_event_source *timer;
	uint64_t summary_usec; /* how long a flood runs before its summary */
	uint64_t suppressed, others;
	uint64_t window_start_usec;
	struct {
		uid_t uid;
		uint64_t n;
	} top[TOP_USERS];
	unsigned n_top;
} refusals;

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static void count_suppressed(uid_t uid)
{
	unsigned i;

	refusals.suppressed++;
	for (i = 0; i < refusals.n_top; i++)
		if (refusals.top[i].uid == uid) {
			refusals.top[i].n++;
			return;
		}
	if (refusals.n_top < TOP_USERS) {
		refusals.top[refusals.n_top].uid = uid;
		refusals.top[refusals.n_top++].n = 1;
		return;
	}
	refusals.others++;
}

/* The summary of what was not logged; always goes out. */
static void log_summary(void)
{
	char who[256] = "";
	size_t len = 0;
	unsigned i;

	if (!refusals.suppressed)
		return;
	for (i = 0; i < refusals.n_top && len < sizeof(who); i++)
		len += (size_t)snprintf(who + len, sizeof(who) - len, "%suid %u: %llu",
					i ? ", " : "", (unsigned)refusals.top[i].uid,
					(unsigned long long)refusals.top[i].n);
	if (refusals.others && len < sizeof(who))
		snprintf(who + len, sizeof(who) - len, ", other users: %llu",
			 (unsigned long long)refusals.others);
	log_event(LOG_NOTICE, 0, MID_REFUSALS_SUPPRESSED, NULL, NULL, 0,
		  "%llu refused or failed call(s) not logged in the last %llu s (%s)",
		  (unsigned long long)refusals.suppressed,
		  (unsigned long long)((now_usec() - refusals.window_start_usec + 999999) / 1000000), who);
	refusals.suppressed = refusals.others = 0;
	refusals.n_top = 0;
}

static int on_summary(sd_event_source *s, uint64_t usec, void *userdata)
{
	log_summary();
	return 0;
}

int log_refusals_attach(sd_event *event, uint64_t summary_usec)
{
	int r;

	refusals.summary_usec = summary_usec;
	r = sd_event_add_time_relative(event, &refusals.timer, CLOCK_MONOTONIC, summary_usec, 0,
				       on_summary, NULL);
	if (r < 0)
		return r;
	return sd_event_source_set_enabled(refusals.timer, SD_EVENT_OFF);
}

void log_refusals_detach(void)
{
	log_summary();
	refusals.timer = sd_event_source_disable_unref(refusals.timer);
}

/* May one more refusal be logged now? If not, it is counted for the summary. */
static bool refusal_admit(uid_t uid)
{
	uint64_t now = now_usec();

	if (!refusals.init) {
		token_bucket_init(&refusals.bucket, LOG_REFUSAL_BURST, LOG_REFUSAL_PER_SEC, now);
		refusals.init = true;
	}
	if (token_bucket_take(&refusals.bucket, now))
		return true;
	if (!refusals.suppressed)
		refusals.window_start_usec = now;
	count_suppressed(uid);
	if (refusals.timer) {
		int enabled = SD_EVENT_OFF;

		sd_event_source_get_enabled(refusals.timer, &enabled);
		if (enabled == SD_EVENT_OFF) {
			sd_event_source_set_time_relative(refusals.timer, refusals.summary_usec);
			sd_event_source_set_enabled(refusals.timer, SD_EVENT_ONESHOT);
		}
	} else if (now - refusals.window_start_usec >= LOG_REFUSAL_SUMMARY_SEC * 1000000ull) {
		/* No loop to time it (tests): summarize when the next refusal comes. */
		log_summary();
	}
	return false;
}

int log_caller_at(const char *file, int line, const char *func, int prio, bool limited,
		  const char *message_id, const char *device, const struct log_caller *who,
		  ota_status_t status, const char *fmt, ...)
{
	struct log_fields f = { .file = file, .line = line, .func = func, .prio = prio,
				.message_id = message_id, .device = device, .status = status };
	va_list ap;

	assert(who);
	f.sender = who->sender;
	f.member = who->member;
	f.have_uid = true;
	f.uid = who->uid;
	if (prio > max_prio)
		return 0;
	if (limited && !refusal_admit(who->uid))
		return 0;
	va_start(ap, fmt);
	log_vemit(&f, fmt, ap);
	va_end(ap);
	return 0;
}
