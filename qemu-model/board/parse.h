/* SPDX-License-Identifier: MIT */
/* Strict number parsing for options and control commands: all or nothing. */
#ifndef MODEL_PARSE_H
#define MODEL_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* Decimal or 0x-hex, no sign, no trailing bytes, <= max. */
bool parse_u32(const char *s, uint32_t max, uint32_t *out);
bool parse_u64(const char *s, uint64_t max, uint64_t *out);

#endif /* MODEL_PARSE_H */
