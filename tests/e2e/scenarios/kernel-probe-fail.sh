# SPDX-License-Identifier: MIT
# Probe fails after the interrupts were requested: device_add() refuses
# the class device (tests/e2e/faults/otattest_fail_add.ko, a kretprobe,
# makes it) while the device rings its event vector 2000 times a second
# (model fault irq-storm), so the event interrupt has queued the refresh
# work by the time probe gives up. The error path must stop that work
# before it frees the device: the kernel log stays clean (freed slabs are
# poisoned here, slub_debug=P, so a refresh running on the freed device
# faults at once; the old error path freed it with the work queued). Then
# the fault is spent, the module is loaded again and the device binds and
# answers.
E2E_DESCRIPTION="probe fails after the IRQs (device_add refused) during an event storm: no work runs on the freed device"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko build/tests/e2e/faults/otattest_fail_add.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")
E2E_KERNEL_ARGS="slub_debug=P"

guest_main() {
	. /e2e/kernel/guest-lib.sh

	e2e_insmod otattest_fail_add fail_count=1
	kt_model fault irq-storm 1000000,2000,1
	e2e_insmod otattest poll_ms=50
	e2e_wait_for 5 "probe refused by the failed device_add" \
		sh -c 'dmesg | grep -q "failed with error -22"'
	e2e_assert_eq 1 "$(cat /sys/module/otattest_fail_add/parameters/failed)" "device_add calls failed"
	[ -e "$KT_SYS" ] && e2e_fail "otattest0 exists after the failed probe"
	# Long enough for queued work, and any poll it re-arms, to have run.
	sleep 2
	kt_model fault irq-storm off
	rmmod otattest
	rmmod otattest_fail_add

	kt_insmod
	kt_wait_state ready
	kt_nl_answered "ATTEST after a clean bind" attest "$(kt_hex 16)"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
