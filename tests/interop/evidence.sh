#!/usr/bin/env bash
# Evidence interop: evidence made by the firmware's runtime on the software
# HAL (evidence_tool), checked by code nobody in otattest wrote:
#  - evidence_check.py with Debian's python3-cbor2 and python3-cryptography
#    (run by /usr/bin/python3, importing nothing of ours): COSE_Sign1
#    structure and ES256 signature, certificate signatures and extensions,
#    every claim against the record parsed independently
#  - `openssl verify` for the X.509 chain (and that it fails without the
#    identity certificate or against another CA)
# and then by otattest-verify, whose exit codes and JSON are checked.
# Prints one line per check and "N passed, N failed"; exits 1 on failure.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
tool=$B/tests/interop/evidence_tool
verify=$B/otattest-verify
otimage=$B/otimage
py=/usr/bin/python3

suite="evidence interop"
# shellcheck source=tests/interop/tap.sh
. tests/interop/tap.sh
$py -c 'import cbor2, cryptography' 2>/dev/null ||
	fail_early "Debian's python3-cbor2 and python3-cryptography are needed (make deps)"
make -s "$tool" "$verify" "$otimage" >/dev/null || fail_early "cannot build $tool, $verify and $otimage"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$tool" "$work" || fail_early "evidence_tool failed"
nonce=$(cat "$work/nonce.hex")

# Independent decoding and verification, the certified claims included.
$py tests/interop/evidence_check.py "$work/evidence.cose" "$work/ca.pem" "$nonce" \
	"$work/record.bin" >"$work/py.out" 2>&1
py_rc=$?
tally python "$work/py.out"
[ $py_rc = 0 ]
ok $? "evidence_check.py exits 0"

# ECDSA is not normalized (docs/verifier.md, check 4): the same evidence
# with s replaced by n - s passes, as OpenSSL verifies either.
$py - "$work/evidence.cose" "$work/high-s.cose" <<'PYEOF'
import sys, cbor2
t = cbor2.loads(open(sys.argv[1], "rb").read())
n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
sig = t.value[3]
t.value[3] = sig[:32] + (n - int.from_bytes(sig[32:], "big")).to_bytes(32, "big")
open(sys.argv[2], "wb").write(cbor2.dumps(t))
PYEOF
"$verify" --ca "$work/ca.pem" --nonce "$nonce" "$work/high-s.cose" >"$work/high-s.out" 2>&1 &&
	grep -q "verdict: PASS" "$work/high-s.out" && ! cmp -s "$work/evidence.cose" "$work/high-s.cose"
ok $? "the evidence with its signature's s replaced by n - s passes too (not normalized, as documented)"

# Without the record (as for evidence fetched over D-Bus): still checks out.
$py tests/interop/evidence_check.py "$work/evidence.cose" "$work/ca.pem" "$nonce" >"$work/py2.out" 2>&1
ok $? "evidence_check.py without the record exits 0"

# The certificate chain with OpenSSL's command line.
expect_rc 0 "openssl verify: alias -> identity -> CA" \
	openssl verify -x509_strict -CAfile "$work/ca.pem" -untrusted "$work/identity.pem" "$work/alias.pem"
expect_rc 2 "openssl verify: alias without the identity certificate fails" \
	openssl verify -CAfile "$work/ca.pem" "$work/alias.pem"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/other.key" \
	-out "$work/other.pem" -subj "/CN=another CA" -days 1 2>/dev/null
expect_rc 2 "openssl verify: another CA fails" \
	openssl verify -CAfile "$work/other.pem" -untrusted "$work/identity.pem" "$work/alias.pem"
openssl x509 -in "$work/alias.pem" -noout -ext basicConstraints,keyUsage >"$work/ext" 2>&1
grep -q "CA:FALSE" "$work/ext" && grep -q "Digital Signature" "$work/ext"
ok $? "openssl x509: alias is CA:FALSE with digitalSignature"
openssl x509 -in "$work/identity.pem" -noout -ext basicConstraints >"$work/ext" 2>&1
grep -q "CA:TRUE, pathlen:0" "$work/ext"
ok $? "openssl x509: identity is CA:TRUE, pathlen:0"
openssl asn1parse -in "$work/alias.pem" >"$work/asn1" 2>&1
grep -q "2.23.133.5.4.5" "$work/asn1"
ok $? "openssl asn1parse: alias carries TCG MultiTcbInfo (2.23.133.5.4.5)"

