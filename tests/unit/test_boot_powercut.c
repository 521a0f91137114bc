// SPDX-License-Identifier: MIT
/*
 * Power cuts and write failures at every flash write of a first boot (the
 * device adopting the factory's boot data, then tag updates) and of a tag
 * rotation. For each write n and each way of failing (an error
 * with the page torn, or power lost with the page torn), the next boot
 * succeeds: at worst on the slow path, never bricked. Boots then converge
 * back to the tag path, and a rotation interrupted anywhere can simply be
 * asked for again.
 */
#include <check.h>
#include <setjmp.h>
#include <string.h>

#include "fw_run.h"
#include "handoff.h"
#include "hal.h"
#include "swhal.h"
#include "tu_device.h"
#include "tu_main.h"
#include "tu_powercut.h"

static struct tu_device dev;
static void setup(void)
{
	struct tu_image_spec s;

	tu_device_init(&dev);
	tu_image_spec_init(&s, OTA_STAGE_ROM_EXT, 1);
	s.signer = TU_CREATOR1;
	s.payload_seed = 9;
	dev.slot[OTI_ROM_EXT_B] = tu_image(&s);
	dev.slot[OTI_BL0_B] = tu_bl0(2, 5, false);
}

static void teardown(void)
{
	tu_device_free(&dev);
	swhal_close();
}

static void fresh_device(void)
{
	tu_powercut_power_on(&dev);
}

/* After whatever happened: power on, boot must succeed; boots reach the tag path. */
static void must_recover(uint32_t n, const char *what, enum swhal_fault kind)
{
	ota_status_t st;
	int i;

	swhal_fault_flash(0, SWHAL_FAULT_NONE);
	ck_assert_int_eq(swhal_power_on(), 0);
	st = ota_fw_boot(OTA_RESET_COLD);
	ck_assert_msg(st == OTA_OK, "%s: fault %d at write %u: next boot %s", what, kind, n,
		      ota_status_name(st));
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(swhal_power_on(), 0);
		ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	}
	ck_assert_msg(tu_booted(OTA_STAGE_BL0)->path == OTA_PATH_TAG &&
			      tu_booted(OTA_STAGE_ROM_EXT)->path == OTA_PATH_TAG,
		      "%s: fault at write %u: boots never got back to the tag path", what, n);
}

static uint64_t writes_of_first_boot(void)
{
	uint64_t w;

	fresh_device();
	w = swhal_flash_writes();
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	return swhal_flash_writes() - w;
}

static void cut_every_tag_update_write(enum swhal_fault kind)
{
	uint64_t total = writes_of_first_boot(), n;

	/*
	 * The boot data made the device's own (docs/boot-flow.md), then
	 * ROM_EXT's tag and BL0's tag: an erase and a program each; then the
	 * identity log's header (a program; keychain.md).
	 */
	ck_assert_uint_eq(total, 7);
	for (n = 1; n <= total; n++) {
		uint32_t before = tu_cuts;

		fresh_device();
		swhal_fault_flash((uint32_t)n, kind);
		if (setjmp(tu_cut) == 0) {
			ota_status_t st = ota_fw_boot(OTA_RESET_COLD);

			/* A failed adoption or tag write costs that, never the boot. */
			ck_assert_uint_eq(kind, SWHAL_FAULT_WRITE_ERROR);
			ck_assert_uint_eq(st, OTA_OK);
			/* The identity log's header, the last write, is made whatever failed before it. */
			ck_assert_uint_eq(swhal_flash_writes(),
					  n == total ? n : n <= 2 ? n + 5 : n + (n <= 4 ? 3 : 1));
		}
		tu_fault_fired(kind, before);
		must_recover((uint32_t)n, "tag update", kind);
	}
}

START_TEST(test_tag_update_write_errors)
{
	cut_every_tag_update_write(SWHAL_FAULT_WRITE_ERROR);
}
END_TEST

START_TEST(test_tag_update_power_cuts)
{
	cut_every_tag_update_write(SWHAL_FAULT_POWER_LOSS);
}
END_TEST

START_TEST(test_failed_tag_write_is_recorded_as_untagged)
{
	fresh_device();
	swhal_fault_flash(4, SWHAL_FAULT_WRITE_ERROR); /* the program of ROM_EXT's tag table */
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	/* Not claimed as re-tagged when the write did not land... */
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path, OTA_PATH_SIGNATURE);
	/* ...and ROM_EXT's entry was carried into BL0's successful write. */
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_SIGNATURE_RETAGGED);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path, OTA_PATH_TAG);
}
END_TEST

