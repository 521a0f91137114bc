// SPDX-License-Identifier: MIT
/*
 * The EAR claims set (draft-ietf-rats-ear) of a verdict, built with
 * json-c: the profile, when it was issued, which verifier, the nonce the
 * verifier sent, and per stage a submodule with ear.status and the AR4SI
 * trustworthiness vector (ear_appraise.c).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <otu/hex.h>
#include <otu/json.h>

#include "otattest/ear.h"

#include "b64url.h"

/* "key": base64url of buf; false when memory runs out. */
static bool add_b64url(struct json_object *o, const char *key, const void *buf, size_t len)
{
	char *text = ota_b64url(buf, len);

	if (text == NULL)
		return false;
	otu_json_add_str(o, key, text);
	free(text);
	return true;
}

/*
 * ear.veraison.policy-claims, as the Veraison scheme writes it (its
 * Summary.Result): the device id (hex, "" when the claims did not decode)
 * and the failures that speak for the stage - its own and the device's -
 * each {status, stage, detail}, stage "" for the device; null when none.
 */
static struct json_object *policy_claims(const struct ota_verdict *v, uint32_t stage)
{
	struct json_object *pc = json_object_new_object(), *list = NULL;
	char hex[2 * OTA_DEVICE_ID_BYTES + 1] = "";

	if (v->claims_valid) {
		otu_hex_encode(hex, v->claims.device_id, OTA_DEVICE_ID_BYTES);
		hex[2 * OTA_DEVICE_ID_BYTES] = '\0';
	}
	otu_json_add_str(pc, "device-id", hex);
	for (uint32_t i = 0; i < v->failure_count && i < OTA_VERDICT_MAX_FAILURES; i++) {
		const struct ota_verdict_failure *f = &v->failures[i];
		struct json_object *one;

		if (f->stage != OTA_VERDICT_NO_STAGE && f->stage != stage)
			continue;
		if (list == NULL)
			list = json_object_new_array();
		one = json_object_new_object();
		otu_json_add_str(one, "status", ota_status_name(f->status));
		otu_json_add_str(one, "stage",
				 f->stage == OTA_VERDICT_NO_STAGE ? "" : ota_stage_name(f->stage));
		otu_json_add_str(one, "detail", f->detail);
		json_object_array_add(list, one);
	}
	json_object_object_add(pc, "failures", list);
	return pc;
}

static struct json_object *submodule(const struct ota_verdict *v, uint32_t stage,
				     const struct ota_ear_options *o)
{
	struct json_object *sub = json_object_new_object(), *tv = json_object_new_object();
	struct ota_ear_appraisal a;

	ota_ear_appraise(v, stage, &a);
	otu_json_add_str(sub, "ear.status", ota_ear_tier_name(a.status));
	for (uint32_t c = 0; c < OTA_AR4SI_CLAIM_COUNT; c++)
		otu_json_add_i64(tv, ota_ar4si_claim_name(c), a.vector[c]);
	json_object_object_add(sub, "ear.trustworthiness-vector", tv);
	if (o->policy_id)
		otu_json_add_str(sub, "ear.appraisal-policy-id", o->policy_id);
	json_object_object_add(sub, "ear.veraison.policy-claims", policy_claims(v, stage));
	return sub;
}

static struct json_object *claims_set(const struct ota_verdict *v, const struct ota_ear_options *o,
				      bool *ok)
{
	struct json_object *doc = json_object_new_object(), *id = json_object_new_object();
	struct json_object *subs = json_object_new_object();

	otu_json_add_str(doc, "eat_profile", OTA_EAR_PROFILE);
	otu_json_add_i64(doc, "iat", o->iat ? o->iat : (int64_t)time(NULL));
	otu_json_add_str(id, "developer", o->developer ? o->developer : "otattest");
	otu_json_add_str(id, "build", o->build ? o->build : "libotattest");
	json_object_object_add(doc, "ear.verifier-id", id);
	/* EAT's JSON form of a byte-string nonce: base64url text. */
	if (o->nonce && !add_b64url(doc, "eat_nonce", o->nonce, o->nonce_len))
		*ok = false;
	/* The EAR draft's CDDL has ear.raw-evidence in the EAR itself, not in an
	 * appraisal, and Veraison's ear library reads it only there. */
	if (o->raw_evidence &&
	    !add_b64url(doc, "ear.raw-evidence", o->raw_evidence, o->raw_evidence_len))
		*ok = false;
	for (uint32_t stage = OTA_STAGE_ROM_EXT; stage <= OTA_STAGE_BL0; stage++)
		json_object_object_add(subs, ota_stage_name(stage), submodule(v, stage, o));
	json_object_object_add(doc, "submods", subs);
	return doc;
}

ota_status_t ota_ear_claims_json(const struct ota_verdict *v, const struct ota_ear_options *o,
				 char **json)
{
	bool ok = true;
	struct json_object *doc = claims_set(v, o, &ok);
	const char *text;

	*json = NULL;
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN |
							   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (ok && text)
		*json = strdup(text);
	json_object_put(doc);
	return *json ? OTA_OK : OTA_HOST_INTERNAL;
}
