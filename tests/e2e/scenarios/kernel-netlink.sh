# SPDX-License-Identifier: MIT
# The netlink family on a provisioned device: GET_DEVICE (do and dump),
# GET_RECORD, ATTEST, STABLE_SIGN and GET_CERTS work; an unprivileged
# user reads the snapshot (GET_DEVICE, GET_RECORD) and is refused every
# command that goes to the device (EPERM, HOST_PERMISSION in the cookie:
# it must go through otattestd); the results are checked on the host by independent
# code: the evidence by otattest-verify against the manufacturer CA (with
# the record the driver exported), the stable-key signature by Python's
# cryptography over SHA-256("OTATTEST-STABLE-SIGN-V1" || svn || message),
# the certificates by openssl verify. The strict policies refuse what a
# command does not take, with the attribute named and a message.
E2E_DESCRIPTION="netlink get/attest/stable-sign/certs work; unprivileged: snapshot only; policies refuse bad input"
E2E_MODE=fast
E2E_TIMEOUT=60
E2E_DEVICE=1
E2E_PROVISION=1
E2E_REQUIRES=('qemu-model/board/*.c')
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BINARIES=(build/tests/e2e/kernel/otattest-nltest)
E2E_BUILD_TARGETS=(build/otattest-verify)
E2E_FILES=("tests/e2e/kernel/guest-lib.sh:/e2e/kernel/guest-lib.sh")

guest_main() {
	. /e2e/kernel/guest-lib.sh
	local nonce msg min pk1 pk2 n0 cmd

	kt_insmod
	kt_wait_state ready
	kt_wait_runtime # the driver's own GET_INFO, before requests are counted
	nonce=$(kt_hex 32 11)
	msg=$(kt_hex 40 5)
	min=$(cat "$KT_SYS/min_svn")

	kt_nl_ok "GET_RECORD" record -o /tmp/record.bin
	cmp /tmp/record.bin "$KT_SYS/record" || e2e_fail "GET_RECORD differs from sysfs"
	kt_nl_ok "GET_DEVICE dump" devices
	grep -q 'device=0 device_name=otattest0 state=2 state_detail=0x00000739' <<<"$KT_REPLY" ||
		e2e_fail "dump: $(kt_oneline "$KT_REPLY")"

	# An unprivileged user reads the snapshot, and reaches the device only
	# through otattestd: every device command is refused before it queues.
	for cmd in record device; do
		KT_REPLY=$(e2e_as e2e-user "$KT_NLTEST" $cmd) || e2e_fail "$cmd as e2e-user: $(kt_oneline "$KT_REPLY")"
	done
	e2e_log "ok: GET_RECORD and GET_DEVICE as e2e-user"
	n0=$(kt_model_stat requests)
	for cmd in "attest $nonce" "sign 0 $msg" certs rotate "update 1"; do
		KT_REPLY=$(e2e_as e2e-user "$KT_NLTEST" $cmd) && e2e_fail "$cmd as e2e-user succeeded"
		e2e_assert_eq EPERM "$(kt_get error "$KT_REPLY")" "${cmd%% *} as e2e-user"
		e2e_assert_eq HOST_PERMISSION "$(kt_get status "$KT_REPLY")" "${cmd%% *} as e2e-user: status"
	done
	e2e_assert_eq "$n0" "$(kt_model_stat requests)" \
		"requests the device received from the refused commands"
	e2e_log "ok: every device command as e2e-user: EPERM, HOST_PERMISSION, nothing sent"

	# Attest as root: evidence to the host for otattest-verify.
	kt_nl_ok "ATTEST" attest "$nonce" -o /tmp/evidence.cose
	e2e_save /tmp/evidence.cose
	e2e_save /tmp/record.bin
	echo "$nonce" >/tmp/nonce
	e2e_save /tmp/nonce
	kt_nl_ok "ATTEST, 16-byte nonce" attest "$(kt_hex 16)"
	kt_nl_ok "ATTEST, 64-byte nonce" attest "$(kt_hex 64)"
	kt_nl_err ERANGE "ATTEST, 15-byte nonce" attest "$(kt_hex 15)"
	e2e_assert_eq "OTATTEST_A_NONCE must be 16 to 64 bytes" "$(kt_msg)" "extack message"
	e2e_assert_eq "" "$(kt_get status "$KT_REPLY")" "no status for a malformed request"
	kt_nl_err ERANGE "ATTEST, 65-byte nonce" attest "$(kt_hex 65)"
	kt_nl_err EINVAL "ATTEST without a nonce" raw 3 -a 1=u32:0
	e2e_assert_eq 7 "$(kt_get missing_attr "$KT_REPLY")" "missing attribute reported (OTATTEST_A_NONCE)"

	# Stable-key signatures: the key for min_svn, twice, and for 0.
	kt_nl_ok "STABLE_SIGN svn $min" sign "$min" "$msg"
	pk1=$(kt_get pubkey "$KT_REPLY")
	printf 'svn=%s\nmsg=%s\n%s\n' "$min" "$msg" "$KT_REPLY" >/tmp/sign.txt
	e2e_save /tmp/sign.txt
	kt_nl_ok "STABLE_SIGN svn $min again" sign "$min" "$(kt_hex 16 1)"
	e2e_assert_eq "$pk1" "$(kt_get pubkey "$KT_REPLY")" "the stable key for svn $min is stable"
	if [ "$min" -gt 0 ]; then
		kt_nl_ok "STABLE_SIGN svn 0" sign 0 "$msg"
		pk2=$(kt_get pubkey "$KT_REPLY")
		[ "$pk1" != "$pk2" ] || e2e_fail "svn 0 and svn $min share a key"
		e2e_log "ok: svn 0 has its own key"
	fi
	kt_nl_err EACCES "STABLE_SIGN above min_svn" sign $((min + 1)) "$msg"
	e2e_assert_eq "key for an SVN above min-SVN-since-cold-boot is refused" "$(kt_msg)" "extack message"
	e2e_assert_eq CHAIN_SVN_ABOVE_MIN "$(kt_get status "$KT_REPLY")" "status in the extack cookie"
	kt_nl_err ERANGE "STABLE_SIGN svn 256 (policy)" sign 256 "$msg"

	kt_nl_ok "GET_CERTS" certs -o /tmp/cert
	e2e_assert_eq 2 "$(ls /tmp/cert.*.der | wc -l)" "certificates (alias, identity)"
	e2e_save /tmp/cert.0.der alias.der
	e2e_save /tmp/cert.1.der identity.der

	# Policies: what a command does not take, wrong sizes, bad selectors.
	kt_nl_err EINVAL "GET_RECORD with a NONCE" raw 2 -a 1=u32:0 -a 7=bin:$(kt_hex 16)
	e2e_assert_eq "Unknown attribute type" "$(kt_msg)" "extack message (above GET_RECORD's maxattr)"
	kt_nl_err EINVAL "an attribute type above OTATTEST_A_MAX" raw 2 -a 1=u32:0 -a 99=u32:1
	kt_nl_err EINVAL "DEVICE as a u8" raw 2 -a 1=u8:0
	kt_nl_err EINVAL "no selector" raw 2
	kt_nl_err ENODEV "device 7" -d 7 record
	e2e_assert_eq "no such otattest device" "$(kt_msg)" "extack message"
	e2e_assert_eq HOST_NO_DEVICE "$(kt_get status "$KT_REPLY")" "status in the extack cookie"
	kt_nl_err EINVAL "name otattest00" -n otattest00 record
	kt_nl_err EINVAL "selectors that disagree" raw 2 -a 1=u32:0 -a 2=str:otattest1
	kt_nl_err EINVAL "UPDATE_RESET slot 2" update 2
	e2e_assert_eq "slot must be 0 (A), 1 (B) or 0xffffffff (the other slot)" "$(kt_msg)" "extack message"
	kt_nl_err EOPNOTSUPP "command 99" raw 99 -a 1=u32:0
	e2e_assert_eq ready "$(kt_state)" "state after all that"
	rmmod otattest
}

