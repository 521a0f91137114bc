// SPDX-License-Identifier: MIT
/*
 * The runtime's keys, certificates and evidence on the software HAL:
 * ota_runtime_prepare derives and certifies the alias key and destroys
 * the identity key; ATTEST produces evidence the host verifier accepts,
 * whose every byte matters; the identity certificate from flash is served
 * only when it is this device's. Interop with independent code is in
 * tests/interop/evidence.sh.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "test_evidence_fixture.h"
#include "fw_run.h"
#include "handoff.h"
#include "rom_ext.h"
#include "tu_main.h"

static struct evfix f;
static uint8_t ev[OTA_EVIDENCE_MAX_BYTES + 64];
static struct ota_verdict v;
static const uint8_t nonce[24] = "otattest-evidence-nonce";

static uint32_t attest(void)
{
	uint32_t len = 0;

	ck_assert_uint_eq(ota_rt_attest(&f.bs, ota_runtime_current(&f.bs), nonce, sizeof(nonce), ev,
					sizeof(ev), &len),
			  OTA_OK);
	ck_assert_uint_gt(len, 0);
	return len;
}

static void setup_ours(void)
{
	evfix_open(&f, EVFIX_IDCERT_OURS);
}

static void teardown(void)
{
	evfix_close(&f);
}

START_TEST(test_prepare_then_attest_verifies)
{
	struct ota_policy p;
	uint32_t len;

	evfix_boot_runtime(&f);
	len = attest();
	ota_policy_init(&p);
	p.min_svn[OTA_STAGE_ROM_EXT] = 2;
	p.min_svn[OTA_STAGE_BL0] = 5;
	p.max_delegation_depth = 1; /* the refused attempt had depth 2: not judged */
	ck_assert_uint_eq(ota_verify_evidence(ev, len, f.trust, nonce, sizeof(nonce), &p,
					      (const uint8_t *)&f.bs.record, f.bs.record_len, &v),
			  OTA_OK);
	ck_assert(v.authentic);
	ck_assert_uint_eq(v.claims.stage_count, 3);
	ck_assert_uint_eq(v.claims.stage[1].status, OTA_SIG_ECDSA_INVALID);
	ck_assert_uint_eq(v.claims.stage[2].flags, OTA_STAGE_F_BOOTED | OTA_STAGE_F_FALLBACK);
	ck_assert_mem_eq(v.claims.device_id, f.device_id, sizeof(f.device_id));
	ck_assert_uint_eq(v.claims.tag_key_version, 3);
	ck_assert_uint_eq(v.claims.generation, 42);
}
END_TEST

START_TEST(test_every_flipped_byte_of_device_evidence_is_refused)
{
	uint8_t copy[sizeof(ev)];
	uint32_t len, i;

	evfix_boot_runtime(&f);
	len = attest();
	for (i = 0; i < len; i++) {
		memcpy(copy, ev, len);
		copy[i] ^= 0x01;
		ck_assert_msg(ota_verify_evidence(copy, len, f.trust, nonce, sizeof(nonce), NULL, NULL,
						  0, &v) != OTA_OK,
			      "flipping bit 0 of byte %u was accepted", i);
		copy[i] ^= 0x81;
		ck_assert_msg(ota_verify_evidence(copy, len, f.trust, nonce, sizeof(nonce), NULL, NULL,
						  0, &v) != OTA_OK,
			      "flipping bit 7 of byte %u was accepted", i);
	}
}
END_TEST

