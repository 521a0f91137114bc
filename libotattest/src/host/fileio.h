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

/*
 * Read path as above and hand its bytes to use(ctx, buf, len): the
 * *_load_file calls of a *_load_pem. The buffer is wiped before it is
 * freed (some of these files hold private keys). use's status, or the read's.
 */
ota_status_t ota_read_file_with(const char *path, size_t max,
				ota_status_t (*use)(void *ctx, const void *buf, size_t len),
				void *ctx);

#endif
