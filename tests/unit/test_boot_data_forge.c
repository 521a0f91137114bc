// SPDX-License-Identifier: MIT
/*
 * Issue 13, finding 1: whoever can write flash must not be able to change
 * what the boot data makes the device trust. Each attack writes a copy
 * that passes the integrity digest every tool can compute, with a higher
 * counter than the device's own, into the copy the device would write
 * next - and changes nothing: a rotation is not rolled back, soft floors
 * stay, the tag key version is not pinned, the primary slot is not
 * chosen. An authentic older copy written back is taken (it is the
 * device's own) but lowers nothing: floors and the tag key version are
 * held in OTP (issue 28 item 3).
 */
#include <check.h>
#include <string.h>

#include <otattest/flash.h>

#include "fw_run.h"
#include "handoff.h"
#include "hal.h"
#include "swhal.h"
#include "tu_device.h"
#include "tu_main.h"
#include "tu_mbox.h"

static struct tu_device dev;

static void setup(void)
{
	tu_device_init(&dev);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
}

static void teardown(void)
{
	tu_device_free(&dev);
	swhal_close();
}

static void read_copies(struct ota_boot_data c[2])
{
	ck_assert_int_eq(swhal_peek_flash(tu_region(OTA_REGION_BOOT_DATA_0)->offset, &c[0],
					  sizeof(c[0])), 0);
	ck_assert_int_eq(swhal_peek_flash(tu_region(OTA_REGION_BOOT_DATA_1)->offset, &c[1],
					  sizeof(c[1])), 0);
}

static void write_copy(int index, const struct ota_boot_data *bd)
{
	uint8_t page[OTA_FLASH_PAGE_SIZE];

	memset(page, 0xff, sizeof(page));
	memcpy(page, bd, sizeof(*bd));
	ck_assert_int_eq(swhal_poke_flash(tu_region(OTA_REGION_BOOT_DATA_0 + (uint32_t)index)->offset,
					  page, sizeof(page)), 0);
}

/*
 * The attacker's copy: the device's own with `edit` applied, a newer
 * counter, and seals anyone can make - the integrity digest, and a MAC
 * that is either zero (as the factory writes) or made up.
 */
static void forge(void (*edit)(struct ota_boot_data *), bool zero_mac)
{
	struct ota_boot_data c[2], f;
	int cur;

	read_copies(c);
	cur = ota_boot_data_pick(c, NULL);
	ck_assert_int_ge(cur, 0);
	f = c[cur];
	f.counter += 7;
	edit(&f);
	if (zero_mac)
		memset(f.mac, 0, sizeof(f.mac));
	else
		f.mac[0] ^= 0x5a;
	ota_boot_data_seal(&f);
	ck_assert_uint_eq(ota_boot_data_check(&f), OTA_OK); /* it passes every host check */
	write_copy(cur ^ 1, &f);
}

static void cold_boot(ota_status_t want)
{
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), want);
}

static void version_zero(struct ota_boot_data *bd)
{
	bd->tag_key_version = 0;
}

static void version_max(struct ota_boot_data *bd)
{
	bd->tag_key_version = UINT32_MAX;
}

static void floors_zero(struct ota_boot_data *bd)
{
	bd->floor_bl0 = 0;
	bd->floor_rom_ext = 0;
}

static void primary_b(struct ota_boot_data *bd)
{
	bd->primary_slot = OTA_SLOT_B;
}

START_TEST(test_forged_copy_cannot_roll_back_a_rotation)
{
	struct ota_resp_rotate out;

	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	ck_assert_uint_eq(out.new_key_version, 1);
	forge(version_zero, _i == 0);
	cold_boot(OTA_OK);
	/* Tags under the stolen version-0 key would match again; they do not. */
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, 1);
}
END_TEST

START_TEST(test_forged_copy_cannot_pin_the_key_version)
{
	struct ota_resp_rotate out;

	forge(version_max, _i == 0);
	cold_boot(OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, 0);
	/* Rotation still works: the version was not pinned at its maximum. */
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	ck_assert_uint_eq(out.new_key_version, 1);
}
END_TEST

