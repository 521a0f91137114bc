# SPDX-License-Identifier: MIT
# rmmod while a netlink request waits for a device that does not answer
# (timeout_ms=30000): rmmod completes at once, the request gets ENODEV
# instead of waiting out its timeout, nothing is left behind (class,
# family, IRQs); insmod brings the device back, working.
E2E_DESCRIPTION="rmmod and insmod while a netlink request waits"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local t0 ms round

	kt_insmod timeout_ms=30000
	for round in 1 2; do
		kt_model fault drop on
		kt_bg wait attest "$(kt_hex 32 "$round")"
		sleep 1
		t0=$(kt_now_ms)
		rmmod otattest
		ms=$(($(kt_now_ms) - t0))
		kt_assert_between 0 3000 "$ms" "round $round: ms for rmmod with a request waiting"
		kt_bg_wait wait 5
		e2e_assert_eq ENODEV "$(kt_get error "$KT_REPLY")" "round $round: the waiting request's error"
		kt_assert_between 800 5000 "$(kt_elapsed)" "round $round: ms the request waited"
		[ ! -e /sys/class/otattest ] || e2e_fail "class otattest left behind"
		[ ! -e /sys/module/otattest ] || e2e_fail "module still loaded"
		grep -q otattest0 /proc/interrupts && e2e_fail "IRQs left behind"
		kt_nl_err ENOENT "the family is gone" devices

		kt_model fault drop off
		kt_insmod timeout_ms=30000
		kt_nl_answered "round $round: ATTEST after insmod" attest "$(kt_hex 32 $((round + 8)))"
	done
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
