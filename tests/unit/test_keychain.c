// SPDX-License-Identifier: MIT
/*
 * The SVN key chain (seed 002), replaying the reference behaviour: boot
 * at SVN 5, update to 6 (key 5 derivable, key 6 refused), back to 4 (key
 * 5 refused, key 4 fine), cold boot at 6 (key 6 derivable); keys
 * bit-identical across an update to a higher SVN; an epoch bump changes
 * every key; the maximum SVN enforced. Plus the chain against an
 * independent computation of its definition, warm resets, and damaged
 * retention RAM.
 */
#include <check.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/ec.h>

#include <otattest/sha256.h>

#include "fw_run.h"
#include "handoff.h"
#include "runtime.h"
#include "hal.h"
#include "swhal.h"
#include "testutil.h"
#include "tu_device.h"
#include "tu_main.h"

static struct tu_device dev;

static void setup(void)
{
	tu_device_init(&dev);
	/* Start with only A (SVN 5), the primary. */
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_svn, 5);
}

static void teardown(void)
{
	tu_device_free(&dev);
	swhal_close();
}

/* The public half of the stable key for svn, or the refusal. */
static ota_status_t stable_pub(uint32_t svn, uint8_t pub[64])
{
	hal_key_t k;
	ota_status_t st = ota_keychain_stable_key(svn, &k);

	if (st != OTA_OK) {
		ck_assert_uint_eq(k, HAL_KEY_INVALID);
		return st;
	}
	ck_assert_uint_eq(hal_ecdsa_pubkey(k, pub), OTA_OK);
	hal_key_destroy(k);
	ck_assert_uint_eq(swhal_keys_in_use(), 2); /* the owner state's own secrets */
	return OTA_OK;
}

static void install(enum oti_slot_index slot, uint32_t svn)
{
	struct tu_blob b = tu_bl0(1, svn, false);

	tu_device_write_slot(slot, &b);
	tu_blob_free(&b);
}

static void update_to(uint32_t slot)
{
	struct ota_resp_reset out;

	ck_assert_uint_eq(ota_fw_update_reset(slot, &out), OTA_OK);
	ck_assert_uint_eq(out.booted_slot, slot);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, slot);
}

START_TEST(test_reference_replay)
{
	uint8_t k5[64], k5b[64], k4[64], k6[64], k0[64], k0b[64];

	ck_assert_uint_eq(ota_boot_state()->min_svn, 5);
	ck_assert_uint_eq(stable_pub(5, k5), OTA_OK);
	ck_assert_uint_eq(stable_pub(0, k0), OTA_OK);
	ck_assert_uint_eq(stable_pub(6, k6), OTA_CHAIN_SVN_ABOVE_MIN);

	/* Update to 6: the chain stays at 5. */
	install(OTI_BL0_B, 6);
	update_to(OTA_SLOT_B);
	ck_assert_uint_eq(ota_boot_state()->bl0_svn, 6);
	ck_assert_uint_eq(ota_boot_state()->min_svn, 5);
	ck_assert_uint_eq(tu_record()->hdr.min_svn, 5);
	ck_assert_uint_eq(tu_record()->hdr.reset_reason, OTA_RESET_UPDATE);
	ck_assert_uint_eq(stable_pub(5, k5b), OTA_OK);
	ck_assert_mem_eq(k5, k5b, 64); /* bit-identical across the update */
	ck_assert_uint_eq(stable_pub(0, k0b), OTA_OK);
	ck_assert_mem_eq(k0, k0b, 64);
	ck_assert_uint_eq(stable_pub(6, k6), OTA_CHAIN_SVN_ABOVE_MIN);

	/* Update back to 4: the chain is cranked further. */
	install(OTI_BL0_A, 4);
	update_to(OTA_SLOT_A);
	ck_assert_uint_eq(ota_boot_state()->min_svn, 4);
	ck_assert_uint_eq(stable_pub(5, k5b), OTA_CHAIN_SVN_ABOVE_MIN);
	ck_assert_uint_eq(stable_pub(4, k4), OTA_OK);
	ck_assert_mem_ne(k4, k5, 64);
	ck_assert_uint_eq(stable_pub(0, k0b), OTA_OK);
	ck_assert_mem_eq(k0, k0b, 64);

	/*
	 * Cold boot: nothing was committed, so the primary (A, now SVN 4)
	 * boots and the chain starts again at 4 - with the very same keys.
	 */
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
	ck_assert_uint_eq(ota_boot_state()->min_svn, 4);
	ck_assert_uint_eq(stable_pub(4, k6), OTA_OK);
	ck_assert_mem_eq(k4, k6, 64);
	ck_assert_uint_eq(stable_pub(5, k5b), OTA_CHAIN_SVN_ABOVE_MIN);
	ck_assert_uint_eq(stable_pub(0, k0b), OTA_OK);
	ck_assert_mem_eq(k0, k0b, 64); /* and the lower keys are the same keys */
}
END_TEST

