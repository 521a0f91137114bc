// SPDX-License-Identifier: MIT
/*
 * The software HAL's key manager and crypto engines: derivations match an
 * independent computation of the spec, no call yields key bytes, keys are
 * stored only in shares, the key manager is one-way, stale handles are
 * refused and the retained vault lives exactly as long as retention RAM.
 */
#include <check.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include "hal.h"
#include "swhal.h"
#include "testutil.h"
#include "tu_main.h"

static const uint8_t secret[32] = {
	0x5e, 0xc7, 0x3e, 0x70, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14,
	0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c,
};

static void setup(void)
{
	struct ota_otp otp;

	tu_hal_open_memory(0);
	tu_otp_secret_only(&otp, secret);
	ck_assert_int_eq(swhal_load_otp(&otp, sizeof(otp)), 0);
}

static void teardown(void)
{
	tu_hal_close();
}

/* The root as the spec defines it, computed here without the HAL. */
static void expected_root(uint8_t root[32])
{
	uint8_t rom[32];

	hal_rom_identity(rom);
	tu_kmac256(secret, "otattest-device-root", rom, sizeof(rom), root, 32);
}

static void hal_kmac_once(hal_key_t k, const char *custom, const void *msg, size_t len,
			  uint8_t out[32])
{
	ck_assert_uint_eq(hal_kmac_start(k, (const uint8_t *)custom, (uint32_t)strlen(custom)), OTA_OK);
	ck_assert_uint_eq(hal_kmac_update(msg, (uint32_t)len), OTA_OK);
	ck_assert_uint_eq(hal_kmac_finish(out, 32), OTA_OK);
}

START_TEST(test_sha256_engine_matches_reference)
{
	static uint8_t buf[70000];
	uint8_t want[32], got[32];
	uint32_t i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 3);
	tu_sha256(buf, sizeof(buf), want);
	ck_assert_uint_eq(hal_sha256_start(), OTA_OK);
	ck_assert_uint_eq(hal_sha256_update(buf, 1), OTA_OK);
	ck_assert_uint_eq(hal_sha256_update(buf + 1, 4095), OTA_OK);
	ck_assert_uint_eq(hal_sha256_update(buf + 4096, sizeof(buf) - 4096), OTA_OK);
	ck_assert_uint_eq(hal_sha256_finish(got), OTA_OK);
	ck_assert_mem_eq(got, want, 32);
	/* One operation at a time: nothing to update or finish now. */
	ck_assert_uint_eq(hal_sha256_update(buf, 1), OTA_HAL_ENGINE_IDLE);
	ck_assert_uint_eq(hal_sha256_finish(got), OTA_HAL_ENGINE_IDLE);
}
END_TEST

START_TEST(test_root_and_kdf_match_the_spec)
{
	uint8_t root[32], k[32], want[32], got[32];
	const uint8_t ctx[5] = { 1, 2, 3, 4, 5 };
	hal_key_t h;

	expected_root(root);
	tu_kdf(root, "test-label", ctx, sizeof(ctx), 7, HAL_KEY_PURPOSE_MAC, k);
	tu_kmac256(k, "custom", "message", 7, want, 32);

	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "test-label", ctx, sizeof(ctx), 7, 9,
					    HAL_KEY_PURPOSE_MAC, &h), OTA_OK);
	hal_kmac_once(h, "custom", "message", 7, got);
	ck_assert_mem_eq(got, want, 32);
	hal_key_destroy(h);
}
END_TEST

