# SPDX-License-Identifier: MIT
# The driver takes no more from the device than the command table allows
# (otattest/mailbox.h), however much room the response region has: the
# model claims longer answers (fault "response-length"). Evidence up to the
# evidence size limit, OTA_EVIDENCE_MAX_BYTES (4352), is taken; 4 bytes
# more is refused as DRIVER_RESPONSE_OVERSIZE (EPROTO) and logged, as is a
# stable-sign answer longer than its struct. Afterwards requests work as
# before.
E2E_DESCRIPTION="responses over the command table's bound (evidence limit) are refused"
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
	local nonce msg oversize="the device's response is longer than its region or the command allows"

	kt_insmod
	kt_wait_state ready
	nonce=$(kt_hex 32 9)
	msg=$(kt_hex 16 4)

	kt_nl_ok "ATTEST" attest "$nonce" -o /tmp/evidence.cose
	[ "$(kt_get evidence_len "$KT_REPLY")" -le 4352 ] ||
		e2e_fail "evidence of $(kt_get evidence_len "$KT_REPLY") bytes, over the limit"

	kt_model fault response-length 4352
	kt_nl_ok "ATTEST answer of exactly the evidence limit" attest "$nonce" -o /tmp/evidence.cose
	e2e_assert_eq 4352 "$(kt_get evidence_len "$KT_REPLY")" "evidence length taken"

	kt_model fault response-length 4356
	kt_nl_err EPROTO "ATTEST answer 4 bytes over the evidence limit" attest "$nonce"
	e2e_assert_eq "$oversize" "$(kt_msg)" "extack message"
	kt_dmesg_has 'otattest0: attest: 4356-byte response, region [0-9]+ bytes, at most 4352 expected' \
		"oversize logged with the command's name and bound"

	kt_model fault response-length 140
	kt_nl_err EPROTO "STABLE_SIGN answer longer than its struct" sign 0 "$msg"
	e2e_assert_eq "$oversize" "$(kt_msg)" "extack message"

	kt_model fault response-length off
	kt_nl_ok "ATTEST once the device tells the truth again" attest "$nonce"
	kt_nl_ok "STABLE_SIGN too" sign 0 "$msg"
	e2e_assert_eq ready "$(kt_state)" "state"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}