START_TEST(test_warm_reset_changes_nothing)
{
	struct ota_resp_reset out;
	uint8_t a[64], b[64];

	ck_assert_uint_eq(stable_pub(5, a), OTA_OK);
	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_OK);
	ck_assert_uint_eq(out.boot_status, OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.reset_reason, OTA_RESET_WARM);
	ck_assert_uint_eq(ota_boot_state()->min_svn, 5);
	ck_assert_uint_eq(stable_pub(5, b), OTA_OK);
	ck_assert_mem_eq(a, b, 64);
	ck_assert_uint_eq(stable_pub(6, b), OTA_CHAIN_SVN_ABOVE_MIN);
}
END_TEST

START_TEST(test_keys_do_not_depend_on_the_image)
{
	struct tu_image_spec s;
	struct tu_blob b;
	uint8_t a[64], c[64], m[32];

	ck_assert_uint_eq(stable_pub(5, a), OTA_OK);
	memcpy(m, ota_boot_state()->bl0_measurement, 32);
	/* Another image (another payload, signed directly) at the same SVN. */
	tu_image_spec_init(&s, OTA_STAGE_BL0, 5);
	s.payload_seed = 200;
	b = tu_image(&s);
	tu_device_write_slot(OTI_BL0_A, &b);
	tu_blob_free(&b);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_mem_ne(ota_boot_state()->bl0_measurement, m, 32);
	ck_assert_uint_eq(stable_pub(5, c), OTA_OK);
	ck_assert_mem_eq(a, c, 64);
}
END_TEST

START_TEST(test_epoch_bump_changes_every_key)
{
	uint8_t before[6][64], after[64];
	uint32_t s;

	for (s = 0; s <= 5; s++)
		ck_assert_uint_eq(stable_pub(s, before[s]), OTA_OK);
	tu_otp_bump_epoch();
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.epoch, 1);
	for (s = 0; s <= 5; s++) {
		ck_assert_uint_eq(stable_pub(s, after), OTA_OK);
		ck_assert_mem_ne(before[s], after, 64);
	}
}
END_TEST

START_TEST(test_maximum_svn_enforced)
{
	uint8_t pub[64];

	ck_assert_uint_eq(stable_pub(OTA_CHAIN_DEFAULT_MAX_SVN + 1, pub), OTA_CHAIN_SVN_ABOVE_MAX);
	ck_assert_uint_eq(stable_pub(OTA_SVN_LIMIT, pub), OTA_CHAIN_SVN_ABOVE_MAX);
	ck_assert_uint_eq(stable_pub(OTA_CHAIN_DEFAULT_MAX_SVN, pub), OTA_CHAIN_SVN_ABOVE_MIN);
	/*
	 * A shorter chain from OTP is its own ceiling: key 5 derivable, key 6
	 * refused as above the maximum. That a BL0 above the ceiling does not
	 * boot is test_bl0_svn_above_the_key_chain in test_boot_revoke.c.
	 */
	swhal_close();
	dev.chain_max_svn = 5;
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.chain_max_svn, 5);
	ck_assert_uint_eq(stable_pub(5, pub), OTA_OK);
	ck_assert_uint_eq(stable_pub(6, pub), OTA_CHAIN_SVN_ABOVE_MAX);
}
END_TEST

