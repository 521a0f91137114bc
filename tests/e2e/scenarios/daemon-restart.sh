# SPDX-License-Identifier: MIT
# otattestd restarted while clients call: nothing the kernel accepted is
# lost. (1) A client attesting in a loop through three restarts sees no
# failure: the stopping instance releases its name and answers what it
# accepted, new calls wait in the bus for the next one (D-Bus activation).
# (2) An attestation the device is still working on (the model holds its
# answer back) when SIGTERM arrives is answered before the daemon exits.
# (3) A rotation the kernel accepted completes on the device even when
# otattestd is SIGKILLed mid-way, and the next instance shows its result.
E2E_DESCRIPTION="otattestd: restarts under load lose no request the kernel accepted"
E2E_MODE=systemd
E2E_TIMEOUT=150
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c qemu-model/src/*.c firmware/boot/*.c)
DAEMON_INSMOD_ARGS=timeout_ms=20000

# Shared helpers; the host tree is visible in the guest at its own path.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

host_prepare() {
	daemon_provision
}

guest_setup() {
	daemon_guest_setup
}

attest_loop() {
	local i rc
	for ((i = 0; i < 24; i++)); do
		rc=0
		e2e_as e2e-user "$E2E_SRC/build/otattestctl" -q attest \
			--nonce "$(printf '%032x' "$i")" -o "/tmp/loop-ev" >>/tmp/loop.log 2>&1 || rc=$?
		echo "$i $rc" >>/tmp/loop.rc
	done
}

guest_main() {
	local loop_pid pid_before kv rc

	daemon_start ready

	# (1) Three restarts while a client attests in a loop.
	attest_loop &
	loop_pid=$!
	for _ in 1 2 3; do
		sleep 1
		pid_before=$(daemon_pid)
		systemctl restart otattestd.service
		[ "$(daemon_pid)" != "$pid_before" ] || e2e_fail "restart did not replace the process"
	done
	wait "$loop_pid"
	cat /tmp/loop.log
	e2e_assert_eq 24 "$(wc -l </tmp/loop.rc)" "attestations attempted"
	e2e_assert_eq 0 "$(awk '$2 != 0' /tmp/loop.rc | wc -l)" "attestations that failed across 3 restarts"

	# (2) SIGTERM while the device holds an accepted attestation's answer.
	e2e_signal slow
	e2e_wait_host slow 20
	rc=0
	e2e_as e2e-user "$E2E_SRC/build/otattestctl" attest --nonce 0123456789abcdef0123456789abcdef \
		-o /tmp/slow-ev >/tmp/slow.log 2>&1 &
	loop_pid=$!
	sleep 0.7
	systemctl restart otattestd.service
	wait "$loop_pid" || rc=$?
	cat /tmp/slow.log
	e2e_assert_eq 0 "$rc" "attestation in flight across a restart"
	[ -s /tmp/slow-ev ] || e2e_fail "no evidence from the attestation in flight"
	e2e_wait_for 15 "otattest0 ready after the restart" daemon_state_is ready

	# (3) SIGKILL during a rotation the kernel accepted.
	kv=$(daemon_prop TagKeyVersion | cut -d' ' -f2)
	e2e_as e2e-update "$E2E_SRC/build/otattestctl" rotate >/tmp/rot.log 2>&1 &
	loop_pid=$!
	sleep 0.7
	systemctl kill -s KILL otattestd.service
	wait "$loop_pid" || e2e_log "the rotating client lost its daemon (exit $?), as it must"
	cat /tmp/rot.log
	e2e_signal fast
	e2e_wait_host fast 20
	# Restart=on-failure brings it back; the device finished the rotation.
	e2e_wait_for 20 "otattestd back after SIGKILL" daemon_has_name
	e2e_wait_for 20 "the rotation's result in TagKeyVersion" \
		test "$(daemon_prop TagKeyVersion 2>/dev/null)" = "u $((kv + 1))"
	e2e_log "TagKeyVersion $kv -> $((kv + 1)) survived the SIGKILL"
	[ "$(systemctl show -p NRestarts --value otattestd.service)" -ge 1 ] ||
		e2e_fail "systemd did not restart otattestd after SIGKILL (Restart=on-failure)"
	daemon_save_journal
}

host_hook() {
	e2e_wait_guest slow 120
	e2e_model_ctl fault delay 2500 >/dev/null
	e2e_tell_guest slow
	e2e_wait_guest fast 120
	e2e_model_ctl fault delay 0 >/dev/null
	e2e_tell_guest fast
}