START_TEST(test_forged_copy_cannot_drop_the_soft_floors)
{
	struct ota_boot_data bd;

	/* A PROD device whose soft floor (6) refuses its SVN-5 BL0 in A... */
	tu_device_free(&dev);
	swhal_close();
	tu_device_init(&dev);
	dev.lifecycle = OTA_LC_PROD;
	dev.slot[OTI_BL0_B] = tu_bl0(1, 6, false);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	bd = tu_boot_data();
	bd.floor_bl0 = 6;
	bd.counter += 1;
	tu_boot_data_write(&bd);
	cold_boot(OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.floor_bl0, 6);
	/* ...still refuses it once only the SVN-5 image is left, forged floors or not. */
	tu_device_write_slot(OTI_BL0_B, &(struct tu_blob){ 0 });
	forge(floors_zero, _i == 0);
	cold_boot(OTA_NO_BOOTABLE_SLOT);
	ck_assert_uint_eq(tu_record()->hdr.floor_bl0, 6);
	ck_assert_uint_eq(tu_attempt(OTA_STAGE_BL0, OTA_SLOT_A)->status, OTA_SVN_BELOW_FLOOR);
}
END_TEST

START_TEST(test_forged_copy_cannot_choose_the_slot)
{
	/* A and B hold the same SVN: the primary slot decides, and it stays A. */
	tu_device_free(&dev);
	swhal_close();
	tu_device_init(&dev);
	dev.slot[OTI_BL0_B] = tu_bl0(2, 5, false);
	tu_device_power_on(&dev);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_COLD), OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
	forge(primary_b, _i == 0);
	cold_boot(OTA_OK);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
}
END_TEST

/*
 * The device's own copies from before a rotation, written back by a
 * flash programmer: into one copy the newer one still wins; into both
 * they are taken - they are authentic, and only the primary slot is
 * theirs to say - but the key version is OTP's and stays (issue 28 item
 * 3). The old code refused them by the anchor and the device did not
 * boot; a cut before that anchor left them taken, rotation undone
 * (test_update_powercut test_adversarial_cut_rotation).
 */
START_TEST(test_authentic_old_copy_does_not_undo_a_rotation)
{
	struct ota_boot_data before[2];
	struct ota_resp_rotate out;

	read_copies(before);
	ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_OK);
	write_copy(0, &before[0]);
	cold_boot(OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, 1);
	write_copy(0, &before[0]);
	write_copy(1, &before[1]);
	cold_boot(OTA_OK);
	ck_assert_uint_eq(tu_boot_data().tag_key_version, 0); /* the old copy is in use... */
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, 1); /* ...and the version stays */
	ck_assert_uint_eq(tu_booted(OTA_STAGE_BL0)->path, OTA_PATH_TAG);
}
END_TEST

/* Likewise for a ratchet: the copies from before it written back, the floor stays. */
START_TEST(test_authentic_copy_from_before_a_ratchet_does_not_lower_the_floor)
{
	struct ota_boot_data before[2];

	read_copies(before);
	ck_assert_uint_eq(tu_ratchet_flags(OTA_STAGE_BL0, 5, OTA_RATCHET_F_FORCE), OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.floor_bl0, 5);
	write_copy(0, &before[0]);
	write_copy(1, &before[1]);
	cold_boot(OTA_OK);
	ck_assert_uint_eq(tu_boot_data().floor_bl0, 0);
	ck_assert_uint_eq(tu_record()->hdr.floor_bl0, 5);
	ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 5);
}
END_TEST

/*
 * A copy older firmware wrote holds floors and a key version OTP does not
 * (they lived in the copy then): the first boot takes them into OTP, so
 * the copy from before them, written back, lowers nothing. A version
 * past OTP's thermometer fills it, stays in force from the copy, and no
 * rotation is left.
 */
