// SPDX-License-Identifier: MIT
/*
 * The firmware's drivers (firmware/drivers/) over the chip's registers,
 * through the host MMIO backend (qemu-model/chip/mmio_host.c): each
 * converted block keeps every rule its hal.h call had, and the register
 * is the mechanism (a store a core makes to it does what the call does).
 */
#include <check.h>

#include "bus.h"
#include "hal.h"
#include "rstmgr_regs.h"
#include "swhal.h"
#include "testutil.h"
#include "tu_main.h"

#define RSTMGR(reg) (TOP_RSTMGR_BASE_ADDR + RSTMGR_##reg##_REG_OFFSET)

static void setup(void)
{
	tu_hal_open_memory(4 * 2048);
}

static void teardown(void)
{
	tu_hal_close();
}

static uint32_t rd(uint32_t addr)
{
	uint32_t v = 0xdeadbeef;

	ck_assert_uint_eq(chip_bus_read32(addr, &v), OTA_OK);
	return v;
}

/* A reset request is RESET_REQ; the board takes it, RESET_INFO says why the core restarted. */
START_TEST(reset_request_is_the_register)
{
	uint32_t reason = 0;

	ck_assert_uint_eq(rd(RSTMGR(RESET_INFO)), OTA_RESET_COLD);
	ck_assert_uint_eq(hal_reset_request(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(rd(RSTMGR(RESET_REQ)), OTA_RESET_WARM);
	ck_assert_uint_eq(rd(RSTMGR(ERR_CODE)), OTA_OK);
	ck_assert(swhal_reset_take(&reason));
	ck_assert_uint_eq(reason, OTA_RESET_WARM);
	ck_assert_uint_eq(swhal_reset(reason), OTA_OK);
	ck_assert_uint_eq(rd(RSTMGR(RESET_INFO)), OTA_RESET_WARM);
	ck_assert_uint_eq(rd(RSTMGR(RESET_REQ)), 0);
	ck_assert(!swhal_reset_take(&reason));
	/* A core's store does what the call does. */
	ck_assert_uint_eq(chip_bus_write32(RSTMGR(RESET_REQ), OTA_RESET_UPDATE), OTA_OK);
	ck_assert(swhal_reset_take(&reason));
	ck_assert_uint_eq(reason, OTA_RESET_UPDATE);
	ck_assert_uint_eq(swhal_reset(reason), OTA_OK);
	ck_assert_uint_eq(rd(RSTMGR(RESET_INFO)), OTA_RESET_UPDATE);
}
END_TEST

/* Unknown reasons are refused whole, even when the field's bits alone would name one. */
START_TEST(unknown_reasons_are_refused)
{
	static const uint32_t bad[] = { 0, 4, 0xf, 0x12, 0x80000003u, 0xffffffffu };
	uint32_t i, reason;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(hal_reset_request(bad[i]) == OTA_HAL_BAD_ARGUMENT, "reason 0x%x", bad[i]);
		ck_assert_uint_eq(rd(RSTMGR(ERR_CODE)), OTA_HAL_BAD_ARGUMENT);
		ck_assert_uint_eq(rd(RSTMGR(RESET_REQ)), 0);
		ck_assert(!swhal_reset_take(&reason));
	}
	/* a good request after a refusal clears the error */
	ck_assert_uint_eq(hal_reset_request(OTA_RESET_UPDATE), OTA_OK);
	ck_assert_uint_eq(rd(RSTMGR(ERR_CODE)), OTA_OK);
}
END_TEST

START_TEST(no_request_without_power)
{
	uint32_t reason;

	swhal_power_off();
	ck_assert_uint_eq(hal_reset_request(OTA_RESET_WARM), OTA_HAL_POWER_LOST);
	ck_assert(!swhal_reset_take(&reason));
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(rd(RSTMGR(RESET_INFO)), OTA_RESET_COLD);
	ck_assert_uint_eq(hal_reset_request(OTA_RESET_WARM), OTA_OK);
}
END_TEST

static Suite *drivers_suite(void)
{
	Suite *s = suite_create("drivers");
	TCase *tc = tcase_create("rstmgr");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, reset_request_is_the_register);
	tcase_add_test(tc, unknown_reasons_are_refused);
	tcase_add_test(tc, no_request_without_power);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(drivers_suite)
