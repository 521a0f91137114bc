# SPDX-License-Identifier: MIT
# Issue 5's QEMU smoke test: ivshmem-doorbell wired to otattest-model, a
# minimal guest, and a guest-side probe (tests/e2e/probe/, a test-only
# module, not the driver) that sees the info block and completes mailbox
# round trips, each answered with an MSI-X interrupt. The probe checks the
# response's sequence number, command, status and record (magic included)
# and that it equals the record region; the host checks the guest saw the
# record the model exported.
E2E_DESCRIPTION="model behind ivshmem-doorbell: info block, GET_RECORD, MSI-X"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_REQUIRES=('qemu-model/src/*.c')
E2E_MODULES=(build/tests/e2e/probe/otattest_probe.ko)

probe_param() {
	cat "/sys/module/otattest_probe/parameters/$1"
}

guest_main() {
	local dev rounds=20
	dev=$(e2e_pci_find 1af4:1110) || e2e_fail "no ivshmem device (1af4:1110) on the PCI bus"
	e2e_log "ivshmem device at ${dev##*/}"

	e2e_insmod otattest_probe rounds=$rounds timeout_ms=2000
	e2e_assert_eq pass "$(probe_param result)" "probe result"
	e2e_assert_eq otattest_probe "$(basename "$(readlink "$dev/driver")")" "driver bound to the device"
	e2e_assert_eq $rounds "$(probe_param completed)" "round trips completed"
	e2e_assert_eq $rounds "$(probe_param mbox_irqs)" "mailbox MSI-X interrupts (one per round trip)"
	e2e_assert_match '[0-9]+' "$(probe_param record_length)" "record length"
	# The interrupts arrived on MSI-X vectors, not INTx.
	e2e_assert_match '.*PCI-MSI.*otattest_probe-mbox.*' "$(grep otattest_probe-mbox /proc/interrupts)" "mailbox vector"
	e2e_log "round trip: min $(probe_param rtt_min_ns) ns, avg $(probe_param rtt_avg_ns) ns, max $(probe_param rtt_max_ns) ns"
	for p in record_length record_generation own_peer device_peer rtt_min_ns rtt_avg_ns rtt_max_ns; do
		echo "$p=$(probe_param $p)"
	done >"$E2E_OUT/probe.txt"

	rmmod otattest_probe
	[ ! -e "$dev/driver" ] || e2e_fail "device still bound after rmmod"
}
