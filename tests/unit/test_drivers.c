// SPDX-License-Identifier: MIT
/*
 * The firmware's drivers (firmware/drivers/) over the chip's registers,
 * through the host MMIO backend (qemu-model/chip/mmio_host.c): each
 * converted block keeps every rule its hal.h call had, and the register
 * is the mechanism (a store a core makes to it does what the call does).
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "bus.h"
#include <otattest/otp.h>
#include <otattest/shm.h>

#include "hal.h"
#include "entropy_src_regs.h"
#include "mbox_regs.h"
#include "otp_ctrl_regs.h"
#include "sram_ctrl_ret_regs.h"
#include "rom_ctrl_regs.h"
#include "rstmgr_regs.h"
#include "rv_timer_regs.h"
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

/* A reset request is RESET_REQ; the board takes it, RESET_INFO says why the core restarted. */
START_TEST(reset_request_is_the_register)
{
	uint32_t reason = 0;

	ck_assert_uint_eq(tu_bus_rd(RSTMGR(RESET_INFO)), OTA_RESET_COLD);
	ck_assert_uint_eq(hal_reset_request(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(RSTMGR(RESET_REQ)), OTA_RESET_WARM);
	ck_assert_uint_eq(tu_bus_rd(RSTMGR(ERR_CODE)), OTA_OK);
	ck_assert(swhal_reset_take(&reason));
	ck_assert_uint_eq(reason, OTA_RESET_WARM);
	ck_assert_uint_eq(swhal_reset(reason), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(RSTMGR(RESET_INFO)), OTA_RESET_WARM);
	ck_assert_uint_eq(tu_bus_rd(RSTMGR(RESET_REQ)), 0);
	ck_assert(!swhal_reset_take(&reason));
	/* A core's store does what the call does. */
	ck_assert_uint_eq(chip_bus_write32(RSTMGR(RESET_REQ), OTA_RESET_UPDATE), OTA_OK);
	ck_assert(swhal_reset_take(&reason));
	ck_assert_uint_eq(reason, OTA_RESET_UPDATE);
	ck_assert_uint_eq(swhal_reset(reason), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(RSTMGR(RESET_INFO)), OTA_RESET_UPDATE);
}
END_TEST

/* Unknown reasons are refused whole, even when the field's bits alone would name one. */
START_TEST(unknown_reasons_are_refused)
{
	static const uint32_t bad[] = { 0, 4, 0xf, 0x12, 0x80000003u, 0xffffffffu };
	uint32_t i, reason;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(hal_reset_request(bad[i]) == OTA_HAL_BAD_ARGUMENT, "reason 0x%x", bad[i]);
		ck_assert_uint_eq(tu_bus_rd(RSTMGR(ERR_CODE)), OTA_HAL_BAD_ARGUMENT);
		ck_assert_uint_eq(tu_bus_rd(RSTMGR(RESET_REQ)), 0);
		ck_assert(!swhal_reset_take(&reason));
	}
	/* a good request after a refusal clears the error */
	ck_assert_uint_eq(hal_reset_request(OTA_RESET_UPDATE), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(RSTMGR(ERR_CODE)), OTA_OK);
}
END_TEST

START_TEST(no_request_without_power)
{
	uint32_t reason;

	swhal_power_off();
	ck_assert_uint_eq(hal_reset_request(OTA_RESET_WARM), OTA_HAL_POWER_LOST);
	ck_assert(!swhal_reset_take(&reason));
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(tu_bus_rd(RSTMGR(RESET_INFO)), OTA_RESET_COLD);
	ck_assert_uint_eq(hal_reset_request(OTA_RESET_WARM), OTA_OK);
}
END_TEST

#define ENTROPY(reg) (TOP_ENTROPY_SRC_BASE_ADDR + ENTROPY_SRC_##reg##_REG_OFFSET)

