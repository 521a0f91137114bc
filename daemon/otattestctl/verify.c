// SPDX-License-Identifier: MIT
/*
 * Evidence verification through libotattest's verifier (verify.h), for
 * `attest --verify` and `verify`: the same checks and verdict as
 * otattest-verify.
 */
#include <stdlib.h>

#include <otu/json.h>

#include "ctl.h"

#include <otattest/verify.h>

static const char *stage_label(uint32_t stage)
{
	return stage == OTA_VERDICT_NO_STAGE ? NULL : ota_stage_name(stage);
}

static void print_verdict(FILE *out, const struct ota_verdict *v, ota_status_t st, bool json)
{
	uint32_t i;

	if (json) {
		struct json_object *doc = json_object_new_object(), *failures = json_object_new_array();

		otu_json_add_str(doc, "verdict", st == OTA_OK ? "pass" : "fail");
		otu_json_add_bool(doc, "authentic", v->authentic);
		json_object_object_add(doc, "failures", failures);
		for (i = 0; i < v->failure_count; i++) {
			struct json_object *f = json_object_new_object();

			otu_json_add_str(f, "status", ctl_status_label(v->failures[i].status));
			otu_json_add_str(f, "stage", stage_label(v->failures[i].stage));
			otu_json_add_str(f, "detail", v->failures[i].detail);
			json_object_array_add(failures, f);
		}
		otu_json_add_bool(doc, "failures_truncated", v->failures_truncated);
		otu_json_emit(out, doc);
		return;
	}
	fprintf(out, "verdict: %s (%s)\n", st == OTA_OK ? "PASS" : "FAIL",
		v->authentic ? "signature and chain valid" : "not authentic");
	for (i = 0; i < v->failure_count; i++)
		fprintf(out, "  %s%s%s: %s\n", ctl_status_label(v->failures[i].status),
			stage_label(v->failures[i].stage) ? " " : "",
			stage_label(v->failures[i].stage) ? stage_label(v->failures[i].stage) : "",
			v->failures[i].detail);
}

int ctl_verify_evidence(const uint8_t *ev, size_t len, const char *ca_path,
			const uint8_t *nonce, size_t nonce_len, const char *policy_path,
			bool json, FILE *out)
{
	struct ota_trust *ca = NULL;
	struct ota_policy policy;
	struct ota_verdict *v;
	ota_status_t st;
	char why[256] = "";
	int rc;

	st = ota_trust_load_file(ca_path, &ca);
	if (st != OTA_OK)
		return ctl_fail(ota_status_class(st), "cannot load the CA %s: %s", ca_path,
				ota_status_message(st) ? ota_status_message(st) : "unknown error");
	ota_policy_init(&policy);
	if (policy_path) {
		st = ota_policy_load_file(policy_path, &policy, why, sizeof(why));
		if (st == OTA_OK) /* its crl files, else the chain is refused */
			st = ota_trust_add_policy_crls(ca, &policy, why, sizeof(why));
		if (st != OTA_OK) {
			ota_trust_free(ca);
			return ctl_fail(ota_status_class(st), "policy %s: %s", policy_path,
					*why ? why : ota_status_message(st));
		}
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		ota_trust_free(ca);
		return ctl_fail(OTA_CLASS_INTERNAL, "out of memory");
	}
	st = ota_verify_evidence(ev, len, ca, nonce, nonce_len, &policy, NULL, 0, v);
	print_verdict(out, v, st, json);
	/* The same convention as otattest-verify: 1 for a failed verdict. */
	rc = st == OTA_OK ? 0 : OTA_EXIT_VERDICT_FAILED;
	free(v);
	ota_trust_free(ca);
	return rc;
}
