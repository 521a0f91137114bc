// SPDX-License-Identifier: MIT
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* The caller's location is added below: sd-journal's own would be this file. */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

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

static void log_stderr(int prio, const char *device, const char *sender, ota_status_t status,
		       const char *msg)
{
	static const char *const names[] = { "emerg", "alert", "crit", "err",
					     "warning", "notice", "info", "debug" };

	fprintf(stderr, "otattestd[%s]: ", names[prio & 7]);
	if (device)
		fprintf(stderr, "%s: ", device);
	fputs(msg, stderr);
	if (status)
		fprintf(stderr, " [%s]", ota_status_name(status) ? ota_status_name(status) : "unknown");
	if (sender)
		fprintf(stderr, " (client %s)", sender);
	fputc('\n', stderr);
}

int log_event_at(const char *file, int line, const char *func, int prio, int err,
		 const char *message_id, const char *device, const char *sender,
		 ota_status_t status, const char *fmt, ...)
{
	char msg[1024], f_msg[1100], f_prio[16], f_mid[48], f_dev[64], f_sender[300],
		f_status[96], f_errno[32], f_file[256], f_line[32], f_func[128];
	struct iovec iov[11];
	int n = 0, saved = errno;
	va_list ap;

	if (err < 0)
		err = -err;
	if (prio > max_prio)
		return err ? -err : 0;

	va_start(ap, fmt);
	errno = err; /* so %m in fmt names err */
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);

	if (target == LOG_TARGET_JOURNAL) {
#define ADD(buf, ...)                                                          \
	do {                                                                   \
		int l_ = snprintf(buf, sizeof(buf), __VA_ARGS__);              \
		iov[n].iov_base = buf;                                         \
		iov[n].iov_len = l_ < (int)sizeof(buf) ? (size_t)l_ : sizeof(buf) - 1; \
		n++;                                                           \
	} while (0)
		ADD(f_msg, "MESSAGE=%s%s%s", device ? device : "", device ? ": " : "", msg);
		ADD(f_prio, "PRIORITY=%d", prio);
		if (message_id)
			ADD(f_mid, "MESSAGE_ID=%s", message_id);
		if (device)
			ADD(f_dev, "OTATTEST_DEVICE=%s", device);
		if (sender)
			ADD(f_sender, "OTATTEST_SENDER=%s", sender);
		if (status)
			ADD(f_status, "OTATTEST_STATUS=%s",
			    ota_status_name(status) ? ota_status_name(status) : "unknown");
		if (err)
			ADD(f_errno, "ERRNO=%d", err);
		ADD(f_file, "CODE_FILE=%s", file);
		ADD(f_line, "CODE_LINE=%d", line);
		ADD(f_func, "CODE_FUNC=%s", func);
#undef ADD
		if (sd_journal_sendv(iov, n) >= 0)
			goto out;
		/* No journal after all: do not lose the message. */
	}
	log_stderr(prio, device, sender, status, msg);
out:
	errno = saved;
	return err ? -err : 0;
}
