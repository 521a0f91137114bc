# SPDX-License-Identifier: MIT
# The device stops answering (model fault "drop": it reads requests and
# never answers). Every request fails with ETIMEDOUT after timeout_ms, not
# later and not never; the device shows as "unresponsive" with
# HOST_TIMEOUT; what does not need the mailbox (sysfs, GET_RECORD, which
# reads shared memory) keeps working; once the device answers again the
# state is the device's own again.
E2E_DESCRIPTION="model never answers: ETIMEDOUT in bounded time, state unresponsive, nothing waits behind it, recovery"
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
	local st0 nonce i probe

	kt_insmod timeout_ms=1000
	st0=$(kt_state)
	nonce=$(kt_hex 32)
	kt_nl_answered "ATTEST before the fault" attest "$nonce"

	kt_listen mon monitor -c 2 -t 20
	kt_model fault drop on
	for i in 1 2; do
		kt_nl_err ETIMEDOUT "ATTEST $i while the device is silent" attest "$nonce"
		e2e_assert_eq "the device did not answer in time" "$(kt_msg)" "extack message"
		kt_assert_between 1000 1900 "$(kt_elapsed)" "ms until ETIMEDOUT (timeout_ms=1000)"
		e2e_assert_eq unresponsive "$(kt_state)" "state while silent"
		kt_assert_detail 0x00091501 "HOST_TIMEOUT"
	done
	# Nothing waits behind a silent device: while one request probes it,
	# another is refused at once (DRIVER_UNRESPONSIVE), not after timeout_ms.
	"$KT_NLTEST" attest "$nonce" >/tmp/probe.out 2>&1 &
	probe=$!
	sleep 0.3
	kt_nl_err ENXIO "ATTEST while another request probes the silent device" attest "$nonce"
	e2e_assert_eq DRIVER_UNRESPONSIVE "$(kt_get status "$KT_REPLY")" "status in the extack cookie"
	kt_assert_between 0 300 "$(kt_elapsed)" "ms until refused"
	wait "$probe" || true
	grep -q '^error=ETIMEDOUT' /tmp/probe.out || e2e_fail "the probe: $(kt_oneline "$(cat /tmp/probe.out)")"
	kt_dmesg_has 'otattest0: attest \(command 2, request [0-9]+\): no answer in 1000 ms' "timeout logged"
	kt_dmesg_has 'otattest0: device stopped answering' "state change logged"

	# Reading what the device already exported needs no answer.
	kt_nl_ok "GET_RECORD while silent" record -o /tmp/rec.bin
	cmp -s /tmp/rec.bin "$KT_SYS/record" || e2e_fail "GET_RECORD and sysfs record differ"
	kt_nl_ok "GET_DEVICE while silent" device
	e2e_assert_eq 18 "$(kt_get state "$KT_REPLY")" "OTATTEST_A_STATE (OTATTEST_STATE_UNRESPONSIVE)"

	# A shorter timeout takes effect at once.
	echo 300 >/sys/module/otattest/parameters/timeout_ms
	kt_nl_err ETIMEDOUT "ATTEST with timeout_ms=300" attest "$nonce"
	kt_assert_between 300 1000 "$(kt_elapsed)" "ms until ETIMEDOUT (timeout_ms=300)"

	kt_model fault drop off
	kt_nl_answered "ATTEST after the fault" attest "$nonce"
	e2e_assert_eq "$st0" "$(kt_state)" "state after the device answered again"
	kt_listen_wait mon
	grep -q 'event=state_changed .*state=18 state_detail=0x00091501' /tmp/mon.out ||
		e2e_fail "no STATE_CHANGED to unresponsive: $(cat /tmp/mon.out)"
	e2e_log "ok: STATE_CHANGED events: $(grep -c state_changed /tmp/mon.out)"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
