// SPDX-License-Identifier: MIT
/*
 * The chip's bus (qemu-model/chip/bus.h) over the generated register map
 * (qemu-model/regs/, docs/registers.md): every register of every block
 * is where the firmware's header says, reads its reset value after a
 * power-on and obeys its access type; addresses in no register or window
 * and misaligned accesses are bus errors that change nothing; windows
 * take bytes; the tables agree with the top's memory map; a reset of the
 * chip resets the registers; a block's hooks see the accesses.
 */
#include <check.h>
#include <string.h>

#include "bus.h"
#include "hal.h"
#include "hmac_regs.h"
#include "kmac_regs.h"
#include "mbox_regs.h"
#include "mprot.h"
#include "mprot_regs.h"
#include "otp_ctrl_regs.h"
#include "rstmgr_regs.h"
#include "swhal.h"
#include "testutil.h"
#include "top_regs.h"
#include "tu_main.h"

static void setup(void)
{
	tu_hal_open_memory(4 * 2048);
}

static void teardown(void)
{
	tu_hal_close();
}

/*
 * Every register reads its reset value after power-on (wo ones read 0):
 * the bus alone, without the behaviour of the converted blocks (whose
 * reads refresh a counter, a random word, a digest, and whose reset
 * says why the core started).
 */
START_TEST(every_register_reads_its_reset_value)
{
	uint32_t i, r, n = 0;

	for (i = 0; i < TOP_BLOCK_COUNT; i++)
		chip_bus_set_ops((enum top_block)i, NULL);
	chip_bus_reset();
	for (i = 0; i < TOP_BLOCK_COUNT; i++) {
		const struct chip_block *b = &chip_blocks[i];

		for (r = 0; r < b->nregs; r++, n++) {
			uint32_t want = b->regs[r].access == CHIP_ACCESS_WO ? 0 : b->regs[r].resval;

			ck_assert_msg(tu_bus_rd(b->base + b->regs[r].offset) == want, "%s.%s", b->name,
				      b->regs[r].name);
		}
	}
	ck_assert_uint_gt(n, 100);
	/* Spot checks against the firmware's headers. */
	ck_assert_uint_eq(tu_bus_rd(TOP_HMAC_BASE_ADDR + HMAC_ERR_CODE_REG_OFFSET), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(TOP_HMAC_BASE_ADDR + HMAC_STATUS_REG_OFFSET), HMAC_STATUS_IDLE_MASK);
	ck_assert_uint_eq(tu_bus_rd(TOP_KMAC_BASE_ADDR + KMAC_OUT_LEN_REG_OFFSET), 32);
}
END_TEST

/* The generated table holds what the header says, for each block. */
START_TEST(tables_agree_with_the_headers)
{
	const struct chip_block *h = &chip_blocks[TOP_BLOCK_HMAC];
	const struct chip_block *m = &chip_blocks[TOP_BLOCK_MPROT];
	uint32_t i, j;

	ck_assert_str_eq(h->name, "hmac");
	ck_assert_uint_eq(h->base, TOP_HMAC_BASE_ADDR);
	ck_assert_uint_eq(h->size, HMAC_SIZE);
	ck_assert_uint_eq(h->regs[h->nregs - 1].offset, HMAC_DIGEST_REG_OFFSET(HMAC_DIGEST_COUNT - 1));
	ck_assert_str_eq(m->regs[MPROT_REGION_CFG_COUNT * 2].name, "REGION_CFG_0");
	ck_assert_uint_eq(m->regs[MPROT_REGION_CFG_COUNT * 2].mask,
			  MPROT_REGION_CFG_R_MASK | MPROT_REGION_CFG_W_MASK | MPROT_REGION_CFG_X_MASK |
				  MPROT_REGION_CFG_EN_MASK);
	/* No two blocks or memories share an address. */
	for (i = 0; i < TOP_BLOCK_COUNT; i++) {
		for (j = 0; j < TOP_BLOCK_COUNT; j++)
			if (i != j)
				ck_assert(chip_blocks[i].base + chip_blocks[i].size <= chip_blocks[j].base ||
					  chip_blocks[j].base + chip_blocks[j].size <= chip_blocks[i].base);
		for (j = 0; j < TOP_MEMORY_COUNT; j++)
			ck_assert(chip_blocks[i].base + chip_blocks[i].size <= chip_memories[j].base ||
				  chip_memories[j].base + chip_memories[j].size <= chip_blocks[i].base);
	}
	ck_assert_str_eq(chip_memories[TOP_MEMORY_ROM].name, "ROM");
	ck_assert_uint_eq(chip_memories[TOP_MEMORY_RET_SRAM].base, TOP_RET_SRAM_BASE_ADDR);
}
END_TEST

