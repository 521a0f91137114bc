# SPDX-License-Identifier: MIT
# The device answers late (model fault "delay"). An answer inside
# timeout_ms is taken (and took at least the delay); one after it is too
# late: the request fails with ETIMEDOUT, the device refuses the next
# request with MBOX_BUSY while it still holds the late answer, and when
# that answer lands, under a sequence number nobody waits for any more, the
# driver ignores it. Afterwards requests work as before.
# The too-late delay is 1 s past the timeout, and 3 s more for each step of
# E2E_WAIT_SCALE above 1 (7 s past it on the debug kernel, where the scale
# is 3): the request after the timeout must reach the device while it
# still holds the late answer, and a KASAN guest on a busy host took over
# 3 s between the two.
E2E_DESCRIPTION="model answers late: taken within the timeout, stale answers ignored"
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
	local st0 nonce warnings scale=${E2E_WAIT_SCALE:-1} late

	kt_insmod timeout_ms=1500
	st0=$(kt_state)
	nonce=$(kt_hex 16 3)

	kt_model fault delay 400
	kt_nl_answered "ATTEST answered 400 ms late" attest "$nonce"
	kt_assert_between 400 1500 "$(kt_elapsed)" "ms for a 400 ms late answer"
	e2e_assert_eq "$st0" "$(kt_state)" "state after a late but timely answer"

	late=$((1500 + 1000 + 3000 * (scale - 1)))
	kt_model fault delay "$late"
	kt_nl_err ETIMEDOUT "ATTEST answered $late ms late (timeout 1500)" attest "$nonce"
	kt_assert_between 1500 $((late - 100)) "$(kt_elapsed)" "ms until ETIMEDOUT"
	e2e_assert_eq unresponsive "$(kt_state)" "state after the timeout"
	# The device is still holding the first answer back.
	kt_nl_err EBUSY "ATTEST while the late answer is pending" attest "$nonce"
	e2e_assert_eq "the device is already serving a request" "$(kt_msg)" "extack message"
	# Let the late answers land (they are for requests nobody awaits).
	sleep $(((late - 1500) / 1000 + 2))
	kt_model fault delay off
	warnings=$(dmesg | grep -c 'claims request' || true)
	kt_nl_answered "ATTEST after the late answers landed" attest "$nonce"
	kt_nl_answered "and another" attest "$nonce"
	e2e_assert_eq "$st0" "$(kt_state)" "state once the device answers in time again"
	e2e_assert_eq "$warnings" "$(dmesg | grep -c 'claims request' || true)" "protocol complaints after the stale answers"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
