/* SPDX-License-Identifier: MIT */
/*
 * ota_stage_jump(entry, wipe_lo, wipe_hi, lock): the hand-off to the next
 * stage. Zero [wipe_lo, wipe_hi) - the stage's own RAM and stack, which
 * it is running on, so this uses no stack - store 1 at lock unless it is
 * 0 (mprot's LOCK, hal/mprot.h: the regions the stage programmed for the
 * next one take force), clear the registers, and jump to entry; the next
 * stage's start-up code sets its own stack and global pointers. The
 * hand-off state (firmware/base/stage.ld) is outside the range and stays.
 * Both bounds are 4-byte aligned. Does not return.
 *
 * The store to LOCK and the jump are one straight-line block (no branch
 * between them, aligned so that it does not cross a page): the emulated
 * core applies the regions where that block ends (docs/hal.md, "Memory
 * protection"), so the jump is the stage's last instruction and the next
 * stage's first runs under the regions.
 */
	.section .text.ota_stage_jump, "ax"
	.balign	256
	.global ota_stage_jump
ota_stage_jump:
	mv	t0, a0
1:	bgeu	a1, a2, 2f
	sw	zero, 0(a1)
	addi	a1, a1, 4
	j	1b
2:	beqz	a3, 3f
	li	a1, 1
	sw	a1, 0(a3)
3:	li	ra, 0
	li	sp, 0
	li	a0, 0
	li	a1, 0
	li	a2, 0
	li	a3, 0
	li	a4, 0
	li	a5, 0
	li	a6, 0
	li	a7, 0
	li	s0, 0
	li	s1, 0
	li	s2, 0
	li	s3, 0
	li	s4, 0
	li	s5, 0
	li	s6, 0
	li	s7, 0
	li	s8, 0
	li	s9, 0
	li	s10, 0
	li	s11, 0
	li	t1, 0
	li	t2, 0
	li	t3, 0
	li	t4, 0
	li	t5, 0
	li	t6, 0
	jr	t0