/* The ECDSA key is KDF output (384 bits) reduced to (c mod (n-1)) + 1. */
START_TEST(test_ecdsa_derivation_matches_the_spec_and_host_helper)
{
	uint8_t root[32], wide[48], x[8] = { 0, 0, 0, 0, HAL_KEY_PURPOSE_SIGN }, pub[64], oct[65];
	uint8_t helper[64], rom[32];
	BIGNUM *d = BN_new(), *nm1 = BN_new();
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	EC_POINT *pt = EC_POINT_new(g);
	BN_CTX *bn = BN_CTX_new();
	hal_key_t h;

	expected_root(root);
	tu_kmac256(root, "otattest-identity", x, sizeof(x), wide, sizeof(wide));
	BN_copy(nm1, EC_GROUP_get0_order(g));
	BN_sub_word(nm1, 1);
	BN_bin2bn(wide, 48, d);
	BN_mod(d, d, nm1, bn);
	BN_add_word(d, 1);
	ck_assert_int_eq(EC_POINT_mul(g, pt, d, NULL, NULL, bn), 1);
	ck_assert_uint_eq(EC_POINT_point2oct(g, pt, POINT_CONVERSION_UNCOMPRESSED, oct, 65, bn), 65);

	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "otattest-identity", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_SIGN, &h), OTA_OK);
	ck_assert_uint_eq(hal_ecdsa_pubkey(h, pub), OTA_OK);
	ck_assert_mem_eq(pub, oct + 1, 64);

	hal_key_destroy(h);

	/* ROM_EXT's identity key, as the host helper computes it for tests. */
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &tu_binding), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "otattest-identity", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_SIGN, &h), OTA_OK);
	ck_assert_uint_eq(hal_ecdsa_pubkey(h, pub), OTA_OK);
	hal_rom_identity(rom);
	ck_assert_uint_eq(swhal_derive_rom_ext_pubkey(secret, rom, tu_binding.attest, "otattest-identity",
						      NULL, 0, helper),
			  OTA_OK);
	ck_assert_mem_eq(helper, pub, 64);
	ck_assert_mem_ne(helper, oct + 1, 64); /* not the ROM state's */
	hal_key_destroy(h);
	EC_POINT_free(pt);
	EC_GROUP_free(g);
	BN_free(d);
	BN_free(nm1);
	BN_CTX_free(bn);
}
END_TEST

START_TEST(test_no_call_yields_key_bytes)
{
	uint8_t root[32], k[32], out[64], ram[HAL_RETENTION_BYTES], ram2[HAL_RETENTION_BYTES];
	hal_key_t sym, ec;

	expected_root(root);
	tu_kdf(root, "k", NULL, 0, 0, HAL_KEY_PURPOSE_KDF, k);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "k", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_KDF, &sym), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "e", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_SIGN, &ec), OTA_OK);
	/*
	 * Each engine takes its own purpose only: a KDF parent answers neither as
	 * a key pair nor as a MAC key (KMAC under it would print its children),
	 * a key pair neither as a MAC key nor as a parent.
	 */
	ck_assert_uint_eq(hal_ecdsa_pubkey(sym, out), OTA_HAL_KEY_PURPOSE);
	ck_assert_uint_eq(hal_ecdsa_sign(sym, root, out), OTA_HAL_KEY_PURPOSE);
	ck_assert_uint_eq(hal_kmac_start(sym, NULL, 0), OTA_HAL_KEY_PURPOSE);
	ck_assert_uint_eq(hal_kmac_start(ec, NULL, 0), OTA_HAL_KEY_PURPOSE);
	ck_assert_uint_eq(hal_keymgr_derive(ec, "x", NULL, 0, 0, 0, HAL_KEY_PURPOSE_KDF, &sym),
			  OTA_HAL_KEY_PURPOSE);
	/* Retaining a key does not put it in firmware-readable retention RAM. */
	ck_assert_uint_eq(hal_retention_read(0, ram, sizeof(ram)), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "k", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_KDF, &sym), OTA_OK);
	ck_assert_uint_eq(hal_key_retain(sym, 0), OTA_OK);
	ck_assert_uint_eq(hal_retention_read(0, ram2, sizeof(ram2)), OTA_OK);
	ck_assert_mem_eq(ram, ram2, sizeof(ram));
	/* Neither the root nor a derived key is stored in the clear anywhere. */
	ck_assert(!swhal_key_storage_contains(root, 32));
	ck_assert(!swhal_key_storage_contains(k, 32));
	ck_assert(!swhal_key_storage_contains(k, 8));
	/* The device secret is in OTP, not key storage. */
	ck_assert(!swhal_key_storage_contains(secret, 32));
	/*
	 * ...while the search itself works, so the checks above can fail: k
	 * written in the clear to the last bytes of retention RAM (part of the
	 * storage searched) is found, whole and as a prefix.
	 */
	ck_assert_uint_eq(hal_retention_write(HAL_RETENTION_BYTES - 32, k, 32), OTA_OK);
	ck_assert(swhal_key_storage_contains(k, 32));
	ck_assert(swhal_key_storage_contains(k, 8));
	ck_assert_uint_eq(hal_retention_write(0, ram2, sizeof(ram2)), OTA_OK);
	ck_assert(!swhal_key_storage_contains(k, 32));
	hal_key_destroy(sym);
	hal_key_destroy(ec);
}
END_TEST