/* Each access type, on a register of each. */
START_TEST(access_types)
{
	uint32_t kmac = TOP_KMAC_BASE_ADDR, otp = TOP_OTP_CTRL_BASE_ADDR, h = TOP_HMAC_BASE_ADDR;

	/* rw keeps only its fields' bits. */
	ck_assert_uint_eq(chip_bus_write32(kmac + KMAC_OUT_LEN_REG_OFFSET, 0xffffffff), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(kmac + KMAC_OUT_LEN_REG_OFFSET), KMAC_OUT_LEN_LEN_MASK);
	/* rw without fields keeps all 32 bits. */
	ck_assert_uint_eq(chip_bus_write32(kmac + KMAC_KEY_HANDLE_REG_OFFSET, 0x12345678), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(kmac + KMAC_KEY_HANDLE_REG_OFFSET), 0x12345678);
	/* ro: a write is ignored. */
	ck_assert_uint_eq(chip_bus_write32(h + HMAC_STATUS_REG_OFFSET, 0), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(h + HMAC_STATUS_REG_OFFSET), HMAC_STATUS_RESVAL);
	/* wo: reads 0 even after a write. */
	ck_assert_uint_eq(chip_bus_write32(h + HMAC_CMD_REG_OFFSET, 1), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(h + HMAC_CMD_REG_OFFSET), 0);
	/* w1s: sets, and a 0 or a later write never clears it. */
	ck_assert_uint_eq(tu_bus_rd(otp + OTP_CTRL_COUNTERS_LOCK_REG_OFFSET), 0);
	ck_assert_uint_eq(chip_bus_write32(otp + OTP_CTRL_COUNTERS_LOCK_REG_OFFSET, 1), OTA_OK);
	ck_assert_uint_eq(chip_bus_write32(otp + OTP_CTRL_COUNTERS_LOCK_REG_OFFSET, 0), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(otp + OTP_CTRL_COUNTERS_LOCK_REG_OFFSET), 1);
	/* w1c: the hardware sets, writing 1 clears. */
	chip_reg_set(TOP_BLOCK_MPROT, MPROT_FAULT_STATUS_REG_OFFSET, 0x5);
	ck_assert_uint_eq(chip_bus_write32(TOP_MPROT_BASE_ADDR + MPROT_FAULT_STATUS_REG_OFFSET, 0x4), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(TOP_MPROT_BASE_ADDR + MPROT_FAULT_STATUS_REG_OFFSET), 0x1);
	/* A reset of the chip (power-on or warm) puts it all back. */
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(otp + OTP_CTRL_COUNTERS_LOCK_REG_OFFSET), 0);
	ck_assert_uint_eq(tu_bus_rd(kmac + KMAC_OUT_LEN_REG_OFFSET), KMAC_OUT_LEN_RESVAL);
	ck_assert_uint_eq(tu_bus_rd(TOP_MPROT_BASE_ADDR + MPROT_FAULT_STATUS_REG_OFFSET), 0);
}
END_TEST

