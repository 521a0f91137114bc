// SPDX-License-Identifier: MIT
/*
 * Values on the command line and in config files. Strict: a number is a
 * whole decimal or 0x-hex number in range, a list is comma-separated
 * names, and anything else is TOOL_BAD_VALUE rather than a guess.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include <otattest/record.h>
#include <otu/hex.h>
#include <otu/num.h>

#include "otimage.h"

/* The tool's status for the shared strict parser's refusals. */
ota_status_t oti_parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	return otu_parse_u32(s, OTU_DEC_OR_HEX, 0, max, out) == 0 ? OTA_OK : OTA_TOOL_BAD_VALUE;
}

/* A comma-separated list of names, each mapped to a bit; "all" and numbers too. */
static ota_status_t parse_mask(const char *s, const char *const *names, uint32_t count,
			       uint32_t all, bool allow_empty, uint32_t *out)
{
	char buf[256], *tok, *save;
	uint32_t mask = 0, i;

	if (!s || strlen(s) >= sizeof(buf))
		return OTA_TOOL_BAD_VALUE;
	if (isdigit((unsigned char)s[0])) {
		OTA_TRY(oti_parse_u32(s, UINT32_MAX, &mask));
		if ((mask & ~all) || (!mask && !allow_empty))
			return OTA_TOOL_BAD_VALUE;
		*out = mask;
		return OTA_OK;
	}
	if (strcmp(s, "all") == 0) {
		*out = all;
		return OTA_OK;
	}
	if (strcmp(s, "none") == 0 && allow_empty) {
		*out = 0;
		return OTA_OK;
	}
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < count; i++)
			if (names[i] && strcmp(tok, names[i]) == 0)
				break;
		if (i == count)
			return OTA_TOOL_BAD_VALUE;
		mask |= 1u << i;
	}
	if (!mask && !allow_empty)
		return OTA_TOOL_BAD_VALUE;
	*out = mask;
	return OTA_OK;
}

ota_status_t oti_parse_slot_mask(const char *s, uint32_t *out)
{
	static const char *const names[] = { "a", "b" };

	return parse_mask(s, names, 2, OTA_SLOT_MASK_ALL, false, out);
}

static const char *const lc_names[OTA_LC_COUNT] = {
	"test_unlocked", "dev", "prod", "prod_end", "rma",
};

ota_status_t oti_parse_lifecycle_mask(const char *s, uint32_t *out)
{
	return parse_mask(s, lc_names, OTA_LC_COUNT, OTA_LC_MASK_ALL, false, out);
}

ota_status_t oti_parse_lifecycle(const char *s, uint32_t *out)
{
	uint32_t i;

	for (i = 0; s && i < OTA_LC_COUNT; i++) {
		if (strcmp(s, lc_names[i]) == 0) {
			*out = i;
			return OTA_OK;
		}
	}
	return OTA_TOOL_BAD_VALUE;
}

ota_status_t oti_parse_caps(const char *s, uint32_t *out)
{
	static const char *const names[] = { "tag-boot", "debug" };

	return parse_mask(s, names, 2, OTA_CAP_ALL, true, out);
}

ota_status_t oti_parse_hex(const char *s, uint8_t *out, size_t n)
{
	return s && otu_hex_decode(s, out, n) == (ssize_t)n ? OTA_OK : OTA_TOOL_BAD_VALUE;
}

ota_status_t oti_parse_device(const char *s, struct ota_usage *u)
{
	uint8_t id[OTA_DEVICE_ID_BYTES];

	if (s && strcmp(s, "any") == 0) {
		u->device_binding = OTA_BINDING_ANY;
		memset(u->device_id, 0, sizeof(u->device_id));
		return OTA_OK;
	}
	OTA_TRY(oti_parse_hex(s, id, sizeof(id)));
	u->device_binding = OTA_BINDING_DEVICE;
	memcpy(u->device_id, id, sizeof(id));
	return OTA_OK;
}

ota_status_t oti_parse_stage(const char *s, uint32_t *stage)
{
	if (s && (strcmp(s, "rom_ext") == 0 || strcmp(s, "rom-ext") == 0)) {
		*stage = OTA_STAGE_ROM_EXT;
		return OTA_OK;
	}
	if (s && strcmp(s, "bl0") == 0) {
		*stage = OTA_STAGE_BL0;
		return OTA_OK;
	}
	return OTA_TOOL_BAD_VALUE;
}

ota_status_t oti_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "on", "yes", "true", "1" };
	static const char *const no[] = { "off", "no", "false", "0" };
	size_t i;

	for (i = 0; s && i < 4; i++) {
		if (strcmp(s, yes[i]) == 0) {
			*out = true;
			return OTA_OK;
		}
		if (strcmp(s, no[i]) == 0) {
			*out = false;
			return OTA_OK;
		}
	}
	return OTA_TOOL_BAD_VALUE;
}
