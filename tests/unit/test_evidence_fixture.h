/* SPDX-License-Identifier: MIT */
/*
 * A provisioned emulated device for the runtime's tests, the evidence
 * interop suite and bench-chain: the software HAL in memory with an OTP
 * secret, a flash layout holding an identity certificate issued by a
 * fresh CA for the key the device derives (swhal_derive_rom_ext_pubkey), and
 * a boot state as ROM_EXT hands it to the runtime. Header-only (static
 * functions) so test binaries and tools can each include it.
 *
 * Uses check's ck_assert: call from inside a check test, or from a tool
 * that runs its work as one (see tests/interop/evidence_tool.c).
 */
#ifndef OTATTEST_TEST_EVIDENCE_FIXTURE_H
#define OTATTEST_TEST_EVIDENCE_FIXTURE_H

#include <check.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <otattest/sha256.h>
#include <otattest/verify.h>

#include "../../libotattest/tools/otimage/idcert.h"
#include "../../firmware/runtime/runtime.h"
#include "swhal.h"
#include "testutil.h"
#include "fw_run.h"
#include "handoff.h"
#include "rom_ext.h"

#define EVFIX_PAGE OTA_FLASH_PAGE_SIZE
#define EVFIX_IDCERT_OFFSET (10u * EVFIX_PAGE)

enum evfix_idcert {
	EVFIX_IDCERT_OURS,    /* certifies this device's identity key */
	EVFIX_IDCERT_NONE,    /* region left erased */
	EVFIX_IDCERT_FOREIGN, /* a valid certificate for another key */
};

struct evfix {
	uint8_t secret[32];
	uint8_t device_id[OTA_DEVICE_ID_BYTES];
	uint8_t identity_pub[OTA_P256_PUBKEY_BYTES];
	EVP_PKEY *ca_key;
	X509 *ca;
	X509 *identity;
	struct ota_trust *trust;
	char ca_pem[4096];
	size_t ca_pem_len;
	struct ota_boot_state bs;
};

static inline void evfix_record(struct ota_boot_state *bs, const uint8_t device_id[16])
{
	struct ota_record *r = &bs->record;
	struct ota_stage_record *s;

	memset(bs, 0, sizeof(*bs));
	r->hdr.magic = OTA_RECORD_MAGIC;
	r->hdr.version = OTA_RECORD_VERSION;
	r->hdr.header_size = sizeof(r->hdr);
	r->hdr.stage_count = 3;
	r->hdr.length = sizeof(r->hdr) + 3 * sizeof(r->stage[0]);
	r->hdr.generation = 42;
	r->hdr.reset_reason = OTA_RESET_COLD;
	r->hdr.lifecycle = OTA_LC_PROD;
	memcpy(r->hdr.device_id, device_id, OTA_DEVICE_ID_BYTES);
	r->hdr.epoch = 1;
	r->hdr.min_svn = 5;
	r->hdr.floor_rom_ext = 1;
	r->hdr.floor_bl0 = 4;
	r->hdr.flags = OTA_RECORD_F_TAG_BOOT_ENABLED;
	r->hdr.tag_key_version = 3;
	r->hdr.boot_status = OTA_OK;
	r->hdr.chain_max_svn = OTA_CHAIN_DEFAULT_MAX_SVN;
	hal_rom_identity(r->hdr.rom_identity);
	r->hdr.boot_time_ns = 1234567;

	/*
	 * Each attempt as the firmware records it (docs/evidence.md,
	 * "Consistency of an attempt"): the tag path needs a TAG_BOOT image,
	 * a retagged one a reason the tag path was open to it, a refused one
	 * path none.
	 */
	s = &r->stage[0]; /* ROM_EXT A, accepted by tag */
	s->stage = OTA_STAGE_ROM_EXT;
	s->slot = OTA_SLOT_A;
	s->status = OTA_OK;
	s->path = OTA_PATH_TAG;
	s->effective.usage.flags = OTA_CAP_TAG_BOOT;
	s->sig_scheme = OTA_SCHEME_ECDSA_P256;
	s->security_version = 2;
	s->tag_key_version = 3;
	memset(s->measurement, 0xe1, 32);
	memset(s->key_ids[0], 0xc1, 32);
	s->flags = OTA_STAGE_F_BOOTED;
	s->verify_time_ns = 21000;

	s = &r->stage[1]; /* BL0 B refused: bad signature, checked after its tag was missing */
	s->stage = OTA_STAGE_BL0;
	s->slot = OTA_SLOT_B;
	s->status = OTA_SIG_ECDSA_INVALID;
	s->path = OTA_PATH_NONE;
	s->path_reason = OTA_REASON_NO_TAG;
	s->effective.usage.flags = OTA_CAP_TAG_BOOT;
	s->sig_scheme = OTA_SCHEME_HYBRID;
	s->delegation_depth = 2;
	s->security_version = 6;
	memset(s->measurement, 0xb6, 32);
	memset(s->key_ids[0], 0x01, 32);
	memset(s->key_ids[1], 0x02, 32);
	memset(s->key_ids[2], 0x03, 32);
	s->verify_time_ns = 900000;

	s = &r->stage[2]; /* BL0 A: the fallback that booted, its tag made for the image B replaced */
	s->stage = OTA_STAGE_BL0;
	s->slot = OTA_SLOT_A;
	s->status = OTA_OK;
	s->path = OTA_PATH_SIGNATURE_RETAGGED;
	s->path_reason = OTA_REASON_IMAGE_CHANGED;
	s->effective.usage.flags = OTA_CAP_TAG_BOOT;
	s->sig_scheme = OTA_SCHEME_HYBRID;
	s->delegation_depth = 1;
	s->security_version = 5;
	s->tag_key_version = 3;
	memset(s->measurement, 0xb5, 32);
	memset(s->key_ids[0], 0x01, 32);
	memset(s->key_ids[1], 0x02, 32);
	s->flags = OTA_STAGE_F_BOOTED | OTA_STAGE_F_FALLBACK;
	s->verify_time_ns = 3100000;

	bs->record_len = r->hdr.length;
	bs->boot_status = OTA_OK;
	bs->reset_reason = OTA_RESET_COLD;
	bs->otp.lifecycle = OTA_LC_PROD;
	bs->otp.chain_max_svn = OTA_CHAIN_DEFAULT_MAX_SVN;
	bs->otp.epoch = 1;
	memcpy(bs->otp.device_id, device_id, OTA_DEVICE_ID_BYTES);
	bs->rom_ext_slot = OTA_SLOT_A;
	bs->bl0_slot = OTA_SLOT_A;
	bs->rom_ext_svn = 2;
	bs->bl0_svn = 5;
	bs->chain_status = OTA_OK;
	bs->min_svn = 5;
	memcpy(bs->rom_ext_measurement, r->stage[0].measurement, 32);
	memcpy(bs->bl0_measurement, r->stage[2].measurement, 32);
}

