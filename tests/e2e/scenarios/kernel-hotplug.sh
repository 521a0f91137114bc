# SPDX-License-Identifier: MIT
# PCI hot-unplug of the device through QEMU's monitor (device_del) while a
# netlink request waits for it, then re-plug (device_add with a fresh
# chardev to the same model). The request fails with ENODEV as soon as the
# guest has ejected the function, the driver lets go of everything, and
# the re-plugged device binds again on its own and works.
E2E_DESCRIPTION="device_del during a request (ENODEV), device_add re-plug binds again"
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
	local st0 pci

	kt_insmod timeout_ms=30000
	st0=$(kt_state)
	pci=$(kt_pci)
	kt_listen mon monitor -c 2 -t 50

	kt_model fault drop on
	kt_bg wait attest "$(kt_hex 48)"
	sleep 1
	kt_host --quiet 4 unplug >/dev/null || e2e_fail "device_del failed"
	kt_bg_wait wait 20
	e2e_assert_eq ENODEV "$(kt_get error "$KT_REPLY")" "the waiting request's error"
	kt_assert_between 800 20000 "$(kt_elapsed)" "ms the request waited (30 s timeout)"
	e2e_wait_for 20 "the function to go" eval '[ ! -e "$pci" ]'
	[ ! -e "$KT_SYS" ] || e2e_fail "$KT_SYS still there after the unplug"
	kt_host unplugged >/dev/null || e2e_fail "QEMU still has the device"
	kt_dmesg_has 'otattest0: removed' "removal logged"

	kt_model fault drop off
	kt_host plug >/dev/null || e2e_fail "device_add failed"
	e2e_wait_for 20 "otattest0 after device_add" test -e "$KT_SYS"
	kt_wait_state "$st0"
	kt_nl_answered "ATTEST on the re-plugged device" attest "$(kt_hex 48 5)"
	kt_nl_ok "GET_RECORD on the re-plugged device" record -o /tmp/rec.bin
	cmp -s /tmp/rec.bin "$KT_SYS/record" || e2e_fail "GET_RECORD and sysfs differ"
	kt_listen_wait mon
	kt_line_has /tmp/mon.out "DEVICE_REMOVED multicast" event=device_removed device=0
	kt_line_has /tmp/mon.out "DEVICE_ADDED multicast" event=device_added device=0
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
