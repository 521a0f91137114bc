#!/usr/bin/env bash
# The otattest scheme for Veraison and libotattest agree (docs/veraison.md):
# on the evidence the evidence suite makes (tests/interop/evidence.sh: the
# firmware's runtime on the software HAL through evidence_tool - a good
# device, a hybrid one, each lifecycle, each certified claim a compromised
# runtime changes, each part of the evidence with a byte flipped, a
# truncated one, a wrong nonce, another CA, each policy rule, the release's
# CoRIM), otattest-verify (--json and
# --ear) and otattest-veraison appraise (the scheme in-process, the code
# the Veraison plugin runs) name the same failed checks for the same
# stages and the same EAR submodules, statuses and AR4SI vectors.
# Before that, the scheme's Go unit tests (go vet, go test). Prints one
# line per evidence and "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
tool=$B/tests/interop/evidence_tool
verify=$B/otattest-verify
scheme=build/veraison/bin/otattest-veraison
otimage=$B/otimage
corim_tool=$B/tests/interop/corim_tool
py=/usr/bin/python3

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
	exit
}
pass=0 fail=0
work_log=$(mktemp)
trap 'rm -f "$work_log"' EXIT
fail_early() {
	echo "veraison agreement: $1"
	fail=1
	finish
}
make -s "$tool" "$verify" "$otimage" "$corim_tool" >/dev/null ||
	fail_early "cannot build $tool, $verify, $otimage and $corim_tool"
# Skipped only when Go itself is missing; a Go build that fails fails.
if ! command -v go >/dev/null; then
	echo "veraison agreement: skipped: no Go toolchain on PATH (make deps)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
make -s veraison-tools >/dev/null || fail_early "make veraison-tools failed (the Go build of the scheme)"


work=$(mktemp -d)
trap 'rm -rf "$work" "$work_log"' EXIT
openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$work/ear.key"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/other.key" \
	-out "$work/other.pem" -subj "/CN=another CA" -days 1 2>/dev/null

# agree [--tier-only] NAME EVIDENCE CA ARGS...: both verifiers on one evidence.
agree() {
	local only=()
	[ "$1" = --tier-only ] && { only=(--tier-only); shift; }
	local name=$1 ev=$2 ca=$3
	shift 3
	"$verify" --json --ca "$ca" "$@" "$ev" >"$work/v.json" 2>/dev/null
	"$verify" --ear "$work/ear.key" --ca "$ca" "$@" "$ev" >"$work/v.jwt" 2>/dev/null
	"$scheme" appraise --ca "$ca" "$@" "$ev" >"$work/s.json" 2>/dev/null
	if $py tests/interop/veraison_agree.py "${only[@]}" "$name" "$work/v.json" "$work/v.jwt" "$work/s.json"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
}

# make DIR [evidence_tool options]: one evidence of the suite.
make_ev() {
	local dir=$work/$1
	shift
	mkdir -p "$dir" && "$tool" "$@" "$dir" >/dev/null 2>&1 || fail_early "evidence_tool $* failed"
}

make_ev good
nonce=$(cat "$work/good/nonce.hex")
# The scheme's own Go unit tests first (make veraison-test), those that
# need evidence given this run's.
if OTATTEST_EVIDENCE_DIR=$work/good make -s veraison-test VERAISON_TEST_FLAGS=-v >"$work_log" 2>&1 &&
	! grep -q -- '--- SKIP' "$work_log"; then
	pass=$((pass + 1))
	echo "ok - go vet and go test of the scheme"
else
	fail=$((fail + 1))
	sed 's/^/    /' "$work_log"
	echo "not ok - go vet and go test of the scheme"
fi
agree "an honest device" "$work/good/evidence.cose" "$work/good/ca.pem" --nonce "$nonce"
agree "no nonce checked" "$work/good/evidence.cose" "$work/good/ca.pem" --no-nonce
agree "a wrong nonce" "$work/good/evidence.cose" "$work/good/ca.pem" \
	--nonce "$(printf %02x $((0x${nonce:0:2} ^ 1)))${nonce:2}"
agree "another CA" "$work/good/evidence.cose" "$work/other.pem" --nonce "$nonce"
# A creator key change (evidence_tool --handover, docs/keychain.md): the
# identity handed over, the hand-over left out, the hand-over forged.
make_ev handover --handover
ho_nonce=$(cat "$work/handover/nonce.hex")
agree "an identity handed over" "$work/handover/evidence.cose" "$work/handover/ca.pem" --nonce "$ho_nonce"
agree "a hand-over left out" "$work/handover/evidence-nohandover.cose" "$work/handover/ca.pem" \
	--nonce "$ho_nonce"
agree "a forged hand-over" "$work/handover/evidence-forged.cose" "$work/handover/ca.pem" --nonce "$ho_nonce"
# Reference values: the CoRIM of the release the device booted
# (corim_tool, as tests/interop/corim.sh makes it) and that of a record
# whose BL0 names another root key.
"$otimage" keygen --out "$work/release.pem" --pub "$work/release.pub" >/dev/null 2>&1 &&
	"$corim_tool" "$work/good/record.bin" "$work/release.pem" "$work/booted.corim" >/dev/null 2>&1 ||
	fail_early "corim_tool failed"