/* The TRNG: words from ENTROPY_DATA; refusals leave nothing random behind. */
START_TEST(trng_is_entropy_data)
{
	uint8_t a[37], b[37], zero[37] = { 0 };
	uint32_t w1, w2;

	ck_assert_uint_eq(hal_trng_fill(a, sizeof(a)), OTA_OK);
	ck_assert_uint_eq(hal_trng_fill(b, sizeof(b)), OTA_OK);
	ck_assert(memcmp(a, b, sizeof(a)) != 0);
	ck_assert(memcmp(a + 32, zero, 5) != 0 || memcmp(b + 32, zero, 5) != 0);
	ck_assert_uint_eq(hal_trng_fill(NULL, 0), OTA_OK);
	ck_assert_uint_eq(hal_trng_fill(NULL, 4), OTA_HAL_BAD_ARGUMENT);
	/* a core's reads */
	w1 = tu_bus_rd(ENTROPY(ENTROPY_DATA));
	w2 = tu_bus_rd(ENTROPY(ENTROPY_DATA));
	ck_assert(w1 != w2 || tu_bus_rd(ENTROPY(ENTROPY_DATA)) != w1);
	/* a disabled source fails its reads until re-enabled; the driver re-enables it */
	ck_assert_uint_eq(chip_bus_write32(ENTROPY(CONF), 0), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(ENTROPY(ENTROPY_DATA)), 0);
	ck_assert_uint_eq(tu_bus_rd(ENTROPY(ERR_CODE)), OTA_HAL_CRYPTO_FAILED);
	ck_assert_uint_eq(tu_bus_rd(ENTROPY(STATUS)), ENTROPY_SRC_STATUS_ERROR_MASK);
	ck_assert_uint_eq(hal_trng_fill(a, sizeof(a)), OTA_OK);
	/* no power: POWER_LOST and a buffer with nothing in it */
	swhal_power_off();
	memset(a, 0x5a, sizeof(a));
	ck_assert_uint_eq(hal_trng_fill(a, sizeof(a)), OTA_HAL_POWER_LOST);
	ck_assert_mem_eq(a, zero, sizeof(a));
}
END_TEST

#define TIMER(reg) (TOP_RV_TIMER_BASE_ADDR + RV_TIMER_##reg##_REG_OFFSET)

/* The timer: MTIME counts the 100 MHz nominal clock; LOW latches HIGH. */
START_TEST(timer_is_mtime)
{
	uint64_t c0 = hal_cycles(), t0 = hal_time_ns(), c1, t1;
	uint32_t lo, hi;

	ck_assert_uint_eq(tu_bus_rd(TIMER(FREQ_HZ)), 100000000u);
	while (hal_time_ns() - t0 < 2000000u)
		;
	c1 = hal_cycles();
	t1 = hal_time_ns();
	ck_assert_uint_ge(c1 - c0, 200000u - 1u);
	ck_assert_uint_ge(t1 - t0, 2000000u - 10u);
	ck_assert_uint_eq(t1 % 10u, 0);
	lo = tu_bus_rd(TIMER(MTIME_LOW));
	hi = tu_bus_rd(TIMER(MTIME_HIGH));
	ck_assert_uint_ge((uint64_t)hi << 32 | lo, c1);
	/* the high word stays as latched until the next low read */
	ck_assert_uint_eq(tu_bus_rd(TIMER(MTIME_HIGH)), hi);
}
END_TEST

/* The ROM identity is rom_ctrl's DIGEST, whatever ROM the chip emulates. */
START_TEST(rom_identity_is_the_digest)
{
	uint8_t want[OTA_SHA256_BYTES], got[OTA_SHA256_BYTES];
	uint32_t i;

	swhal_default_rom_identity(want);
	hal_rom_identity(got);
	ck_assert_mem_eq(got, want, sizeof(got));
	for (i = 0; i < sizeof(want); i++)
		want[i] = (uint8_t)(0xa0 + i);
	swhal_set_rom_identity(want);
	hal_rom_identity(got);
	ck_assert_mem_eq(got, want, sizeof(got));
	ck_assert_uint_eq(tu_bus_rd(TOP_ROM_CTRL_BASE_ADDR + ROM_CTRL_DIGEST_REG_OFFSET(1)), 0xa7a6a5a4u);
}
END_TEST

#define RET(reg) (TOP_SRAM_CTRL_RET_BASE_ADDR + SRAM_CTRL_RET_##reg##_REG_OFFSET)
#define OTPC(reg) (TOP_OTP_CTRL_BASE_ADDR + OTP_CTRL_##reg##_REG_OFFSET)