START_TEST(test_alias_cert_chains_to_the_ca)
{
	const uint8_t *certs[2];
	size_t lens[2];
	uint8_t leaf[64];
	char why[160];
	const struct ota_runtime *rt;

	evfix_boot_runtime(&f);
	rt = ota_runtime_current(&f.bs);
	ck_assert_ptr_nonnull(rt);
	certs[0] = rt->alias_cert;
	lens[0] = rt->alias_cert_len;
	certs[1] = rt->identity_cert;
	lens[1] = rt->identity_cert_len;
	ck_assert_uint_eq(ota_chain_verify(f.trust, certs, lens, 2, leaf, why, sizeof(why)), OTA_OK);
	ck_assert_mem_eq(leaf, rt->alias_pubkey, sizeof(leaf));
	ck_assert_mem_eq(rt->identity_pubkey, f.identity_pub, sizeof(f.identity_pub));
	/* Without the identity certificate there is no path to the CA. */
	ck_assert_uint_eq(ota_chain_verify(f.trust, certs, lens, 1, leaf, why, sizeof(why)),
			  OTA_VERIFY_CHAIN_UNTRUSTED);
}
END_TEST

START_TEST(test_identity_key_destroyed_and_root_gone)
{
	uint32_t before;
	hal_key_t k, ext, d;

	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &tu_binding), OTA_OK);
	ext = hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST);
	ck_assert_uint_ne(ext, HAL_KEY_INVALID); /* the state's secrets count once they exist */
	before = swhal_keys_in_use();
	ck_assert_uint_eq(ota_runtime_prepare(&f.bs), OTA_OK);
	/* Neither the identity nor the alias working handle is left behind. */
	ck_assert_uint_eq(swhal_keys_in_use(), before);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_RUNTIME, &tu_binding), OTA_OK);
	/* ROM_EXT's secret, the identity key's parent, is gone with its state. */
	ck_assert_uint_eq(hal_keymgr_derive(ext, OTA_IDENTITY_LABEL, NULL, 0, 0, 0, HAL_KEY_PURPOSE_SIGN,
					    &d), OTA_HAL_BAD_HANDLE);
	/* The alias key lives on in the vault; the runtime signs with it. */
	ck_assert_uint_eq(hal_key_retained(OTA_RETAINED_KEY_ALIAS, &k), OTA_OK);
	hal_key_destroy(k);
	attest();
	ck_assert_uint_eq(swhal_keys_in_use(), 2); /* the owner state's own secrets */
	/* A runtime cannot certify another key: preparing again fails. */
	ck_assert_uint_ne(ota_runtime_prepare(&f.bs), OTA_OK);
	ck_assert_ptr_null(ota_runtime_current(&f.bs));
}
END_TEST

START_TEST(test_alias_key_bound_to_measurements)
{
	uint8_t alias1[64], id1[64];

	evfix_boot_runtime(&f);
	memcpy(alias1, ota_rt.alias_pubkey, 64);
	memcpy(id1, ota_rt.identity_pubkey, 64);

	/* Same code, next boot: the same alias key. */
	swhal_power_off();
	ck_assert_int_eq(swhal_power_on(), 0);
	evfix_boot_runtime(&f);
	ck_assert_mem_eq(ota_rt.alias_pubkey, alias1, 64);

	/* Another BL0: another alias key, the same identity. */
	swhal_power_off();
	ck_assert_int_eq(swhal_power_on(), 0);
	f.bs.bl0_measurement[31] ^= 1;
	f.bs.record.stage[2].measurement[31] ^= 1;
	evfix_boot_runtime(&f);
	ck_assert_mem_ne(ota_rt.alias_pubkey, alias1, 64);
	ck_assert_mem_eq(ota_rt.identity_pubkey, id1, 64);

	/* Another ROM_EXT: another alias key too. */
	swhal_power_off();
	ck_assert_int_eq(swhal_power_on(), 0);
	f.bs.rom_ext_measurement[0] ^= 1;
	f.bs.record.stage[0].measurement[0] ^= 1;
	evfix_boot_runtime(&f);
	ck_assert_mem_ne(ota_rt.alias_pubkey, alias1, 64);
}
END_TEST