/* The chain as docs/keychain.md defines it, computed here with OpenSSL. */
static void expected_stable_pub(uint32_t max, uint32_t epoch, uint32_t svn, uint8_t pub[64])
{
	uint8_t root[32], cdi[32], link[32], next[32], ctx[4], wide[48], rom[32], x[12], oct[65];
	uint8_t adv[4 + 32] = { HAL_KEYMGR_ROM_EXT, 0, 0, 0 };
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	EC_POINT *pt = EC_POINT_new(g);
	BIGNUM *d = BN_new(), *nm1 = BN_new();
	BN_CTX *bn = BN_CTX_new();
	uint32_t s;

	hal_rom_identity(rom);
	tu_kmac256(dev.secret, "otattest-device-root", rom, 32, root, 32);
	/* The key manager's advance into ROM_EXT, which owns the chain's top. */
	tu_rom_ext_attest(adv + 4);
	tu_kdf(root, "otattest-keymgr-attest", adv, sizeof(adv), 0, HAL_KEY_PURPOSE_KDF, cdi);
	ctx[0] = (uint8_t)epoch;
	ctx[1] = (uint8_t)(epoch >> 8);
	ctx[2] = (uint8_t)(epoch >> 16);
	ctx[3] = (uint8_t)(epoch >> 24);
	tu_kdf(cdi, "otattest-svn-chain-top", ctx, 4, 0, HAL_KEY_PURPOSE_KDF, link);
	for (s = max; s > svn; s--) {
		ctx[0] = (uint8_t)(s - 1);
		ctx[1] = ctx[2] = ctx[3] = 0;
		tu_kdf(link, "otattest-svn-chain", ctx, 4, 0, HAL_KEY_PURPOSE_KDF, next);
		memcpy(link, next, 32);
	}
	memset(x, 0, sizeof(x));
	x[0] = (uint8_t)svn;
	x[8] = HAL_KEY_PURPOSE_SIGN; /* ctx || version || purpose */
	tu_kmac256(link, "otattest-stable-key", x, sizeof(x), wide, sizeof(wide));
	BN_copy(nm1, EC_GROUP_get0_order(g));
	BN_sub_word(nm1, 1);
	BN_bin2bn(wide, 48, d);
	BN_mod(d, d, nm1, bn);
	BN_add_word(d, 1);
	ck_assert_int_eq(EC_POINT_mul(g, pt, d, NULL, NULL, bn), 1);
	ck_assert_uint_eq(EC_POINT_point2oct(g, pt, POINT_CONVERSION_UNCOMPRESSED, oct, 65, bn), 65);
	memcpy(pub, oct + 1, 64);
	EC_POINT_free(pt);
	EC_GROUP_free(g);
	BN_free(d);
	BN_free(nm1);
	BN_CTX_free(bn);
}

START_TEST(test_chain_matches_its_definition)
{
	uint8_t got[64], want[64];

	ck_assert_uint_eq(stable_pub(5, got), OTA_OK);
	expected_stable_pub(128, 0, 5, want);
	ck_assert_mem_eq(got, want, 64);
	ck_assert_uint_eq(stable_pub(2, got), OTA_OK);
	expected_stable_pub(128, 0, 2, want);
	ck_assert_mem_eq(got, want, 64);
}
END_TEST

START_TEST(test_damaged_retention_means_no_chain_until_cold_boot)
{
	struct ota_resp_reset out;
	uint8_t junk[16], pub[64];

	/* Retention RAM damaged by a fault (the runtime cannot write the vault)... */
	memset(junk, 0xa5, sizeof(junk));
	ck_assert_int_eq(swhal_poke_retention(0, junk, sizeof(junk)), 0);
	/* ...does not get a chain re-derived from the top on the next reset. */
	install(OTI_BL0_B, 9);
	ck_assert_uint_eq(ota_fw_update_reset(OTA_SLOT_B, &out), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_svn, 9);
	ck_assert_uint_eq(ota_boot_state()->chain_status, OTA_CHAIN_NOT_READY);
	ck_assert_uint_eq(stable_pub(5, pub), OTA_CHAIN_NOT_READY);
	ck_assert_uint_eq(stable_pub(9, pub), OTA_CHAIN_NOT_READY);
	/* A cold boot establishes it again, at the SVN it boots (the primary's, 5). */
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_svn, 5);
	ck_assert_uint_eq(stable_pub(5, pub), OTA_OK);
}
END_TEST

