// SPDX-License-Identifier: MIT
/*
 * Trial attempts (firmware/rom_ext/trial.c, docs/boot-flow.md "Trial
 * attempts"): an update runs on trial for OTA_TRIAL_MAX_BOOTS boots; the
 * reset that finds them used up boots the primary again and the record
 * says why, until the next update reset or cold boot. A COMMIT costs no
 * boot; an update reset into the slot already on trial buys none; the
 * runtime cannot lower the count (the vault is locked).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <otattest/sha256.h>
#include <otattest/shm.h>
#include <otattest/verify.h>

#include "fw_run.h"
#include "fwlib.h"
#include "handoff.h"
#include "hal.h"
#include "swhal.h"
#include "tu_device.h"
#include "tu_main.h"
#include "tu_mbox.h"

static struct tu_device dev;

static void setup(void)
{
	struct tu_blob b = tu_bl0(0, 6, false);

	tu_device_boot_default(&dev);
	tu_device_write_slot(OTI_BL0_B, &b);
	tu_blob_free(&b);
}

static void teardown(void)
{
	tu_device_close(&dev);
}

static const struct ota_record_update *update_section(void)
{
	const struct ota_record *r = tu_record();

	ck_assert(r->hdr.flags & OTA_RECORD_F_UPDATE_SECTION);
	ck_assert_uint_eq(ota_record_validate(r, r->hdr.length), OTA_OK);
	return ota_record_update_of(r);
}

/* What the record says of the trial after a boot that ran `slot`. */
static void runs(uint32_t slot, uint32_t trial_boots, uint32_t reason, uint32_t reverted)
{
	const struct ota_record_update *u = update_section();

	ck_assert_uint_eq(ota_boot_state()->boot_status, OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, slot);
	ck_assert_uint_eq(u->running_bl0_slot, slot);
	ck_assert_uint_eq(u->trial_boots, trial_boots);
	ck_assert_uint_eq(u->update_state, trial_boots ? OTA_UPDATE_TRIAL : OTA_UPDATE_IDLE);
	ck_assert_uint_eq(u->revert_reason, reason);
	ck_assert_uint_eq(u->reverted_slot, reverted);
}

static void warm_reset(void)
{
	struct ota_resp_reset out;

	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_OK);
	ck_assert_uint_eq(out.boot_status, OTA_OK);
}

static void cold_boot(void)
{
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
}

/* The five warm resets: the trial reverts at the one that finds its boots used up. */
START_TEST(test_warm_resets_revert_a_trial)
{
	uint32_t i;

	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	runs(OTA_SLOT_B, 1, OTA_REVERT_NONE, 0);
	for (i = 2; i <= OTA_TRIAL_MAX_BOOTS; i++) {
		warm_reset();
		runs(OTA_SLOT_B, i, OTA_REVERT_NONE, 0);
	}
	warm_reset();
	runs(OTA_SLOT_A, 0, OTA_REVERT_WARM_RESET, OTA_SLOT_B);
	ck_assert_uint_eq(tu_record()->hdr.reset_reason, OTA_RESET_WARM);
	/* It stays reverted, and says so, until a cold boot or a new update reset. */
	warm_reset();
	runs(OTA_SLOT_A, 0, OTA_REVERT_WARM_RESET, OTA_SLOT_B);
	cold_boot();
	runs(OTA_SLOT_A, 0, OTA_REVERT_NONE, 0);
	/* A new trial starts with a new count and no old revert. */
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	warm_reset();
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_A), OTA_OK); /* the agent goes back itself */
	runs(OTA_SLOT_A, 0, OTA_REVERT_NONE, 0);
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	runs(OTA_SLOT_B, 1, OTA_REVERT_NONE, 0);
}
END_TEST

/* The device's evidence now, judged by a policy file's text. */
static ota_status_t verify_now(struct ota_trust *trust, const char *policy,
			       struct ota_verdict *v)
{
	static uint8_t resp[OTA_EVIDENCE_MAX_BYTES];
	struct ota_req_attest r;
	struct ota_policy p;
	uint32_t len = 0;
	char why[160];

	memset(&r, 0, sizeof(r));
	r.nonce_len = 16;
	memset(r.nonce, 0x5a, 16);
	ck_assert_uint_eq(ota_fw_command(OTA_CMD_ATTEST, (const uint8_t *)&r, sizeof(r), resp, sizeof(resp),
					 &len),
			  OTA_OK);
	ck_assert_uint_eq(ota_policy_parse(policy, strlen(policy), &p, why, sizeof(why)), OTA_OK);
	return ota_verify_evidence(resp, len, trust, r.nonce, 16, &p, (const uint8_t *)tu_record(),
				   tu_record()->hdr.length, v);
}

