// SPDX-License-Identifier: MIT
/* What every subcommand does on failure and for --help. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "otimage_internal.h"

int oti_fail(const struct oti_diag *d, ota_status_t st)
{
	oti_diag_print(stderr, d, st);
	return oti_exit_code(st);
}

int oti_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "otimage%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'otimage %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return OTA_EXIT_USAGE;
}

int oti_print_help(const char *text)
{
	fputs(text, stdout);
	return 0;
}
