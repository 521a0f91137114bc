// SPDX-License-Identifier: MIT
/*
 * Whole input files for the library's *_load_file calls: the private
 * utility library's bounded read (libotattest/util), its errno answers
 * told as the library's statuses.
 */
#include <errno.h>
#include <stdlib.h>

#include <openssl/crypto.h>

#include <otu/file.h>

#include "fileio.h"

ota_status_t ota_read_file(const char *path, size_t max, unsigned char **buf, size_t *len)
{
	int r = otu_read_file(path, max, buf, len);

	if (r == 0)
		return OTA_OK;
	if (r == -EFBIG)
		return OTA_HOST_BAD_ARGUMENT;
	return r == -ENOMEM ? OTA_HOST_INTERNAL : OTA_HOST_IO;
}

ota_status_t ota_read_file_with(const char *path, size_t max,
				ota_status_t (*use)(void *ctx, const void *buf, size_t len),
				void *ctx)
{
	unsigned char *buf;
	ota_status_t st;
	size_t n;

	st = ota_read_file(path, max, &buf, &n);
	if (st != OTA_OK)
		return st;
	st = use(ctx, buf, n);
	OPENSSL_cleanse(buf, n);
	free(buf);
	return st;
}
