// SPDX-License-Identifier: MIT
/*
 * GET_INFO: the runtime's own version string, compiled into its code.
 * The build makes BL0 twice from the same sources (firmware/build.mk):
 * bl0.elf with the default below and bl0-v2.elf with OTA_BL0_VERSION set,
 * so an update from one to the other changes the code that answers, and
 * the answer shows it (docs/mailbox.md, GET_INFO).
 */
#include <string.h>

#include "runtime.h"

#ifndef OTA_BL0_VERSION
#define OTA_BL0_VERSION "1.0.0"
#endif

static const char bl0_version[] = OTA_BL0_VERSION;
OTA_STATIC_ASSERT(sizeof(bl0_version) <= OTA_VERSION_STRING_BYTES, "BL0 version too long");

ota_status_t ota_rt_get_info(struct ota_resp_info *out)
{
	memset(out, 0, sizeof(*out));
	memcpy(out->runtime_version, bl0_version, sizeof(bl0_version) - 1u);
	return OTA_OK;
}
