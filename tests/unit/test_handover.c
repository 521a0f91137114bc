// SPDX-License-Identifier: MIT
/*
 * The identity hand-over (handover.h, docs/keychain.md "Identity
 * hand-over"): the key manager alone signs one, from the identity of the
 * predecessor ROM named to this state's identity one version up; it
 * derives the identity at the version OTP holds and at no other, so the
 * old identity is gone once the version rose; and a verifier walks the
 * chain of hand-overs from the identity the CA certified to the key that
 * issued the alias certificate, refusing each fault by its own name.
 *
 * Boots here are the key manager's part of a boot: the OTP a boot sees,
 * a predecessor set in ROM state (or none), the advance with the binding
 * of the creator key that admitted ROM_EXT. Creator keys are stood for by
 * their attest bindings (the key manager sees nothing else of them).
 */
#include <check.h>
#include <stddef.h>
#include <string.h>

#include <otattest/handover.h>
#include <otattest/verify.h>

#include "fw_run.h"
#include "runtime.h"
#include "hal.h"
#include "handoff.h"
#include "swhal.h"
#include "testutil.h"
#include "tu_device.h"
#include "tu_main.h"

static const uint8_t secret[32] = {
	0x48, 0x41, 0x4e, 0x44, 0x4f, 0x56, 0x45, 0x52, 0x05, 0x06, 0x07, 0x08,
	0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14,
	0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c,
};
static const uint8_t device_id[OTA_DEVICE_ID_BYTES] = { 0xde, 0x71, 0xce, 1, 2, 3, 4, 5,
							6, 7, 8, 9, 10, 11, 12, 13 };

/* The attest binding of a ROM_EXT admitted by creator key k (1, 2, 3). */
static void creator(uint32_t k, struct hal_keymgr_binding *b)
{
	memset(b->attest, (int)(0x10u * k), sizeof(b->attest));
	memset(b->seal, 0x5e, sizeof(b->seal));
}

/*
 * Power on with OTP at identity version `version`; in ROM state name
 * creator key `pred` (0: none) as the predecessor, then enter ROM_EXT
 * admitted by creator key `k`.
 */
static void boot(uint32_t version, uint32_t pred, uint32_t k)
{
	struct hal_keymgr_binding b, p;
	struct ota_otp otp;

	tu_hal_close();
	tu_hal_open_memory(0);
	tu_otp_secret_only(&otp, secret);
	memcpy(otp.device_id, device_id, sizeof(device_id));
	ota_thermometer_encode(otp.identity_version, sizeof(otp.identity_version), version);
	ck_assert_int_eq(swhal_load_otp(&otp, sizeof(otp)), 0);
	if (pred) {
		creator(pred, &p);
		ck_assert_uint_eq(hal_keymgr_set_predecessor(p.attest), OTA_OK);
	}
	creator(k, &b);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &b), OTA_OK);
}

/* This state's identity at `version` through the HAL, or the refusal. */
static ota_status_t identity(uint32_t version, uint8_t pub[OTA_P256_PUBKEY_BYTES])
{
	hal_key_t k = HAL_KEY_INVALID;
	ota_status_t st;

	st = hal_keymgr_derive(hal_keymgr_cdi(HAL_KEYMGR_CDI_ATTEST), OTA_IDENTITY_LABEL, NULL, 0,
			       version, version, HAL_KEY_PURPOSE_SIGN, &k);
	if (st == OTA_OK)
		st = hal_ecdsa_pubkey(k, pub);
	hal_key_destroy(k);
	return st;
}

static void setup(void)
{
	tu_hal_open_memory(0);
}

static void teardown(void)
{
	tu_hal_close();
}

/* The device the chains below are judged for (the boot test's own). */
static const uint8_t *chain_device = device_id;

static ota_status_t chain(const uint8_t *certified, const uint8_t *issuer,
			  const struct ota_identity_handover *const h[], uint32_t n,
			  uint32_t *version)
{
	const uint8_t *blobs[4];
	size_t lens[4];
	char why[200];
	uint32_t i;

	for (i = 0; i < n; i++) {
		blobs[i] = (const uint8_t *)h[i];
		lens[i] = sizeof(*h[i]);
	}
	return ota_handover_chain_check(certified, issuer, chain_device, blobs, lens, n, version,
					why, sizeof(why));
}

