/* SPDX-License-Identifier: MIT */
/* Reading whole input files with a size bound (host internal). */
#ifndef OTATTEST_HOST_FILEIO_H
#define OTATTEST_HOST_FILEIO_H

#include <stddef.h>

#include "otattest/status.h"

/*
 * Read all of path into a malloc'd buffer (NUL-terminated for text
 * parsers, not counted in *len). HOST_IO when it cannot be read,
 * HOST_BAD_ARGUMENT when it is larger than max bytes.
 */
ota_status_t ota_read_file(const char *path, size_t max, unsigned char **buf, size_t *len);

#endif
