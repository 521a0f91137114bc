#!/usr/bin/env bash
# A fleet (issue 31): evidence_tool --fleet makes 1,000 devices (FLEET_N),
# each with its own OTP secret, device id, identity certificate (one CA)
# and alias certificate, attesting to one nonce; every tenth boots in
# lifecycle dev. One CRL of the CA revokes every 25th device's identity
# (index 13 modulo 25, so some are dev as well), and one policy allows
# prod alone. otattest-verify --batch and the otattest scheme for Veraison
# (otattest-veraison appraise: the code the Veraison plugin runs) judge
# every device; fleet_agree.py holds both to the same verdict per device,
# and to the one the corpus was made for. `make bench-fleet` times the
# same corpus (tests/bench/fleet.sh). Prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
n=${FLEET_N:-1000}
tool=$B/tests/interop/evidence_tool
verify=$B/otattest-verify
scheme=build/veraison/bin/otattest-veraison

suite="fleet agreement"
# shellcheck source=tests/interop/tap.sh
. tests/interop/tap.sh
make -s "$tool" "$verify" >/dev/null || fail_early "cannot build $tool and $verify"
command -v go >/dev/null || fail_early "no Go toolchain (go) on PATH"
make -s veraison-tools >/dev/null || fail_early "make veraison-tools failed"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$tool" --fleet "$n" "$work" >/dev/null || fail_early "evidence_tool --fleet $n failed"
ls "$work"/dev-*.cose >"$work/list"
[ "$(wc -l <"$work/list")" = "$n" ]
ok $? "evidence_tool --fleet wrote $n devices' evidence"
/usr/bin/python3 tests/interop/fleet_agree.py revoke "$work" 25 13
ok $? "a CRL revoking every 25th device's identity certificate"
printf 'allowed_lifecycle = prod\n' >"$work/policy"
nonce=$(cat "$work/nonce.hex")
"$verify" --batch --json --ca "$work/ca.pem" --nonce "$nonce" --policy "$work/policy" \
	--crl "$work/fleet.crl" - <"$work/list" >"$work/verify.jsonl" 2>"$work/verify.err"
[ $? = 1 ]
ok $? "otattest-verify --batch: some devices fail (exit 1): $(tail -1 "$work/verify.err")"
# shellcheck disable=SC2046 # one argument per evidence file
"$scheme" appraise --ca "$work/ca.pem" --crl "$work/fleet.crl" --nonce "$nonce" --policy "$work/policy" \
	$(cat "$work/list") >"$work/scheme.jsonl" 2>"$work/scheme.err"
[ $? = 1 ] && grep -q "not every evidence was affirmed" "$work/scheme.err"
ok $? "otattest-veraison appraise: some devices not affirmed (exit 1): $(head -1 "$work/scheme.err")"
/usr/bin/python3 tests/interop/fleet_agree.py compare "$work" "$work/verify.jsonl" "$work/scheme.jsonl" 25 13 \
	>"$work/compare.out"
tally "fleet_agree.py" "$work/compare.out"
finish