/* Holes, misalignment and addresses outside every block change nothing. */
START_TEST(bus_errors)
{
	uint32_t v = 7, k = TOP_KMAC_BASE_ADDR;
	uint8_t b[4] = { 1, 2, 3, 4 };

	ck_assert_uint_eq(chip_bus_write32(k + KMAC_KEY_HANDLE_REG_OFFSET, 0x55), OTA_OK);
	/* misaligned */
	ck_assert_uint_eq(chip_bus_write32(k + KMAC_KEY_HANDLE_REG_OFFSET + 1, 0), OTA_HAL_BUS_ERROR);
	ck_assert_uint_eq(chip_bus_read32(k + KMAC_KEY_HANDLE_REG_OFFSET + 2, &v), OTA_HAL_BUS_ERROR);
	ck_assert_uint_eq(v, 0);
	ck_assert_uint_eq(tu_bus_rd(k + KMAC_KEY_HANDLE_REG_OFFSET), 0x55);
	/* a hole in the block (after the last register, before the first window) */
	ck_assert_uint_eq(chip_bus_write32(k + 0x80, 1), OTA_HAL_BUS_ERROR);
	ck_assert_uint_eq(chip_bus_read32(k + 0x80, &v), OTA_HAL_BUS_ERROR);
	/* outside every block: memory and unmapped space are not the bus's */
	ck_assert_uint_eq(chip_bus_read32(TOP_SRAM_BASE_ADDR, &v), OTA_HAL_BUS_ERROR);
	ck_assert_uint_eq(chip_bus_write32(0xfffffffc, 1), OTA_HAL_BUS_ERROR);
	ck_assert_uint_eq(chip_bus_read32(TOP_MBOX_BASE_ADDR + MBOX_SIZE, &v), OTA_HAL_BUS_ERROR);
	/* byte accesses reach windows only, and never across a window's end */
	ck_assert_uint_eq(chip_bus_write(k + KMAC_CUSTOM_LEN_REG_OFFSET, b, 4), OTA_HAL_BUS_ERROR);
	ck_assert_uint_eq(chip_bus_write(k + KMAC_CUSTOM_OFFSET + KMAC_CUSTOM_SIZE - 2, b, 4),
			  OTA_HAL_BUS_ERROR);
	ck_assert_uint_eq(chip_bus_write(k + KMAC_CUSTOM_OFFSET, b, 0), OTA_HAL_BUS_ERROR);
	ck_assert_uint_eq(chip_bus_read32(0, NULL), OTA_HAL_BUS_ERROR);
}
END_TEST

/* Windows: bytes in and out; ro and wo windows as the registers. */
START_TEST(windows)
{
	uint32_t k = TOP_KMAC_BASE_ADDR;
	uint8_t in[5] = { 1, 2, 3, 4, 5 }, out[5];
	uint32_t v;

	ck_assert_uint_eq(chip_bus_write(k + KMAC_CUSTOM_OFFSET + 3, in, 5), OTA_OK);
	ck_assert_uint_eq(chip_bus_read(k + KMAC_CUSTOM_OFFSET + 3, out, 5), OTA_OK);
	ck_assert_mem_eq(in, out, 5);
	ck_assert_mem_eq(chip_window_mem(TOP_BLOCK_KMAC, KMAC_CUSTOM_OFFSET) + 3, in, 5);
	/* a word access into a window works as 4 bytes */
	ck_assert_uint_eq(chip_bus_read32(k + KMAC_CUSTOM_OFFSET + 4, &v), OTA_OK);
	ck_assert_uint_eq(v, 0x05040302u);
	/* wo reads zero; ro ignores writes */
	ck_assert_uint_eq(chip_bus_write(k + KMAC_MSG_FIFO_OFFSET, in, 5), OTA_OK);
	memset(out, 0xaa, sizeof(out));
	ck_assert_uint_eq(chip_bus_read(k + KMAC_MSG_FIFO_OFFSET, out, 5), OTA_OK);
	ck_assert_uint_eq(out[0] | out[1] | out[4], 0);
	ck_assert_uint_eq(chip_bus_write(k + KMAC_STATE_OFFSET, in, 5), OTA_OK);
	ck_assert_uint_eq(chip_bus_read(k + KMAC_STATE_OFFSET, out, 5), OTA_OK);
	ck_assert_uint_eq(out[0] | out[1] | out[4], 0);
	/* a power cycle clears windows */
	swhal_power_off();
	ck_assert_int_eq(swhal_power_on(), 0);
	ck_assert_uint_eq(chip_bus_read(k + KMAC_CUSTOM_OFFSET + 3, out, 5), OTA_OK);
	ck_assert_uint_eq(out[0] | out[4], 0);
}
END_TEST