/*
 * Give evfix_record's record the update section the firmware writes
 * (issue 28): BL0 A runs, `primary` is the primary slot (B: A is on
 * trial, its trial_boots-th boot), a trial of `reverted_slot` reverted
 * for `revert_reason` (OTA_REVERT_NONE: none), the fleet-wide revocation
 * sequence `revocation_seq` (the device-bound one 1).
 */
static inline struct ota_record_update *evfix_update(struct ota_boot_state *bs, uint32_t primary,
						     uint32_t trial_boots, uint32_t revert_reason,
						     uint32_t reverted_slot, uint32_t revocation_seq)
{
	struct ota_record *r = &bs->record;
	struct ota_record_update *u;

	r->hdr.flags |= OTA_RECORD_F_UPDATE_SECTION;
	r->hdr.length = ota_record_length(r->hdr.stage_count, r->hdr.flags);
	bs->record_len = r->hdr.length;
	u = (struct ota_record_update *)ota_record_update_of(r);
	memset(u, 0, sizeof(*u));
	u->update_state = primary == OTA_SLOT_A ? OTA_UPDATE_IDLE : OTA_UPDATE_TRIAL;
	u->primary_slot = primary;
	u->running_rom_ext_slot = OTA_SLOT_A;
	u->running_bl0_slot = OTA_SLOT_A;
	u->revocation_sequence = revocation_seq;
	u->revocation_sequence_device = 1;
	u->trial_boots = trial_boots;
	u->revert_reason = revert_reason;
	u->reverted_slot = reverted_slot;
	return u;
}

/* Flash: a valid layout in page 0, each region one page, the blob in its region. */
static inline void evfix_flash(const struct ota_identity_cert_blob *blob)
{
	static uint8_t flash[16 * EVFIX_PAGE];
	struct ota_flash_layout *l = (struct ota_flash_layout *)flash;
	uint32_t t;

	memset(flash, 0xff, sizeof(flash));
	memset(l, 0, sizeof(*l));
	l->magic = OTA_FLASH_LAYOUT_MAGIC;
	l->version = OTA_FLASH_LAYOUT_VERSION;
	l->size = sizeof(*l);
	l->page_size = EVFIX_PAGE;
	l->flash_size = sizeof(flash);
	l->region_count = OTA_REGION_TYPE_MAX;
	for (t = 1; t <= OTA_REGION_TYPE_MAX; t++) {
		l->region[t - 1].type = t;
		l->region[t - 1].offset = t * EVFIX_PAGE;
		l->region[t - 1].size = EVFIX_PAGE;
	}
	if (blob)
		memcpy(flash + EVFIX_IDCERT_OFFSET, blob, sizeof(*blob));
	ck_assert_int_eq(swhal_load_flash(flash, sizeof(flash)), 0);
}

