// SPDX-License-Identifier: MIT
/*
 * A verdict as AR4SI appraisals, one per boot stage: what the EAR's
 * submodules say (ear_claims.c). The meaning of each refusal is the
 * refusal table's (refusal.h); this file only decides which failures
 * speak for which stage and how they combine.
 */
#include <string.h>

#include "otattest/ear.h"

/* Worse: a later tier, or in the same tier the higher value (AR4SI orders within tiers). */
static bool worse(int value, int than)
{
	enum ota_ear_tier a = ota_ar4si_tier(value), b = ota_ar4si_tier(than);

	if (than == OTA_AR4SI_NO_CLAIM)
		return true;
	return a != b ? a > b : value > than;
}

void ota_ear_appraise(const struct ota_verdict *v, uint32_t stage, struct ota_ear_appraisal *out)
{
	enum ota_ear_tier tier;
	uint32_t i, claim;
	int value;

	memset(out, 0, sizeof(*out));
	/*
	 * What passing checks affirm, only for evidence that is authentic and
	 * decoded: the chain to a trusted CA recognizes the instance and its
	 * hardware; the certified claims and the policy approve its boot and
	 * configuration. Anything else affirms nothing.
	 */
	if (v->authentic && v->claims_valid) {
		out->vector[OTA_AR4SI_INSTANCE_IDENTITY] = OTA_AR4SI_AFFIRMED;
		out->vector[OTA_AR4SI_HARDWARE] = OTA_AR4SI_AFFIRMED;
		out->vector[OTA_AR4SI_EXECUTABLES] = OTA_AR4SI_APPROVED_BOOT;
		out->vector[OTA_AR4SI_CONFIGURATION] = OTA_AR4SI_AFFIRMED;
	}
	out->status = OTA_EAR_AFFIRMING;
	for (i = 0; i < v->failure_count; i++) {
		const struct ota_verdict_failure *f = &v->failures[i];

		/* A failure of the whole evidence or device speaks for every stage. */
		if (f->stage != OTA_VERDICT_NO_STAGE && f->stage != stage)
			continue;
		if (!ota_refusal_ar4si(f->status, &claim, &value)) {
			/* A reason with no row: the verifier's own fault, and no affirmation. */
			claim = OTA_AR4SI_INSTANCE_IDENTITY;
			value = OTA_AR4SI_VERIFIER_MALFUNCTION;
		}
		if (worse(value, out->vector[claim]))
			out->vector[claim] = value;
		tier = ota_ar4si_tier(value);
		if (tier == OTA_EAR_AFFIRMING)
			tier = OTA_EAR_NONE; /* a refusal affirms nothing */
		if (tier > out->status)
			out->status = tier;
	}
	/* A truncated verdict may hide worse: it affirms nothing it did not show. */
	if (v->failures_truncated && out->status < OTA_EAR_CONTRAINDICATED)
		out->status = OTA_EAR_CONTRAINDICATED;
}