# otimage inspect reads the device's alias certificate: the stages it certifies.
"$otimage" inspect --json "$work/alias.pem" >"$work/alias.json" 2>&1
ok $? "otimage inspect describes the alias certificate"
"$verify" --json --ca "$work/ca.pem" --nonce "$nonce" "$work/evidence.cose" >"$work/claims.json" 2>/dev/null
jq -e --slurpfile c "$work/claims.json" '.role == "alias" and .ca == false and
	.device_id == $c[0].claims.device_id and (.tcb | length) == 2 and
	[.tcb[] | {stage, svn, measurement}] ==
	[$c[0].claims.stages[] | select(.booted) | {stage, svn, measurement}]' "$work/alias.json" >/dev/null
ok $? "otimage inspect: the alias certificate certifies the booted stages the claims name"

# otattest-verify on the same evidence.
expect_rc 0 "otattest-verify accepts the evidence" \
	"$verify" --ca "$work/ca.pem" --nonce "$nonce" --record "$work/record.bin" "$work/evidence.cose"

# expect_refusal check stage authentic what verify-args...: exit 1
# (OTA_EXIT_VERDICT_FAILED, --help's "the verdict failed") and exactly one
# failure, check, for stage (- for none), named in the text verdict and in
# --json; authentic (true/false) says whether the evidence still is.
expect_refusal() {
	local check=$1 stage=$2 authentic=$3 what=$4 yes=no stage_json=null
	local line="^  FAILED $check: "
	shift 4
	[ "$authentic" = true ] && yes=yes
	[ "$stage" != - ] && stage_json="\"$stage\"" line="$line$stage "
	expect_rc 1 "otattest-verify: $what is a failed verdict" "$verify" "$@"
	grep -qx "verdict: FAIL (evidence authentic: $yes)" "$work/out" &&
		[ "$(grep -c '^  FAILED ' "$work/out")" = 1 ] && grep -q "$line" "$work/out"
	ok $? "otattest-verify: $what names $check, nothing else"
	expect_rc 1 "otattest-verify --json: $what is a failed verdict" "$verify" --json "$@"
	jq -e --arg c "$check" --argjson s "$stage_json" --argjson a "$authentic" \
		'.verdict == "fail" and .authentic == $a and .status == $c and
		[.failures[] | {check, stage}] == [{check: $c, stage: $s}]' "$work/out" >/dev/null
	ok $? "otattest-verify --json: $what lists $check (stage $stage), nothing else"
}
expect_refusal VERIFY_NONCE_MISMATCH - true "a wrong nonce" --ca "$work/ca.pem" \
	--nonce "$(printf %02x $((0x${nonce:0:2} ^ 1)))${nonce:2}" "$work/evidence.cose"
expect_refusal VERIFY_CHAIN_UNTRUSTED - false "a chain to another CA" --ca "$work/other.pem" \
	--nonce "$nonce" "$work/evidence.cose"
printf 'min_svn_bl0 = 6\ntag_path_allowed = false\n' >"$work/strict.policy"
expect_rc 1 "otattest-verify: policy failures" \
	"$verify" --json --ca "$work/ca.pem" --nonce "$nonce" --policy "$work/strict.policy" \
	"$work/evidence.cose"
jq -e '.verdict == "fail" and .authentic == true and
	([.failures[].check] | sort) == ["VERIFY_SVN_BELOW_POLICY", "VERIFY_TAG_PATH_FORBIDDEN"]' \
	"$work/out" >/dev/null
ok $? "otattest-verify --json lists exactly the two policy failures"
jq -e --arg n "$nonce" '.claims.nonce == $n and (.claims.stages | length) == 3' "$work/out" >/dev/null
ok $? "otattest-verify --json shows the claims"