/*
 * Device number `index` of a fleet (its own OTP secret and device id;
 * index 0 is evfix_open's device), its identity certificate issued by
 * ca_key/ca when given (the fixture takes a reference), else by a fresh CA.
 */
static inline void evfix_open_fleet(struct evfix *f, enum evfix_idcert which, uint32_t index,
				    EVP_PKEY *ca_key, X509 *ca)
{
	struct ota_identity_cert_blob blob;
	uint8_t rom[OTA_SHA256_BYTES], pub[OTA_P256_PUBKEY_BYTES];
	struct ota_otp otp;
	BIO *bio;
	char *pem;
	long n;
	uint32_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < 32; i++)
		f->secret[i] = (uint8_t)(0x5e ^ i);
	for (i = 0; i < OTA_DEVICE_ID_BYTES; i++)
		f->device_id[i] = (uint8_t)(0xd0 + i);
	for (i = 0; i < 4; i++) { /* the index, big-endian, in the last bytes of both */
		f->secret[28 + i] ^= (uint8_t)(index >> (24 - 8 * i));
		f->device_id[OTA_DEVICE_ID_BYTES - 4 + i] ^= (uint8_t)(index >> (24 - 8 * i));
	}

	tu_hal_open_memory(0);
	tu_otp_secret_only(&otp, f->secret);
	memcpy(otp.device_id, f->device_id, sizeof(f->device_id));
	ck_assert_int_eq(swhal_load_otp(&otp, sizeof(otp)), 0);
	swhal_power_off();
	ck_assert_int_eq(swhal_power_on(), 0);

	/* What the factory computes, without the device (otimage provision). */
	swhal_default_rom_identity(rom);
	ck_assert_uint_eq(swhal_derive_rom_ext_pubkey(f->secret, rom, tu_binding.attest, OTA_IDENTITY_LABEL, NULL, 0,
						   f->identity_pub),
			  OTA_OK);
	if (ca_key && ca) {
		ck_assert_int_eq(EVP_PKEY_up_ref(ca_key), 1);
		ck_assert_int_eq(X509_up_ref(ca), 1);
		f->ca_key = ca_key;
		f->ca = ca;
	} else {
		ck_assert_uint_eq(otimage_ca_create("otattest test CA", &f->ca_key, &f->ca), OTA_OK);
	}
	memcpy(pub, f->identity_pub, sizeof(pub));
	if (which == EVFIX_IDCERT_FOREIGN)
		ck_assert_uint_eq(swhal_derive_rom_ext_pubkey(f->secret, rom, tu_binding.attest, "another-label", NULL, 0,
							   pub),
				  OTA_OK);
	ck_assert_uint_eq(otimage_identity_cert_issue(f->ca_key, f->ca, f->device_id, pub,
						      &f->identity),
			  OTA_OK);
	ck_assert_uint_eq(otimage_identity_cert_blob(f->identity, &blob), OTA_OK);
	evfix_flash(which == EVFIX_IDCERT_NONE ? NULL : &blob);

	bio = BIO_new(BIO_s_mem());
	PEM_write_bio_X509(bio, f->ca);
	n = BIO_get_mem_data(bio, &pem);
	ck_assert_int_lt(n, (long)sizeof(f->ca_pem));
	memcpy(f->ca_pem, pem, (size_t)n);
	f->ca_pem_len = (size_t)n;
	BIO_free(bio);
	ck_assert_uint_eq(ota_trust_load_pem(f->ca_pem, f->ca_pem_len, &f->trust), OTA_OK);

	evfix_record(&f->bs, f->device_id);
}

static inline void evfix_open(struct evfix *f, enum evfix_idcert which)
{
	evfix_open_fleet(f, which, 0, NULL, NULL);
}

/* ROM_EXT's last steps: prepare the runtime, then lock the key manager. */
static inline void evfix_boot_runtime(struct evfix *f)
{
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_ROM_EXT, &tu_binding), OTA_OK);
	ck_assert_uint_eq(ota_runtime_prepare(&f->bs), OTA_OK);
	ck_assert_uint_eq(hal_keymgr_advance(HAL_KEYMGR_RUNTIME, &tu_binding), OTA_OK);
}

static inline void evfix_close(struct evfix *f)
{
	ota_trust_free(f->trust);
	X509_free(f->identity);
	X509_free(f->ca);
	EVP_PKEY_free(f->ca_key);
	tu_hal_close();
}

#endif /* OTATTEST_TEST_EVIDENCE_FIXTURE_H */
