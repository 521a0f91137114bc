// SPDX-License-Identifier: MIT
/*
 * The boot record format (record.h) on its own: a record the firmware
 * really wrote (four attempts: a refused ROM_EXT and BL0 slot each,
 * then their fallbacks) validates and reads back with the fields the
 * boot had; then each rule of ota_record_validate refuses a copy broken
 * in exactly one way, with its own status. The kernel driver, otattestd,
 * otimage inspect and the verifier all run this one function, so what it
 * lets through is what they all trust (tests/fuzz/fuzz_record.c attacks
 * it at random).
 */
#include <check.h>
#include <stddef.h>
#include <string.h>

#include <otattest/record.h>

#include "fw_run.h"
#include "handoff.h"
#include "swhal.h"
#include "tu_check.h"
#include "tu_device.h"
#include "tu_main.h"

static struct ota_record rec; /* as the firmware published it */
static uint32_t rec_len;
static uint8_t bl0_b_measurement[OTA_SHA256_BYTES];

/*
 * Boot a device whose A slots are refused, so both stages fall back to B.
 * An unchecked fixture: it runs once per test case, before the forks.
 */
static void build_fixture(void)
{
	struct tu_device dev;
	struct tu_image_spec s;

	tu_device_init(&dev);
	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 2);
	s.signer = TU_CREATOR1;
	s.payload_seed = 31;
	dev.slot[OTI_ROM_EXT_B] = tu_image(&s);
	dev.slot[OTI_BL0_B] = tu_bl0(2, 4, false);
	tu_measurement(&dev.slot[OTI_BL0_B], bl0_b_measurement);
	/* A: signed by a key nobody provisioned. */
	tu_blob_free(&dev.slot[OTI_ROM_EXT_A]);
	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 3);
	s.signer = TU_ROGUE;
	dev.slot[OTI_ROM_EXT_A] = tu_image(&s);
	tu_blob_free(&dev.slot[OTI_BL0_A]);
	tu_image_spec_init(&s, OTA_STAGE_BL0, 9);
	s.signer = TU_ROGUE;
	dev.slot[OTI_BL0_A] = tu_image(&s);

	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	memset(&rec, 0, sizeof(rec));
	rec_len = swhal_last_record(&rec, sizeof(rec));
	tu_device_free(&dev);
	swhal_close();
}

/* A copy to break, and its length. */
static struct ota_record copy;
static uint32_t copy_len;

static void setup(void)
{
	copy = rec;
	copy_len = rec_len;
}

#define REFUSED(want) EXPECT(ota_record_validate(&copy, copy_len), want)

/* ---- round trip --------------------------------------------------------- */