/* The vault lock is VAULT_LOCK: set by the driver or a core's store, cleared only by a reset. */
START_TEST(vault_lock_is_the_register)
{
	uint8_t b = 1;

	ck_assert_uint_eq(hal_retention_write(0, &b, 1), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(RET(STATUS)) & SRAM_CTRL_RET_STATUS_VAULT_LOCKED_MASK, 0);
	ck_assert_uint_eq(hal_retention_lock(), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(RET(VAULT_LOCK)), 1);
	ck_assert_uint_eq(tu_bus_rd(RET(STATUS)) & SRAM_CTRL_RET_STATUS_VAULT_LOCKED_MASK,
			  SRAM_CTRL_RET_STATUS_VAULT_LOCKED_MASK);
	ck_assert_uint_eq(hal_retention_write(0, &b, 1), OTA_HAL_RETENTION_LOCKED);
	ck_assert_uint_eq(hal_retention_write(HAL_RETENTION_VAULT_BYTES, &b, 1), OTA_OK);
	/* a 0 written does not unlock; a warm reset does */
	ck_assert_uint_eq(chip_bus_write32(RET(VAULT_LOCK), 0), OTA_OK);
	ck_assert_uint_eq(hal_retention_write(0, &b, 1), OTA_HAL_RETENTION_LOCKED);
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(RET(VAULT_LOCK)), 0);
	ck_assert_uint_eq(hal_retention_write(0, &b, 1), OTA_OK);
	/* a core's store locks it as the call does */
	ck_assert_uint_eq(chip_bus_write32(RET(VAULT_LOCK), 1), OTA_OK);
	ck_assert_uint_eq(hal_retention_write(0, &b, 1), OTA_HAL_RETENTION_LOCKED);
	/* without power the lock does not take */
	swhal_power_off();
	ck_assert_uint_eq(hal_retention_lock(), OTA_HAL_POWER_LOST);
	ck_assert_uint_eq(tu_bus_rd(RET(VAULT_LOCK)), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(hal_retention_write(0, &b, 1), OTA_OK);
}
END_TEST

/* The OTP counters lock is COUNTERS_LOCK, the same way; the lab programmer is not held by it. */
START_TEST(otp_counters_lock_is_the_register)
{
	uint8_t one = 1;
	uint32_t off = OTA_OTP_COUNTERS_START;

	ck_assert_uint_eq(hal_otp_lock_counters(), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(OTPC(COUNTERS_LOCK)), 1);
	ck_assert_uint_eq(tu_bus_rd(OTPC(ERR_CODE)), OTA_OK);
	ck_assert_uint_eq(hal_otp_program(off, &one, 1), OTA_HAL_OTP_COUNTERS_LOCKED);
	ck_assert_uint_eq(chip_bus_write32(OTPC(COUNTERS_LOCK), 0), OTA_OK);
	ck_assert_uint_eq(hal_otp_program(off, &one, 1), OTA_HAL_OTP_COUNTERS_LOCKED);
	swhal_external_programmer(true);
	ck_assert_uint_eq(hal_otp_program(off, &one, 1), OTA_OK);
	swhal_external_programmer(false);
	ck_assert_uint_eq(swhal_reset(OTA_RESET_UPDATE), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(OTPC(COUNTERS_LOCK)), 0);
	ck_assert_uint_eq(hal_otp_program(off, &one, 1), OTA_OK);
	swhal_power_off();
	ck_assert_uint_eq(hal_otp_lock_counters(), OTA_HAL_POWER_LOST);
	ck_assert_uint_eq(tu_bus_rd(OTPC(COUNTERS_LOCK)), 0);
}
END_TEST

#define MBOX(reg) (TOP_MBOX_BASE_ADDR + MBOX_##reg##_REG_OFFSET)

/*
 * State and progress are mbox registers published by DOORBELL.EVENT: the
 * driver's calls reach the host as before; registers written but not rung
 * publish nothing; a ring publishes only the pairs written since the last
 * one; nothing without power, and a reset forgets what was not rung.
 */
