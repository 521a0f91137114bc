# SPDX-License-Identifier: MIT
# Self-test of the runner's kernel log check: the guest part passes, but
# the kernel prints a backtrace (SysRq "l"), so a scenario like this must
# be failed. It passes only because it expects exactly that.
E2E_DESCRIPTION="self-test: a kernel Call Trace fails a scenario"
E2E_TIMEOUT=30
E2E_EXPECT=kernel-problem
E2E_EXPECT_KERNEL='Call Trace'

guest_main() {
	echo l >/proc/sysrq-trigger
	sleep 0.5
}