/* A block's hooks see each checked access, and their status is the access's. */
static uint32_t hook_reg, hook_value, hook_calls;

static ota_status_t hook_write(uint32_t reg, uint32_t value)
{
	hook_reg = reg;
	hook_value = value;
	hook_calls++;
	return value == 0xf ? OTA_HAL_BAD_ARGUMENT : OTA_OK;
}

static ota_status_t hook_read(uint32_t reg)
{
	chip_reg_set(TOP_BLOCK_RSTMGR, reg, 0x3);
	hook_calls++;
	return OTA_OK;
}

START_TEST(block_hooks)
{
	static const struct chip_block_ops ops = { .write = hook_write, .read = hook_read };
	uint32_t r = TOP_RSTMGR_BASE_ADDR;

	chip_bus_set_ops(TOP_BLOCK_RSTMGR, &ops);
	ck_assert_uint_eq(chip_bus_write32(r + RSTMGR_RESET_REQ_REG_OFFSET, 2), OTA_OK);
	ck_assert_uint_eq(hook_reg, RSTMGR_RESET_REQ_REG_OFFSET);
	ck_assert_uint_eq(hook_value, 2);
	ck_assert_uint_eq(chip_bus_write32(r + RSTMGR_RESET_REQ_REG_OFFSET, 0xf), OTA_HAL_BAD_ARGUMENT);
	ck_assert_uint_eq(tu_bus_rd(r + RSTMGR_RESET_INFO_REG_OFFSET), 3);
	/* a ro write and a bus error reach no hook */
	hook_calls = 0;
	ck_assert_uint_eq(chip_bus_write32(r + RSTMGR_RESET_INFO_REG_OFFSET + 1, 1), OTA_HAL_BUS_ERROR);
	ck_assert_uint_eq(chip_bus_write32(r + RSTMGR_RESET_INFO_REG_OFFSET, 1), OTA_OK);
	ck_assert_uint_eq(hook_calls, 0);
	chip_bus_set_ops(TOP_BLOCK_RSTMGR, NULL);
}
END_TEST

/*
 * mprot (mprot.h): a region bound that is not 4 KiB aligned is refused;
 * nothing is enforced before LOCK; from LOCK until reset the first
 * enabled region decides, an address in none allows nothing, and every
 * write to a region (and a 0 to LOCK) is ignored.
 */