START_TEST(test_stale_state_never_serves)
{
	uint32_t len = 0;

	evfix_boot_runtime(&f);
	/* The boot state moved on (another image) without a prepare. */
	f.bs.bl0_measurement[0] ^= 1;
	ck_assert_ptr_null(ota_runtime_current(&f.bs));
	f.bs.bl0_measurement[0] ^= 1;
	ck_assert_ptr_nonnull(ota_runtime_current(&f.bs));
	f.bs.boot_status = OTA_NO_BOOTABLE_SLOT;
	ck_assert_ptr_null(ota_runtime_current(&f.bs));
	ck_assert_uint_eq(ota_runtime_prepare(&f.bs), OTA_MBOX_NOT_READY);
	ck_assert_uint_eq(hal_key_retained(OTA_RETAINED_KEY_ALIAS, &(hal_key_t){ 0 }),
			  OTA_HAL_BAD_HANDLE);
	(void)len;
}
END_TEST

START_TEST(test_lying_runtime_is_caught)
{
	uint32_t len;

	evfix_boot_runtime(&f);
	/*
	 * A compromised BL0 holds the alias key and can sign any claims; it
	 * cannot change the alias certificate ROM_EXT issued before it ran.
	 */
	f.bs.record.stage[2].measurement[5] ^= 0x40;
	len = attest();
	ck_assert_uint_eq(ota_verify_evidence(ev, len, f.trust, nonce, sizeof(nonce), NULL, NULL, 0,
					      &v),
			  OTA_VERIFY_TCB_MISMATCH);
	ck_assert(v.authentic);
	ck_assert_uint_eq(v.failure_count, 1);
	ck_assert_uint_eq(v.failures[0].stage, OTA_STAGE_BL0);
}
END_TEST

/* The failure whose detail starts with `what`, or abort. */
static const struct ota_verdict_failure *failure_about(const char *what)
{
	for (uint32_t i = 0; i < v.failure_count; i++)
		if (!strncmp(v.failures[i].detail, what, strlen(what)))
			return &v.failures[i];
	ck_abort_msg("no failure \"%s...\" (%u failures, first \"%s\")", what, v.failure_count,
		     v.failure_count ? v.failures[0].detail : "");
	return NULL;
}

/*
 * Issue 28: a compromised BL0 that reports another update state than the
 * boot's - a trial as committed, no revert, revocations it has not
 * applied, a refused image hidden, another reset - is caught: ROM_EXT
 * certified the true state (DeviceState version 2) before BL0 ran. Each
 * loop run is one lie the runtime tells in the record it holds and signs
 * claims over; the verdict names each claim that differs.
 */
