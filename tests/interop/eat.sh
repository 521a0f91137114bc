#!/usr/bin/env bash
# Evidence profile v2 (docs/evidence.md) against independent implementations
# nobody in otattest wrote, on evidence the firmware's runtime made on the
# software HAL (evidence_tool: ROM_EXT booted on the tag path; BL0 B refused,
# BL0 A booted as the fallback, so a refused attempt's own component too):
#  - evidence_cose.mjs: npm @auth0/cose (COSE_Sign1, x5chain to the CA, ES256)
#    and cborg in strict mode (evidence, claims, each measured component,
#    re-encoded to the same bytes), every registered claim's RFC 9711 type
#  - evidence_cwt.py: PyPI cwt (COSE_Sign1 with the alias key, the claims as
#    CWT claims) and cryptography (the chain), the RFC 9711 types again
# Each checker must also fail evidence whose oemboot claim is no bool (the
# signature and the type check, nothing else) and truncated evidence (with
# its summary line: a failed check, not a crash).
# Prints one line per check and "N passed, N failed"; exits 1 on failure.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
tool=$B/tests/interop/evidence_tool
py=python3.11

fail_early() {
	echo "eat interop: $1"
	echo "0 passed, 1 failed"
	exit 1
}
[ -d tests/interop/node_modules/@auth0/cose ] && [ -d tests/interop/node_modules/cborg ] ||
	fail_early "npm @auth0/cose and cborg are not installed in tests/interop (make deps)"
$py -c 'import cwt, cbor2, cryptography' 2>/dev/null ||
	fail_early "python3.11 with PyPI cwt is needed (make deps)"
make -s "$tool" >/dev/null || fail_early "cannot build $tool"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() {
	if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok - $2"; else fail=$((fail + 1)); echo "not ok - $2"; fi
}
# run_checker label want-rc out cmd...: its checks counted as ours, its exit code held.
run_checker() {
	local label=$1 want=$2 out=$3 rc
	shift 3
	"$@" >"$out" 2>&1
	rc=$?
	if [ "$want" = 0 ]; then
		while read -r line; do
			case "$line" in
			"ok - "*) pass=$((pass + 1)); echo "$label: $line" ;;
			"not ok - "*) fail=$((fail + 1)); echo "$label: $line" ;;
			esac
		done <"$out"
	fi
	[ "$rc" = "$want" ]
	ok $? "$label exits $want (exit $rc)"
}
# only_failures out check...: the checker failed exactly these checks.
only_failures() {
	local out=$1
	shift
	[ "$(grep -c '^not ok - ' "$out")" = $# ] || return 1
	for c in "$@"; do grep -qxF "not ok - $c" "$out" || return 1; done
}

"$tool" "$work" >/dev/null 2>&1 || fail_early "evidence_tool failed"
nonce=$(cat "$work/nonce.hex")
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/other.key" \
	-out "$work/other.pem" -subj "/CN=another CA" -days 1 2>/dev/null

run_checker "@auth0/cose+cborg" 0 "$work/js.out" \
	node tests/interop/evidence_cose.mjs "$work/evidence.cose" "$work/ca.pem" "$nonce" "$work/other.pem"
run_checker "cwt" 0 "$work/py.out" \
	$py tests/interop/evidence_cwt.py "$work/evidence.cose" "$work/ca.pem" "$nonce"

# oemboot (262 = 19 01 06) true (f5) replaced by the integer 1 (01): the same
# length, so only the signature and that claim's type are wrong.
$py - "$work/evidence.cose" "$work/bad-type.cose" <<'PYEOF'
import sys
ev = open(sys.argv[1], "rb").read()
assert ev.count(b"\x19\x01\x06\xf5") == 1, "oemboot true not found once"
open(sys.argv[2], "wb").write(ev.replace(b"\x19\x01\x06\xf5", b"\x19\x01\x06\x01"))
PYEOF
ok $? "evidence with oemboot 1 instead of true written"
run_checker "@auth0/cose+cborg on oemboot 1" 1 "$work/js-bad.out" \
	node tests/interop/evidence_cose.mjs "$work/bad-type.cose" "$work/ca.pem" "$nonce" "$work/other.pem"
only_failures "$work/js-bad.out" \
	"@auth0/cose: x5chain validates to the CA and ES256 verifies with the alias key" \
	"RFC 9711: oemboot (262) is bool"
ok $? "@auth0/cose+cborg: oemboot 1 fails the signature and the RFC 9711 type, nothing else"
run_checker "cwt on oemboot 1" 1 "$work/py-bad.out" \
	$py tests/interop/evidence_cwt.py "$work/bad-type.cose" "$work/ca.pem" "$nonce"
only_failures "$work/py-bad.out" "cwt: the COSE_Sign1 verifies with the alias key" \
	"RFC 9711: oemboot (262) is bool"
ok $? "cwt: oemboot 1 fails the signature and the RFC 9711 type, nothing else"

# Hostile input: truncated evidence is a failed check with a summary, not a crash.
head -c 100 "$work/evidence.cose" >"$work/trunc.cose"
run_checker "@auth0/cose+cborg on truncated evidence" 1 "$work/js-trunc.out" \
	node tests/interop/evidence_cose.mjs "$work/trunc.cose" "$work/ca.pem" "$nonce" "$work/other.pem"
tail -1 "$work/js-trunc.out" | grep -qx '[0-9]* passed, [1-9][0-9]* failed'
ok $? "@auth0/cose+cborg: truncated evidence is refused with its summary"
run_checker "cwt on truncated evidence" 1 "$work/py-trunc.out" \
	$py tests/interop/evidence_cwt.py "$work/trunc.cose" "$work/ca.pem" "$nonce"
tail -1 "$work/py-trunc.out" | grep -qx '[0-9]* passed, [1-9][0-9]* failed'
ok $? "cwt: truncated evidence is refused with its summary"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
