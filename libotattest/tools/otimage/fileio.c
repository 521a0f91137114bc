// SPDX-License-Identifier: MIT
/*
 * Reading inputs and writing outputs, through libotattest-util, with the
 * tool's statuses and one-line diagnostics. Outputs are staged (written
 * and synced beside their targets) and renamed into place only after
 * every output of the command has been staged: a command that fails
 * leaves nothing behind.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <otu/file.h>

#include "otimage.h"

ota_status_t oti_file_read(const char *path, size_t max, uint8_t **out, size_t *len,
			   struct oti_diag *d)
{
	int r = otu_read_file(path, max, out, len);

	if (r == -EFBIG && *len)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, path, NULL, "%zu bytes, at most %zu", *len,
				    max);
	if (r == -EFBIG)
		return oti_diag_set(d, OTA_TOOL_TOO_LARGE, path, NULL, "more than %zu bytes", max);
	if (r == -ENOMEM)
		return oti_diag_set(d, OTA_HOST_INTERNAL, path, NULL, "out of memory");
	if (r < 0)
		return oti_diag_set(d, OTA_HOST_IO, path, NULL, "%s", strerror(-r));
	return OTA_OK;
}

#define OTI_MAX_OUTPUTS 4

ota_status_t oti_files_write(const struct oti_output *outs, size_t n, bool force,
			     struct oti_diag *d)
{
	struct otu_staged staged[OTI_MAX_OUTPUTS];
	size_t i, made = 0;
	int r = 0;

	if (n > OTI_MAX_OUTPUTS)
		return oti_diag_set(d, OTA_HOST_INTERNAL, NULL, NULL, "too many outputs");
	for (i = 0; i < n; i++) {
		if (!force && access(outs[i].path, F_OK) == 0)
			return oti_diag_set(d, OTA_TOOL_EXISTS, outs[i].path, NULL, NULL);
	}
	for (made = 0; made < n; made++) {
		r = otu_stage_file(&staged[made], outs[made].path, outs[made].data, outs[made].len,
				   outs[made].mode, 0);
		if (r < 0)
			break;
	}
	if (r < 0) {
		for (i = 0; i < made; i++)
			otu_stage_discard(&staged[i]);
		return oti_diag_set(d, OTA_HOST_IO, outs[made].path, NULL, "%s", strerror(-r));
	}
	for (i = 0; i < n; i++) {
		r = otu_stage_commit(&staged[i]);
		if (r < 0) {
			ota_status_t st = oti_diag_set(d, OTA_HOST_IO, outs[i].path, NULL, "%s",
						       strerror(-r));

			while (++i < n)
				otu_stage_discard(&staged[i]);
			return st;
		}
	}
	return OTA_OK;
}
