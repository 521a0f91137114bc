/* SPDX-License-Identifier: MIT */
/*
 * Strict unsigned integers from command lines, config files and control
 * requests: the whole string is the number, or it is refused. strtoul
 * alone takes leading blanks, a sign ("-1" wraps to ULONG_MAX), trailing
 * junk and, with base 0, a leading 0 as octal; none of that passes here.
 */
#ifndef OTU_NUM_H
#define OTU_NUM_H

#include <stdint.h>

enum otu_base {
	OTU_DEC,        /* decimal digits only (leading zeros allowed) */
	OTU_DEC_OR_HEX, /* decimal, or hex after "0x"/"0X"; a decimal with a
			 * leading zero ("010": octal to C, ten to a person)
			 * is refused rather than guessed */
};

/*
 * Parse s into *out when min <= value <= max. Returns 0; -EINVAL for an
 * empty string, a sign, a blank, any character that is not a digit of
 * the base, or NULL; -ERANGE for a value outside [min, max], including
 * one too large for 64 bits. *out is untouched on error.
 */
int otu_parse_u64(const char *s, enum otu_base base, uint64_t min, uint64_t max, uint64_t *out);
int otu_parse_u32(const char *s, enum otu_base base, uint32_t min, uint32_t max, uint32_t *out);

#endif /* OTU_NUM_H */