START_TEST(test_keymgr_only_moves_forward)
{
	hal_key_t rom_cdi, ext_cdi, d;

	ck_assert_uint_eq(hal_keymgr_state(), HAL_KEYMGR_ROM);
	rom_cdi = hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST);
	ck_assert_uint_ne(rom_cdi, HAL_KEY_INVALID);
	ck_assert_uint_eq(hal_keymgr_derive(rom_cdi, "d", NULL, 0, 0, 0, HAL_KEY_PURPOSE_KDF, &d),
			  OTA_OK);
	/* Forward one state at a time, each with its binding. */
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_RUNTIME, &tu_binding), OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, NULL), OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &tu_binding), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM, &tu_binding), OTA_HAL_KEYMGR_STATE);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &tu_binding), OTA_HAL_KEYMGR_STATE);
	/* ROM_EXT has a secret of its own; ROM's handle is dead. */
	ext_cdi = hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST);
	ck_assert_uint_ne(ext_cdi, HAL_KEY_INVALID);
	ck_assert_uint_ne(ext_cdi, rom_cdi);
	ck_assert_uint_eq(hal_keymgr_derive(rom_cdi, "d", NULL, 0, 0, 0, HAL_KEY_PURPOSE_KDF, &d),
			  OTA_HAL_BAD_HANDLE);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_RUNTIME, &tu_binding), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_state(), HAL_KEYMGR_RUNTIME);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &tu_binding), OTA_HAL_KEYMGR_STATE);
	ck_assert_uint_eq(hal_keymgr_advance(7, &tu_binding), OTA_HAL_BAD_ARGUMENT);
	/* Every working key derived before RUNTIME is gone; the owner has its own secrets. */
	ck_assert_uint_eq(hal_kmac_start(d, NULL, 0), OTA_HAL_BAD_HANDLE);
	ck_assert_uint_eq(swhal_keys_in_use(), 2);
	ck_assert_uint_eq(hal_keymgr_derive(ext_cdi, "d", NULL, 0, 0, 0, HAL_KEY_PURPOSE_KDF, &d),
			  OTA_HAL_BAD_HANDLE);
	/* DISABLED from anywhere, and then nothing. */
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_DISABLED, NULL), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), HAL_KEY_INVALID);
	ck_assert_uint_eq(hal_keymgr_cdi(HAL_KEYMGR_CDI_SEAL), HAL_KEY_INVALID);
	ck_assert_uint_eq(swhal_keys_in_use(), 0);
	/* Only a reset brings the key manager back to ROM. */
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_state(), HAL_KEYMGR_ROM);
	ck_assert_uint_ne(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), HAL_KEY_INVALID);
}
END_TEST

/*
 * Issue 13, finding 3: code running in the ROM_EXT state must not reach the
 * device root or keys ROM derives. Keys derived with the same label and
 * context before and after the advance differ, and so do the secrets of two
 * different bindings (an image admitted otherwise gets other keys).
 */
