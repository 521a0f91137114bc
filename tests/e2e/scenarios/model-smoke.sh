# SPDX-License-Identifier: MIT
# Issue 5's QEMU smoke test: ivshmem-doorbell wired to otattest-model, a
# minimal guest, and a guest-side probe (tests/e2e/probe/, a test-only
# module, not the driver) that sees the info block and completes mailbox
# round trips, each answered with an MSI-X interrupt. The probe checks the
# response's sequence number, command, status and record (magic included)
# and that it equals the record region; the host asks the model, while the
# guest waits, what it exported and served, and checks the guest saw that.
# The device is blank (not provisioned): its cold boot fails, and it still
# serves GET_RECORD with the record that says why.
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
	e2e_assert_match 'ready|failed' "$(probe_param device_state)" "device state once booted"
	for p in device_state state_detail boot_status record_length record_generation own_peer \
		device_peer completed rtt_min_ns rtt_avg_ns rtt_max_ns; do
		echo "$p=$(probe_param $p)"
	done >"$E2E_OUT/probe.txt"

	# The host asks the model now, while this guest is still its peer.
	e2e_signal probed
	e2e_wait_host model-asked 20

	rmmod otattest_probe
	[ ! -e "$dev/driver" ] || e2e_fail "device still bound after rmmod"
}

host_hook() {
	e2e_wait_guest probed 50
	mkdir -p "$E2E_OUT/from-host"
	e2e_model_ctl --json status >"$E2E_OUT/from-host/model-status.json"
	e2e_tell_guest model-asked
}

# What the model says it did must be what the guest saw.
host_check() {
	local st=$E2E_OUT/from-host/model-status.json probe=$E2E_OUT/probe.txt
	pv() { sed -n "s/^$1=//p" "$probe"; }
	mval() { jq -r --arg k "$1" '.[$k] // empty' "$st"; }
	[ -s "$st" ] || e2e_fail "no model status from the host hook"
	[ "$(mval state)" = "$(pv device_state)" ] ||
		e2e_fail "model state '$(mval state)', guest saw '$(pv device_state)'"
	[ "$(mval record-generation)" = "$(pv record_generation)" ] ||
		e2e_fail "model record generation '$(mval record-generation)', guest read '$(pv record_generation)'"
	[ "$(mval guest-peer)" = "$(pv own_peer)" ] ||
		e2e_fail "model's guest peer '$(mval guest-peer)', guest's IVPosition '$(pv own_peer)'"
	[ "$(mval answered)" -ge "$(pv completed)" ] ||
		e2e_fail "model answered $(mval answered) requests, guest completed $(pv completed)"
	e2e_log "model and guest agree: state $(pv device_state), generation $(pv record_generation), $(mval answered) answered"
}
