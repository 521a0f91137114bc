// SPDX-License-Identifier: MIT
/*
 * otattest-verify --ear: the library signs (ear.h); this file names the
 * verifier and says what went wrong in the tool's words and exit codes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ear_output.h"
#include "output.h"

int ve_load_key(const char *path, struct ota_ear_key **key)
{
	ota_status_t st = ota_ear_key_load_file(path, key);

	if (st == OTA_OK)
		return 0;
	fprintf(stderr, PROG ": EAR key %s: %s\n", path,
		st == OTA_HOST_IO ? strerror(errno) : ota_status_message(st));
	return vo_class_exit(st);
}

int ve_print(FILE *out, const struct ota_verdict *v, const struct ota_ear_key *key,
	     const uint8_t *nonce, size_t nonce_len, const uint8_t *raw, size_t raw_len)
{
	struct ota_ear_options o = {
		.developer = "otattest",
		.build = PROG,
		.nonce = nonce,
		.nonce_len = nonce_len,
		.raw_evidence = raw,
		.raw_evidence_len = raw_len,
		.policy_id = OTA_EAR_POLICY_ID,
	};
	ota_status_t st;
	char *jwt;

	st = ota_ear_sign(v, &o, key, &jwt);
	if (st != OTA_OK) {
		fprintf(stderr, PROG ": cannot sign the EAR: %s\n", ota_status_message(st));
		return vo_class_exit(st);
	}
	fprintf(out, "%s\n", jwt);
	free(jwt);
	return 0;
}