# Each policy rule alone, on authentic evidence: refused for the stage that
# breaks the rule, and beside it where it can a policy that passes. The
# fixture (see evidence_tool.c) boots ROM_EXT on the tag path, ECDSA only,
# depth 0, SVN 2, and BL0 A signature-retagged, hybrid, depth 1, SVN 5, after
# BL0 B (depth 2) was refused.
policy_refuses() { # check stage what policy-text [evidence-dir]
	local dir=${5:-$work}
	printf '%b\n' "$4" >"$work/rule.policy"
	expect_refusal "$1" "$2" true "$3" --ca "$dir/ca.pem" --nonce "$(cat "$dir/nonce.hex")" \
		--policy "$work/rule.policy" "$dir/evidence.cose"
}
policy_passes() { # what policy-text [evidence-dir]
	local dir=${3:-$work}
	printf '%b\n' "$2" >"$work/rule.policy"
	expect_rc 0 "otattest-verify: $1 passes" "$verify" --ca "$dir/ca.pem" \
		--nonce "$(cat "$dir/nonce.hex")" --policy "$work/rule.policy" "$dir/evidence.cose"
}
root_of() { # stage [n]: the n-th key id (0: the root) of the stage's booted attempt
	jq -r --arg s "$1" --argjson n "${2:-0}" \
		'.claims.stages[] | select(.booted and .stage == $s) | .key_ids[$n]' "$work/claims.json"
}
rom_ext_root=$(root_of rom_ext) bl0_root=$(root_of bl0) bl0_delegate=$(root_of bl0 1)
policy_refuses VERIFY_SVN_BELOW_POLICY bl0 "an SVN under the policy minimum" "min_svn_bl0 = 6"
policy_passes "an SVN equal to the policy minimum" "min_svn_bl0 = 5\nmin_svn_rom_ext = 2"
policy_refuses VERIFY_TAG_PATH_FORBIDDEN rom_ext "a tag-path boot the policy forbids" \
	"tag_path_allowed = false"
policy_refuses VERIFY_ROOT_KEY_NOT_ALLOWED bl0 "a root key not allowed" \
	"allowed_root_key = $rom_ext_root"
policy_refuses VERIFY_ROOT_KEY_NOT_ALLOWED bl0 "a delegate's key id allowed as if it were a root" \
	"allowed_root_key = $rom_ext_root\nallowed_root_key = $bl0_delegate"
policy_passes "both stages' root keys allowed" \
	"allowed_root_key = $rom_ext_root\nallowed_root_key = $bl0_root"
policy_refuses VERIFY_DEPTH_EXCEEDED bl0 "a delegation deeper than allowed" "max_delegation_depth = 0"
policy_passes "a delegation as deep as allowed (the refused depth-2 BL0 B is not judged)" \
	"max_delegation_depth = 1"
policy_refuses VERIFY_HYBRID_MISSING rom_ext "a missing hybrid signature the policy requires" \
	"hybrid_required = true"
