# SPDX-License-Identifier: MIT
# The smoke test's checks can fail: with each of the model's fault knobs
# set over its control socket, the probe of model-smoke must report the
# specific failure, and pass again once the knob is cleared.
E2E_DESCRIPTION="model-smoke's probe catches a corrupt, silent or torn device"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/tests/e2e/probe/otattest_probe.ko)

# knob value | what the probe must say
FAULTS=(
	"corrupt-response 0|fail: record in the response is invalid: boot record magic is wrong"
	"response-length 65536|fail: response length 65536 out of bounds"
	"drop on|fail: no mailbox interrupt within 500 ms.*"
	"corrupt-record 0|fail: GET_RECORD answer differs from the record region.*"
)

probe_once() {
	e2e_insmod otattest_probe rounds=2 timeout_ms=500 ready_timeout_ms=2000
	cat /sys/module/otattest_probe/parameters/result
	rmmod otattest_probe
}

guest_main() {
	local i expect
	e2e_assert_eq pass "$(probe_once)" "probe with no fault"
	for i in "${!FAULTS[@]}"; do
		expect=${FAULTS[$i]#*|}
		e2e_signal "want-$i"
		e2e_wait_host "set-$i" 20
		e2e_assert_match "$expect" "$(probe_once)" "probe with fault '${FAULTS[$i]%%|*}'"
	done
	e2e_signal want-clear
	e2e_wait_host cleared 20
	e2e_assert_eq pass "$(probe_once)" "probe with the faults cleared"
}

host_hook() {
	local i
	for i in "${!FAULTS[@]}"; do
		e2e_wait_guest "want-$i" 40
		e2e_model_ctl fault clear >/dev/null
		# shellcheck disable=SC2086 # "name value" is two words on purpose
		e2e_model_ctl fault ${FAULTS[$i]%%|*}
		e2e_tell_guest "set-$i"
	done
	e2e_wait_guest want-clear 40
	e2e_model_ctl fault clear
	e2e_tell_guest cleared
}
