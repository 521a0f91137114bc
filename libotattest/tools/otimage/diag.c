// SPDX-License-Identifier: MIT
/*
 * Diagnostics: one line naming the file, the field and the reason, and
 * the exit code the status's class maps to (status.h), so a script can
 * tell "your image is malformed" from "your key is wrong" from "I/O".
 */
#include <stdarg.h>
#include <string.h>

#include "otimage.h"

void oti_diag_clear(struct oti_diag *d)
{
	if (d)
		memset(d, 0, sizeof(*d));
}

ota_status_t oti_diag_set(struct oti_diag *d, ota_status_t st, const char *file,
			  const char *field, const char *detail_fmt, ...)
{
	va_list ap;

	if (!d)
		return st;
	if (file)
		snprintf(d->file, sizeof(d->file), "%s", file);
	if (field)
		snprintf(d->field, sizeof(d->field), "%s", field);
	if (detail_fmt) {
		va_start(ap, detail_fmt);
		vsnprintf(d->detail, sizeof(d->detail), detail_fmt, ap);
		va_end(ap);
	}
	return st;
}

void oti_diag_print(FILE *f, const struct oti_diag *d, ota_status_t st)
{
	const char *msg = ota_status_message(st);

	fputs("otimage: ", f);
	if (d && d->file[0])
		fprintf(f, "%s: ", d->file);
	if (d && d->field[0])
		fprintf(f, "%s: ", d->field);
	if (msg)
		fputs(msg, f);
	else
		fprintf(f, "unknown status 0x%06x", (unsigned int)st);
	if (d && d->detail[0])
		fprintf(f, ": %s", d->detail);
	fputc('\n', f);
}

int oti_exit_code(ota_status_t st)
{
	return st == OTA_OK ? 0 : ota_class_exit_code(ota_status_class(st));
}