/*
 * Issue 28, item 6: the trial and its revert are in the evidence the
 * device signs, certified by ROM_EXT on the real boot flow (the update
 * section is filled before the alias certificate): a verifier requiring
 * committed refuses BL0 on trial and the boot after the revert, and
 * passes both without the rule.
 */
START_TEST(test_evidence_shows_the_trial_and_its_revert)
{
	static const char committed[] = "require_committed = true\n";
	struct ota_trust *trust = tu_identity_provision(&dev);
	struct ota_verdict *v = calloc(1, sizeof(*v));
	uint32_t i;

	cold_boot(); /* serves the identity certificate */
	ck_assert_uint_eq(verify_now(trust, committed, v), OTA_OK);
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	ck_assert_uint_eq(verify_now(trust, "", v), OTA_OK);
	ck_assert_uint_eq(v->claims.update.state, OTA_UPDATE_CLAIM_TRIAL);
	ck_assert_uint_eq(v->claims.update.booted_slot, OTA_SLOT_B);
	ck_assert_uint_eq(v->claims.update.trial_boots, 1);
	ck_assert_uint_eq(v->claims.update.reset_reason, OTA_RESET_UPDATE);
	ck_assert_uint_eq(verify_now(trust, committed, v), OTA_VERIFY_NOT_COMMITTED);
	ck_assert_uint_eq(v->failure_count, 1);
	for (i = 2; i <= OTA_TRIAL_MAX_BOOTS + 1u; i++)
		warm_reset();
	runs(OTA_SLOT_A, 0, OTA_REVERT_WARM_RESET, OTA_SLOT_B);
	ck_assert_uint_eq(verify_now(trust, "", v), OTA_OK);
	ck_assert_uint_eq(v->claims.update.state, OTA_UPDATE_CLAIM_COMMITTED);
	ck_assert_uint_eq(v->claims.update.revert_reason, OTA_REVERT_WARM_RESET);
	ck_assert_uint_eq(v->claims.update.reverted_slot, OTA_SLOT_B);
	ck_assert_uint_eq(verify_now(trust, committed, v), OTA_VERIFY_TRIAL_REVERTED);
	ck_assert_uint_eq(v->failure_count, 1);
	ck_assert_uint_eq(verify_now(trust, "require_committed = true\nallow_reverted = true\n", v),
			  OTA_OK);
	free(v);
	ota_trust_free(trust);
}
END_TEST

/* The COMMIT reset costs no boot: even with every boot used, the commit lands. */
START_TEST(test_commit_costs_no_boot)
{
	uint32_t i;

	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	for (i = 2; i <= OTA_TRIAL_MAX_BOOTS; i++)
		warm_reset();
	runs(OTA_SLOT_B, OTA_TRIAL_MAX_BOOTS, OTA_REVERT_NONE, 0);
	ck_assert_uint_eq(tu_commit(OTA_SLOT_B), OTA_OK);
	ck_assert_uint_eq(tu_boot_data().primary_slot, OTA_SLOT_B);
	runs(OTA_SLOT_B, 0, OTA_REVERT_NONE, 0);
	/* Committed: no count, so warm resets never leave it. */
	for (i = 0; i <= OTA_TRIAL_MAX_BOOTS; i++)
		warm_reset();
	runs(OTA_SLOT_B, 0, OTA_REVERT_NONE, 0);
}
END_TEST

/* A commit the device refuses (another slot) still costs its boot. */
START_TEST(test_refused_commit_costs_a_boot)
{
	struct ota_boot_svc_request q;
	uint32_t i;

	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	for (i = 2; i <= OTA_TRIAL_MAX_BOOTS; i++)
		warm_reset();
	/* A forged request: COMMIT of A while B is on trial. */
	memset(&q, 0, sizeof(q));
	q.services = OTA_SVC_COMMIT;
	q.commit_slot = OTA_SLOT_A;
	ck_assert_uint_eq(boot_svc_store(&q), OTA_OK); /* where the runtime leaves it */
	warm_reset();
	runs(OTA_SLOT_A, 0, OTA_REVERT_WARM_RESET, OTA_SLOT_B);
	ck_assert_uint_eq(tu_boot_data().primary_slot, OTA_SLOT_A);
}
END_TEST

