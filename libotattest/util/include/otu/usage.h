/* SPDX-License-Identifier: MIT */
/*
 * An image's usage flags (OTA_CAP_*, otattest/common.h) as every tool
 * shows them: "tag-boot", "debug", "tag-boot,debug", "none", and any bit
 * without a name in hex after the named ones.
 */
#ifndef OTU_USAGE_H
#define OTU_USAGE_H

#include <stdint.h>

/* Long enough for every combination, unknown bits included. */
#define OTU_USAGE_FLAGS_STR_MAX 32u

/* Writes into buf (OTU_USAGE_FLAGS_STR_MAX bytes) and returns it. */
const char *otu_usage_flags_str(uint32_t flags, char buf[OTU_USAGE_FLAGS_STR_MAX]);

#endif
