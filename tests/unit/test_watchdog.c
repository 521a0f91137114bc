// SPDX-License-Identifier: MIT
/*
 * The watchdog (qemu-model/regs/aon_timer.yaml; qemu-model/chip/aon_timer.c,
 * firmware/drivers/aon_timer.c) and what the boot does with it: the count
 * runs from the last pet, the configuration holds once locked, a count
 * past the bite threshold is due and the bite is a WARM reset that
 * WDOG_BITE_INFO names; ROM_EXT arms and locks it before every hand-off,
 * the runtime's idle step pets it, and on trial each bite uses one of the
 * trial's boots, so hangs revert a trial (reason watchdog) and a request
 * left before a bite is never served.
 */
#include <check.h>
#include <string.h>
#include <time.h>

#include <otattest/shm.h>

#include "aon_timer_regs.h"
#include "bus.h"
#include "firmware.h"
#include "fw_run.h"
#include "fwlib.h"
#include "handoff.h"
#include "hal.h"
#include "rv_timer_regs.h"
#include "swhal.h"
#include "tu_device.h"
#include "tu_main.h"
#include "tu_mbox.h"

#define WDOG(reg) (TOP_AON_TIMER_BASE_ADDR + AON_TIMER_##reg##_REG_OFFSET)

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

static uint32_t rd(uint32_t addr)
{
	uint32_t v = 0;

	ck_assert_uint_eq(chip_bus_read32(addr, &v), OTA_OK);
	return v;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* A reset with no boot after it: the watchdog as the reset leaves it. */
static void reset_only(void)
{
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(rd(WDOG(WDOG_CTRL)), 0);
	ck_assert_uint_eq(rd(WDOG(WDOG_REGWEN)), 1);
}

/* ROM_EXT armed it with its threshold and locked it; the runtime cannot disarm it. */
START_TEST(test_rom_ext_arms_and_locks)
{
	ck_assert_uint_eq(rd(WDOG(WDOG_CTRL)) & AON_TIMER_WDOG_CTRL_ENABLE_MASK, 1);
	ck_assert_uint_eq(rd(WDOG(WDOG_BITE_THOLD)), 2u * RV_TIMER_FREQ_HZ_RESVAL);
	ck_assert_uint_eq(rd(WDOG(WDOG_REGWEN)), 0);
	ck_assert_uint_eq(rd(WDOG(WDOG_BITE_INFO)), 0);
	/* The runtime's attempts: a stop, a higher threshold, a re-arm. */
	ck_assert_uint_eq(chip_bus_write32(WDOG(WDOG_CTRL), 0), OTA_OK);
	ck_assert_uint_eq(chip_bus_write32(WDOG(WDOG_BITE_THOLD), 0xffffffffu), OTA_OK);
	ck_assert_uint_eq(chip_bus_write32(WDOG(WDOG_REGWEN), 1), OTA_OK);
	ck_assert_uint_eq(hal_wdog_arm(0xffffffffu), OTA_HAL_WDOG_LOCKED);
	ck_assert_uint_eq(rd(WDOG(WDOG_CTRL)) & AON_TIMER_WDOG_CTRL_ENABLE_MASK, 1);
	ck_assert_uint_eq(rd(WDOG(WDOG_BITE_THOLD)), 2u * RV_TIMER_FREQ_HZ_RESVAL);
	ck_assert_uint_eq(rd(WDOG(WDOG_REGWEN)), 0);
}
END_TEST

/* The count runs from the last pet; the runtime's idle step is a pet. */
START_TEST(test_count_and_pet)
{
	uint32_t c;

	sleep_ms(5);
	c = rd(WDOG(WDOG_COUNT));
	ck_assert_uint_ge(c, 5u * (RV_TIMER_FREQ_HZ_RESVAL / 1000u));
	ota_runtime_idle();
	ck_assert_uint_lt(rd(WDOG(WDOG_COUNT)), c);
	ck_assert(!swhal_wdog_due());
}
END_TEST

/* Past the threshold it is due; a pet in time is not; the bite names itself. */
START_TEST(test_due_and_bite)
{
	reset_only();
	ck_assert_uint_eq(hal_wdog_arm(RV_TIMER_FREQ_HZ_RESVAL / 1000u), OTA_OK); /* 1 ms */
	ck_assert(!hal_wdog_bitten());
	sleep_ms(3);
	ck_assert(swhal_wdog_due());
	hal_wdog_pet();
	ck_assert(!swhal_wdog_due());
	sleep_ms(3);
	ck_assert(swhal_wdog_due());
	ck_assert_uint_eq(swhal_wdog_bite(), OTA_OK);
	ck_assert(hal_wdog_bitten());
	ck_assert_uint_eq(rd(WDOG(WDOG_BITE_INFO)), AON_TIMER_WDOG_BITE_INFO_BITTEN_MASK);
	ck_assert(!swhal_wdog_due()); /* the reset stopped it */
	/* Any other reset clears the note. */
	reset_only();
	ck_assert(!hal_wdog_bitten());
	/* Disabled, it never bites, whatever the count. */
	ck_assert_uint_eq(chip_bus_write32(WDOG(WDOG_BITE_THOLD), 1), OTA_OK);
	sleep_ms(1);
	ck_assert(!swhal_wdog_due());
	/* Without power nothing is due. */
	ck_assert_uint_eq(hal_wdog_arm(1), OTA_OK);
	swhal_power_off();
	ck_assert(!swhal_wdog_due());
}
END_TEST

/* What the board does when the watchdog is due: the bite, then a boot. */
static void bite_and_boot(void)
{
	ck_assert_uint_eq(swhal_wdog_bite(), OTA_OK);
	ck_assert_uint_eq(ota_fw_boot(OTA_RESET_WARM), OTA_OK);
}

static const struct ota_record_update *update_section(void)
{
	const struct ota_record *r = tu_record();

	ck_assert_uint_eq(ota_record_validate(r, r->hdr.length), OTA_OK);
	return ota_record_update_of(r);
}

/* A trial whose runtime hangs: each bite uses a boot, then the primary runs again. */
START_TEST(test_bites_revert_a_trial)
{
	uint32_t i;

	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	for (i = 2; i <= OTA_TRIAL_MAX_BOOTS; i++) {
		bite_and_boot();
		ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_B);
		ck_assert_uint_eq(update_section()->trial_boots, i);
	}
	bite_and_boot();
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
	ck_assert_uint_eq(update_section()->revert_reason, OTA_REVERT_WATCHDOG);
	ck_assert_uint_eq(update_section()->reverted_slot, OTA_SLOT_B);
	ck_assert_uint_eq(update_section()->update_state, OTA_UPDATE_IDLE);
	/* The boot after a bite armed it again. */
	ck_assert_uint_eq(rd(WDOG(WDOG_REGWEN)), 0);
	ck_assert_uint_eq(rd(WDOG(WDOG_CTRL)) & AON_TIMER_WDOG_CTRL_ENABLE_MASK, 1);
}
END_TEST

