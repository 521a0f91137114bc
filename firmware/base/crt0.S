/* SPDX-License-Identifier: MIT */
/*
 * Start-up code of an rv32imc stage image: the core enters here (the
 * image's entry point) with nothing set up. Set the global and stack
 * pointers, clear .bss/.sbss (the firmware's RAM holds zero-initialised
 * objects only, tests/rv32/freestanding.sh; ROM clears the hand-off state
 * too, from __clear_start, firmware/base/stage.ld), call stage_main, and end
 * with ecall and a7 = 0: the board takes that environment call as the
 * stage having returned, with stage_main's result in a0 (another a7 is a
 * service call, firmware/include/hal/svc.h).
 */
	.section .text.start, "ax"
	.global _start
_start:
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	la	sp, __stack_top
	la	t0, __clear_start
	la	t1, __handoff_end
	call	clear
	la	t0, __bss_start
	la	t1, __bss_end
	call	clear
	call	stage_main
	li	a7, 0
	ecall
1:	j	1b

/* Zero [t0, t1), word by word (both 4-byte aligned). */
clear:
	bgeu	t0, t1, 2f
	sw	zero, 0(t0)
	addi	t0, t0, 4
	j	clear
2:	ret