static void mac_under_cdi(uint32_t cdi, uint8_t out[32])
{
	hal_key_t k;

	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(cdi), "otattest-tag-key", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_MAC, &k), OTA_OK);
	hal_kmac_once(k, "otattest-boot-tag", "m", 1, out);
	hal_key_destroy(k);
}

START_TEST(test_rom_ext_state_cannot_reach_rom_keys)
{
	struct hal_keymgr_binding other = tu_binding;
	uint8_t rom_tag[32], ext_tag[32], ext_seal[32], other_tag[32], other_seal[32];

	mac_under_cdi(HAL_KEYMGR_CDI_ATTEST, rom_tag);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &tu_binding), OTA_OK);
	mac_under_cdi(HAL_KEYMGR_CDI_ATTEST, ext_tag);
	mac_under_cdi(HAL_KEYMGR_CDI_SEAL, ext_seal);
	ck_assert_mem_ne(rom_tag, ext_tag, 32);
	ck_assert_mem_ne(ext_tag, ext_seal, 32);

	/* Another measurement: the seal secret moves, the attest secret stays. */
	other.seal[0] ^= 1;
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &other), OTA_OK);
	mac_under_cdi(HAL_KEYMGR_CDI_ATTEST, other_tag);
	mac_under_cdi(HAL_KEYMGR_CDI_SEAL, other_seal);
	ck_assert_mem_eq(other_tag, ext_tag, 32);
	ck_assert_mem_ne(other_seal, ext_seal, 32);
	/* Another root key admitted it: both move. */
	other.attest[0] ^= 1;
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &other), OTA_OK);
	mac_under_cdi(HAL_KEYMGR_CDI_ATTEST, other_tag);
	ck_assert_mem_ne(other_tag, ext_tag, 32);
}
END_TEST

START_TEST(test_root_needs_an_intact_secret_partition)
{
	struct ota_otp otp;

	tu_otp_secret_only(&otp, secret);
	otp.secret_digest[5] ^= 1;
	ck_assert_int_eq(swhal_load_otp(&otp, sizeof(otp)), 0);
	ck_assert_uint_eq(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), HAL_KEY_INVALID);
	memset(&otp, 0, sizeof(otp)); /* blank part */
	ck_assert_int_eq(swhal_load_otp(&otp, sizeof(otp)), 0);
	ck_assert_uint_eq(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), HAL_KEY_INVALID);
}
END_TEST

START_TEST(test_rom_identity_is_part_of_the_root)
{
	uint8_t rom[32], a[32], b[32];
	hal_key_t k;

	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "x", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_MAC, &k), OTA_OK);
	hal_kmac_once(k, "c", "m", 1, a);
	hal_rom_identity(rom);
	rom[0] ^= 0x80;
	swhal_set_rom_identity(rom);
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "x", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_MAC, &k), OTA_OK);
	hal_kmac_once(k, "c", "m", 1, b);
	ck_assert_mem_ne(a, b, 32);
}
END_TEST

START_TEST(test_stale_handles_are_refused)
{
	hal_key_t a, b;
	uint8_t out[64];

	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "a", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_SIGN, &a), OTA_OK);
	hal_key_destroy(a);
	ck_assert_uint_eq(hal_ecdsa_pubkey(a, out), OTA_HAL_BAD_HANDLE);
	/* The slot is reused, under a new generation: the old handle stays dead. */
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "b", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_SIGN, &b), OTA_OK);
	ck_assert_uint_ne(a, b);
	ck_assert_uint_eq(b & 0xff, a & 0xff);
	ck_assert_uint_eq(hal_ecdsa_pubkey(a, out), OTA_HAL_BAD_HANDLE);
	ck_assert_uint_eq(hal_ecdsa_pubkey(b, out), OTA_OK);
	/* A reset ends every working handle. */
	ck_assert_uint_eq(swhal_reset(OTA_RESET_UPDATE), OTA_OK);
	ck_assert_uint_eq(hal_ecdsa_pubkey(b, out), OTA_HAL_BAD_HANDLE);
	ck_assert_uint_eq(hal_ecdsa_pubkey(HAL_KEY_INVALID, out), OTA_HAL_BAD_HANDLE);
	ck_assert_uint_eq(hal_ecdsa_pubkey(0xffffffffu, out), OTA_HAL_BAD_HANDLE);
}
END_TEST