mkdir "$work/hybrid"
"$tool" --rom-ext-hybrid "$work/hybrid"
ok $? "evidence_tool --rom-ext-hybrid: evidence in which every booted stage is hybrid"
policy_passes "hybrid required, every booted stage hybrid" "hybrid_required = true" "$work/hybrid"
# A compromised runtime holding the genuine alias key changes one claim the
# alias certificate certifies (evidence_tool --lie): otattest-verify names
# the mismatch, nothing else, and evidence_check.py refuses the one claim
# too, from the certificate's MultiTcbInfo read with `cryptography`.
lie_refused() { # lie check stage python-check
	local dir=$work/lie-$1
	mkdir "$dir" && "$tool" --lie "$1" "$dir"
	ok $? "evidence_tool --lie $1: the runtime signs a changed $1 claim"
	expect_refusal "$2" "$3" true "a changed $1 claim" --ca "$dir/ca.pem" \
		--nonce "$(cat "$dir/nonce.hex")" "$dir/evidence.cose"
	$py tests/interop/evidence_check.py "$dir/evidence.cose" "$dir/ca.pem" "$(cat "$dir/nonce.hex")" \
		"$dir/record.bin" >"$dir/py.out" 2>&1
	[ $? = 1 ] && [ "$(grep -c '^not ok - ' "$dir/py.out")" = 1 ] &&
		grep -qx "not ok - alias certificate certifies the claimed $4" "$dir/py.out"
	ok $? "evidence_check.py: a changed $1 claim fails 'certifies the claimed $4' alone"
}
lie_refused root-key VERIFY_RESULT_MISMATCH bl0 "bl0 root key id"
lie_refused delegate-key VERIFY_RESULT_MISMATCH bl0 "bl0 delegate key ids"
lie_refused depth VERIFY_RESULT_MISMATCH bl0 "bl0 delegation depth"
lie_refused path VERIFY_RESULT_MISMATCH bl0 "bl0 path"
lie_refused scheme VERIFY_RESULT_MISMATCH rom_ext "rom_ext signature scheme"
lie_refused stage-tag-key-version VERIFY_RESULT_MISMATCH bl0 "bl0 tag key version"
lie_refused path-reason VERIFY_RESULT_MISMATCH bl0 "bl0 path reason"
lie_refused usage-flags VERIFY_RESULT_MISMATCH bl0 "bl0 usage flags"
lie_refused min-svn VERIFY_STATE_MISMATCH - "min SVN"
lie_refused epoch VERIFY_STATE_MISMATCH - "epoch"
lie_refused lifecycle VERIFY_STATE_MISMATCH - "lifecycle"
lie_refused floor-rom-ext VERIFY_STATE_MISMATCH - "ROM_EXT floor"
lie_refused floor-bl0 VERIFY_STATE_MISMATCH - "BL0 floor"
lie_refused tag-key-version VERIFY_STATE_MISMATCH - "tag key version"
lie_refused chain-max-svn VERIFY_STATE_MISMATCH - "chain max SVN"
lie_refused rom-identity VERIFY_STATE_MISMATCH - "ROM identity"
# The update state (issue 28): what a compromised BL0 would most like to hide.
lie_refused revocation-sequence VERIFY_STATE_MISMATCH - "revocation sequence"
lie_refused revert-reason VERIFY_STATE_MISMATCH - "revert reason"
lie_refused reset-reason VERIFY_STATE_MISMATCH - "reset reason"
lie_refused trial-boots VERIFY_STATE_MISMATCH - "trial boots"
# Honest update states and the rules on them: "committed, revocation >= N".
for state in trial reverted; do
	mkdir "$work/update-$state" && "$tool" --update "$state" "$work/update-$state"
	ok $? "evidence_tool --update $state"
	$py tests/interop/evidence_check.py "$work/update-$state/evidence.cose" "$work/update-$state/ca.pem" \
		"$(cat "$work/update-$state/nonce.hex")" "$work/update-$state/record.bin" >"$work/update-$state/py.out" 2>&1
	ok $? "evidence_check.py: the $state evidence's update state is the certified one"
	policy_passes "min_revocation_sequence = 3, $state" "min_revocation_sequence = 3" "$work/update-$state"
	policy_refuses VERIFY_REVOCATION_BELOW_POLICY - "revocation 3 under min_revocation_sequence = 4 ($state)" \
		"min_revocation_sequence = 4" "$work/update-$state"
done
policy_refuses VERIFY_NOT_COMMITTED bl0 "a trial under require_committed" \
	"require_committed = true\nmin_revocation_sequence = 3" "$work/update-trial"
policy_refuses VERIFY_TRIAL_REVERTED bl0 "a reverted trial under require_committed" \
	"require_committed = true\nmin_revocation_sequence = 3" "$work/update-reverted"
policy_passes "require_committed with allow_reverted, reverted" \
	"require_committed = true\nallow_reverted = true" "$work/update-reverted"
# The lies a policy would judge pass that policy: only the certificate stops them.
printf 'max_delegation_depth = 0\n' >"$work/rule.policy"
expect_refusal VERIFY_RESULT_MISMATCH bl0 true "a depth-0 claim under max_delegation_depth = 0" \
	--ca "$work/lie-depth/ca.pem" --nonce "$(cat "$work/lie-depth/nonce.hex")" \
	--policy "$work/rule.policy" "$work/lie-depth/evidence.cose"