START_TEST(test_runtime_lying_about_the_update_state_is_caught)
{
	static const char *const caught[][2] = {
		{ "update state claimed 0, certified 1", "primary slot claimed 0, certified 1" },
		{ "revert reason claimed 0, certified 2", "reverted slot claimed 0, certified 1" },
		{ "revocation sequence claimed 9, certified 3", NULL },
		{ "refused attempts claimed 0, certified 1", "refused attempt slots claimed 0, certified 8" },
		{ "reset reason claimed 1, certified 2", NULL },
		{ "trial boots claimed 1, certified 3", NULL },
	};
	struct ota_record_update *u;
	struct ota_record *r = &f.bs.record;
	uint32_t len, n;

	/* Runs 0 and 5: BL0 A on trial (primary B); the others: a trial of B reverted. */
	if (_i == 0 || _i == 5)
		u = evfix_update(&f.bs, OTA_SLOT_B, 3, OTA_REVERT_NONE, 0, 3);
	else
		u = evfix_update(&f.bs, OTA_SLOT_A, 0, OTA_REVERT_WATCHDOG, OTA_SLOT_B, 3);
	r->hdr.reset_reason = OTA_RESET_WARM;
	evfix_boot_runtime(&f);
	/* The truth passes. */
	len = attest();
	ck_assert_uint_eq(ota_verify_evidence(ev, len, f.trust, nonce, sizeof(nonce), NULL, NULL, 0,
					      &v),
			  OTA_OK);
	/* The lie. */
	switch (_i) {
	case 0: u->primary_slot = OTA_SLOT_A; u->update_state = OTA_UPDATE_IDLE; break;
	case 1: u->revert_reason = OTA_REVERT_NONE; u->reverted_slot = 0; break;
	case 2: u->revocation_sequence = 9; break;
	case 3: /* BL0 B's refused attempt taken out of the record */
		r->stage[1] = r->stage[2];
		r->hdr.stage_count = 2;
		r->hdr.length = ota_record_length(2, r->hdr.flags);
		memmove((uint8_t *)r + r->hdr.length - sizeof(*u), u, sizeof(*u));
		break;
	case 4: r->hdr.reset_reason = OTA_RESET_COLD; break;
	case 5: u->trial_boots = 1; break;
	}
	len = attest();
	ck_assert_uint_eq(ota_verify_evidence(ev, len, f.trust, nonce, sizeof(nonce), NULL, NULL, 0,
					      &v),
			  OTA_VERIFY_STATE_MISMATCH);
	ck_assert(v.authentic);
	n = caught[_i][1] ? 2 : 1;
	ck_assert_uint_eq(v.failure_count, n);
	for (uint32_t k = 0; k < n; k++) {
		const struct ota_verdict_failure *fl = failure_about(caught[_i][k]);

		ck_assert_uint_eq(fl->status, OTA_VERIFY_STATE_MISMATCH);
		ck_assert_uint_eq(fl->stage, OTA_VERDICT_NO_STAGE);
	}
}
END_TEST

START_TEST(test_response_too_large)
{
	uint32_t len = 99, full;

	evfix_boot_runtime(&f);
	full = attest();
	memset(ev, 0xa5, sizeof(ev));
	ck_assert_uint_eq(ota_rt_attest(&f.bs, ota_runtime_current(&f.bs), nonce, sizeof(nonce), ev,
					full - 1, &len),
			  OTA_MBOX_RESPONSE_TOO_LARGE);
	ck_assert_uint_eq(len, 0);
	for (uint32_t i = 0; i < full; i++) /* not one byte written */
		ck_assert_uint_eq(ev[i], 0xa5);
	ck_assert_uint_eq(ota_rt_attest(&f.bs, ota_runtime_current(&f.bs), nonce, sizeof(nonce), ev,
					full, &len),
			  OTA_OK);
	ck_assert_uint_eq(len, full);
}
END_TEST

START_TEST(test_get_certs_layout)
{
	const struct ota_runtime *rt;
	uint8_t buf[4096];
	uint32_t len = 0, n, at, i;

	evfix_boot_runtime(&f);
	rt = ota_runtime_current(&f.bs);
	ck_assert_uint_eq(ota_rt_get_certs(rt, buf, sizeof(buf), &len), OTA_OK);
	ck_assert_uint_eq(((struct ota_resp_certs *)buf)->count, 2);
	ck_assert_uint_eq(((struct ota_resp_certs *)buf)->reserved, 0);
	at = sizeof(struct ota_resp_certs);
	memcpy(&n, buf + at, 4);
	ck_assert_uint_eq(n, rt->alias_cert_len);
	ck_assert_mem_eq(buf + at + 4, rt->alias_cert, n);
	for (i = n; i % 4; i++)
		ck_assert_uint_eq(buf[at + 4 + i], 0);
	at += 4 + ((n + 3) & ~3u);
	memcpy(&n, buf + at, 4);
	ck_assert_uint_eq(n, rt->identity_cert_len);
	ck_assert_mem_eq(buf + at + 4, rt->identity_cert, n);
	ck_assert_uint_eq(len, at + 4 + ((n + 3) & ~3u));
	memset(buf, 0x5a, sizeof(buf));
	n = len;
	ck_assert_uint_eq(ota_rt_get_certs(rt, buf, n - 1, &len), OTA_MBOX_RESPONSE_TOO_LARGE);
	for (i = 0; i < n; i++)
		ck_assert_uint_eq(buf[i], 0x5a);
}
END_TEST

