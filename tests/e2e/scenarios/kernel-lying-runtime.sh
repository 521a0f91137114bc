# SPDX-License-Identifier: MIT
# A runtime an attacker controls lies, and the verifier is not fooled
# (issue 13). The model plays the compromised BL0 ("compromise FIELD
# VALUE": the runtime's own RAM copy of the boot record edited, as code
# running at RUNTIME could). The device then serves the lie through the
# driver - GET_RECORD and ATTEST, signed with the genuine alias key - and
# otattest-verify on the host, holding every claim to what ROM_EXT
# certified in the alias certificate before the runtime ran, refuses each
# lie with its own reason. The honest evidence before passes; a power cycle
# ends the compromise.
E2E_DESCRIPTION="a lying runtime's record reaches the verifier through the driver and is refused"
E2E_MODE=fast
E2E_TIMEOUT=120
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c' 'firmware/rom_ext/*.c' 'libotattest/src/host/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_BUILD_TARGETS=(build/otattest-verify)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")

# FIELD VALUE the reason the verifier must give. Each lie keeps the claims
# consistent (docs/evidence.md, "Consistency of an attempt"): BL0 booted on
# the tag path keeps TAG_BOOT in its usage, only DEBUG is claimed.
LIES=(
	"bl0-path tag VERIFY_RESULT_MISMATCH"
	"bl0-scheme ecdsa-p256+slh-dsa-sha2-128s VERIFY_RESULT_MISMATCH"
	"bl0-depth 0 VERIFY_RESULT_MISMATCH"
	"bl0-root-key flip VERIFY_RESULT_MISMATCH"
	"bl0-usage-flags 3 VERIFY_RESULT_MISMATCH"
	"min-svn 7 VERIFY_STATE_MISMATCH"
	"epoch 9 VERIFY_STATE_MISMATCH"
	"floor-bl0 9 VERIFY_STATE_MISMATCH"
	"lifecycle prod VERIFY_STATE_MISMATCH"
)

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local nonce i lie field value

	kt_insmod
	kt_wait_state ready
	nonce=$(kt_hex 32 7)
	echo "$nonce" >/tmp/nonce
	e2e_save /tmp/nonce
	kt_nl_ok "ATTEST, honest" attest "$nonce" -o /tmp/honest.cose
	e2e_save /tmp/honest.cose
	i=0
	for lie in "${LIES[@]}"; do
		read -r field value _ <<<"$lie"
		kt_model compromise "$field" "$value"
		kt_nl_ok "ATTEST, runtime lying about $field" attest "$nonce" -o "/tmp/lie-$i.cose"
		e2e_save "/tmp/lie-$i.cose"
		kt_model power-cycle
		kt_wait_state ready
		i=$((i + 1))
	done
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}

host_check() {
	local a=$E2E_OUT/artifacts nonce i lie field value want got
	local verify=("$E2E_ROOT/build/otattest-verify" --ca "$E2E_PROVISION_DIR/ca.pem")

	nonce=$(cat "$a/nonce")
	"${verify[@]}" --nonce "$nonce" "$a/honest.cose" >/dev/null ||
		e2e_fail "otattest-verify refused the honest evidence"
	i=0
	for lie in "${LIES[@]}"; do
		read -r field value want <<<"$lie"
		if "${verify[@]}" --json --nonce "$nonce" "$a/lie-$i.cose" >"$a/lie-$i.json"; then
			e2e_fail "otattest-verify accepted evidence from a runtime lying about $field"
		fi
		got=$(jq -r '[.failures[].check] | join(",")' "$a/lie-$i.json")
		[[ ",$got," == *",$want,"* ]] ||
			e2e_fail "lie about $field: expected $want among the failures, got '$got'"
		e2e_log "ok: runtime lying about $field ($value): refused with $got"
		i=$((i + 1))
	done
}