START_TEST(mprot_regions_lock_until_reset)
{
	uint32_t m = TOP_MPROT_BASE_ADDR, r_en = MPROT_REGION_CFG_R_MASK | MPROT_REGION_CFG_EN_MASK;

	ck_assert_uint_eq(chip_bus_write32(m + MPROT_REGION_BASE_REG_OFFSET(0), 0x10000800u), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(m + MPROT_REGION_BASE_REG_OFFSET(0)), 0);
	ck_assert_uint_eq(chip_bus_write32(m + MPROT_REGION_BASE_REG_OFFSET(0), 0x10000000u), OTA_OK);
	ck_assert_uint_eq(chip_bus_write32(m + MPROT_REGION_LIMIT_REG_OFFSET(0), 0x10002001u), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(m + MPROT_REGION_LIMIT_REG_OFFSET(0)), 0);
	ck_assert_uint_eq(chip_bus_write32(m + MPROT_REGION_LIMIT_REG_OFFSET(0), 0x10002000u), OTA_OK);
	ck_assert_uint_eq(chip_bus_write32(m + MPROT_REGION_CFG_REG_OFFSET(0), r_en), OTA_OK);
	/* A later region holding the same addresses loses: the first match decides. */
	ck_assert_uint_eq(chip_bus_write32(m + MPROT_REGION_BASE_REG_OFFSET(1), 0x10000000u), OTA_OK);
	ck_assert_uint_eq(chip_bus_write32(m + MPROT_REGION_LIMIT_REG_OFFSET(1), 0x10004000u), OTA_OK);
	ck_assert_uint_eq(chip_bus_write32(m + MPROT_REGION_CFG_REG_OFFSET(1), 0xffu), OTA_OK);
	ck_assert(!chip_mprot_locked());
	ck_assert(chip_mprot_allows(0x20000000u, 4, CHIP_MPROT_W)); /* not in force before LOCK */
	ck_assert_uint_eq(chip_bus_write32(m + MPROT_LOCK_REG_OFFSET, 1), OTA_OK);
	ck_assert(chip_mprot_locked());
	ck_assert_uint_eq(chip_mprot_perms(0x10001ffcu), CHIP_MPROT_R);
	ck_assert_uint_eq(chip_mprot_perms(0x10002000u), CHIP_MPROT_RWX);
	ck_assert_uint_eq(chip_mprot_perms(0x10004000u), 0);
	ck_assert(!chip_mprot_allows(0x10001ffcu, 8, CHIP_MPROT_W));
	ck_assert(!chip_mprot_allows(0x20000000u, 4, CHIP_MPROT_R));
	/* Locked: writes to the regions and a 0 to LOCK change nothing. */
	ck_assert_uint_eq(chip_bus_write32(m + MPROT_REGION_CFG_REG_OFFSET(0), 0xffu), OTA_OK);
	ck_assert_uint_eq(chip_bus_write32(m + MPROT_REGION_BASE_REG_OFFSET(2), 0x20000000u), OTA_OK);
	ck_assert_uint_eq(chip_bus_write32(m + MPROT_LOCK_REG_OFFSET, 0), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(m + MPROT_REGION_CFG_REG_OFFSET(0)), r_en);
	ck_assert_uint_eq(tu_bus_rd(m + MPROT_REGION_BASE_REG_OFFSET(2)), 0);
	ck_assert_uint_eq(tu_bus_rd(m + MPROT_LOCK_REG_OFFSET), 1);
	ck_assert_uint_eq(chip_mprot_perms(0x10000000u), CHIP_MPROT_R);
	/* The first violation is kept until cleared. */
	chip_mprot_fault(CHIP_MPROT_WRITE, 0x10000004u, 0x10280010u);
	chip_mprot_fault(CHIP_MPROT_EXEC, 0x10300000u, 0x10300000u);
	ck_assert_uint_eq(tu_bus_rd(m + MPROT_FAULT_STATUS_REG_OFFSET), 0x5);
	ck_assert_uint_eq(tu_bus_rd(m + MPROT_FAULT_ADDR_REG_OFFSET), 0x10000004u);
	ck_assert_uint_eq(tu_bus_rd(m + MPROT_FAULT_PC_REG_OFFSET), 0x10280010u);
	/* Until reset. */
	ck_assert_uint_eq(swhal_reset(OTA_RESET_WARM), OTA_OK);
	ck_assert(!chip_mprot_locked());
	ck_assert_uint_eq(tu_bus_rd(m + MPROT_REGION_CFG_REG_OFFSET(0)), 0);
	ck_assert_uint_eq(chip_bus_write32(m + MPROT_REGION_BASE_REG_OFFSET(0), 0x20000000u), OTA_OK);
	ck_assert_uint_eq(tu_bus_rd(m + MPROT_REGION_BASE_REG_OFFSET(0)), 0x20000000u);
}
END_TEST

static Suite *chip_bus_suite(void)
{
	Suite *s = suite_create("chip_bus");
	TCase *tc = tcase_create("bus");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, every_register_reads_its_reset_value);
	tcase_add_test(tc, tables_agree_with_the_headers);
	tcase_add_test(tc, access_types);
	tcase_add_test(tc, bus_errors);
	tcase_add_test(tc, windows);
	tcase_add_test(tc, block_hooks);
	tcase_add_test(tc, mprot_regions_lock_until_reset);
	suite_add_tcase(s, tc);
	return s;
}

OTA_TEST_MAIN(chip_bus_suite)