START_TEST(test_no_identity_cert)
{
	const struct ota_runtime *rt;
	uint8_t buf[4096];
	uint32_t len = 0;

	evfix_close(&f);
	evfix_open(&f, EVFIX_IDCERT_NONE);
	evfix_boot_runtime(&f);
	rt = ota_runtime_current(&f.bs);
	ck_assert_uint_eq(rt->identity_cert_status, OTA_RUNTIME_NO_CERTS);
	ck_assert_uint_eq(ota_rt_get_certs(rt, buf, sizeof(buf), &len), OTA_RUNTIME_NO_CERTS);
	/* Evidence still comes, with the alias certificate alone: not trusted. */
	len = attest();
	ck_assert_uint_eq(ota_verify_evidence(ev, len, f.trust, nonce, sizeof(nonce), NULL, NULL, 0,
					      &v),
			  OTA_VERIFY_CHAIN_UNTRUSTED);
	ck_assert_uint_eq(v.failure_count, 1);
}
END_TEST

START_TEST(test_foreign_identity_cert_refused)
{
	uint8_t buf[4096];
	uint32_t len = 0;

	evfix_close(&f);
	evfix_open(&f, EVFIX_IDCERT_FOREIGN);
	evfix_boot_runtime(&f);
	ck_assert_uint_eq(ota_rt.identity_cert_status, OTA_RUNTIME_IDCERT_MISMATCH);
	ck_assert_uint_eq(ota_rt_get_certs(ota_runtime_current(&f.bs), buf, sizeof(buf), &len),
			  OTA_RUNTIME_IDCERT_MISMATCH);
}
END_TEST

START_TEST(test_corrupt_identity_blob_refused)
{
	struct ota_identity_cert_blob blob;

	ck_assert_uint_eq(otimage_identity_cert_blob(f.identity, &blob), OTA_OK);
	blob.der_length += 1; /* one byte more than the DER says */
	evfix_flash(&blob);
	evfix_boot_runtime(&f);
	ck_assert_uint_ne(ota_rt.identity_cert_status, OTA_OK);
	ck_assert_uint_eq(ota_rt.identity_cert_len, 0);

	swhal_power_off();
	ck_assert_int_eq(swhal_power_on(), 0);
	blob.der_length = OTA_IDCERT_MAX_DER + 1;
	evfix_flash(&blob);
	evfix_boot_runtime(&f);
	ck_assert_uint_ne(ota_rt.identity_cert_status, OTA_OK);
}
END_TEST

static Suite *evidence_suite(void)
{
	Suite *s = suite_create("evidence");
	TCase *tc = tcase_create("runtime on swhal");

	tcase_add_checked_fixture(tc, setup_ours, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_prepare_then_attest_verifies);
	tcase_add_test(tc, test_every_flipped_byte_of_device_evidence_is_refused);
	tcase_add_test(tc, test_alias_cert_chains_to_the_ca);
	tcase_add_test(tc, test_identity_key_destroyed_and_root_gone);
	tcase_add_test(tc, test_alias_key_bound_to_measurements);
	tcase_add_test(tc, test_stale_state_never_serves);
	tcase_add_test(tc, test_lying_runtime_is_caught);
	tcase_add_loop_test(tc, test_runtime_lying_about_the_update_state_is_caught, 0, 6);
	tcase_add_test(tc, test_response_too_large);
	tcase_add_test(tc, test_get_certs_layout);
	tcase_add_test(tc, test_no_identity_cert);
	tcase_add_test(tc, test_foreign_identity_cert_refused);
	tcase_add_test(tc, test_corrupt_identity_blob_refused);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(evidence_suite)
