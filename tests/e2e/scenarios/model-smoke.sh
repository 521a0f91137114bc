# SPDX-License-Identifier: MIT
# Issue 5's QEMU smoke test: ivshmem-doorbell wired to otattest-model with a
# provisioned device, a minimal guest, and a guest-side probe
# (tests/e2e/probe/, a test-only module, not the driver) that sees the info
# block and completes mailbox round trips, each answered with an MSI-X
# interrupt. The probe checks each response's sequence number, command,
# status and length, that the record validates (magic included) and that
# it equals the record region. While the guest waits, the host asks the
# model what it exported and served; host_check compares that with what the
# guest saw.
E2E_DESCRIPTION="model behind ivshmem-doorbell: info block, GET_RECORD, MSI-X"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/tests/e2e/probe/otattest_probe.ko)

SMOKE_ROUNDS=20

probe_param() {
	cat "/sys/module/otattest_probe/parameters/$1"
}

guest_main() {
	local dev n
	dev=$(e2e_pci_find 1af4:1110) || e2e_fail "no ivshmem device (1af4:1110) on the PCI bus"
	e2e_log "ivshmem device at ${dev##*/}"

	e2e_insmod otattest_probe rounds=$SMOKE_ROUNDS timeout_ms=2000
	e2e_assert_eq pass "$(probe_param result)" "probe result"
	e2e_assert_eq otattest_probe "$(basename "$(readlink "$dev/driver")")" "driver bound to the device"
	e2e_assert_eq $SMOKE_ROUNDS "$(probe_param completed)" "round trips completed"
	e2e_assert_eq $SMOKE_ROUNDS "$(probe_param mbox_irqs)" "mailbox MSI-X interrupts (one per round trip)"
	# The interrupts arrived on an MSI-X vector, not INTx.
	e2e_assert_match '.*PCI-MSI.*otattest_probe-mbox.*' "$(grep otattest_probe-mbox /proc/interrupts)" "mailbox vector"

	# A provisioned device boots both stages and its runtime serves.
	e2e_assert_eq ready "$(probe_param device_state)" "device state"
	e2e_assert_eq OK "$(probe_param boot_status_name)" "record boot_status"
	n=$(probe_param record_stages)
	[ "$n" -ge 2 ] || e2e_fail "record has $n stages, expected ROM_EXT and BL0 at least"
	# Header, the stage records, the update section (192 bytes, record.h).
	e2e_assert_eq $((128 + n * 224 + 192)) "$(probe_param record_length)" "record length for $n stages"
	e2e_log "round trip: min $(probe_param rtt_min_ns) ns, avg $(probe_param rtt_avg_ns) ns, max $(probe_param rtt_max_ns) ns"

	for p in device_state boot_status_name record_generation record_stages record_length \
		region_generation own_peer device_peer completed mbox_irqs event_irqs \
		rtt_min_ns rtt_avg_ns rtt_max_ns; do
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
	same() { # MODEL-KEY PROBE-PARAM
		[ "$(mval "$1")" = "$(pv "$2")" ] ||
			e2e_fail "model $1 is '$(mval "$1")', the guest saw $2 '$(pv "$2")'"
	}
	[ -s "$st" ] || e2e_fail "no model status from the host hook"
	same state device_state
	same boot-status boot_status_name
	same record-generation record_generation
	same shm-generation region_generation
	same guest-peer own_peer
	same device-peer device_peer
	# Nothing but the probe talked to this model.
	same requests completed
	same answered completed
	e2e_log "model and guest agree: $(pv device_state), record generation $(pv record_generation)," \
		"$(pv record_stages) stages, $(mval answered) requests answered"
	e2e_log "round trip guest -> model -> MSI-X: min $(($(pv rtt_min_ns) / 1000)) us," \
		"avg $(($(pv rtt_avg_ns) / 1000)) us, max $(($(pv rtt_max_ns) / 1000)) us"
}