START_TEST(test_the_old_identity_hands_over_and_is_gone)
{
	struct ota_identity_handover h, none;
	struct hal_keymgr_binding b1;
	uint8_t old_pub[64], spec_pub[64], new_pub[64], k2_v0[64], again[64], rom[32];
	uint32_t v = 99;

	/* The factory's identity: creator key 1's ROM_EXT at version 0 - today's key. */
	boot(0, 0, 1);
	ck_assert_uint_eq(identity(0, old_pub), OTA_OK);
	creator(1, &b1);
	swhal_rom_identity(rom);
	ck_assert_uint_eq(swhal_derive_rom_ext_pubkey(secret, rom, b1.attest, OTA_IDENTITY_LABEL,
						      NULL, 0, spec_pub), OTA_OK);
	ck_assert_mem_eq(old_pub, spec_pub, 64);
	/* No predecessor named: nothing to hand over from. */
	ck_assert_uint_eq(hal_keymgr_handover(&none), OTA_HAL_KEYMGR_NO_PREDECESSOR);

	/* Creator key 2's ROM_EXT, ROM naming key 1's as the predecessor. */
	boot(0, 1, 2);
	ck_assert_uint_eq(identity(0, k2_v0), OTA_OK);
	ck_assert_mem_ne(k2_v0, old_pub, 64); /* another creator key, another identity */
	ck_assert_uint_eq(hal_keymgr_handover(&h), OTA_OK);
	ck_assert_uint_eq(ota_handover_check_fields(&h), OTA_OK);
	ck_assert_uint_eq(h.from_version, 0);
	ck_assert_uint_eq(h.to_version, 1);
	ck_assert_mem_eq(h.device_id, device_id, sizeof(device_id));
	ck_assert_mem_eq(h.from_pubkey, old_pub, 64);
	ck_assert_mem_ne(h.to_pubkey, k2_v0, 64);
	/* Until OTP holds version 1, the new identity is not derivable either. */
	ck_assert_uint_eq(identity(1, new_pub), OTA_HAL_KEYMGR_VERSION);
	/* The certified identity leads to the new key through the hand-over. */
	ck_assert_uint_eq(chain(old_pub, h.to_pubkey, (const struct ota_identity_handover *[]){ &h },
				1, &v), OTA_OK);
	ck_assert_uint_eq(v, 1);

	/* Version 1 programmed: the new identity is the handed-over key, the old is gone. */
	boot(1, 0, 2);
	ck_assert_uint_eq(identity(1, new_pub), OTA_OK);
	ck_assert_mem_eq(new_pub, h.to_pubkey, 64);
	ck_assert_uint_eq(identity(0, again), OTA_HAL_KEYMGR_VERSION);

	/* Creator key 1's ROM_EXT again: its old identity is out of reach too. */
	boot(1, 0, 1);
	ck_assert_uint_eq(identity(0, again), OTA_HAL_KEYMGR_VERSION);
	ck_assert_uint_eq(identity(1, again), OTA_OK);
	ck_assert_mem_ne(again, old_pub, 64);
	ck_assert_mem_ne(again, new_pub, 64);
	/* And nothing leads a verifier from the certified identity to that key. */
	ck_assert_uint_eq(chain(old_pub, again, (const struct ota_identity_handover *[]){ &h }, 1,
				NULL), OTA_VERIFY_HANDOVER_GAP);
}
END_TEST

