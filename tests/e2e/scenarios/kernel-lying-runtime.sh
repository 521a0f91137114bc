# SPDX-License-Identifier: MIT
# A runtime an attacker controls lies, and the verifier is not fooled
# (issues 13, 27). The compromised BL0 rewrites its own RAM copy of the
# boot record, as code running at RUNTIME can. With E2E_CORE=rv32 it is
# attacker code: BL0's slots hold the hostile BL0
# (build/rv32/hostile-bl0.elf, tests/rv32/hostile/), signed by the owner's
# delegate as a stolen delegate key would sign it, and the guest orders
# each lie through the product's own path: an ATTEST whose nonce is the
# attacker's knock (e2e_hostile_knock, HOSTILE_KNOCK). With the host build
# (the default), whose runtime is the firmware compiled into the model,
# the board plays that code ("compromise FIELD VALUE", docs/model.md). The
# device then serves the lie through the driver - GET_RECORD and ATTEST,
# signed with the genuine alias key - and otattest-verify on the host,
# holding every claim to what ROM_EXT certified in the alias certificate
# before the runtime ran, refuses each lie with its own reason, the same
# on both. The honest evidence before passes; a power cycle ends the lie.
E2E_DESCRIPTION="a lying runtime's record reaches the verifier through the driver and is refused"
E2E_MODE=fast
E2E_TIMEOUT=120
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c' 'firmware/rom_ext/*.c' 'libotattest/src/host/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_BUILD_TARGETS=(build/otattest-verify build/rv32/hostile-bl0.elf)
E2E_CORE_BL0=build/rv32/hostile-bl0.elf
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
	"revocation-sequence 9 VERIFY_STATE_MISMATCH"
	"revert-reason watchdog VERIFY_STATE_MISMATCH"
)

# With E2E_CORE=rv32 the lies are the hostile BL0's: one knock a lie, in
# $E2E_OUT/knocks; without that file the board plays them.
host_prepare() {
	local lie field value
	[ "${E2E_CORE:-host}" = rv32 ] || return 0
	mkdir -p "$E2E_OUT"
	for lie in "${LIES[@]}"; do
		read -r field value _ <<<"$lie"
		e2e_hostile_knock "$field $value"
	done >"$E2E_OUT/knocks"
}

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local nonce i lie field value knocks=()

	[ -f "$E2E_OUT/knocks" ] && mapfile -t knocks <"$E2E_OUT/knocks"
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
		if [ ${#knocks[@]} -gt 0 ]; then
			kt_nl_ok "ATTEST, the attacker's knock: lie about $field" attest "${knocks[i]}" \
				-o /tmp/knock.cose
		else
			kt_model compromise "$field" "$value"
		fi
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
