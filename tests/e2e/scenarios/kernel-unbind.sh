# SPDX-License-Identifier: MIT
# Unbind and rebind through sysfs (/sys/bus/pci/drivers/otattest), idle and
# while a request waits for a device that does not answer: the waiter gets
# ENODEV at once (not after its timeout), the class device, its IRQs and
# its netlink presence go, DEVICE_REMOVED and DEVICE_ADDED are multicast,
# and the rebound device works.
E2E_DESCRIPTION="sysfs unbind/rebind, also with a request waiting: ENODEV at once"
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
	local pci bdf st0 t0 ms

	kt_insmod timeout_ms=20000
	pci=$(kt_pci)
	bdf=${pci##*/}
	st0=$(kt_state)

	kt_listen mon monitor -c 4 -t 40
	echo "$bdf" >/sys/bus/pci/drivers/otattest/unbind
	[ ! -e "$KT_SYS" ] || e2e_fail "$KT_SYS still there after unbind"
	[ ! -e "$pci/driver" ] || e2e_fail "$bdf still bound"
	grep -q otattest0 /proc/interrupts && e2e_fail "otattest0 IRQs still registered after unbind"
	kt_nl_err ENODEV "GET_DEVICE after unbind" device
	echo "$bdf" >/sys/bus/pci/drivers/otattest/bind
	e2e_wait_for 10 "rebind" test -e "$KT_SYS"
	e2e_assert_eq "$st0" "$(kt_state)" "state after rebind"
	kt_nl_answered "ATTEST after rebind" attest "$(kt_hex 16)"

	# Unbind while a request waits (20 s timeout): ENODEV, fast.
	kt_model fault drop on
	kt_bg wait attest "$(kt_hex 16 1)"
	sleep 1
	t0=$(kt_now_ms)
	echo "$bdf" >/sys/bus/pci/drivers/otattest/unbind
	ms=$(($(kt_now_ms) - t0))
	kt_assert_between 0 2000 "$ms" "ms to unbind with a request waiting"
	kt_bg_wait wait 5
	e2e_assert_eq ENODEV "$(kt_get error "$KT_REPLY")" "the waiting request's error"
	kt_assert_between 800 4000 "$(kt_elapsed)" "ms the request waited (unbound after ~1 s)"
	kt_model fault drop off
	echo "$bdf" >/sys/bus/pci/drivers/otattest/bind
	e2e_wait_for 10 "rebind" test -e "$KT_SYS"
	kt_nl_answered "ATTEST after the second rebind" attest "$(kt_hex 16 2)"

	kt_listen_wait mon
	e2e_assert_eq "device_removed device_added device_removed device_added" \
		"$(sed -n 's/^event=\([a-z_]*\).*/\1/p' /tmp/mon.out | grep device_ | tr '\n' ' ' | sed 's/ $//')" \
		"DEVICE_REMOVED/ADDED multicast in order"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