START_TEST(test_key_version_is_capped_by_the_stage)
{
	hal_key_t k;

	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "t", NULL, 0, 4, 3,
					    HAL_KEY_PURPOSE_KDF, &k), OTA_HAL_KEYMGR_VERSION);
	ck_assert_uint_eq(k, HAL_KEY_INVALID);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "t", NULL, 0, 3, 3,
					    HAL_KEY_PURPOSE_KDF, &k), OTA_OK);
	hal_key_destroy(k);
}
END_TEST

START_TEST(test_derive_rejects_bad_arguments)
{
	char long_label[80];
	uint8_t ctx[300] = { 0 };
	hal_key_t k;

	memset(long_label, 'a', sizeof(long_label) - 1);
	long_label[sizeof(long_label) - 1] = 0;
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), long_label, NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_KDF, &k), OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_KDF, &k), OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "l", ctx, sizeof(ctx), 0, 0,
					    HAL_KEY_PURPOSE_KDF, &k), OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "l", NULL, 3, 0, 0,
					    HAL_KEY_PURPOSE_KDF, &k), OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "l", NULL, 0, 0, 0, 9, &k),
			  OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "l", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_KDF, NULL), OTA_HAL_BAD_ARGUMENT);
}
END_TEST

START_TEST(test_key_slots_run_out_cleanly)
{
	hal_key_t k[32];
	uint32_t n = 0, i;
	ota_status_t st;

	for (;;) {
		ck_assert_uint_lt(n, 32);
		st = hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "s", NULL, 0, 0, 0,
				       HAL_KEY_PURPOSE_KDF, &k[n]);
		if (st != OTA_OK)
			break;
		n++;
	}
	ck_assert_uint_eq(st, OTA_HAL_KEY_SLOTS_FULL);
	ck_assert_uint_eq(swhal_keys_in_use(), n + 2); /* + the state's two secrets */
	for (i = 0; i < n; i++)
		hal_key_destroy(k[i]);
	ck_assert_uint_eq(swhal_keys_in_use(), 2);
}
END_TEST

START_TEST(test_vault_survives_warm_and_update_not_cold)
{
	uint8_t before[32], after[32];
	hal_key_t k, r;

	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "v", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_MAC, &k), OTA_OK);
	hal_kmac_once(k, "c", "m", 1, before);
	ck_assert_uint_eq(hal_key_retain(k, 1), OTA_OK);
	ck_assert_uint_eq(hal_key_retained(0, &r), OTA_HAL_BAD_HANDLE);

	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &tu_binding), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_RUNTIME, &tu_binding), OTA_OK);
	ck_assert_uint_eq(hal_key_retained(1, &r), OTA_OK);
	hal_kmac_once(r, "c", "m", 1, after);
	ck_assert_mem_eq(before, after, 32);
	hal_key_destroy(r);

	ck_assert_uint_eq(swhal_reset(OTA_RESET_UPDATE), OTA_OK);
	ck_assert_uint_eq(hal_key_retained(1, &r), OTA_OK);
	hal_key_destroy(r);

	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(hal_key_retained(1, &r), OTA_HAL_BAD_HANDLE);
}
END_TEST

