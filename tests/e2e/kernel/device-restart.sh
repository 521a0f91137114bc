# SPDX-License-Identifier: MIT
# The body of kernel-device-restart and kernel-device-restart-systemd: the
# same test in both guest modes. The guest part needs guest-lib.sh sourced
# first, the host part host-lib.sh.
#
# The model is split (E2E_MODEL_SPLIT=1): the host kills only the device
# process, with a netlink request waiting on it (held back by the delay
# knob, so it surely is in flight), and starts a new one on the same
# state. Nothing happens on the PCI side: QEMU keeps its connection to the
# server and the guest its function. The driver has to find the device
# again on its own.

KT_RESTART_ROUNDS=3
KT_RESTART_TIMEOUT_MS=2000 # the driver's timeout_ms: room for the bridge's round trips

# kt_restart_held: the device holds a request's answer (model status pending=yes).
kt_restart_held() {
	kt_host model status | grep -q 'pending=yes'
}

kt_restart_guest() {
	# Bounded: the timeout, plus what a loaded host's TCG guest may add to
	# it (once seen: 1.2 s, in systemd mode).
	local round pci gen new lo=$KT_RESTART_TIMEOUT_MS hi=$((KT_RESTART_TIMEOUT_MS * 2))

	kt_insmod timeout_ms=$KT_RESTART_TIMEOUT_MS poll_ms=200
	kt_wait_state ready
	pci=$(kt_pci)
	gen=$(cat "$KT_SYS/generation")
	for ((round = 1; round <= KT_RESTART_ROUNDS; round++)); do
		# A request the device takes and holds: it is waiting when the device dies.
		kt_model fault delay 20000
		kt_bg attest$round attest "$(kt_hex 16 "$round")"
		e2e_wait_for 5 "the device to hold request $round" kt_restart_held
		kt_host model-kill >/dev/null || e2e_fail "could not kill the device process"
		kt_bg_wait attest$round 10
		[ "$(kt_get error "$KT_REPLY")" = ETIMEDOUT ] ||
			e2e_fail "round $round: the waiting request: $(kt_oneline "$KT_REPLY")"
		kt_assert_between "$lo" "$hi" "$(kt_elapsed)" "round $round: ms until ETIMEDOUT"
		e2e_assert_eq unresponsive "$(kt_state)" "round $round: state with the device dead"
		kt_nl_ok "round $round: GET_RECORD with the device dead (the memory stays)" record
		e2e_assert_eq "$gen" "$(kt_get generation "$KT_REPLY")" "round $round: last record's generation"

		kt_host model-start >/dev/null || e2e_fail "could not start a new device process"
		kt_wait_state ready 15
		e2e_assert_eq "$pci" "$(kt_pci)" "round $round: the PCI function (no replug)"
		new=$(cat "$KT_SYS/generation")
		[ "$new" -gt "$gen" ] || e2e_fail "round $round: generation did not move on: $gen -> $new"
		e2e_log "ok: round $round: generation $gen -> $new"
		kt_nl_ok "round $round: GET_RECORD from the new device" record
		e2e_assert_eq "$new" "$(kt_get generation "$KT_REPLY")" "round $round: record generation"
		kt_nl_ok "round $round: ATTEST on the new device" attest "$(kt_hex 16 $((round + 9)))"
		gen=$new
	done
	# One bind for the whole test: the function never went away.
	e2e_assert_eq 1 "$(dmesg | grep -c 'otattest0: ABI')" "probes of otattest0"
	rmmod otattest
}

kt_restart_host_check() {
	local log=$E2E_RUN_DIR/model.log joins
	# QEMU never lost the device: no unplug, one ivshmem connection throughout.
	if grep -q DEVICE_DELETED "$E2E_RUN_DIR/qmp-events.log" 2>/dev/null; then
		e2e_fail "QEMU deleted a device"
	fi
	[ "$(grep -c 'server: info guest-connected' "$log")" = 1 ] ||
		e2e_fail "QEMU connected to the server more than once"
	joins=$(grep -c 'server: info device-connected peer=0' "$log")
	[ "$joins" = $((KT_RESTART_ROUNDS + 1)) ] ||
		e2e_fail "device processes joined $joins times, not $((KT_RESTART_ROUNDS + 1))"
	[ "$(grep -c 'server: info device-disconnected peer=0 reason=hangup' "$log")" -ge "$KT_RESTART_ROUNDS" ] ||
		e2e_fail "the server did not see each killed device go"
	e2e_log "ok: one QEMU connection, $joins device processes, no unplug"
}