START_TEST(test_predecessor_only_from_rom_for_rom_ext)
{
	struct hal_keymgr_binding b;
	struct ota_identity_handover h;

	boot(0, 0, 2);
	creator(1, &b);
	/* ROM_EXT cannot name a predecessor: only ROM, before the advance. */
	ck_assert_uint_eq(hal_keymgr_set_predecessor(b.attest), OTA_HAL_KEYMGR_STATE);
	ck_assert_uint_eq(hal_keymgr_handover(&h), OTA_HAL_KEYMGR_NO_PREDECESSOR);

	/* A predecessor lives for ROM_EXT's state alone: not in ROM, not at RUNTIME. */
	boot(0, 1, 2);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_RUNTIME, &b), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_handover(&h), OTA_HAL_KEYMGR_STATE);
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_set_predecessor(b.attest), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_handover(&h), OTA_HAL_KEYMGR_STATE); /* ROM state */
	/* A reset forgets the predecessor named before it. */
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	creator(2, &b);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &b), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_handover(&h), OTA_HAL_KEYMGR_NO_PREDECESSOR);
}
END_TEST

START_TEST(test_no_handover_past_the_thermometer)
{
	struct ota_identity_handover h;
	uint8_t pub[64];

	boot(OTA_OTP_IDENTITY_VERSION_BITS, 1, 2);
	ck_assert_uint_eq(hal_keymgr_handover(&h), OTA_HAL_KEYMGR_VERSION);
	/* The last version still has its identity. */
	ck_assert_uint_eq(identity(OTA_OTP_IDENTITY_VERSION_BITS, pub), OTA_OK);
	boot(OTA_OTP_IDENTITY_VERSION_BITS - 1u, 1, 2);
	ck_assert_uint_eq(hal_keymgr_handover(&h), OTA_OK);
	ck_assert_uint_eq(h.to_version, OTA_OTP_IDENTITY_VERSION_BITS);
}
END_TEST

/* Three creator keys in turn: v0 (key 1) -> v1 (key 2) -> v2 (key 3). */
static void two_handovers(uint8_t pub0[64], struct ota_identity_handover *h1,
			  struct ota_identity_handover *h2, uint8_t pub2[64])
{
	boot(0, 0, 1);
	ck_assert_uint_eq(identity(0, pub0), OTA_OK);
	boot(0, 1, 2);
	ck_assert_uint_eq(hal_keymgr_handover(h1), OTA_OK);
	boot(1, 2, 3);
	ck_assert_uint_eq(hal_keymgr_handover(h2), OTA_OK);
	boot(2, 0, 3);
	ck_assert_uint_eq(identity(2, pub2), OTA_OK);
	ck_assert_mem_eq(h1->to_pubkey, h2->from_pubkey, 64);
	ck_assert_mem_eq(h2->to_pubkey, pub2, 64);
}