START_TEST(test_copy_from_older_firmware_is_taken_into_otp)
{
	struct ota_boot_data before[2], legacy;
	struct ota_resp_rotate out;
	const uint32_t version = _i == 0 ? 3 : OTA_OTP_TAG_KEY_VERSION_BITS + 44;

	read_copies(before);
	legacy = tu_boot_data();
	legacy.tag_key_version = version;
	legacy.floor_bl0 = 5;
	legacy.counter += 1;
	tu_boot_data_write(&legacy);
	cold_boot(OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, version);
	ck_assert_uint_eq(tu_record()->hdr.floor_bl0, 5);
	ck_assert_uint_eq(ota_boot_state()->otp.floor_bl0, 5);
	ck_assert_uint_eq(ota_boot_state()->otp.tag_key_version,
			  _i == 0 ? version : OTA_OTP_TAG_KEY_VERSION_BITS);
	if (_i == 0) {
		/* The copies from before, written back: nothing comes down. */
		write_copy(0, &before[0]);
		write_copy(1, &before[1]);
		cold_boot(OTA_OK);
		ck_assert_uint_eq(tu_record()->hdr.tag_key_version, version);
		ck_assert_uint_eq(tu_record()->hdr.floor_bl0, 5);
	} else {
		ck_assert_uint_eq(ota_fw_rotate_tags(&out), OTA_TAG_KEY_VERSION_OTP_FULL);
		ck_assert_uint_eq(tu_record()->hdr.tag_key_version, version);
	}
}
END_TEST

/*
 * A copy below the OTP anchor - one older firmware wrote before its last
 * anchored change, when the copy still held the floors - is refused, even
 * authentic: with both copies such, the device does not boot on them.
 */
START_TEST(test_copy_below_the_anchor_is_refused)
{
	struct ota_boot_data old = tu_boot_data();

	ck_assert_uint_eq(ota_boot_state()->otp.boot_data_anchor, 1);
	ck_assert_uint_eq(old.anchor_counter, 1);
	old.anchor_counter = 0;
	old.counter += 5;
	tu_boot_data_write(&old);
	cold_boot(OTA_BOOT_DATA_ROLLED_BACK);
	ck_assert_uint_eq(tu_record()->hdr.stage_count, 0);
}
END_TEST

START_TEST(test_factory_copy_is_taken_once)
{
	struct ota_boot_data c[2];

	/* The first boot made the factory's copy the device's own... */
	read_copies(c);
	ck_assert(!ota_boot_data_is_factory(&c[ota_boot_data_pick(c, NULL)]));
	ck_assert_uint_ge(tu_record()->hdr.boot_data_counter, 2);
	/* ...so a factory-style copy (no MAC) is no longer taken, whatever its counter. */
	forge(version_max, true);
	cold_boot(OTA_OK);
	ck_assert_uint_eq(tu_record()->hdr.tag_key_version, 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("boot_data_forge");
	TCase *t = tcase_create("forge");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 60);
	/* _i 0: the forged MAC is zero (a factory copy's); 1: made up. */
	tcase_add_loop_test(t, test_forged_copy_cannot_roll_back_a_rotation, 0, 2);
	tcase_add_loop_test(t, test_forged_copy_cannot_pin_the_key_version, 0, 2);
	tcase_add_loop_test(t, test_forged_copy_cannot_drop_the_soft_floors, 0, 2);
	tcase_add_loop_test(t, test_forged_copy_cannot_choose_the_slot, 0, 2);
	tcase_add_test(t, test_authentic_old_copy_does_not_undo_a_rotation);
	tcase_add_test(t, test_authentic_copy_from_before_a_ratchet_does_not_lower_the_floor);
	/* _i 0: a key version OTP holds; 1: one past its thermometer. */
	tcase_add_loop_test(t, test_copy_from_older_firmware_is_taken_into_otp, 0, 2);
	tcase_add_test(t, test_copy_below_the_anchor_is_refused);
	tcase_add_test(t, test_factory_copy_is_taken_once);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN_PREPARED(tu_keys_warm(false), suite)
