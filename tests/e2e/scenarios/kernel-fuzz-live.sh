# SPDX-License-Identifier: MIT
# The running driver fuzzed. For E2E_FUZZ_SECONDS (default 60) a root and
# an unprivileged process each send generated generic netlink requests to
# the otattest family (otattest-nlfuzz: valid and invalid commands,
# attributes of every type and size, nesting, lying lengths, dump/ack/echo
# flags; root's admin commands reset the device) and read and write the
# device's sysfs files, while on the host the device process is killed and
# restarted, power-cycled, and made to drop, delay and corrupt its answers
# and its record. Every answer the kernel sends must be well formed; the
# kernel log must stay free of BUG, WARNING, Oops, lockdep, hung-task and
# the rest of the runner's list; afterwards the device is ready and answers
# GET_RECORD, ATTEST and a dump, and the module unloads.
#   E2E_FUZZ_SECONDS=600 tests/e2e/run.sh kernel-fuzz-live   # a longer run
E2E_FUZZ_SECONDS=${E2E_FUZZ_SECONDS:-60}
E2E_DESCRIPTION="netlink and sysfs fuzzed live (root and unprivileged) while the device dies, resets and lies"
E2E_MODE=fast
E2E_TIMEOUT=$((E2E_FUZZ_SECONDS + 90))
E2E_DEVICE=1
E2E_MODEL_SPLIT=1
E2E_PROVISION=1
E2E_MODEL_MAY_EXIT=1 # the device dies on purpose; the server is held to a clean stop
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest build/tests/e2e/kernel/otattest-nlfuzz)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")

KF_NLFUZZ=${E2E_SRC:-}/build/tests/e2e/kernel/otattest-nlfuzz

# The fuzzing time reaches the guest through the share: the guest sources
# this file without the host's environment.
host_prepare() {
	echo "$E2E_FUZZ_SECONDS" >"$E2E_OUT/fuzz-seconds"
}

# kf_worker NAME [USER]: one fuzzing process, output in /tmp/NAME.out and
# its exit status in /tmp/NAME.rc.
kf_worker() {
	local name=$1 user=${2:-} seed=$3 secs=$4
	(
		rc=0
		if [ -n "$user" ]; then
			e2e_as "$user" "$KF_NLFUZZ" --seconds "$secs" --seed "$seed" --sysfs "$KT_SYS" \
				>"/tmp/$name.out" 2>&1 || rc=$?
		else
			"$KF_NLFUZZ" --seconds "$secs" --seed "$seed" --sysfs "$KT_SYS" >"/tmp/$name.out" 2>&1 || rc=$?
		fi
		echo "$rc" >"/tmp/$name.rc"
	) &
}

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local secs w seed=$EPOCHSECONDS

	secs=$(cat "$E2E_OUT/fuzz-seconds")
	# A short timeout keeps requests to a dead or silent device from
	# eating the run; the poll finds a restarted device quickly.
	kt_insmod timeout_ms=400 poll_ms=100
	kt_wait_state ready
	e2e_log "fuzzing for $secs s, seeds $seed and $((seed + 1))"
	e2e_signal fuzz-start
	kf_worker fuzz-root "" "$seed" "$secs"
	kf_worker fuzz-user e2e-user $((seed + 1)) "$secs"
	for w in fuzz-root fuzz-user; do
		e2e_wait_for $((secs + 30)) "the $w process to end" test -e "/tmp/$w.rc"
		e2e_save "/tmp/$w.out" "$w.txt"
		e2e_log "$w: $(kt_oneline "$(cat "/tmp/$w.out")")"
		e2e_assert_eq 0 "$(cat "/tmp/$w.rc")" "$w exit status (1: a malformed answer)"
		[ "$(kt_get sent "$(cat "/tmp/$w.out")")" -gt 100 ] || e2e_fail "$w sent too little to mean anything"
	done
	grep -q '^err_EPERM=' /tmp/fuzz-user.out || e2e_fail "the unprivileged process was never refused an admin command"

	# The host clears its faults and makes sure a device process runs.
	e2e_signal fuzz-done
	e2e_wait_host calm 30
	kt_wait_state ready 30
	kt_nl_ok "GET_RECORD after the fuzzing" record -o /tmp/record.bin
	cmp /tmp/record.bin "$KT_SYS/record" || e2e_fail "GET_RECORD differs from sysfs"
	kt_nl_ok "ATTEST after the fuzzing" attest "$(kt_hex 32 3)"
	kt_nl_ok "ATTEST as e2e-user" attest "$(kt_hex 16 4)"
	kt_nl_ok "GET_DEVICE dump after the fuzzing" devices
	rmmod otattest
}

# Chaos while the guest fuzzes: one disturbance every 2-5 s until the
# guest is done, then a calm device (no fault, a device process running).
host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	local dead=0 n=0 f faults=("drop on" "delay 700" "corrupt-response 2" "response-length 70000"
		"corrupt-record 0" "record-length 99999" "irq-storm 20000,20000,all")

	KT_RESTARTED_PID=
	e2e_wait_guest fuzz-start 60
	while [ ! -e "$E2E_OUT/signals/fuzz-done" ]; do
		sleep $((2 + RANDOM % 4))
		n=$((n + 1))
		if [ "$dead" = 1 ]; then
			kt_model_start >/dev/null && dead=0
			e2e_log "chaos $n: device process started again"
			continue
		fi
		case $((RANDOM % 4)) in
		0)
			kt_model_kill >/dev/null && dead=1
			e2e_log "chaos $n: device process killed"
			;;
		1)
			e2e_log "chaos $n: power-cycle: $(e2e_model_ctl power-cycle 2>&1 | head -c 200)"
			;;
		*)
			f=${faults[RANDOM % ${#faults[@]}]}
			e2e_model_ctl fault clear >/dev/null 2>&1 || true
			# shellcheck disable=SC2086 # a knob and its value: two words
			e2e_log "chaos $n: fault $f: $(e2e_model_ctl fault $f 2>&1 | head -c 200)"
			;;
		esac
	done
	[ "$dead" = 0 ] || kt_model_start >/dev/null || e2e_fail "could not start the device again"
	e2e_model_ctl fault clear >/dev/null || e2e_fail "could not clear the faults"
	e2e_log "calm after $n disturbances"
	e2e_tell_guest calm
	while [ ! -e "$E2E_OUT/result" ]; do
		sleep 0.1
	done
	kt_stop_restarted
}
