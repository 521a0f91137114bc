/* SPDX-License-Identifier: MIT */
/* otattest-verify --ear: the verdict as a signed EAR (libotattest's ear.h). */
#ifndef OTATTEST_VERIFY_EAR_OUTPUT_H
#define OTATTEST_VERIFY_EAR_OUTPUT_H

#include <stdio.h>

#include <otattest/ear.h>

/* The signing key; 0, or the exit code after saying why on stderr (and nothing on stdout). */
int ve_load_key(const char *path, struct ota_ear_key **key);

/*
 * The EAR, one line on out: eat_nonce the nonce sent (NULL: none),
 * ear.raw-evidence the evidence when raw is not NULL. 0, or the exit code
 * after saying on stderr why it could not be signed.
 */
int ve_print(FILE *out, const struct ota_verdict *v, const struct ota_ear_key *key,
	     const uint8_t *nonce, size_t nonce_len, const uint8_t *raw, size_t raw_len);

#endif /* OTATTEST_VERIFY_EAR_OUTPUT_H */