printf 'debug_images_allowed = false\n' >"$work/nodebug.policy"
expect_refusal VERIFY_RESULT_MISMATCH bl0 true "a DEBUG image claimed without DEBUG under debug_images_allowed = false" \
	--ca "$work/lie-usage-flags/ca.pem" --nonce "$(cat "$work/lie-usage-flags/nonce.hex")" \
	--policy "$work/nodebug.policy" "$work/lie-usage-flags/evidence.cose"

printf 'min_svn_bl0 = lots\n' >"$work/bad.policy"
expect_rc 10 "otattest-verify: malformed policy is exit 10" \
	"$verify" --ca "$work/ca.pem" --nonce "$nonce" --policy "$work/bad.policy" "$work/evidence.cose"
expect_rc 22 "otattest-verify: unreadable evidence is exit 22" \
	"$verify" --ca "$work/ca.pem" --nonce "$nonce" "$work/missing.cose"
"$verify" --json --ca "$work/ca.pem" --nonce "$nonce" "$work/missing.cose" >"$work/json" 2>/dev/null
[ $? = 22 ] && jq -e '.verdict == "error" and .status == "HOST_IO"' "$work/json" >/dev/null
ok $? "otattest-verify --json: an input error is exit 22 and a JSON object on stdout"
# File names are bytes; JSON is UTF-8. A name with an é in UTF-8 is printed
# as that é (it once came out as \u00c3\u00a9, two Latin-1 characters); a
# name in Latin-1 is no UTF-8 at all and becomes U+FFFD, so the document
# is still JSON. Both checked by Python's strict UTF-8 decoder.
"$verify" --json --ca "$work/ca.pem" --nonce "$nonce" "$work/caf"$'\xc3\xa9'"/ev.cose" >"$work/json" 2>/dev/null
rc=$?
$py -c '
import json, sys
doc = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
want = "evidence " + sys.argv[2] + "/caf\u00e9/ev.cose: "
sys.exit(0 if doc["verdict"] == "error" and doc["detail"].startswith(want) else 1)
' "$work/json" "$work" && [ "$rc" = 22 ]
ok $? "otattest-verify --json: a path with é is printed as é, valid UTF-8 JSON"
"$verify" --json --ca "$work/ca.pem" --nonce "$nonce" "$work/caf"$'\xe9'"/ev.cose" >"$work/json" 2>/dev/null
$py -c '
import json, sys
doc = json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))
sys.exit(0 if "/caf\ufffd/ev.cose" in doc["detail"] else 1)
' "$work/json"
ok $? "otattest-verify --json: a Latin-1 path still gives valid UTF-8 JSON (U+FFFD for the byte)"
expect_rc 2 "otattest-verify: no --nonce is a usage error" \
	"$verify" --ca "$work/ca.pem" "$work/evidence.cose"
expect_rc 10 "otattest-verify: a 15-byte nonce is an invalid argument" \
	"$verify" --ca "$work/ca.pem" --nonce "${nonce:0:30}" "$work/evidence.cose"
"$verify" --json --ca "$work/ca.pem" --nonce "zz${nonce:2}" "$work/evidence.cose" >"$work/json" 2>/dev/null
[ $? = 10 ] && jq -e '.verdict == "error" and .status == "HOST_BAD_ARGUMENT" and (.detail | test("--nonce"))' \
	"$work/json" >/dev/null
ok $? "otattest-verify --json: a nonce that is not hex is exit 10 and a JSON object naming --nonce"
expect_rc 0 "otattest-verify --help" "$verify" --help
grep -q "^NAME" "$work/out" && grep -q "^SYNOPSIS" "$work/out" && grep -q "^OPTIONS" "$work/out" &&
	grep -q "^EXIT STATUS" "$work/out" && grep -q "^EXAMPLES" "$work/out"
ok $? "otattest-verify --help is a manual page"
undocumented=""
for o in $(grep -oE '\{ "[a-z-]+", (required|no)_argument' libotattest/tools/verify/otattest-verify.c | cut -d'"' -f2); do
	grep -q -- "--$o" "$work/out" || undocumented="$undocumented --$o"
