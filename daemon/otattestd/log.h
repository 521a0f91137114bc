/* SPDX-License-Identifier: MIT */
/*
 * Structured logging: to the journal with fields (MESSAGE_ID for the events
 * an operator may want to find or alert on, OTATTEST_DEVICE, OTATTEST_STATUS,
 * OTATTEST_SENDER, OTATTEST_UID), falling back to stderr when there is no
 * journal (early boot, test guests, a terminal).
 *
 * Two kinds of line about callers, so that a caller cannot push the ones
 * that matter out of the journal (journald drops a service's lines beyond
 * its RateLimitBurst= per RateLimitIntervalSec=, whichever they are):
 *   - audit lines (log_audit): a privileged operation's outcome, once per
 *     operation, with who asked and what happened. Never limited: only
 *     authorized callers cause them, at the pace of the device.
 *   - refusals (log_refusal): calls turned away (rate limit, queue,
 *     access denied) or failed by the device, which any caller can
 *     provoke at will. At most LOG_REFUSAL_BURST at once and
 *     LOG_REFUSAL_PER_SEC a second; the rest are counted, by user, in one
 *     summary line (MID_REFUSALS_SUPPRESSED) when the flood has lasted
 *     LOG_REFUSAL_SUMMARY_SEC. So the daemon writes about one line a
 *     second about refusals, far below journald's default limit.
 */
#ifndef OTATTESTD_LOG_H
#define OTATTESTD_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <syslog.h>

#include <systemd/sd-event.h>

#include <otattest/status.h>

/* Message ids (systemd-id128 new); documented in docs/man/otattestd.8. */
#define MID_STARTED "ce59b45c3c604ef1adbebb5aad7dc2d0"
#define MID_STOPPING "2d1d55ff852a4e68aa84e8628660f844"
#define MID_DEVICE_ADDED "f0ea14e90df444988be19374d40f2328"
#define MID_DEVICE_REMOVED "0aaee70d22404370b13e6ab1475eb8dc"
#define MID_RECORD_CHANGED "06df52ab35f74d358114724f608e0266"
#define MID_ROTATION_FINISHED "37efdcad5ca049f0802e640badf0a00f"
#define MID_UPDATE_RESET "9364458f75b5405d9f75132a1958dc18"
#define MID_WARM_RESET "ccb040e16f84446d93ea3ee5c602e289"
#define MID_IMAGE_INSTALL "c3ea490f0a554dd5830ce28d27150119"
#define MID_COMMIT "14ed3e7f92d349968530f6c1aed34f8a"
#define MID_RATCHET "da37ef69590949f78323e988100f1c0a"
#define MID_REVOKE "b925e91779324dd0a43f22151bdb7185"
#define MID_ACCESS_DENIED "9f965ee2abb3428792a893468585b85d"
#define MID_REFUSALS_SUPPRESSED "5b2f8b93d1b04c41a3f0c7f24ac0e6d8"
/* A boot tag did not match its image: in the journal catalog (systemd/otattest.catalog). */
#define MID_TAG_MISMATCH "b0254b0e5eef4751b96507ed0a652fb8"
#define MID_TRIAL_REVERTED "960c0bb998f84048a0d1347f66715c7a"

#define LOG_REFUSAL_BURST 20u
#define LOG_REFUSAL_PER_SEC 1u
#define LOG_REFUSAL_SUMMARY_SEC 10u

enum log_target { LOG_TARGET_AUTO, LOG_TARGET_JOURNAL, LOG_TARGET_STDERR };

void log_setup(enum log_target target, int max_priority);
int log_max_priority(void);

/*
 * Log one event. message_id, device and sender may be NULL; status 0 means
 * none. Returns -err when err is non-zero (so `return log_err(...)` works),
 * else 0. A macro, so the journal's CODE_FILE/CODE_LINE/CODE_FUNC name the
 * caller, not log.c.
 */
int log_event_at(const char *file, int line, const char *func, int prio, int err,
		 const char *message_id, const char *device, const char *sender,
		 ota_status_t status, const char *fmt, ...)
	__attribute__((format(printf, 10, 11)));
#define log_event(...) log_event_at(__FILE__, __LINE__, __func__, __VA_ARGS__)

/*
 * The same with journal fields of the event's own: `fields` holds up to
 * LOG_EXTRA_MAX "NAME=value" strings, NULL-terminated (stderr shows the
 * message only).
 */
#define LOG_EXTRA_MAX 8u
int log_event_fields_at(const char *file, int line, const char *func, int prio,
			const char *message_id, const char *device, const char *const *fields,
			const char *fmt, ...) __attribute__((format(printf, 8, 9)));
#define log_event_fields(...) log_event_fields_at(__FILE__, __LINE__, __func__, __VA_ARGS__)

/* The caller a line is about: the bus's word for its uid, its unique name, the method. */
struct log_caller {
	uid_t uid;
	const char *sender; /* NULL on a direct connection */
	const char *member;
};

int log_caller_at(const char *file, int line, const char *func, int prio, bool limited,
		  const char *message_id, const char *device, const struct log_caller *who,
		  ota_status_t status, const char *fmt, ...) __attribute__((format(printf, 10, 11)));
#define log_audit(mid, device, who, status, ...) \
	log_caller_at(__FILE__, __LINE__, __func__, LOG_NOTICE, false, mid, device, who, status, __VA_ARGS__)
#define log_refusal(prio, mid, device, who, status, ...) \
	log_caller_at(__FILE__, __LINE__, __func__, prio, true, mid, device, who, status, __VA_ARGS__)

/*
 * Summaries of suppressed refusals go out from this loop's timer,
 * summary_usec after the first refusal not logged (otattestd:
 * LOG_REFUSAL_SUMMARY_SEC).
 */
int log_refusals_attach(sd_event *event, uint64_t summary_usec);
void log_refusals_detach(void);

#define log_debug(...) log_event(LOG_DEBUG, 0, NULL, NULL, NULL, 0, __VA_ARGS__)
#define log_info(...) log_event(LOG_INFO, 0, NULL, NULL, NULL, 0, __VA_ARGS__)
#define log_notice(...) log_event(LOG_NOTICE, 0, NULL, NULL, NULL, 0, __VA_ARGS__)
#define log_warning(...) log_event(LOG_WARNING, 0, NULL, NULL, NULL, 0, __VA_ARGS__)
#define log_error_errno(err, ...) log_event(LOG_ERR, (err), NULL, NULL, NULL, 0, __VA_ARGS__)
#define log_warning_errno(err, ...) log_event(LOG_WARNING, (err), NULL, NULL, NULL, 0, __VA_ARGS__)

#endif /* OTATTESTD_LOG_H */
