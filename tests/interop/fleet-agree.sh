#!/usr/bin/env bash
# A fleet (issue 31): evidence_tool --fleet makes 1,000 devices (FLEET_N),
# each with its own OTP secret, device id, identity certificate (one CA)
# and alias certificate, attesting to one nonce; every tenth boots in
# lifecycle dev. One CRL of the CA revokes every 25th device's identity
# (index 13 modulo 25, so some are dev as well), and one policy file,
# setting every key (crl aside, an endorsement), allows prod alone and
# every device's images. otattest-verify --batch and the otattest scheme
# for Veraison (otattest-veraison appraise: the code the Veraison plugin
# runs) judge every device; fleet_agree.py holds both to the same verdict
# per device, and to the one the corpus was made for. The same policy as
# Veraison's policy management takes it (otattest-veraison policy-rego),
# applied by Veraison's own policy agent in-process (appraise --rego),
# must give every device exactly the scheme's appraisal under the file;
# and that Rego with the lifecycle rule left out must not. `make
# bench-fleet` times the same corpus (tests/bench/fleet.sh). Prints "N
# passed, N failed".
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
# Every key; the values every fleet device's images pass (rom_ext boots on
# the tag path with ECDSA, bl0 with two keys; 03... signs only the bl0
# attempt each device refused).
k() { printf "$1%.0s" $(seq 32); } # a key id: 32 times the byte $1
cat >"$work/policy" <<EOF
min_svn_rom_ext = 2
min_svn_bl0 = 5
allowed_root_key = $(k c1)
allowed_root_key = $(k 01)
max_delegation_depth = 1
hybrid_required = false
tag_path_allowed = true
debug_images_allowed = false
min_epoch = 1
allowed_lifecycle = prod
denied_delegate_key = $(k 03)
require_committed = true
allow_reverted = false
min_revocation_sequence = 0
EOF
nonce=$(cat "$work/nonce.hex")
"$verify" --batch --json --ca "$work/ca.pem" --nonce "$nonce" --policy "$work/policy" \
	--crl "$work/fleet.crl" - <"$work/list" >"$work/verify.jsonl" 2>"$work/verify.err"
[ $? = 1 ]
ok $? "otattest-verify --batch: some devices fail (exit 1): $(tail -1 "$work/verify.err")"
appraise() { # NAME LIST OPTION FILE: the scheme on every device of LIST, to NAME.jsonl and NAME.err
	# shellcheck disable=SC2046 # one argument per evidence file
	"$scheme" appraise --ca "$work/ca.pem" --crl "$work/fleet.crl" --nonce "$nonce" "$3" "$4" \
		$(cat "$2") >"$work/$1.jsonl" 2>"$work/$1.err"
	[ $? = 1 ] && grep -q "not every evidence was affirmed" "$work/$1.err"
}
appraise scheme "$work/list" --policy "$work/policy"
ok $? "otattest-veraison appraise: some devices not affirmed (exit 1): $(head -1 "$work/scheme.err")"
/usr/bin/python3 tests/interop/fleet_agree.py compare "$work" "$work/verify.jsonl" "$work/scheme.jsonl" 25 13 \
	>"$work/compare.out"
tally "fleet_agree.py" "$work/compare.out"

"$scheme" policy-rego "$work/policy" >"$work/policy.rego"
ok $? "otattest-veraison policy-rego: the policy file as Rego"
appraise rego "$work/list" --rego "$work/policy.rego"
ok $? "appraise --rego (Veraison's policy agent): some devices not affirmed: $(head -1 "$work/rego.err")"
/usr/bin/python3 tests/interop/fleet_agree.py compare "$work" "$work/verify.jsonl" "$work/rego.jsonl" 25 13 \
	>"$work/compare-rego.out"
tail -1 "$work/compare-rego.out" | grep -q " 0 failed"
ok $? "the Rego: every device the verdict otattest-verify gives it: $(tail -1 "$work/compare-rego.out")"
/usr/bin/python3 tests/interop/fleet_agree.py same "$work/scheme.jsonl" "$work/rego.jsonl" >"$work/same.out"
ok $? "the Rego: every device the scheme's appraisal under the file: $(tail -1 "$work/same.out")"
# The planted mismatch: the Rego without its lifecycle rule, on the first
# 50 devices (five are dev).
sed '/^# allowed_lifecycle$/,/^}$/d' "$work/policy.rego" >"$work/dropped.rego"
! cmp -s "$work/policy.rego" "$work/dropped.rego"
ok $? "a Rego without the allowed_lifecycle rule"
head -50 "$work/list" >"$work/list50"
appraise dropped "$work/list50" --rego "$work/dropped.rego"
head -50 "$work/scheme.jsonl" >"$work/scheme50.jsonl"
/usr/bin/python3 tests/interop/fleet_agree.py same "$work/scheme50.jsonl" "$work/dropped.jsonl" >"$work/dropped.out"
[ $? = 1 ] && [ "$(grep -c '^not ok - dev-' "$work/dropped.out")" = 5 ]
ok $? "the Rego without that rule differs from the scheme on exactly the 5 dev devices of 50: $(tail -1 "$work/dropped.out")"
finish