make_ev other-release --lie root-key
"$corim_tool" "$work/other-release/record.bin" "$work/release.pem" "$work/keys.corim" >/dev/null 2>&1 ||
	fail_early "corim_tool failed"
refs=(--corim-key "$work/release.pub" --corim)
agree "the release the device booted" "$work/good/evidence.cose" "$work/good/ca.pem" \
	--nonce "$nonce" "${refs[@]}" "$work/booted.corim"
agree "reference values of two releases" "$work/good/evidence.cose" "$work/good/ca.pem" \
	--nonce "$nonce" "${refs[@]}" "$work/booted.corim" "${refs[@]}" "$work/keys.corim"
agree "a stage listed with other signer keys" "$work/good/evidence.cose" "$work/good/ca.pem" \
	--nonce "$nonce" "${refs[@]}" "$work/keys.corim"
# Revocation: the same CRL (crl_make.py, Python's cryptography) given to
# otattest-verify --crl and to the scheme as Veraison's endorsement store
# holds it (appraise --crl). A delta CRL, alone or beside the full CRL,
# and a scoped one are refused by both before any evidence is judged
# (otattest-verify exit 11; the scheme's provisioning refuses it the same).
crl_of() { $py tests/interop/crl_make.py "$work/good/evidence.cose" "$work/good/ca.pem" "$work/good/ca.key" "$1" "$work/$1.crl" ||
	fail_early "crl_make.py $1 failed"; }
for kind in revoked other expired; do
	crl_of "$kind"
	agree "CRL: $kind" "$work/good/evidence.cose" "$work/good/ca.pem" --nonce "$nonce" --crl "$work/$kind.crl"
done
for kind in delta full+delta idp; do
	crl_of "$kind"
	"$verify" --json --ca "$work/good/ca.pem" --nonce "$nonce" --crl "$work/$kind.crl" "$work/good/evidence.cose" \
		>"$work/v.json" 2>/dev/null
	vrc=$?
	"$scheme" appraise --ca "$work/good/ca.pem" --nonce "$nonce" --crl "$work/$kind.crl" "$work/good/evidence.cose" \
		>/dev/null 2>"$work/s.err"
	src=$?
	if [ "$vrc" = 11 ] && jq -e '.status == "X509_CRL_UNSUPPORTED"' "$work/v.json" >/dev/null &&
		[ "$src" != 0 ] && grep -q "scope this verifier does not implement" "$work/s.err"; then
		pass=$((pass + 1))
		echo "ok - CRL: $kind refused by both before any evidence"
	else
		fail=$((fail + 1))
		echo "not ok - CRL: $kind: otattest-verify exit $vrc $(cat "$work/v.json"), scheme exit $src $(cat "$work/s.err")"
	fi
done
for lc in test_unlocked dev prod prod_end rma; do
	make_ev "lc-$lc" --lifecycle "$lc"
	agree "lifecycle $lc" "$work/lc-$lc/evidence.cose" "$work/lc-$lc/ca.pem" \
		--nonce "$(cat "$work/lc-$lc/nonce.hex")"
done
# Each policy rule alone (as evidence.sh applies them), and policies the
# evidence passes: the same failures, stages and EAR vectors.
"$verify" --json --ca "$work/good/ca.pem" --nonce "$nonce" "$work/good/evidence.cose" >"$work/claims.json" 2>/dev/null
key_of() { # stage n: the n-th key id of the stage's booted attempt
	jq -r --arg s "$1" --argjson n "$2" '.claims.stages[] | select(.booted and .stage == $s) | .key_ids[$n]' \
		"$work/claims.json"
}
rom_ext_root=$(key_of rom_ext 0) bl0_root=$(key_of bl0 0) bl0_delegate=$(key_of bl0 1)
policy_agree() { # what text [evidence-dir]
	local dir=${3:-$work/good}
	printf '%b\n' "$2" >"$work/rule.policy"
	agree "policy: $1" "$dir/evidence.cose" "$dir/ca.pem" --nonce "$(cat "$dir/nonce.hex")" \
		--policy "$work/rule.policy"
}
policy_agree "an SVN below the minimum" "min_svn_bl0 = 6"
policy_agree "SVNs at the minimum" "min_svn_bl0 = 5\nmin_svn_rom_ext = 2"
policy_agree "the tag path forbidden" "tag_path_allowed = false"
policy_agree "a root key not allowed" "allowed_root_key = $rom_ext_root"
policy_agree "both root keys allowed" "allowed_root_key = $rom_ext_root\nallowed_root_key = $bl0_root"
policy_agree "a delegation too deep" "max_delegation_depth = 0"
policy_agree "hybrid required" "hybrid_required = true"
policy_agree "an epoch below the minimum" "min_epoch = 9"
policy_agree "a denied delegate" "denied_delegate_key = $bl0_delegate"
policy_agree "debug images refused" "debug_images_allowed = no"
policy_agree "production lifecycles only, a dev device" "allowed_lifecycle = prod\nallowed_lifecycle = prod_end" \
	"$work/lc-dev"
