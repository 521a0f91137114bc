/* SPDX-License-Identifier: MIT */
/* What the model's command lines share: usage errors and --version. */
#ifndef MODEL_CLI_H
#define MODEL_CLI_H

#define MODEL_VERSION "1"

/*
 * "otattest-model[ SUBCOMMAND]: MESSAGE" and where the manual is, on
 * stderr; returns OTA_EXIT_USAGE. subcommand may be NULL.
 */
int cli_usage_error(const char *subcommand, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The model's version and its shared-memory ABI, on stdout. */
void cli_print_version(void);

#endif /* MODEL_CLI_H */
