// SPDX-License-Identifier: MIT
#include <otu/usage.h>

#include <stdio.h>
#include <string.h>

#include <otattest/common.h>

const char *otu_usage_flags_str(uint32_t flags, char buf[OTU_USAGE_FLAGS_STR_MAX])
{
	snprintf(buf, OTU_USAGE_FLAGS_STR_MAX, "%s%s%s", (flags & OTA_CAP_TAG_BOOT) ? "tag-boot" : "",
		 (flags & OTA_CAP_ALL) == OTA_CAP_ALL ? "," : "", (flags & OTA_CAP_DEBUG) ? "debug" : "");
	if (flags & ~OTA_CAP_ALL)
		snprintf(buf + strlen(buf), OTU_USAGE_FLAGS_STR_MAX - strlen(buf), "%s0x%x",
			 buf[0] ? "," : "", (unsigned int)(flags & ~OTA_CAP_ALL));
	if (!buf[0])
		snprintf(buf, OTU_USAGE_FLAGS_STR_MAX, "none");
	return buf;
}
