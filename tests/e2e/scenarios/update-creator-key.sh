# SPDX-License-Identifier: MIT
# A creator key change end to end (issue 28 item 5, docs/keychain.md
# "Identity hand-over"): the device, personalized with ROM_EXT signed by
# creator key 1 and a second creator key in OTP, installs a ROM_EXT signed
# by creator key 2 and takes it with a warm reset. Its identity changes
# (ROM_EXT's attest secret binds the creator key) and the old identity
# hands over: the evidence fetched in the guest carries the hand-over and
# otattest-verify passes it with the manufacturer CA alone. On the host the
# same evidence without the hand-over is refused (VERIFY_CHAIN_UNTRUSTED,
# then VERIFY_HANDOVER_GAP), and with a byte of the hand-over's signature
# flipped (VERIFY_HANDOVER_FORGED).
E2E_DESCRIPTION="creator key change: the identity hands over; otattest-verify follows it, refuses it missing or forged"
E2E_MODE=systemd
E2E_TIMEOUT=180
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage
	build/otattest-verify)
E2E_REQUIRES=(firmware/rom_ext/identity_handover.c firmware/lib/identity_log.c
	libotattest/src/host/handover_verify.c)

. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/update-lib.bash" ||
	{ echo "cannot read update-lib.bash" >&2; return 1; }

CK_NONCE=00112233445566778899aabbccddeeff01234567

host_prepare() {
	local p=$E2E_RUN_DIR/prov u=$E2E_OUT/updates
	mkdir -p "$p" || return 1
	ul_oi keygen --out "$p/creator2.key" --pub "$p/creator2.pub" || return 1
	DAEMON_CREATOR_KEY2=$p/creator2.pub ul_provision || return 1
	e2e_payload rom_ext 16384 >"$p/rom_ext-v3.code"
	# shellcheck disable=SC2046 # e2e_salt is one option or none
	ul_oi sign --key "$p/creator2.key" --stage rom_ext --svn 3 --payload "$p/rom_ext-v3.code" \
		$(e2e_salt) --out "$u/rom_ext-creator2.img" || return 1
	chmod 644 "$u"/*.img
}

# ck_evidence NAME: the device's evidence now, in $E2E_OUT/evidence-NAME.cose;
# otattest-verify passes it with the CA alone.
ck_evidence() {
	local verify="$E2E_SRC/build/otattest-verify"
	e2e_as e2e-user "$DAEMON_CTL" attest --nonce "$CK_NONCE" -o /tmp/ev.cose || e2e_fail "attest ($1)"
	cp /tmp/ev.cose "$E2E_OUT/evidence-$1.cose"
	"$verify" --json --ca "$E2E_OUT/ca.pem" --nonce "$CK_NONCE" /tmp/ev.cose >/tmp/ev.json ||
		e2e_fail "otattest-verify ($1): $(head -c 600 /tmp/ev.json)"
	jq -e '.verdict == "pass" and .authentic' /tmp/ev.json >/dev/null ||
		e2e_fail "evidence $1: $(head -c 400 /tmp/ev.json)"
	e2e_log "evidence $1: passes"
}

guest_main() {
	local u=$E2E_OUT/updates
	ul_guest_start
	ck_evidence creator1
	ul_ctl install --stage rom_ext "$u/rom_ext-creator2.img"
	ul_ctl warm-reset
	e2e_wait_for 10 "RunningRomExtSlot b" test "$(ul_prop RunningRomExtSlot)" = b
	e2e_assert_eq 3 "$(cat "$KT_SYS/slot_rom_ext_b/svn")" "sysfs slot_rom_ext_b/svn"
	ck_evidence creator2
	# The hand-over is in the evidence (its magic), and was not before.
	grep -qa OTHO "$E2E_OUT/evidence-creator2.cose" || e2e_fail "no hand-over in the evidence"
	! grep -qa OTHO "$E2E_OUT/evidence-creator1.cose" || e2e_fail "a hand-over before the change"
	daemon_save_journal
}

# On the host: the creator-2 evidence without its hand-over and with it forged.
host_check() {
	local verify=$E2E_ROOT/build/otattest-verify ev=$E2E_OUT/evidence-creator2.cose
	python3 - "$ev" "$E2E_OUT/evidence-missing.cose" "$E2E_OUT/evidence-forged.cose" <<'PY' || return 1
import sys, cbor2
raw = open(sys.argv[1], 'rb').read()
tag = cbor2.loads(raw)
prot, unprot, payload, sig = tag.value
assert -65537 in unprot and len(unprot[-65537]) == 1, unprot.keys()
ho = unprot[-65537][0]
missing = cbor2.dumps(cbor2.CBORTag(18, [prot, {33: unprot[33]}, payload, sig]), canonical=True)
open(sys.argv[2], 'wb').write(missing)
at = raw.index(ho) + 176 + 9          # a byte of the hand-over's signature
forged = bytearray(raw); forged[at] ^= 0x40
open(sys.argv[3], 'wb').write(bytes(forged))
PY
	"$verify" --json --ca "$E2E_OUT/ca.pem" --nonce "$CK_NONCE" "$E2E_OUT/evidence-missing.cose" \
		>"$E2E_OUT/missing.json" && { echo "the evidence without its hand-over passed"; return 1; }
	jq -e '[.failures[].check][0:2] == ["VERIFY_CHAIN_UNTRUSTED", "VERIFY_HANDOVER_GAP"]' \
		"$E2E_OUT/missing.json" >/dev/null ||
		{ echo "missing hand-over: $(jq -c '[.failures[].check]' "$E2E_OUT/missing.json")"; return 1; }
	"$verify" --json --ca "$E2E_OUT/ca.pem" --nonce "$CK_NONCE" "$E2E_OUT/evidence-forged.cose" \
		>"$E2E_OUT/forged.json" && { echo "the forged hand-over passed"; return 1; }
	jq -e '.failures[0].check == "VERIFY_HANDOVER_FORGED"' "$E2E_OUT/forged.json" >/dev/null ||
		{ echo "forged hand-over: $(jq -c '[.failures[].check]' "$E2E_OUT/forged.json")"; return 1; }
}
