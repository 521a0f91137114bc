// SPDX-License-Identifier: MIT
/* The model's event log; see log.h for the line format. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static enum log_level current = LOG_LVL_INFO;
static const char *ident = "otattest-model";

static const char *const level_names[] = {
	[LOG_LVL_ERROR] = "error",
	[LOG_LVL_WARN] = "warn",
	[LOG_LVL_INFO] = "info",
	[LOG_LVL_DEBUG] = "debug",
};

bool log_level_parse(const char *name, enum log_level *out)
{
	for (unsigned i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++) {
		if (strcmp(name, level_names[i]) == 0) {
			*out = (enum log_level)i;
			return true;
		}
	}
	return false;
}

void log_set_level(enum log_level level)
{
	current = level;
}

void log_set_ident(const char *name)
{
	ident = name;
}

bool log_enabled(enum log_level level)
{
	return level <= current;
}

void log_event(enum log_level level, const char *event, const char *fmt, ...)
{
	char line[1024];
	int n;
	va_list ap;

	if (!log_enabled(level))
		return;
	n = snprintf(line, sizeof(line), "%s: %s %s", ident, level_names[level], event);
	if (n < 0)
		return;
	if (fmt[0] != '\0' && (size_t)n < sizeof(line) - 1) {
		line[n++] = ' ';
		va_start(ap, fmt);
		vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	/* One write per line, so lines from a dying process are never interleaved halves. */
	fprintf(stderr, "%s\n", line);
}

const char *status_str(ota_status_t st)
{
	static char ring[4][16];
	static unsigned next;
	const char *name = ota_status_name(st);
	char *buf;

	if (name)
		return name;
	buf = ring[next++ % 4];
	snprintf(buf, sizeof(ring[0]), "0x%06x", st);
	return buf;
}
