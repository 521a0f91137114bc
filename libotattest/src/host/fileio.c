// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>

#include "fileio.h"

ota_status_t ota_read_file(const char *path, size_t max, unsigned char **buf, size_t *len)
{
	unsigned char *b;
	size_t n;
	FILE *f;
	int c;

	*buf = NULL;
	*len = 0;
	f = fopen(path, "rb");
	if (f == NULL)
		return OTA_HOST_IO;
	b = malloc(max + 1);
	if (b == NULL) {
		fclose(f);
		return OTA_HOST_INTERNAL;
	}
	n = fread(b, 1, max, f);
	if (ferror(f)) {
		fclose(f);
		free(b);
		return OTA_HOST_IO;
	}
	c = fgetc(f); /* anything past max means the file is too large */
	fclose(f);
	if (c != EOF) {
		free(b);
		return OTA_HOST_BAD_ARGUMENT;
	}
	b[n] = 0;
	*buf = b;
	*len = n;
	return OTA_OK;
}
