// SPDX-License-Identifier: MIT
/*
 * Evidence verification through libotattest's verifier (verify.h). Built
 * without it (the library not yet present), the commands that need it say
 * so and fail with the internal-error exit code instead of pretending.
 */
#include "ctl.h"

#ifndef HAVE_OTA_VERIFY
int ctl_verify_evidence(const uint8_t *ev, size_t len, const char *ca_path,
			const uint8_t *nonce, size_t nonce_len, const char *policy_path,
			bool json, FILE *out)
{
	(void)ev;
	(void)len;
	(void)ca_path;
	(void)nonce;
	(void)nonce_len;
	(void)policy_path;
	(void)json;
	(void)out;
	return ctl_fail(OTA_CLASS_INTERNAL,
			"this otattestctl was built without the libotattest verifier; use otattest-verify");
}
#endif
