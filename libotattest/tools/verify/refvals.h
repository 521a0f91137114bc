/* SPDX-License-Identifier: MIT */
/* otattest-verify's --corim and --corim-key: reference values beside the policy. */
#ifndef OTATTEST_VERIFY_REFVALS_H
#define OTATTEST_VERIFY_REFVALS_H

#include <stdbool.h>

#include <otattest/corim.h>

#define VR_MAX_CORIMS 16u

/*
 * Every CoRIM file, its signature checked with the key in key_path (PEM
 * public key), into r. 0, or the exit
 * code of the first failure after saying what it was on stderr (and, with
 * json, as a {"verdict":"error"} object on stdout).
 */
int vr_load(const char *key_path, const char *const paths[], uint32_t count, bool json,
	    struct ota_refvals *r);

#endif
