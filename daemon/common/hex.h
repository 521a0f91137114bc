/* SPDX-License-Identifier: MIT */
/* Lowercase hex, as sysfs, the CLI and JSON show binary values. */
#ifndef OTATTESTD_HEX_H
#define OTATTESTD_HEX_H

#include <stddef.h>
#include <stdint.h>

/* Writes 2 * len characters and a NUL; out must hold 2 * len + 1. */
void ota_hex_encode(char *out, const uint8_t *in, size_t len);

/*
 * Decode exactly an even number of hex digits (either case, no prefix, no
 * separators) into at most max bytes. Returns the byte count, or -1 for
 * odd length, a non-hex character or more than max bytes.
 */
long ota_hex_decode(uint8_t *out, size_t max, const char *in);

#endif /* OTATTESTD_HEX_H */
