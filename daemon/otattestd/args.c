// SPDX-License-Identifier: MIT
#include "args.h"

#include <string.h>

#include <otattest/common.h>
#include <otattest/record.h>
#include <otattest/revocation.h>
#include <otattest/shm.h>

#include "../common/dbus-api.h"

bool args_check_nonce(size_t len, struct ota_err *e)
{
	if (len < OTA_NONCE_MIN || len > OTA_NONCE_MAX) {
		ota_err_set_statusf(e, OTA_MBOX_NONCE_LENGTH,
				    "nonce must be %u to %u bytes, got %zu", OTA_NONCE_MIN,
				    OTA_NONCE_MAX, len);
		return false;
	}
	return true;
}

bool args_check_svn(uint32_t svn, struct ota_err *e)
{
	if (svn > OTA_SVN_LIMIT) {
		ota_err_set_statusf(e, OTA_CHAIN_SVN_ABOVE_MAX,
				    "security version %u is above the limit %u", svn, OTA_SVN_LIMIT);
		return false;
	}
	return true;
}

bool args_check_slot(uint32_t slot, struct ota_err *e)
{
	if (slot != OTA_SLOT_A && slot != OTA_SLOT_B && slot != OTA_UPDATE_SLOT_OTHER) {
		ota_err_set_statusf(e, OTA_HOST_BAD_ARGUMENT,
				    "slot must be 0 (A), 1 (B) or 4294967295 (the other one), got %u",
				    slot);
		return false;
	}
	return true;
}

bool args_check_real_slot(uint32_t slot, struct ota_err *e)
{
	if (slot != OTA_SLOT_A && slot != OTA_SLOT_B) {
		ota_err_set_statusf(e, OTA_HOST_BAD_ARGUMENT, "slot must be 0 (A) or 1 (B), got %u", slot);
		return false;
	}
	return true;
}

bool args_parse_stage(const char *name, uint32_t *stage, struct ota_err *e)
{
	static const uint32_t stages[] = { OTA_STAGE_ROM_EXT, OTA_STAGE_BL0 };
	size_t i;

	for (i = 0; i < sizeof(stages) / sizeof(stages[0]); i++)
		if (name && strcmp(name, ota_stage_name(stages[i])) == 0) {
			*stage = stages[i];
			return true;
		}
	ota_err_set_statusf(e, OTA_HOST_BAD_ARGUMENT, "stage must be \"rom_ext\" or \"bl0\", got \"%.32s\"",
			    name ? name : "");
	return false;
}

bool args_check_floor(uint32_t floor, struct ota_err *e)
{
	if (floor > OTA_SVN_LIMIT) {
		ota_err_set_statusf(e, OTA_HOST_BAD_ARGUMENT, "floor %u is above the SVN limit %u", floor,
				    OTA_SVN_LIMIT);
		return false;
	}
	return true;
}

bool args_check_revocation(size_t len, struct ota_err *e)
{
	if (len != sizeof(struct ota_revocation) && len != sizeof(struct ota_revocation_hybrid)) {
		ota_err_set_statusf(e, OTA_REVOKE_MALFORMED,
				    "a revocation command is %zu bytes (%zu hybrid), got %zu",
				    sizeof(struct ota_revocation),
				    sizeof(struct ota_revocation_hybrid), len);
		return false;
	}
	return true;
}

bool args_version_printable(const char *v)
{
	size_t i;

	for (i = 0; v[i]; i++)
		if (i >= OTA_VERSION_STRING_BYTES || v[i] < 0x20 || v[i] > 0x7e)
			return false;
	return true;
}

bool args_parse_device_name(const char *name, uint32_t *index, struct ota_err *e)
{
	size_t plen = strlen(OTA_DEVICE_NAME_PREFIX), n;
	const char *d;
	uint64_t v = 0;

	if (!name || strncmp(name, OTA_DEVICE_NAME_PREFIX, plen) != 0)
		goto bad;
	d = name + plen;
	n = strlen(d);
	/* At most 9 digits keeps the value in a u32 without overflow checks. */
	if (n == 0 || n > 9 || (d[0] == '0' && n > 1))
		goto bad;
	for (; *d; d++) {
		if (*d < '0' || *d > '9')
			goto bad;
		v = v * 10 + (uint64_t)(*d - '0');
	}
	*index = (uint32_t)v;
	return true;
bad:
	ota_err_set_statusf(e, OTA_HOST_NO_DEVICE, "\"%.64s\" is not an otattest device name",
			    name ? name : "");
	return false;
}