START_TEST(test_vault_is_filled_only_before_runtime)
{
	hal_key_t k, r;

	ck_assert_uint_eq(hal_key_retain(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), 0), OTA_HAL_BAD_HANDLE);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "v", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_KDF, &k), OTA_OK);
	ck_assert_uint_eq(hal_key_retain(k, HAL_RETAINED_KEY_SLOTS), OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(hal_key_retain(k, 2), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &tu_binding), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_RUNTIME, &tu_binding), OTA_OK);
	ck_assert_uint_eq(hal_key_retained(2, &r), OTA_OK);
	ck_assert_uint_eq(hal_key_retain(r, 3), OTA_HAL_KEYMGR_STATE);
	/* Clearing only takes away: allowed, and final. */
	hal_key_retained_clear(2);
	hal_key_destroy(r);
	ck_assert_uint_eq(hal_key_retained(2, &r), OTA_HAL_BAD_HANDLE);
}
END_TEST

START_TEST(test_kmac_engine_rules)
{
	uint8_t out[65], root[32], k[32], want[64];
	hal_key_t h;

	ck_assert_uint_eq(hal_kmac_update("x", 1), OTA_HAL_ENGINE_IDLE);
	ck_assert_uint_eq(hal_kmac_finish(out, 32), OTA_HAL_ENGINE_IDLE);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "k", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_MAC, &h), OTA_OK);
	ck_assert_uint_eq(hal_kmac_start(h, NULL, 300), OTA_HAL_BAD_ARGUMENT);
	/* Empty customization after a non-empty one: the engine must not keep the old one. */
	hal_kmac_once(h, "previous", "m", 1, out);
	ck_assert_uint_eq(hal_kmac_start(h, NULL, 0), OTA_OK);
	ck_assert_uint_eq(hal_kmac_update("m", 1), OTA_OK);
	ck_assert_uint_eq(hal_kmac_finish(out, 64), OTA_OK);
	expected_root(root);
	tu_kdf(root, "k", NULL, 0, 0, HAL_KEY_PURPOSE_MAC, k);
	tu_kmac256(k, "", "m", 1, want, 64);
	ck_assert_mem_eq(out, want, 64);
	ck_assert_uint_eq(hal_kmac_start(h, NULL, 0), OTA_OK);
	ck_assert_uint_eq(hal_kmac_finish(out, 65), OTA_HAL_BAD_ARGUMENT);
	hal_key_destroy(h);
}
END_TEST

/* Verify with OpenSSL directly, independently of the HAL's verify path. */
static int openssl_verify(const uint8_t pub[64], const uint8_t digest[32], const uint8_t sig[64])
{
	uint8_t oct[65], der[80], *p = der;
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params;
	EVP_PKEY_CTX *fctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL), *vctx;
	EVP_PKEY *pkey = NULL;
	ECDSA_SIG *s = ECDSA_SIG_new();
	int len, rc;

	oct[0] = 4;
	memcpy(oct + 1, pub, 64);
	OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0);
	OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, oct, 65);
	params = OSSL_PARAM_BLD_to_param(bld);
	ck_assert_int_eq(EVP_PKEY_fromdata_init(fctx), 1);
	ck_assert_int_eq(EVP_PKEY_fromdata(fctx, &pkey, EVP_PKEY_PUBLIC_KEY, params), 1);
	ECDSA_SIG_set0(s, BN_bin2bn(sig, 32, NULL), BN_bin2bn(sig + 32, 32, NULL));
	len = i2d_ECDSA_SIG(s, &p);
	vctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
	ck_assert_int_eq(EVP_PKEY_verify_init(vctx), 1);
	rc = EVP_PKEY_verify(vctx, der, (size_t)len, digest, 32);
	EVP_PKEY_CTX_free(vctx);
	EVP_PKEY_CTX_free(fctx);
	EVP_PKEY_free(pkey);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	ECDSA_SIG_free(s);
	return rc;
}