START_TEST(test_verifier_walks_the_chain_and_names_each_fault)
{
	struct ota_identity_handover h1, h2, bad;
	uint8_t pub0[64], pub2[64];
	const uint8_t *blobs[1];
	size_t lens[1];
	uint32_t v = 99;

	two_handovers(pub0, &h1, &h2, pub2);
	ck_assert_uint_eq(chain(pub0, pub2, (const struct ota_identity_handover *[]){ &h1, &h2 }, 2,
				&v), OTA_OK);
	ck_assert_uint_eq(v, 2);
	/* No hand-over: the certified identity must have issued the alias certificate. */
	ck_assert_uint_eq(chain(pub0, pub0, NULL, 0, &v), OTA_OK);
	ck_assert_uint_eq(v, 0);
	ck_assert_uint_eq(chain(pub0, pub2, NULL, 0, NULL), OTA_VERIFY_HANDOVER_GAP);

	/* Missing: the first hand-over left out, or the last. */
	ck_assert_uint_eq(chain(pub0, pub2, (const struct ota_identity_handover *[]){ &h2 }, 1, NULL),
			  OTA_VERIFY_HANDOVER_GAP);
	ck_assert_uint_eq(chain(pub0, pub2, (const struct ota_identity_handover *[]){ &h1 }, 1, NULL),
			  OTA_VERIFY_HANDOVER_GAP);

	/* Replayed and out of order. */
	ck_assert_uint_eq(chain(pub0, pub2, (const struct ota_identity_handover *[]){ &h1, &h1, &h2 },
				3, NULL), OTA_VERIFY_HANDOVER_OUT_OF_ORDER);
	ck_assert_uint_eq(chain(pub0, pub2, (const struct ota_identity_handover *[]){ &h2, &h1 }, 2,
				NULL), OTA_VERIFY_HANDOVER_GAP);
	bad = h2;
	bad.from_version = 0; /* a step that claims to start over */
	bad.to_version = 1;
	ck_assert_uint_eq(chain(pub0, pub2, (const struct ota_identity_handover *[]){ &h1, &bad }, 2,
				NULL), OTA_VERIFY_HANDOVER_OUT_OF_ORDER);

	/* Forged: the signature, or a new key the old one never signed for. */
	bad = h1;
	bad.signature[5] ^= 1;
	ck_assert_uint_eq(chain(pub0, bad.to_pubkey, (const struct ota_identity_handover *[]){ &bad },
				1, NULL), OTA_VERIFY_HANDOVER_FORGED);
	bad = h1;
	memcpy(bad.to_pubkey, pub2, 64); /* skip version 1: h1's signature does not cover it */
	ck_assert_uint_eq(chain(pub0, pub2, (const struct ota_identity_handover *[]){ &bad }, 1, NULL),
			  OTA_VERIFY_HANDOVER_FORGED);
	/* h2 signed by pub1, presented as if from pub0: not from the certified identity. */
	bad = h2;
	memcpy(bad.from_pubkey, pub0, 64);
	bad.from_version = 0;
	bad.to_version = 1;
	ck_assert_uint_eq(chain(pub0, pub2, (const struct ota_identity_handover *[]){ &bad }, 1, NULL),
			  OTA_VERIFY_HANDOVER_FORGED);

	/* Malformed, and another device's. */
	bad = h1;
	bad.to_version = 2;
	ck_assert_uint_eq(chain(pub0, h1.to_pubkey, (const struct ota_identity_handover *[]){ &bad },
				1, NULL), OTA_VERIFY_HANDOVER_MALFORMED);
	bad = h1;
	bad.reserved[3] = 1;
	ck_assert_uint_eq(chain(pub0, h1.to_pubkey, (const struct ota_identity_handover *[]){ &bad },
				1, NULL), OTA_VERIFY_HANDOVER_MALFORMED);
	blobs[0] = (const uint8_t *)&h1;
	lens[0] = sizeof(h1) - 1u;
	ck_assert_uint_eq(ota_handover_chain_check(pub0, h1.to_pubkey, device_id, blobs, lens, 1,
						   NULL, NULL, 0),
			  OTA_VERIFY_HANDOVER_MALFORMED);
	bad = h1;
	bad.device_id[0] ^= 0xff;
	ck_assert_uint_eq(chain(pub0, h1.to_pubkey, (const struct ota_identity_handover *[]){ &bad },
				1, NULL), OTA_VERIFY_IDENTITY_MISMATCH);
}
END_TEST

/* ---- the boot: ROM names the holder, ROM_EXT hands over and commits --------- */

static uint32_t otp_identity_version(void)
{
	uint8_t bits[OTA_OTP_IDENTITY_VERSION_BITS / 8];
	uint32_t v = 99;

	ck_assert_uint_eq(hal_otp_read(offsetof(struct ota_otp, identity_version), bits, sizeof(bits)),
			  OTA_OK);
	ck_assert_uint_eq(ota_thermometer_decode(bits, sizeof(bits), &v), OTA_OK);
	return v;
}

/* Entry i of the device's identity log (false: erased or torn). */
static bool log_entry(uint32_t i, struct ota_identity_log_entry *e)
{
	const struct ota_flash_region *r = tu_region(OTA_REGION_IDENTITY_LOG);

	ck_assert_uint_eq(hal_flash_read(r->offset + OTA_IDLOG_ENTRY_OFFSET(i), e, sizeof(*e)), OTA_OK);
	return ota_identity_log_entry_check(e);
}

static void cold_boot(void)
{
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
}

static uint8_t ev[8192];
static uint32_t ev_len;
static const uint8_t ev_nonce[32] = { 1 };