START_TEST(test_firmware_record_validates_and_reads_back)
{
	const struct ota_record_header *h = &rec.hdr;

	ck_assert_uint_eq(rec_len, sizeof(struct ota_record_header) + 4 * sizeof(struct ota_stage_record) +
					   sizeof(struct ota_record_update));
	ck_assert_uint_eq(ota_record_validate(&rec, rec_len), OTA_OK);
	ck_assert_uint_eq(h->magic, OTA_RECORD_MAGIC);
	ck_assert_uint_eq(h->length, rec_len);
	ck_assert_uint_eq(h->stage_count, 4);
	ck_assert_uint_eq(h->boot_status, OTA_OK);
	ck_assert_uint_eq(h->reset_reason, OTA_RESET_COLD);
	ck_assert_uint_eq(h->min_svn, 4);
	ck_assert_uint_eq(h->flags, OTA_RECORD_F_TAG_BOOT_ENABLED | OTA_RECORD_F_UPDATE_SECTION);
	ck_assert_uint_gt(h->generation, 0);

	/* Attempts in the order tried: refused A, then B that booted, per stage. */
	ck_assert_uint_eq(rec.stage[0].stage, OTA_STAGE_ROM_EXT);
	ck_assert_uint_eq(rec.stage[0].slot, OTA_SLOT_A);
	ck_assert_uint_eq(rec.stage[0].status, OTA_ROOT_KEY_UNKNOWN);
	ck_assert_uint_eq(rec.stage[0].path, OTA_PATH_NONE);
	ck_assert_uint_eq(rec.stage[0].flags, 0);
	ck_assert_uint_eq(rec.stage[1].stage, OTA_STAGE_ROM_EXT);
	ck_assert_uint_eq(rec.stage[1].slot, OTA_SLOT_B);
	ck_assert_uint_eq(rec.stage[1].status, OTA_OK);
	ck_assert_uint_eq(rec.stage[1].flags, OTA_STAGE_F_BOOTED | OTA_STAGE_F_FALLBACK);
	ck_assert_mem_eq(rec.stage[1].key_ids[0], tu_key(TU_CREATOR1)->key_id, OTA_KEY_ID_BYTES);
	ck_assert_uint_eq(rec.stage[2].stage, OTA_STAGE_BL0);
	ck_assert_uint_eq(rec.stage[2].status, OTA_ROOT_KEY_UNKNOWN);
	ck_assert_uint_eq(rec.stage[3].stage, OTA_STAGE_BL0);
	ck_assert_uint_eq(rec.stage[3].slot, OTA_SLOT_B);
	ck_assert_uint_eq(rec.stage[3].path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_uint_eq(rec.stage[3].sig_scheme, OTA_SCHEME_ECDSA_P256);
	ck_assert_uint_eq(rec.stage[3].delegation_depth, 2);
	ck_assert_uint_eq(rec.stage[3].security_version, 4);
	ck_assert_mem_eq(rec.stage[3].measurement, bl0_b_measurement, OTA_SHA256_BYTES);
	ck_assert_mem_eq(rec.stage[3].key_ids[0], tu_key(TU_OWNER0)->key_id, OTA_KEY_ID_BYTES);
	ck_assert_mem_eq(rec.stage[3].key_ids[1], tu_key(TU_INTER)->key_id, OTA_KEY_ID_BYTES);
	ck_assert_mem_eq(rec.stage[3].key_ids[2], tu_key(TU_LEAF)->key_id, OTA_KEY_ID_BYTES);
	ck_assert_uint_gt(rec.stage[3].verify_time_ns, 0);
}
END_TEST

START_TEST(test_fewer_stages_is_a_shorter_record)
{
	/* Dropping the last attempts and fixing the length gives a valid record. */
	uint32_t n;

	for (n = 0; n < 4; n++) {
		copy = rec;
		copy.hdr.stage_count = n;
		/* The update section follows the last stage record kept. */
		memcpy(&copy.stage[n], ota_record_update_of(&rec), sizeof(struct ota_record_update));
		copy.hdr.length = copy_len = ota_record_length(n, copy.hdr.flags);
		REFUSED(OTA_OK);
		/* Without the update section (older firmware) it is valid too. */
		copy.hdr.flags &= ~OTA_RECORD_F_UPDATE_SECTION;
		copy.hdr.length = copy_len = ota_record_length(n, copy.hdr.flags);
		REFUSED(OTA_OK);
	}
}
END_TEST

/* ---- the header ---------------------------------------------------------- */

START_TEST(test_truncated)
{
	copy_len = sizeof(copy.hdr) - 1;
	REFUSED(OTA_RECORD_TRUNCATED);
	copy_len = 0;
	REFUSED(OTA_RECORD_TRUNCATED);
}
END_TEST

START_TEST(test_bad_magic)
{
	copy.hdr.magic ^= 0x01000000u;
	REFUSED(OTA_RECORD_BAD_MAGIC);
}
END_TEST

START_TEST(test_bad_version)
{
	copy.hdr.version = OTA_RECORD_VERSION + 1;
	REFUSED(OTA_RECORD_BAD_VERSION);
	copy.hdr.version = 0;
	REFUSED(OTA_RECORD_BAD_VERSION);
}
END_TEST

START_TEST(test_bad_header_size)
{
	copy.hdr.header_size = sizeof(copy.hdr) + 8;
	REFUSED(OTA_RECORD_BAD_LENGTH);
}
END_TEST

START_TEST(test_stage_count_out_of_range)
{
	copy.hdr.stage_count = OTA_RECORD_MAX_STAGES + 1;
	REFUSED(OTA_RECORD_BAD_STAGE_COUNT);
	copy.hdr.stage_count = 0xffffffffu; /* would wrap length * count */
	REFUSED(OTA_RECORD_BAD_STAGE_COUNT);
}
END_TEST

START_TEST(test_length_disagrees)
{
	/* The length field against the stage count... */
	copy.hdr.length -= sizeof(struct ota_stage_record);
	REFUSED(OTA_RECORD_BAD_LENGTH);
	/* ...the stage count against the length... */
	copy = rec;
	copy.hdr.stage_count = 3;
	REFUSED(OTA_RECORD_BAD_LENGTH);
	/* ...and both against the bytes given: never read past them. */
	copy = rec;
	copy_len = rec_len - 1;
	REFUSED(OTA_RECORD_BAD_LENGTH);
	copy_len = rec_len - sizeof(struct ota_stage_record);
	REFUSED(OTA_RECORD_BAD_LENGTH);
}
END_TEST

START_TEST(test_header_reserved_nonzero)
{
	copy.hdr.reserved[0] = 1;
	REFUSED(OTA_RECORD_RESERVED_NONZERO);
	copy = rec;
	copy.hdr.reserved[1] = 0x80000000u;
	REFUSED(OTA_RECORD_RESERVED_NONZERO);
}
END_TEST

START_TEST(test_header_fields_out_of_range)
{
	static const uint32_t resets[] = { 0, OTA_RESET_UPDATE + 1 };
	uint32_t i;

	for (i = 0; i < 2; i++) {
		copy = rec;
		copy.hdr.reset_reason = resets[i];
		REFUSED(OTA_RECORD_BAD_FIELD);
	}
	copy = rec;
	copy.hdr.lifecycle = OTA_LC_COUNT;
	REFUSED(OTA_RECORD_BAD_FIELD);
	copy = rec;
	copy.hdr.flags |= OTA_RECORD_F_ALL + 1;
	REFUSED(OTA_RECORD_BAD_FIELD);
	copy = rec;
	copy.hdr.min_svn = OTA_SVN_LIMIT + 1;
	REFUSED(OTA_RECORD_BAD_FIELD);
	copy = rec;
	copy.hdr.chain_max_svn = OTA_SVN_LIMIT + 1;
	REFUSED(OTA_RECORD_BAD_FIELD);
}
END_TEST

/* ---- stage records ------------------------------------------------------- */

START_TEST(test_stage_reserved_nonzero)
{
	copy.stage[3].reserved = 1;
	REFUSED(OTA_RECORD_RESERVED_NONZERO);
}
END_TEST

START_TEST(test_stage_fields_out_of_range)
{
	struct {
		size_t off;
		uint32_t bad;
	} const cases[] = {
		{ offsetof(struct ota_stage_record, stage), 0 },
		{ offsetof(struct ota_stage_record, stage), OTA_STAGE_BL0 + 1 },
		{ offsetof(struct ota_stage_record, slot), OTA_SLOT_COUNT },
		{ offsetof(struct ota_stage_record, path), OTA_PATH_MAX + 1 },
		{ offsetof(struct ota_stage_record, sig_scheme), OTA_SCHEME_HYBRID + 1 },
		{ offsetof(struct ota_stage_record, delegation_depth), OTA_MAX_DELEGATION_DEPTH + 1 },
		{ offsetof(struct ota_stage_record, security_version), OTA_SVN_LIMIT + 1 },
		{ offsetof(struct ota_stage_record, flags), OTA_STAGE_F_ALL + 1 },
	};
	uint32_t i, s;

	/* In every stage record, not only the first. */
	for (s = 0; s < rec.hdr.stage_count; s++) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			copy = rec;
			memcpy((uint8_t *)&copy.stage[s] + cases[i].off, &cases[i].bad, 4);
			ck_assert_msg(ota_record_validate(&copy, copy_len) == OTA_RECORD_BAD_FIELD,
				      "stage %u field at %zu = %u: got %s", s, cases[i].off,
				      cases[i].bad, ota_status_name(ota_record_validate(&copy, copy_len)));
		}
	}
}
END_TEST