START_TEST(state_and_progress_are_mbox_registers)
{
	uint32_t s, d;

	hal_host_set_state(OTA_DEV_ROTATING, OTA_OK);
	swhal_last_state(&s, &d);
	ck_assert_uint_eq(s, OTA_DEV_ROTATING);
	ck_assert_uint_eq(d, OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(MBOX(STATE)), OTA_DEV_ROTATING);
	hal_host_progress(2, 5);
	swhal_last_progress(&s, &d);
	ck_assert_uint_eq(s, 2);
	ck_assert_uint_eq(d, 5);

	/* Written, not rung: the host still sees the last publication. */
	ck_assert_uint_eq(chip_bus_write32(MBOX(STATE), OTA_DEV_FAILED), OTA_OK);
	ck_assert_uint_eq(chip_bus_write32(MBOX(STATE_DETAIL), OTA_HAL_BAD_ARGUMENT), OTA_OK);
	swhal_last_state(&s, &d);
	ck_assert_uint_eq(s, OTA_DEV_ROTATING);
	/* The ring publishes the state; progress was not written since, so it stays. */
	ck_assert_uint_eq(chip_bus_write32(MBOX(PROGRESS_DONE), 9), OTA_OK);
	ck_assert_uint_eq(chip_bus_write32(MBOX(DOORBELL), MBOX_DOORBELL_RESPONSE_MASK), OTA_OK);
	swhal_last_state(&s, &d);
	ck_assert_uint_eq(s, OTA_DEV_ROTATING); /* RESPONSE is not EVENT */
	ck_assert_uint_eq(chip_bus_write32(MBOX(DOORBELL), MBOX_DOORBELL_EVENT_MASK), OTA_OK);
	swhal_last_state(&s, &d);
	ck_assert_uint_eq(s, OTA_DEV_FAILED);
	ck_assert_uint_eq(d, OTA_HAL_BAD_ARGUMENT);
	swhal_last_progress(&s, &d);
	ck_assert_uint_eq(s, 9);
	ck_assert_uint_eq(d, 5);

	/* A reset forgets unrung writes; power lost publishes nothing. */
	ck_assert_uint_eq(chip_bus_write32(MBOX(STATE), OTA_DEV_BOOTING), OTA_OK);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(chip_bus_write32(MBOX(DOORBELL), MBOX_DOORBELL_EVENT_MASK), OTA_OK);
	swhal_last_state(&s, &d);
	ck_assert_uint_eq(s, OTA_DEV_FAILED);
	swhal_power_off();
	hal_host_set_state(OTA_DEV_READY, OTA_OK);
	swhal_last_state(&s, &d);
	ck_assert_uint_ne(s, OTA_DEV_READY);
}
END_TEST

/*
 * The request/response mailbox (mbox.yaml): the board posts, the firmware
 * reads REQ_* and REQ and answers through RESP and DOORBELL.RESPONSE. The
 * request survives a device reset (STATUS.RESUMED) but not a power cycle;
 * a ring with nothing asked is dropped; REQ reads zero past the request.
 */