static struct ota_verdict verdict;

static ota_status_t verify(const struct ota_trust *trust, const uint8_t *e, uint32_t len)
{
	return ota_verify_evidence(e, len, trust, ev_nonce, sizeof(ev_nonce), NULL, NULL, 0,
				   &verdict);
}

/* Whether the last verdict names `st` among its failures. */
static bool verdict_names(ota_status_t st)
{
	for (uint32_t i = 0; i < verdict.failure_count; i++)
		if (verdict.failures[i].status == st)
			return true;
	return false;
}

/* ATTEST's evidence now: its x5chain has both certificates and these hand-overs. */
static void evidence_carries(const struct ota_identity_handover *h, uint32_t n)
{
	const uint8_t *ho[OTA_HANDOVER_MAX];
	size_t lens[OTA_HANDOVER_MAX];
	struct ota_cose_sign1 m;
	uint32_t len = 0, count = 99, i;

	ck_assert_uint_eq(ota_rt_attest(ota_boot_state(), &ota_rt, ev_nonce, sizeof(ev_nonce), ev,
					sizeof(ev), &len),
			  OTA_OK);
	ev_len = len;
	ck_assert_uint_eq(ota_cose_sign1_decode(ev, len, &m), OTA_OK);
	ck_assert_uint_eq(m.cert_count, 2);
	ck_assert_uint_eq(ota_cose_sign1_handovers(ev, len, ho, lens, &count), OTA_OK);
	ck_assert_uint_eq(count, n);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(lens[i], sizeof(h[i]));
		ck_assert_mem_eq(ho[i], &h[i], sizeof(h[i]));
	}
}