/* A tagged device, ready for a rotation. */
static void tagged_device(void)
{
	fresh_device();
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
}

/* Not inlined: its checks would sit next to the caller's setjmp. */
__attribute__((noinline)) static uint64_t writes_of_rotation(void)
{
	struct ota_resp_rotate out;
	uint64_t w, o;

	tagged_device();
	w = swhal_flash_writes();
	o = swhal_otp_programs();
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	/* One OTP program: the key version's bit, before the boot data copy. */
	ck_assert_uint_eq(swhal_otp_programs() - o, 1);
	return swhal_flash_writes() - w;
}

static void cut_every_rotation_write(enum swhal_fault kind)
{
	uint64_t total = writes_of_rotation(), n;
	struct ota_resp_rotate out;

	/* ROM's tag table, ROM_EXT's tag table, the boot data copy (after the OTP bit). */
	ck_assert_uint_eq(total, 6);
	for (n = 1; n <= total; n++) {
		uint32_t before = tu_cuts;

		tagged_device();
		swhal_fault_flash((uint32_t)n, kind);
		if (setjmp(tu_cut) == 0) {
			ota_status_t st = ota_fw_rotate_tags(&out);

			ck_assert_uint_eq(kind, SWHAL_FAULT_WRITE_ERROR);
			/*
			 * The device runs; the rotation committed or it did not, and
			 * says which: a tag table write failed before the OTP bit, a
			 * boot data copy write after it (the rotation stands).
			 */
			ck_assert_uint_eq(ota_boot_state()->boot_status, OTA_OK);
			if (n > 4)
				ck_assert_uint_eq(st, OTA_OK);
			ck_assert_uint_eq(out.new_key_version, st == OTA_OK ? 1 : 0);
			ck_assert_uint_eq(tu_record()->hdr.tag_key_version, out.new_key_version);
		}
		tu_fault_fired(kind, before);
		must_recover((uint32_t)n, "rotation", kind);
		/* Asking again completes it. */
		if (tu_record()->hdr.tag_key_version == 0) {
			ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
			ck_assert_uint_eq(out.new_key_version, 1);
		}
		ck_assert_int_eq(swhal_power_on(), 0);
		ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
		ck_assert_uint_eq(tu_record()->hdr.tag_key_version, 1);
		ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
	}
}

/*
 * The rotation's OTP program (its key version's bit, after both tag
 * tables and before the boot data copy): power lost right after it, the
 * rotation has committed - the next boots use the new version, on the tag
 * path, though the copy still names the old one (issue 28 item 3).
 */
static void rotate(void)
{
	struct ota_resp_rotate out;

	(void)ota_fw_rotate_tags(&out);
}

START_TEST(test_rotation_otp_power_cut)
{
	struct ota_resp_rotate out;
	uint64_t w;

	tagged_device();
	w = swhal_flash_writes();
	tu_cut_after_otp_program(1, rotate);
	ck_assert_uint_eq(swhal_flash_writes() - w, 4); /* both tag tables, no boot data copy */
	must_recover(1, "rotation OTP", SWHAL_FAULT_POWER_LOSS);
	ck_assert_uint_eq(tu_boot_data().tag_key_version, 0);
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, 1);
	ck_assert_uint_eq(tu_booted(OTA_STAGE_ROM_EXT)->path, OTA_PATH_TAG);
	/* The next rotation goes on from there. */
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	ck_assert_uint_eq(out.new_key_version, 2);
	ck_assert_uint_eq(tu_boot_data().tag_key_version, 2);
}
END_TEST

START_TEST(test_rotation_write_errors)
{
	cut_every_rotation_write(SWHAL_FAULT_WRITE_ERROR);
}
END_TEST

START_TEST(test_rotation_power_cuts)
{
	cut_every_rotation_write(SWHAL_FAULT_POWER_LOSS);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("boot_powercut");
	TCase *t = tcase_create("powercut");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 120);
	tcase_add_test(t, test_tag_update_write_errors);
	tcase_add_test(t, test_tag_update_power_cuts);
	tcase_add_test(t, test_failed_tag_write_is_recorded_as_untagged);
	tcase_add_test(t, test_rotation_write_errors);
	tcase_add_test(t, test_rotation_power_cuts);
	tcase_add_test(t, test_rotation_otp_power_cut);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite)