host_hook() {
	. "$E2E_ROOT/tests/e2e/kernel/host-lib.sh"
	kt_bridge
}

host_check() {
	local a=$E2E_OUT/artifacts nonce
	nonce=$(cat "$a/nonce")
	"$E2E_ROOT/build/otattest-verify" --ca "$E2E_PROVISION_DIR/ca.pem" --nonce "$nonce" \
		--record "$a/record.bin" "$a/evidence.cose" || e2e_fail "otattest-verify refused the evidence"
	if "$E2E_ROOT/build/otattest-verify" -q --ca "$E2E_PROVISION_DIR/ca.pem" \
		--nonce "${nonce%??}00" "$a/evidence.cose"; then
		e2e_fail "otattest-verify accepted the evidence with another nonce"
	fi
	openssl x509 -inform der -in "$a/alias.der" -out "$a/alias.pem"
	openssl x509 -inform der -in "$a/identity.der" -out "$a/identity.pem"
	openssl verify -CAfile "$E2E_PROVISION_DIR/ca.pem" -untrusted "$a/identity.pem" "$a/alias.pem" ||
		e2e_fail "the certificate chain from GET_CERTS does not verify"
	/usr/bin/python3 - "$a/sign.txt" <<'PY' || e2e_fail "the stable-key signature does not verify"
import hashlib, struct, sys
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils
kv = dict(l.split("=", 1) for l in open(sys.argv[1]).read().split() if "=" in l)
svn, msg = int(kv["svn"]), bytes.fromhex(kv["msg"])
sig, pub = bytes.fromhex(kv["signature"]), bytes.fromhex(kv["pubkey"])
digest = hashlib.sha256(b"OTATTEST-STABLE-SIGN-V1" + struct.pack("<I", svn) + msg).digest()
key = ec.EllipticCurvePublicNumbers(int.from_bytes(pub[:32], "big"), int.from_bytes(pub[32:], "big"),
                                    ec.SECP256R1()).public_key()
der = utils.encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big"))
key.verify(der, digest, ec.ECDSA(utils.Prehashed(hashes.SHA256())))
print(f"stable-key signature for svn {svn} verifies")
PY
}
