/* SPDX-License-Identifier: MIT */
/*
 * Structured logging: to the journal with fields (MESSAGE_ID for the events
 * an operator may want to find or alert on, OTATTEST_DEVICE, OTATTEST_STATUS,
 * OTATTEST_SENDER), falling back to stderr when there is no journal (early
 * boot, test guests, a terminal).
 */
#ifndef OTATTESTD_LOG_H
#define OTATTESTD_LOG_H

#include <stdbool.h>
#include <syslog.h>

#include <otattest/status.h>

/* Message ids (systemd-id128 new); documented in docs/man/otattestd.8. */
#define MID_STARTED "ce59b45c3c604ef1adbebb5aad7dc2d0"
#define MID_STOPPING "2d1d55ff852a4e68aa84e8628660f844"
#define MID_DEVICE_ADDED "f0ea14e90df444988be19374d40f2328"
#define MID_DEVICE_REMOVED "0aaee70d22404370b13e6ab1475eb8dc"
#define MID_RECORD_CHANGED "06df52ab35f74d358114724f608e0266"
#define MID_ROTATION_FINISHED "37efdcad5ca049f0802e640badf0a00f"
#define MID_UPDATE_RESET "9364458f75b5405d9f75132a1958dc18"
#define MID_ACCESS_DENIED "9f965ee2abb3428792a893468585b85d"

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

#define log_debug(...) log_event(LOG_DEBUG, 0, NULL, NULL, NULL, 0, __VA_ARGS__)
#define log_info(...) log_event(LOG_INFO, 0, NULL, NULL, NULL, 0, __VA_ARGS__)
#define log_notice(...) log_event(LOG_NOTICE, 0, NULL, NULL, NULL, 0, __VA_ARGS__)
#define log_warning(...) log_event(LOG_WARNING, 0, NULL, NULL, NULL, 0, __VA_ARGS__)
#define log_error_errno(err, ...) log_event(LOG_ERR, (err), NULL, NULL, NULL, 0, __VA_ARGS__)
#define log_warning_errno(err, ...) log_event(LOG_WARNING, (err), NULL, NULL, NULL, 0, __VA_ARGS__)

#endif /* OTATTESTD_LOG_H */