done
[ -z "$undocumented" ]
ok $? "otattest-verify --help documents every option${undocumented:+ (missing:$undocumented)}"
head -c $((4 * 1024 * 1024)) /dev/zero >"$work/huge.cose"
expect_rc 10 "otattest-verify: evidence larger than any evidence is exit 10" \
	"$verify" --ca "$work/ca.pem" --nonce "$nonce" "$work/huge.cose"
grep -q "larger than any valid input" "$work/out"
ok $? "otattest-verify says the evidence file is too large"
head -c 100 "$work/evidence.cose" >"$work/trunc.cose"
expect_rc 1 "otattest-verify: truncated evidence is a failed verdict" \
	"$verify" --ca "$work/ca.pem" --nonce "$nonce" "$work/trunc.cose"
grep -q "CBOR_TRUNCATED" "$work/out"
ok $? "otattest-verify names CBOR_TRUNCATED"

# A flipped byte (^0xff) anywhere is refused: exit 1 with both outputs naming the
# same failures, evidence not authentic, and first the reason the part of the
# evidence it is in calls for (evidence_regions.py finds the parts with cbor2):
#   structure  one failure, CBOR_* or COSE_* (checks 1 and 2 stop the run)
#   cert       VERIFY_CHAIN_UNTRUSTED (the claims may not match it either)
#   payload    VERIFY_SIGNATURE_INVALID (the claims may be refused too)
#   signature  VERIFY_SIGNATURE_INVALID, nothing else
# Byte 0, every 37th, the last and every structure byte; the unit test
# test_verify.c flips every byte with three masks through the library.
flip_refused() { # offset region
	local at=$1 region=$2 byte rc rc_json want
	cp "$work/evidence.cose" "$work/flip.cose"
	byte=$(od -An -tu1 -j "$at" -N1 "$work/flip.cose" | tr -d ' ')
	printf "\\$(printf %03o $((byte ^ 0xff)))" |
		dd of="$work/flip.cose" bs=1 seek="$at" conv=notrunc status=none
	"$verify" --ca "$work/ca.pem" --nonce "$nonce" "$work/flip.cose" >"$work/flip.txt" 2>&1
	rc=$?
	"$verify" --json --ca "$work/ca.pem" --nonce "$nonce" "$work/flip.cose" >"$work/flip.json" 2>/dev/null
	rc_json=$?
	case $region in
	structure) want='(.failures | length) == 1 and (.status | test("^(CBOR|COSE)_"))' ;;
	cert) want='.status == "VERIFY_CHAIN_UNTRUSTED"' ;;
	payload) want='.status == "VERIFY_SIGNATURE_INVALID"' ;;
	signature) want='[.failures[].check] == ["VERIFY_SIGNATURE_INVALID"]' ;;
	*) want=false ;;
	esac
	[ "$rc" = 1 ] && [ "$rc_json" = 1 ] &&
		jq -e ".verdict == \"fail\" and .authentic == false and $want" "$work/flip.json" >/dev/null &&
		grep -qx 'verdict: FAIL (evidence authentic: no)' "$work/flip.txt" &&
		[ "$(sed -n 's/^  FAILED \([A-Z0-9_]*\): .*/\1/p' "$work/flip.txt")" = \
			"$(jq -r '.failures[].check' "$work/flip.json")" ]
	ok $? "otattest-verify: byte $at of $ev_len flipped ($region) is refused, exit $rc/$rc_json: $(
		jq -r '[.failures[].check] | join(", ")' "$work/flip.json" 2>/dev/null)"
}
ev_len=$(stat -c %s "$work/evidence.cose")
$py tests/interop/evidence_regions.py "$work/evidence.cose" 37 >"$work/regions" 2>&1
ok $? "evidence_regions.py finds the parts of the evidence"
while read -r at region; do
	flip_refused "$at" "$region"
done <"$work/regions"
grep -q " cert$" "$work/regions" && grep -q " payload$" "$work/regions" &&
	grep -q " signature$" "$work/regions" && grep -q "^0 structure$" "$work/regions" &&
	grep -q "^$((ev_len - 1)) signature$" "$work/regions"
ok $? "the flipped bytes include the first, the last and bytes of every part"

finish
