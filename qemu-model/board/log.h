/* SPDX-License-Identifier: MIT */
/*
 * The model's log: one line per event on stderr, shaped for grep and awk:
 *
 *   otattest-model: <level> <event> key=value key=value ...
 *
 * ("otattest-model server: ..." from a split model's server process).
 *
 * <event> is a fixed kebab-case word (guest-connected, mbox-request, ...)
 * so a test or a person can wait for exactly one kind of line; values
 * never contain spaces, except paths, which are quoted.
 */
#ifndef MODEL_LOG_H
#define MODEL_LOG_H

#include <stdbool.h>

#include <otattest/status.h>

enum log_level {
	LOG_LVL_ERROR = 0,
	LOG_LVL_WARN = 1,
	LOG_LVL_INFO = 2,
	LOG_LVL_DEBUG = 3,
};

/* Parse "error", "warn", "info" or "debug"; false for anything else. */
bool log_level_parse(const char *name, enum log_level *out);
void log_set_level(enum log_level level);
/*
 * What each line starts with, "otattest-model" unless set: a split
 * model's server says "otattest-model server", so that one log file can
 * hold both of its processes' lines.
 */
void log_set_ident(const char *ident);
bool log_enabled(enum log_level level);

/* fmt describes the key=value part; it may be "" for a bare event. */
void log_event(enum log_level level, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define log_error(ev, ...) log_event(LOG_LVL_ERROR, ev, __VA_ARGS__)
#define log_warn(ev, ...) log_event(LOG_LVL_WARN, ev, __VA_ARGS__)
#define log_info(ev, ...) log_event(LOG_LVL_INFO, ev, __VA_ARGS__)
#define log_debug(ev, ...) log_event(LOG_LVL_DEBUG, ev, __VA_ARGS__)

/*
 * A status as its symbolic name ("MBOX_BAD_SEQUENCE"), or as hex when it
 * is not one of ours. The result stays valid for a few more calls, enough
 * for one log line.
 */
const char *status_str(ota_status_t st);

#endif /* MODEL_LOG_H */
