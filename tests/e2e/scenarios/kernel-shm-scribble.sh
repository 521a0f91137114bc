# SPDX-License-Identifier: MIT
# Someone other than the device writes the shared memory (the host hook,
# through the model's memfd: any peer of an ivshmem region can). What the
# model's faults cannot do: a bad info block magic, regions moved under
# the driver, a seqlock held odd (info block and record), and a forged
# answer planted in the response region before a request. The driver
# refuses each with its own status, refuses requests without ringing the
# device while it cannot trust the layout (it reads the info block before
# it rings), never takes the forged answer, and comes back
# when the device rewrites its shared memory (the model rewrites it from
# private copies at every change: a power cycle here). GET_RECORD serves
# the driver's snapshot, which shows the refusal once the refresh the
# refused request asked for has run.
E2E_DESCRIPTION="hostile writes to shared memory: info, layout, stuck seqlocks, forged answer; the doorbell peer not read from it"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")

# kt_restore: the device rewrites its shared memory; wait until ready, and
# until the driver asked the runtime its version (requests are counted).
kt_restore() {
	kt_model power-cycle
	kt_wait_state ready 20
	kt_wait_runtime
}

# kt_attest_rings_the_device WHAT: an attestation the device itself answers.
kt_attest_rings_the_device() {
	local n0
	n0=$(kt_model_stat requests)
	kt_nl_answered "$1" attest "$(kt_hex 16 3)"
	e2e_assert_eq $((n0 + 1)) "$(kt_model_stat requests)" "requests the device received ($1)"
}

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local n0 last forged case off hex detail err msg

	# Another doorbell peer named in the info block (byte 0x10, once
	# device_peer_id, now reserved): the device's peer is fixed by the ABI
	# (OTA_SHM_DEVICE_PEER_ID) and the driver never reads one from the
	# memory, neither at bind (it bound to peer 7 and rang nobody: ETIMEDOUT)
	# nor later (it was DRIVER_PEER_CHANGED, the device cut off).
	kt_host scribble 0x10 07000000 >/dev/null || e2e_fail "scribble failed"
	kt_insmod timeout_ms=2000 poll_ms=200
	kt_wait_state ready
	kt_wait_runtime
	kt_attest_rings_the_device "ATTEST with peer 7 in the info block at bind"
	kt_host scribble 0x10 09000000 >/dev/null || e2e_fail "scribble failed"
	kt_attest_rings_the_device "ATTEST with peer 9 in the info block while bound"
	e2e_assert_eq ready "$(kt_state)" "state with another peer in the info block"
	kt_restore

	# Bad info block contents: the driver stops trusting the offsets.
	#   magic; record_offset overlapping the request region; record_size
	#   shrunk to a still valid 0x800 (a move); event_counter held odd.
	for case in "0x0 58585858 0x000e1601 EPROTO shared memory info block magic is wrong" \
		"0x20 08100000 0x000e1603 EPROTO shared memory regions are out of range or overlap" \
		"0x24 00080000 0x000e1705 EPROTO the device moved its shared memory regions while bound; rebind the driver" \
		"0x1c ffffffff 0x00081707 EBUSY the info block kept changing while being read"; do
		read -r off hex detail err msg <<<"$case"
		kt_host scribble "$off" "$hex" >/dev/null || e2e_fail "scribble failed"
		n0=$(kt_model_stat requests)
		kt_nl_err "$err" "ATTEST with info byte $off = $hex" attest "$(kt_hex 16)"
		e2e_assert_eq "$msg" "$(kt_msg)" "extack message"
		e2e_assert_eq "$n0" "$(kt_model_stat requests)" "requests the device received meanwhile (none)"
		kt_wait_state info_invalid 5
		kt_assert_detail "$detail" "info byte $off = $hex"
		kt_nl_err "$err" "GET_RECORD while the info block is bad" record
		kt_restore
		kt_nl_answered "ATTEST after the device rewrote its memory" attest "$(kt_hex 16 1)"
	done

	# The record region's seqlock held odd: a writer that never finishes.
	off=$(printf '%#x' $((0x$(kt_host peek 0x20 4 | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/'))))
	kt_host scribble "$off" 01000000 >/dev/null || e2e_fail "scribble failed"
	# Nobody told the driver: it serves the record it validated last.
	kt_nl_ok "GET_RECORD from the snapshot, the seqlock stuck odd unseen" record
	# One event interrupt (what a device rings after writing its record): it looks.
	kt_model fault irq-storm 1,1000,1
	kt_wait_state record_invalid 5
	kt_model fault irq-storm off
	kt_nl_err EBUSY "GET_RECORD with the record seqlock stuck odd" record
	e2e_assert_eq "boot record changed while being read" "$(kt_msg)" "extack message"
	kt_restore

	# A forged answer waiting for the next sequence number: never taken.
	last=$(kt_model_stat last-seq)
	off=$(printf '%#x' $((0x$(kt_host peek 0x30 4 | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/'))))
	forged=$(printf '%08x' $((last + 1)) | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/')
	# seq, command 2 (ATTEST), length 5, status OTA_OK, then "EVIL!".
	kt_host scribble "$off" "${forged}020000000500000039070000""4556494c21" >/dev/null ||
		e2e_fail "scribble failed"
	kt_nl_ok "ATTEST with a forged answer in place" attest "$(kt_hex 32 7)"
	[ "$(kt_get evidence "$KT_REPLY")" != 4556494c21 ] || e2e_fail "the driver took the forged answer"
	[ "$(kt_get evidence "$KT_REPLY" | wc -c)" -gt 200 ] ||
		e2e_fail "evidence is not the device's: $(kt_oneline "$KT_REPLY")"
	e2e_log "ok: the device's evidence, not the forged answer"
	e2e_assert_eq ready "$(kt_state)" "state at the end"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