START_TEST(test_a_creator_key_change_hands_the_identity_over)
{
	struct ota_identity_log_entry e, e2;
	struct tu_device dev;
	struct ota_trust *trust;
	uint8_t certified[64], attest0[32], attest1[32];
	uint32_t v = 99;

	tu_device_boot_default(&dev); /* ROM_EXT signed by CREATOR0 */
	chain_device = dev.device_id;
	tu_rom_ext_attest(attest0);
	trust = tu_identity_provision(&dev);
	cold_boot();
	memcpy(certified, ota_rt.identity_pubkey, 64);
	ck_assert_uint_eq(otp_identity_version(), 0);
	ck_assert(!log_entry(0, &e)); /* the header names the holder; no hand-over yet */
	ck_assert_uint_eq(ota_rt.handover_count, 0);
	evidence_carries(NULL, 0);
	ck_assert_uint_eq(verify(trust, ev, ev_len), OTA_OK);

	/* An update to a ROM_EXT signed by the other creator key. */
	tu_rom_ext_signed_by(TU_CREATOR1);
	cold_boot();
	tu_rom_ext_attest(attest1);
	ck_assert_mem_ne(attest0, attest1, 32);
	ck_assert_uint_eq(otp_identity_version(), 1);
	ck_assert(log_entry(0, &e));
	ck_assert_mem_eq(e.holder, attest1, 32);
	ck_assert_mem_eq(e.handover.from_pubkey, certified, 64);
	ck_assert_mem_eq(e.handover.to_pubkey, ota_rt.identity_pubkey, 64);
	ck_assert_mem_ne(ota_rt.identity_pubkey, certified, 64);
	ck_assert_uint_eq(chain(certified, ota_rt.identity_pubkey,
				(const struct ota_identity_handover *[]){ &e.handover }, 1, &v),
			  OTA_OK);
	ck_assert_uint_eq(v, 1);
	/* The identity the alias certificate now names is reached through the hand-over only. */
	ck_assert_uint_eq(chain(certified, ota_rt.identity_pubkey, NULL, 0, NULL),
			  OTA_VERIFY_HANDOVER_GAP);
	/* The runtime serves the certified identity's certificate and the hand-over... */
	ck_assert_uint_eq(ota_rt.identity_cert_status, OTA_OK);
	ck_assert_uint_gt(ota_rt.identity_cert_len, 0);
	ck_assert_uint_eq(ota_rt.handover_count, 1);
	ck_assert_mem_eq(&ota_rt.handover[0], &e.handover, sizeof(e.handover));
	/* ...and its evidence carries it beside the x5chain. */
	evidence_carries(&e.handover, 1);
	/* The verifier accepts it through the hand-over... */
	ck_assert_uint_eq(verify(trust, ev, ev_len), OTA_OK);
	/* ...refuses it with the hand-over left out... */
	{
		static uint8_t stripped[8192];
		const uint8_t *certs[2];
		uint32_t clens[2], slen = 0;
		struct ota_cose_sign1 m;

		ck_assert_uint_eq(ota_cose_sign1_decode(ev, ev_len, &m), OTA_OK);
		certs[0] = m.certs[0];
		certs[1] = m.certs[1];
		clens[0] = (uint32_t)m.cert_lens[0];
		clens[1] = (uint32_t)m.cert_lens[1];
		ck_assert_uint_eq(ota_evidence_encode_sign1(m.payload, (uint32_t)m.payload_len, certs,
							    clens, 2, m.signature, stripped,
							    sizeof(stripped), &slen),
				  OTA_OK);
		/* The chain is untrusted, and the verdict says why: a hand-over is missing. */
		ck_assert_uint_eq(verify(trust, stripped, slen), OTA_VERIFY_CHAIN_UNTRUSTED);
		ck_assert(verdict_names(OTA_VERIFY_HANDOVER_GAP));
	}
	/* ...and with it forged: a byte of its signature, or of the new key it names. */
	{
		static uint8_t forged[8192];
		uint8_t *p = memmem(ev, ev_len, &e.handover, sizeof(e.handover));

		ck_assert_ptr_nonnull(p);
		memcpy(forged, ev, ev_len);
		forged[(p - ev) + offsetof(struct ota_identity_handover, signature) + 7] ^= 1;
		ck_assert_uint_eq(verify(trust, forged, ev_len), OTA_VERIFY_HANDOVER_FORGED);
		memcpy(forged, ev, ev_len);
		forged[(p - ev) + offsetof(struct ota_identity_handover, to_pubkey) + 3] ^= 1;
		ck_assert_uint_ne(verify(trust, forged, ev_len), OTA_OK);
	}

	/* Boots after it hand over nothing more: the log has one entry, the version stays. */
	cold_boot();
	ck_assert_uint_eq(otp_identity_version(), 1);
	ck_assert(!log_entry(1, &e2));
	ck_assert_mem_eq(ota_rt.identity_pubkey, e.handover.to_pubkey, 64);

	/* Back to a ROM_EXT of the first creator key: it cannot be the certified key again. */
	tu_rom_ext_signed_by(TU_CREATOR0);
	cold_boot();
	ck_assert_uint_eq(otp_identity_version(), 2);
	ck_assert_mem_ne(ota_rt.identity_pubkey, certified, 64);
	ck_assert(log_entry(1, &e2));
	ck_assert_uint_eq(chain(certified, ota_rt.identity_pubkey,
				(const struct ota_identity_handover *[]){ &e.handover, &e2.handover },
				2, &v),
			  OTA_OK);
	ck_assert_uint_eq(v, 2);
	ck_assert_uint_eq(ota_rt.handover_count, 2);
	{
		struct ota_identity_handover both[2] = { e.handover, e2.handover };

		evidence_carries(both, 2);
		ck_assert_uint_eq(verify(trust, ev, ev_len), OTA_OK);
	}
	ota_trust_free(trust);
	tu_device_close(&dev);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("handover");
	TCase *t = tcase_create("handover");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_the_old_identity_hands_over_and_is_gone);
	tcase_add_test(t, test_predecessor_only_from_rom_for_rom_ext);
	tcase_add_test(t, test_no_handover_past_the_thermometer);
	tcase_add_test(t, test_verifier_walks_the_chain_and_names_each_fault);
	suite_add_tcase(s, t);
	t = tcase_create("boot");
	tcase_add_test(t, test_a_creator_key_change_hands_the_identity_over);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(suite)