policy_agree "production lifecycles only, a prod device" "allowed_lifecycle = prod" "$work/lc-prod"
make_ev hybrid --rom-ext-hybrid
agree "a hybrid device of the release" "$work/hybrid/evidence.cose" "$work/hybrid/ca.pem" \
	--nonce "$(cat "$work/hybrid/nonce.hex")" "${refs[@]}" "$work/booted.corim"
agree "a hybrid device" "$work/hybrid/evidence.cose" "$work/hybrid/ca.pem" --nonce "$(cat "$work/hybrid/nonce.hex")"
# The update state (issue 28): a trial and a reverted trial, each rule
# passing and refusing ("committed, revocation >= N").
for state in trial reverted; do
	make_ev "update-$state" --update "$state"
	policy_agree "no update rule, $state" "min_svn_bl0 = 0" "$work/update-$state"
	policy_agree "require_committed, $state" "require_committed = true" "$work/update-$state"
	policy_agree "require_committed and allow_reverted, $state" \
		"require_committed = true\nallow_reverted = true" "$work/update-$state"
	policy_agree "allow_reverted = false, $state" "allow_reverted = false" "$work/update-$state"
	policy_agree "revocation >= 3, $state" "min_revocation_sequence = 3" "$work/update-$state"
	policy_agree "committed, revocation >= 4, $state" \
		"require_committed = true\nmin_revocation_sequence = 4" "$work/update-$state"
done
policy_agree "require_committed, a committed device" "require_committed = true\nallow_reverted = false"
for lie in root-key delegate-key depth path scheme stage-tag-key-version min-svn epoch lifecycle \
	floor-rom-ext floor-bl0 tag-key-version chain-max-svn rom-identity path-reason usage-flags \
	revocation-sequence revert-reason reset-reason trial-boots; do
	make_ev "lie-$lie" --lie "$lie"
	agree "a runtime that changed $lie" "$work/lie-$lie/evidence.cose" "$work/lie-$lie/ca.pem" \
		--nonce "$(cat "$work/lie-$lie/nonce.hex")"
done
# Attempts that break a rule of docs/evidence.md's consistency table, as
# ROM_EXT certified them (evidence_tool --inconsistent): both verifiers
# refuse the claims (VERIFY_CLAIMS_INVALID), whatever the certificate says.
for rule in tag-path-without-tag-boot-usage retagged-without-reason retagged-without-tag-boot-usage \
	tag-path-with-tag-boot-off refused-on-a-path accepted-on-no-path check-only-reason \
	not-tag-capable-with-tag-boot-usage tag-boot-off-reason-with-tag-boot-on; do
	make_ev "inc-$rule" --inconsistent "$rule"
	agree "inconsistent: $rule" "$work/inc-$rule/evidence.cose" "$work/inc-$rule/ca.pem" \
		--nonce "$(cat "$work/inc-$rule/nonce.hex")"
	if ! jq -e '[.failures[].check] == ["VERIFY_CLAIMS_INVALID"]' "$work/v.json" >/dev/null; then
		fail=$((fail + 1))
		echo "not ok - inconsistent: $rule is not VERIFY_CLAIMS_INVALID alone: $(cat "$work/v.json")"
	fi
done
# A DEBUG image the runtime says is not: the policy's rule would pass the
# lie, the certified usage flags do not (RESULT_MISMATCH on both sides).
policy_agree "debug images refused, DEBUG hidden by the runtime" "debug_images_allowed = no" \
	"$work/lie-usage-flags"
head -c 100 "$work/good/evidence.cose" >"$work/trunc.cose"
agree "a truncated evidence" "$work/trunc.cose" "$work/good/ca.pem" --nonce "$nonce"
cp "$work/good/evidence.cose" "$work/trail.cose" && printf '\0' >>"$work/trail.cose"
agree "a byte after the evidence" "$work/trail.cose" "$work/good/ca.pem" --nonce "$nonce"
# Every byte evidence.sh flips (evidence_regions.py), in every part.
$py tests/interop/evidence_regions.py "$work/good/evidence.cose" 37 >"$work/regions" ||
	fail_early "evidence_regions.py failed"
while read -r at region; do
	cp "$work/good/evidence.cose" "$work/flip.cose"
	byte=$(od -An -tu1 -j "$at" -N1 "$work/flip.cose" | tr -d ' ')
	printf "\\$(printf %03o $((byte ^ 0xff)))" |
		dd of="$work/flip.cose" bs=1 seek="$at" conv=notrunc status=none
	tier=()
	[ "$region" = cert ] && tier=(--tier-only)
	agree "${tier[@]}" "byte $at flipped ($region)" "$work/flip.cose" "$work/good/ca.pem" --nonce "$nonce"
done <"$work/regions"
finish
