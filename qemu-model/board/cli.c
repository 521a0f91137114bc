// SPDX-License-Identifier: MIT
/* Command-line helpers shared by the model's modes; see cli.h. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>

#include <otattest/shm.h>
#include <otattest/status.h>

int cli_usage_error(const char *subcommand, const char *fmt, ...)
{
	const char *sep = subcommand ? " " : "", *sub = subcommand ? subcommand : "";
	va_list ap;

	fprintf(stderr, "otattest-model%s%s: ", sep, sub);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'otattest-model%s%s --help'.\n", sep, sub);
	return OTA_EXIT_USAGE;
}

void cli_print_version(void)
{
	printf("otattest-model %s (shared memory ABI %u.%u)\n", MODEL_VERSION, OTA_SHM_ABI_MAJOR,
	       OTA_SHM_ABI_MINOR);
}