/*
 * Issue 13, finding 3: a runtime holds the retained chain link. Were it
 * able to feed that KDF parent to the KMAC engine with the stable key's
 * label and context, it would compute the stable private key in the clear
 * (d*G == STABLE_SIGN's key). The engine takes MAC keys only.
 */
START_TEST(test_runtime_cannot_run_the_kdf_in_kmac)
{
	static const char label[] = "otattest-stable-key";
	hal_key_t link;

	ck_assert_uint_eq(hal_keymgr_state(), HAL_KEYMGR_RUNTIME);
	ck_assert_uint_eq(hal_key_retained(OTA_RETAINED_KEY_CHAIN, &link), OTA_OK);
	ck_assert_uint_eq(hal_kmac_start(link, (const uint8_t *)label, sizeof(label) - 1u),
			  OTA_HAL_KEY_PURPOSE);
	/* Nor can it pass the link off as a key pair. */
	ck_assert_uint_eq(hal_ecdsa_pubkey(link, (uint8_t[64]){ 0 }), OTA_HAL_KEY_PURPOSE);
	hal_key_destroy(link);
}
END_TEST

/*
 * Issue 13, finding 2: a compromised SVN-5 runtime rewrites the retained
 * state with min SVN 7 (a valid digest: it has the code to make one).
 * Were that accepted, the operator's update reset into the fixed SVN-7
 * image would report min SVN 7 and hand out a "stable key for SVN 7" that
 * is the SVN-5 link the old code could compute. The vault is locked: the
 * write is refused and the record and keys stay those of the true minimum.
 */
START_TEST(test_runtime_cannot_raise_min_svn)
{
	struct ota_retention forged;
	struct ota_resp_reset out;
	uint8_t k5[64], k5_after[64], pub[64];

	ck_assert_uint_eq(stable_pub(5, k5), OTA_OK);
	ck_assert(boot_retention_read(&forged));
	forged.min_svn = 7;
	ota_sha256(&forged, 32u, forged.digest);
	ck_assert_uint_eq(hal_retention_write(0, &forged, sizeof(forged)), OTA_HAL_RETENTION_LOCKED);
	install(OTI_BL0_B, 7);
	ck_assert_uint_eq(ota_fw_update_reset(OTA_SLOT_B, &out), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_svn, 7);
	ck_assert_uint_eq(tu_record()->hdr.min_svn, 5);
	ck_assert_uint_eq(ota_boot_state()->min_svn, 5);
	ck_assert_uint_eq(stable_pub(7, pub), OTA_CHAIN_SVN_ABOVE_MIN);
	ck_assert_uint_eq(stable_pub(5, k5_after), OTA_OK);
	ck_assert_mem_eq(k5, k5_after, 64);
}
END_TEST

START_TEST(test_cleared_vault_slot_means_no_chain)
{
	struct ota_resp_reset out;
	uint8_t pub[64];

	hal_key_retained_clear(OTA_RETAINED_KEY_CHAIN);
	ck_assert_uint_eq(ota_fw_warm_reset(&out), OTA_OK);
	ck_assert_uint_eq(stable_pub(5, pub), OTA_CHAIN_NOT_READY);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("keychain");
	TCase *t = tcase_create("chain");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_reference_replay);
	tcase_add_test(t, test_runtime_cannot_run_the_kdf_in_kmac);
	tcase_add_test(t, test_runtime_cannot_raise_min_svn);
	tcase_add_test(t, test_warm_reset_changes_nothing);
	tcase_add_test(t, test_keys_do_not_depend_on_the_image);
	tcase_add_test(t, test_epoch_bump_changes_every_key);
	tcase_add_test(t, test_maximum_svn_enforced);
	tcase_add_test(t, test_chain_matches_its_definition);
	tcase_add_test(t, test_damaged_retention_means_no_chain_until_cold_boot);
	tcase_add_test(t, test_cleared_vault_slot_means_no_chain);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite)
