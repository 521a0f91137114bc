// SPDX-License-Identifier: MIT
/*
 * Whole input files for the library's *_load_file calls: the private
 * utility library's bounded read (libotattest/util), its errno answers
 * told as the library's statuses.
 */
#include <errno.h>

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