/*
 * A COMMIT left in retention RAM before a bite: the hung runtime did not
 * ask for this reset, so it is not served, and the bite costs its boot.
 */
START_TEST(test_no_request_served_on_a_bite)
{
	struct ota_boot_svc_request q;
	uint32_t i;

	ck_assert_uint_eq(tu_update_reset(OTA_SLOT_B), OTA_OK);
	for (i = 2; i <= OTA_TRIAL_MAX_BOOTS; i++)
		bite_and_boot();
	memset(&q, 0, sizeof(q));
	q.services = OTA_SVC_COMMIT;
	q.commit_slot = OTA_SLOT_B;
	ck_assert_uint_eq(boot_svc_store(&q), OTA_OK);
	bite_and_boot();
	ck_assert_uint_eq(update_section()->service_mask, 0);
	ck_assert_uint_eq(tu_boot_data().primary_slot, OTA_SLOT_A);
	ck_assert_uint_eq(ota_boot_state()->bl0_slot, OTA_SLOT_A);
	ck_assert_uint_eq(update_section()->revert_reason, OTA_REVERT_WATCHDOG);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("watchdog");
	TCase *t = tcase_create("watchdog");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 60);
	tcase_add_test(t, test_rom_ext_arms_and_locks);
	tcase_add_test(t, test_count_and_pet);
	tcase_add_test(t, test_due_and_bite);
	tcase_add_test(t, test_bites_revert_a_trial);
	tcase_add_test(t, test_no_request_served_on_a_bite);
	suite_add_tcase(s, t);
	return s;
}

OTA_TEST_MAIN(suite)