START_TEST(test_ecdsa_sign_verify)
{
	uint8_t pub[64], sig[64], digest[32], bad[64];
	hal_key_t k;

	tu_sha256("to be signed", 12, digest);
	ck_assert_uint_eq(hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), "sig", NULL, 0, 0, 0,
					    HAL_KEY_PURPOSE_SIGN, &k), OTA_OK);
	ck_assert_uint_eq(hal_ecdsa_pubkey(k, pub), OTA_OK);
	ck_assert_uint_eq(hal_ecdsa_sign(k, digest, sig), OTA_OK);
	ck_assert_uint_eq(hal_ecdsa_verify(pub, digest, sig), OTA_OK);
	ck_assert_int_eq(openssl_verify(pub, digest, sig), 1);
	/* Twice through the verify cache. */
	ck_assert_uint_eq(hal_ecdsa_verify(pub, digest, sig), OTA_OK);
	sig[10] ^= 1;
	ck_assert_uint_eq(hal_ecdsa_verify(pub, digest, sig), OTA_SIG_ECDSA_INVALID);
	sig[10] ^= 1;
	digest[0] ^= 1;
	ck_assert_uint_eq(hal_ecdsa_verify(pub, digest, sig), OTA_SIG_ECDSA_INVALID);
	memset(bad, 0, sizeof(bad));
	ck_assert_uint_eq(hal_ecdsa_verify(pub, digest, bad), OTA_SIG_ECDSA_INVALID);
	/* A point off the curve is a bad key, not a bad signature. */
	memcpy(bad, pub, 64);
	bad[63] ^= 1;
	ck_assert_uint_eq(hal_ecdsa_verify(bad, digest, sig), OTA_SIG_BAD_PUBKEY);
	hal_key_destroy(k);
}
END_TEST

START_TEST(test_powered_off_device_does_nothing)
{
	uint8_t b[4];

	swhal_power_off();
	ck_assert_uint_eq(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), HAL_KEY_INVALID);
	ck_assert_uint_eq(hal_sha256_start(), OTA_HAL_POWER_LOST);
	ck_assert_uint_eq(hal_flash_read(0, b, 4), OTA_HAL_POWER_LOST);
	ck_assert_uint_eq(hal_trng_fill(b, 4), OTA_HAL_POWER_LOST);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(hal_flash_read(0, b, 4), OTA_OK);
}
END_TEST

START_TEST(test_time_and_randomness)
{
	uint8_t a[32], b[32];
	/* Cycles first: the cycle count covers at least the millisecond waited below. */
	uint64_t c0 = hal_cycles(), t0 = hal_time_ns();

	ck_assert_uint_eq(hal_trng_fill(a, sizeof(a)), OTA_OK);
	ck_assert_uint_eq(hal_trng_fill(b, sizeof(b)), OTA_OK);
	ck_assert_mem_ne(a, b, sizeof(a));
	while (hal_time_ns() - t0 < 1000000u)
		;
	ck_assert_uint_ge(hal_cycles() - c0, SWHAL_CYCLE_HZ / 1000u - 1u);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("swhal_keys");
	TCase *t = tcase_create("keys");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_sha256_engine_matches_reference);
	tcase_add_test(t, test_root_and_kdf_match_the_spec);
	tcase_add_test(t, test_ecdsa_derivation_matches_the_spec_and_host_helper);
	tcase_add_test(t, test_no_call_yields_key_bytes);
	tcase_add_test(t, test_keymgr_only_moves_forward);
	tcase_add_test(t, test_rom_ext_state_cannot_reach_rom_keys);
	tcase_add_test(t, test_root_needs_an_intact_secret_partition);
	tcase_add_test(t, test_rom_identity_is_part_of_the_root);
	tcase_add_test(t, test_stale_handles_are_refused);
	tcase_add_test(t, test_key_version_is_capped_by_the_stage);
	tcase_add_test(t, test_derive_rejects_bad_arguments);
	tcase_add_test(t, test_key_slots_run_out_cleanly);
	tcase_add_test(t, test_vault_survives_warm_and_update_not_cold);
	tcase_add_test(t, test_vault_is_filled_only_before_runtime);
	tcase_add_test(t, test_kmac_engine_rules);
	tcase_add_test(t, test_ecdsa_sign_verify);
	tcase_add_test(t, test_powered_off_device_does_nothing);
	tcase_add_test(t, test_time_and_randomness);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(suite)