START_TEST(requests_and_responses_are_mbox_registers)
{
	static const uint8_t req[7] = { 1, 2, 3, 4, 5, 6, 7 };
	uint8_t buf[16], resp[16];
	struct hal_mbox_request r;
	ota_status_t st = OTA_OK;
	uint32_t len = 0;

	ck_assert(!hal_mbox_request(&r));
	ck_assert_int_eq(swhal_mbox_post(9, OTA_CMD_GET_RECORD, req, sizeof(req)), 0);
	ck_assert(swhal_mbox_owed());
	ck_assert(hal_mbox_request(&r));
	ck_assert_uint_eq(r.command, OTA_CMD_GET_RECORD);
	ck_assert_uint_eq(r.len, sizeof(req));
	ck_assert(!r.resumed);
	ck_assert_uint_eq(tu_bus_rd(MBOX(REQ_SEQ)), 9);
	memset(buf, 0xee, sizeof(buf));
	ck_assert_uint_eq(hal_mbox_read(buf, sizeof(buf)), OTA_OK);
	ck_assert_mem_eq(buf, req, sizeof(req));
	ck_assert(ota_all_zero(buf + sizeof(req), sizeof(buf) - sizeof(req)));
	/* The firmware cannot write the host's request: REQ is read-only, the store ignored. */
	ck_assert_uint_eq(chip_bus_write32(TOP_MBOX_BASE_ADDR + MBOX_REQ_OFFSET, 0), OTA_OK);
	ck_assert_uint_eq(hal_mbox_read(buf, sizeof(req)), OTA_OK);
	ck_assert_mem_eq(buf, req, sizeof(req));

	/* A reset keeps it, marked as the one that asked for the reset. */
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ck_assert(hal_mbox_request(&r));
	ck_assert(r.resumed);
	ck_assert_uint_eq(hal_mbox_read(buf, sizeof(req)), OTA_OK);
	ck_assert_mem_eq(buf, req, sizeof(req));
	ck_assert(!swhal_mbox_take_response(&st, resp, sizeof(resp), &len));
	ck_assert_uint_eq(hal_mbox_respond(OTA_MBOX_BAD_LENGTH, "abcde", 5), OTA_OK);
	ck_assert(swhal_mbox_take_response(&st, resp, sizeof(resp), &len));
	ck_assert_uint_eq(st, OTA_MBOX_BAD_LENGTH);
	ck_assert_uint_eq(len, 5);
	ck_assert_mem_eq(resp, "abcde", 5);
	ck_assert(!hal_mbox_request(&r));
	ck_assert(!swhal_mbox_owed());

	/* A ring with nothing asked is dropped; more than RESP holds is refused. */
	ck_assert_uint_eq(hal_mbox_respond(OTA_OK, NULL, 0), OTA_OK);
	ck_assert(!swhal_mbox_take_response(&st, resp, sizeof(resp), &len));
	ck_assert_uint_eq(hal_mbox_respond(OTA_OK, resp, MBOX_RESP_SIZE + 4), OTA_HAL_BAD_ARGUMENT);

	/* A power cycle drops it. */
	ck_assert_int_eq(swhal_mbox_post(10, OTA_CMD_GET_RECORD, NULL, 0), 0);
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert(!hal_mbox_request(&r));
	ck_assert(!swhal_mbox_owed());
	ck_assert_int_eq(swhal_mbox_post(11, 0, NULL, MBOX_REQ_SIZE + 1), -EINVAL);
}
END_TEST

/* The record's publication: RECORD, RECORD_LEN, RECORD_PUBLISH; the generation stamped in both copies. */
START_TEST(record_publication_is_mbox_registers)
{
	struct ota_record rec, out;
	uint32_t gen, n;

	memset(&rec, 0, sizeof(rec));
	rec.hdr.length = sizeof(rec.hdr);
	rec.hdr.boot_status = OTA_NO_BOOTABLE_SLOT;
	gen = swhal_next_generation();
	ck_assert_uint_eq(hal_host_publish_record(&rec.hdr, sizeof(rec.hdr)), gen);
	ck_assert_uint_eq(rec.hdr.generation, gen);
	ck_assert_uint_eq(tu_bus_rd(MBOX(RECORD_GENERATION)), gen);
	n = swhal_last_record(&out, sizeof(out));
	ck_assert_uint_eq(n, sizeof(rec.hdr));
	ck_assert_mem_eq(&out.hdr, &rec.hdr, sizeof(rec.hdr));
	/* Too short, or without power: refused, generation 0, nothing published. */
	ck_assert_uint_eq(hal_host_publish_record(&rec.hdr, 4), 0);
	ck_assert_uint_eq(chip_bus_write32(MBOX(RECORD_LEN), MBOX_RECORD_SIZE + 4), OTA_OK);
	ck_assert_uint_eq(chip_bus_write32(MBOX(RECORD_PUBLISH), MBOX_RECORD_PUBLISH_GO_MASK), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(MBOX(RECORD_GENERATION)), 0);
	swhal_power_off();
	ck_assert_uint_eq(hal_host_publish_record(&rec.hdr, sizeof(rec.hdr)), 0);
	ck_assert_uint_eq(swhal_next_generation(), gen + 1);
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
	tc = tcase_create("entropy_src, rv_timer, rom_ctrl");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, trng_is_entropy_data);
	tcase_add_test(tc, timer_is_mtime);
	tcase_add_test(tc, rom_identity_is_the_digest);
	suite_add_tcase(s, tc);
	tc = tcase_create("locks: sram_ctrl_ret, otp_ctrl");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, vault_lock_is_the_register);
	tcase_add_test(tc, otp_counters_lock_is_the_register);
	tcase_add_test(tc, state_and_progress_are_mbox_registers);
	tcase_add_test(tc, requests_and_responses_are_mbox_registers);
	tcase_add_test(tc, record_publication_is_mbox_registers);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(drivers_suite)
