/* SPDX-License-Identifier: MIT */
/*
 * Lowercase hex, the way every otattest tool shows binary values (ids,
 * digests, nonces) and reads them back from a command line.
 */
#ifndef OTU_HEX_H
#define OTU_HEX_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Writes 2 * len lowercase digits and a NUL: out must hold 2 * len + 1. */
void otu_hex_encode(char *out, const void *in, size_t len);

/* The same digits straight to a stream (no buffer to size). */
void otu_hex_fprint(FILE *f, const void *in, size_t len);

/*
 * Decode a whole string of hex digits, either case, into at most max
 * bytes. Nothing else is accepted: no "0x", sign, blank or separator.
 * Returns the byte count (a caller that needs exactly n bytes compares it
 * with n), -EINVAL for an odd count or a character that is not a hex
 * digit, -EMSGSIZE for more than max bytes. out is untouched on error.
 */
ssize_t otu_hex_decode(const char *in, void *out, size_t max);

#endif /* OTU_HEX_H */