START_TEST(test_path_reason)
{
	uint32_t r;

	/* Every reason is a valid value on a slow path... */
	for (r = 0; r <= OTA_REASON_MAX; r++) {
		copy = rec;
		copy.stage[2].path = OTA_PATH_SIGNATURE;
		copy.stage[2].path_reason = (uint16_t)r;
		REFUSED(OTA_OK);
	}
	/* ...none past the last, in any stage... */
	for (r = 0; r < rec.hdr.stage_count; r++) {
		copy = rec;
		copy.stage[r].path_reason = OTA_REASON_MAX + 1;
		REFUSED(OTA_RECORD_BAD_FIELD);
	}
	/* ...and the tag path has none: a record that says both is not taken. */
	copy = rec;
	copy.stage[2].path = OTA_PATH_TAG;
	copy.stage[2].path_reason = OTA_REASON_TAG_MISMATCH;
	REFUSED(OTA_RECORD_BAD_FIELD);
	copy.stage[2].path_reason = OTA_REASON_NONE;
	REFUSED(OTA_OK);
}
END_TEST

START_TEST(test_key_ids_past_the_chain)
{
	/* ROM_EXT B is direct: key ids 1 and 2 must be empty. */
	ck_assert_uint_eq(copy.stage[1].delegation_depth, 0);
	copy.stage[1].key_ids[2][31] = 1;
	REFUSED(OTA_RECORD_RESERVED_NONZERO);
	/* A depth lowered under its key ids is caught the same way. */
	copy = rec;
	copy.stage[3].delegation_depth = 1;
	REFUSED(OTA_RECORD_RESERVED_NONZERO);
}
END_TEST

