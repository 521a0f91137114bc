// SPDX-License-Identifier: MIT
/* Building the owner config. */
#include <stdlib.h>
#include <string.h>

#include "otimage.h"
#include "otimage_internal.h"

ota_status_t oti_owner_config_build(const struct oti_owner_params *p,
				    struct ota_owner_config *out, struct oti_diag *d)
{
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	if (p->key_count > OTA_OWNER_MAX_KEYS)
		return oti_diag_set(d, OTA_TOOL_TOO_MANY_KEYS, NULL, "--key", "at most %u owner keys",
				    OTA_OWNER_MAX_KEYS);
	out->magic = OTA_OWNER_MAGIC;
	out->version = OTA_OWNER_VERSION;
	out->size = sizeof(*out);
	out->max_delegation_depth = p->max_delegation_depth;
	out->flags = p->flags;
	out->key_count = p->key_count;
	memcpy(out->keys, p->keys, p->key_count * sizeof(p->keys[0]));
	st = ota_owner_config_check(out);
	if (st != OTA_OK)
		return oti_diag_set(d, st, NULL, oti_status_field(st), NULL);
	return OTA_OK;
}

ota_status_t oti_owner_config_load(const char *path, struct ota_owner_config *out,
				   struct oti_diag *d)
{
	uint8_t *buf;
	size_t len;
	ota_status_t st;

	memset(out, 0, sizeof(*out));
	st = oti_file_read(path, OTI_MAX_SMALL_FILE, &buf, &len, d);
	if (st != OTA_OK)
		return st;
	if (len != sizeof(*out)) {
		free(buf);
		return oti_diag_set(d, len < sizeof(*out) ? OTA_OWNER_TRUNCATED : OTA_OWNER_BAD_SIZE,
				    path, "owner_config", "%zu bytes, an owner config is %zu", len,
				    sizeof(*out));
	}
	memcpy(out, buf, sizeof(*out));
	free(buf);
	st = ota_owner_config_check(out);
	if (st != OTA_OK)
		return oti_diag_set(d, st, path, oti_status_field(st), NULL);
	return OTA_OK;
}
