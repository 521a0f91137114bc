# SPDX-License-Identifier: MIT
# Self-test of the runner: a kernel crash (SysRq "c": a NULL dereference,
# an Oops, a panic) ends the guest with no result; the runner must see the
# Oops in the serial log, since the guest never writes its dmesg.
E2E_DESCRIPTION="self-test: a kernel Oops is caught from the serial log"
E2E_TIMEOUT=30
E2E_EXPECT=kernel-problem
E2E_EXPECT_KERNEL='Oops|Kernel panic'

guest_main() {
	echo c >/proc/sysrq-trigger
}