START_TEST(test_unknown_status_codes_are_not_judged)
{
	/* A status is shown as a number, never trusted for meaning: not a field error. */
	copy.stage[0].status = 0xdeadbeefu;
	copy.hdr.boot_status = 0;
	REFUSED(OTA_OK);
}
END_TEST

START_TEST(test_bit_flips_never_crash)
{
	uint32_t bit, ok = 0;

	/* Every single-bit change is either refused or still a record that validates. */
	for (bit = 0; bit < rec_len * 8u; bit++) {
		copy = rec;
		((uint8_t *)&copy)[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		if (ota_record_validate(&copy, copy_len) == OTA_OK)
			ok++;
	}
	/* Flips in measurements, key ids and counters stay valid; flips in checked fields do not. */
	ck_assert_uint_gt(ok, 0);
	ck_assert_uint_lt(ok, rec_len * 8u);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("formats_record");
	TCase *rt = tcase_create("round_trip"), *h = tcase_create("header"),
	      *st = tcase_create("stages");

	tcase_add_unchecked_fixture(rt, build_fixture, NULL);
	tcase_add_checked_fixture(rt, setup, NULL);
	tcase_add_test(rt, test_firmware_record_validates_and_reads_back);
	tcase_add_test(rt, test_fewer_stages_is_a_shorter_record);
	suite_add_tcase(s, rt);

	tcase_add_unchecked_fixture(h, build_fixture, NULL);
	tcase_add_checked_fixture(h, setup, NULL);
	tcase_add_test(h, test_truncated);
	tcase_add_test(h, test_bad_magic);
	tcase_add_test(h, test_bad_version);
	tcase_add_test(h, test_bad_header_size);
	tcase_add_test(h, test_stage_count_out_of_range);
	tcase_add_test(h, test_length_disagrees);
	tcase_add_test(h, test_header_reserved_nonzero);
	tcase_add_test(h, test_header_fields_out_of_range);
	suite_add_tcase(s, h);

	tcase_add_unchecked_fixture(st, build_fixture, NULL);
	tcase_add_checked_fixture(st, setup, NULL);
	tcase_add_test(st, test_stage_reserved_nonzero);
	tcase_add_test(st, test_stage_fields_out_of_range);
	tcase_add_test(st, test_path_reason);
	tcase_add_test(st, test_key_ids_past_the_chain);
	tcase_add_test(st, test_unknown_status_codes_are_not_judged);
	tcase_add_test(st, test_bit_flips_never_crash);
	suite_add_tcase(s, st);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite)
