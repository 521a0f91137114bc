// SPDX-License-Identifier: MIT
/*
 * Reference values for otattest-verify: the CoRIMs an operator names,
 * each checked against the one key the operator names for them, before
 * any evidence is judged. A CoRIM that cannot be used stops the run (an
 * input error, never a verdict): judging evidence against part of the
 * reference values would refuse good devices or pass bad ones.
 */
#include <stdio.h>

#include "output.h"
#include "refvals.h"

static int fail(const char *what, const char *path, ota_status_t st, const char *why, bool json)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s %s: %s%s%s", what, path, ota_status_message(st),
		 why && why[0] ? ": " : "", why ? why : "");
	fprintf(stderr, PROG ": %s\n", msg);
	if (json)
		vo_print_json_error(stdout, NULL, st, msg);
	return vo_class_exit(st);
}

int vr_load(const char *key_path, const char *const paths[], uint32_t count, bool json,
	    struct ota_refvals *r)
{
	uint8_t pub[OTA_P256_PUBKEY_BYTES];
	char why[200];
	ota_status_t st;

	st = ota_p256_pubkey_load_file(key_path, pub);
	if (st != OTA_OK)
		return fail("CoRIM key", key_path, st,
			    st == OTA_X509_MALFORMED ? "not a PEM P-256 public key" : NULL, json);
	ota_refvals_init(r);
	for (uint32_t i = 0; i < count; i++) {
		st = ota_corim_load_file(paths[i], pub, r, why, sizeof(why));
		if (st != OTA_OK)
			return fail("CoRIM", paths[i], st, why, json);
	}
	return 0;
}