/* An update reset into the slot already on trial buys it no boots. */
START_TEST(test_update_reset_buys_no_boots)
{
	uint32_t i;

	for (i = 1; i <= OTA_TRIAL_MAX_BOOTS; i++) {
		ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
		runs(OTA_SLOT_B, i, OTA_REVERT_NONE, 0);
	}
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_TRIAL_BOOTS_USED);
	runs(OTA_SLOT_A, 0, OTA_REVERT_UPDATE_RESET, OTA_SLOT_B);
}
END_TEST

/* The runtime cannot lower the count: the vault refuses its writes. */
START_TEST(test_runtime_cannot_reset_the_count)
{
	struct ota_retention r;

	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	warm_reset();
	ck_assert_uint_eq(hal_retention_read(0, &r, sizeof(r)), OTA_OK);
	ck_assert_uint_eq(r.trial_boots, 2);
	r.trial_boots = 1;
	ck_assert_uint_ne(boot_retention_store(&r), OTA_OK);
	ck_assert_uint_eq(hal_retention_read(0, &r, sizeof(r)), OTA_OK);
	ck_assert_uint_eq(r.trial_boots, 2);
}
END_TEST

/* A record or a vault with a trial field out of range is refused. */
START_TEST(test_trial_fields_are_checked)
{
	struct ota_record copy = *tu_record();
	struct ota_record_update *u = (struct ota_record_update *)ota_record_update_of(&copy);
	struct ota_retention r;

	u->trial_boots = OTA_TRIAL_MAX_BOOTS + 1u;
	ck_assert_uint_eq(ota_record_validate(&copy, copy.hdr.length), OTA_RECORD_BAD_FIELD);
	u->trial_boots = 0;
	u->revert_reason = OTA_REVERT_REASON_MAX + 1u;
	ck_assert_uint_eq(ota_record_validate(&copy, copy.hdr.length), OTA_RECORD_BAD_FIELD);
	u->revert_reason = OTA_REVERT_NONE;
	u->reverted_slot = OTA_SLOT_B; /* a slot without a revert */
	ck_assert_uint_eq(ota_record_validate(&copy, copy.hdr.length), OTA_RECORD_BAD_FIELD);
	u->revert_reason = OTA_REVERT_WATCHDOG;
	ck_assert_uint_eq(ota_record_validate(&copy, copy.hdr.length), OTA_OK);
	u->reverted_slot = OTA_SLOT_COUNT;
	ck_assert_uint_eq(ota_record_validate(&copy, copy.hdr.length), OTA_RECORD_BAD_FIELD);
	ck_assert_str_eq(ota_revert_reason_name(OTA_REVERT_WATCHDOG), "watchdog");

	/* A vault whose digest is right but whose count is past the bound reads as none. */
	ck_assert(boot_retention_read(&r));
	r.trial_boots = OTA_TRIAL_MAX_BOOTS + 1u;
	r.magic = OTA_RETENTION_MAGIC;
	ota_sha256(&r, 32u, r.digest);
	ck_assert_int_eq(swhal_poke_retention(0, &r, sizeof(r)), 0);
	ck_assert(!boot_retention_read(&r));
}
END_TEST

/*
 * The sequence the soak reported (docs/performance.md): a trial ended by a
 * power cycle, a new image into the same slot, an update reset into it.
 * In-process it starts a new trial (boot 1) of that slot; the soak's runs
 * also killed and restarted the model process, which this does not.
 */
START_TEST(test_new_trial_after_a_power_cycle)
{
	struct tu_blob b = tu_bl0(0, 7, false);

	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	warm_reset();
	cold_boot();
	runs(OTA_SLOT_A, 0, OTA_REVERT_NONE, 0);
	ck_assert_uint_eq(tu_install(OTA_STAGE_BL0, OTA_SLOT_B, b.data, (uint32_t)b.len, 0), OTA_OK);
	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	runs(OTA_SLOT_B, 1, OTA_REVERT_NONE, 0);
	tu_blob_free(&b);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("boot_trial");
	TCase *t = tcase_create("trial");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_warm_resets_revert_a_trial);
	tcase_add_test(t, test_evidence_shows_the_trial_and_its_revert);
	tcase_add_test(t, test_commit_costs_no_boot);
	tcase_add_test(t, test_refused_commit_costs_a_boot);
	tcase_add_test(t, test_update_reset_buys_no_boots);
	tcase_add_test(t, test_runtime_cannot_reset_the_count);
	tcase_add_test(t, test_trial_fields_are_checked);
	tcase_add_test(t, test_new_trial_after_a_power_cycle);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(suite)
