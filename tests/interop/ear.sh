#!/usr/bin/env bash
# EAR interop: otattest-verify --ear's signed verdicts (docs/verifier.md,
# "Verdicts as EAR") verified by code nobody in otattest wrote:
#  - npm jose (ear_jose.mjs; pinned in package-lock.json),
#  - PyPI PyJWT with cryptography under the pyenv python3.11 (ear_check.py;
#    pinned in scripts/deps.sh),
# for an accepted device and for each refusal the evidence suite provokes:
# a wrong nonce, another CA, each policy rule (the fleet rules too: a dev
# or RMA device under a production policy, a debug image, a denied delegate, a revoked
# identity certificate in a CRL made by `openssl ca`; the update state's
# rules on a trial and a reverted update), claims a runtime
# changed, reference values (a CoRIM) that do not list a booted stage's
# measurement, flipped bytes of each part of the evidence. Each case names the
# ear.status and AR4SI tier it expects by hand; ear_check.py also holds the
# EAR to what docs/verifier.md's refusal table says the --json verdict of
# the same evidence must give, and to the claims jose decoded.
# Prints one line per check and "N passed, N failed"; exits 1 on failure.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
tool=$B/tests/interop/evidence_tool
verify=$B/otattest-verify
otimage=$B/otimage
corim_tool=$B/tests/interop/corim_tool
py=/usr/bin/python3
py311=$(command -v python3.11 || true)

suite="ear interop"
# shellcheck source=tests/interop/tap.sh
. tests/interop/tap.sh
[ -n "$py311" ] && "$py311" -c 'import jwt, cryptography' 2>/dev/null ||
	fail_early "python3.11 with PyJWT and cryptography is needed (scripts/deps.sh)"
[ -d tests/interop/node_modules/jose ] || fail_early "npm jose is needed (scripts/deps.sh)"
make -s "$tool" "$verify" "$otimage" "$corim_tool" >/dev/null ||
	fail_early "cannot build $tool, $verify, $otimage and $corim_tool"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$tool" "$work" >/dev/null || fail_early "evidence_tool failed"
nonce=$(cat "$work/nonce.hex")
openssl ecparam -name prime256v1 -genkey -noout -out "$work/ear.key" 2>/dev/null &&
	openssl pkey -in "$work/ear.key" -pubout -out "$work/ear.pub" 2>/dev/null ||
	fail_early "openssl cannot make the verifier's key"

# ear_case NAME RC NONCE EXPECT... -- ARGS...: otattest-verify --ear ARGS
# exits RC, as --json ARGS does; jose and PyJWT verify the EAR; ear_check.py
# holds it to the --json verdict by the docs and to each EXPECT
# (SUBMOD=STATUS[:claim=value,...]). NONCE is the nonce sent, or -.
ear_case() {
	local name=$1 want=$2 sent=$3 rc rc_json nonce_arg=() expects=()
	shift 3
	while [ "$1" != -- ]; do expects+=(--expect "$1"); shift; done
	shift
	[ "$sent" != - ] && nonce_arg=(--nonce "$sent")
	"$verify" --ear "$work/ear.key" "$@" >"$work/ear.jwt" 2>"$work/ear.err"
	rc=$?
	"$verify" --json "$@" >"$work/verdict.json" 2>/dev/null
	rc_json=$?
	[ "$rc" = "$want" ] && [ "$rc_json" = "$want" ] && [ "$(wc -l <"$work/ear.jwt")" = 1 ]
	ok $? "$name: otattest-verify --ear exits $rc, --json $rc_json (want $want), one line"
	node tests/interop/ear_jose.mjs "$work/ear.pub" "$work/ear.jwt" >"$work/jose.json" 2>"$work/jose.err"
	ok $? "$name: npm jose verifies the EAR $(cat "$work/jose.err")"
	"$py311" tests/interop/ear_check.py --pub "$work/ear.pub" --jwt "$work/ear.jwt" \
		--verdict "$work/verdict.json" --docs docs/verifier.md "${nonce_arg[@]}" \
		--jose "$work/jose.json" "${expects[@]}" >"$work/py.out" 2>&1
	local py_rc=$? line
	while read -r line; do
		case "$line" in
		"ok - "*) pass=$((pass + 1)) ;;
		"not ok - "*) fail=$((fail + 1)); echo "$name: PyJWT: $line" ;;
		*) echo "$name: PyJWT: $line" ;;
		esac
	done <"$work/py.out"
	[ $py_rc = 0 ]
	ok $? "$name: PyJWT verifies the EAR; status and tiers as expected and documented ($(
		jq -c '[.failures[].check]' "$work/verdict.json" 2>/dev/null))"
}
base=(--ca "$work/ca.pem" --nonce "$nonce")
affirmed=instance-identity=2,configuration=2,executables=3,hardware=2,file-system=0

ear_case "an accepted device" 0 "$nonce" rom_ext=affirming:$affirmed bl0=affirming:$affirmed -- \
	"${base[@]}" --record "$work/record.bin" "$work/evidence.cose"
ear_case "stored evidence (--no-nonce)" 0 - rom_ext=affirming bl0=affirming -- \
	--ca "$work/ca.pem" --no-nonce "$work/evidence.cose"
ear_case "a wrong nonce" 1 "00${nonce:2}" rom_ext=contraindicated:instance-identity=99 \
	bl0=contraindicated:instance-identity=99 -- --ca "$work/ca.pem" --nonce "00${nonce:2}" \
	"$work/evidence.cose"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/other.key" \
	-out "$work/other.pem" -subj "/CN=another CA" -days 1 2>/dev/null
ear_case "a chain to another CA" 1 "$nonce" rom_ext=contraindicated:instance-identity=97,hardware=0 \
	bl0=contraindicated:instance-identity=97,executables=0 -- --ca "$work/other.pem" --nonce "$nonce" \
	"$work/evidence.cose"

# Each policy rule alone (the fixture: ROM_EXT on the tag path, ECDSA only,
# depth 0, SVN 2, epoch 1; BL0 signature-retagged, hybrid, depth 1, SVN 5).
"$verify" --json "${base[@]}" "$work/evidence.cose" >"$work/claims.json" 2>/dev/null
key_of() { # stage n: the n-th key id of the stage's booted attempt
	jq -r --arg s "$1" --argjson n "$2" \
		'.claims.stages[] | select(.booted and .stage == $s) | .key_ids[$n]' "$work/claims.json"
}
rule_case() { # name policy-text expects... [-- evidence-dir]
	local name=$1 dir=$work
	printf '%b\n' "$2" >"$work/rule.policy"
	shift 2
	local expects=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do expects+=("$1"); shift; done
	[ "${1:-}" = -- ] && dir=$2
	local n
	n=$(cat "$dir/nonce.hex")
	ear_case "$name" 1 "$n" "${expects[@]}" -- --ca "$dir/ca.pem" --nonce "$n" \
		--policy "$work/rule.policy" "$dir/evidence.cose"
}
rule_case "an SVN under the policy minimum" "min_svn_bl0 = 6" \
	bl0=warning:executables=32 rom_ext=affirming:$affirmed
rule_case "a tag-path boot the policy forbids" "tag_path_allowed = false" \
	rom_ext=warning:configuration=32 bl0=affirming
rule_case "a root key not allowed" "allowed_root_key = $(key_of rom_ext 0)" \
	bl0=warning:executables=33 rom_ext=affirming
rule_case "a delegation deeper than allowed" "max_delegation_depth = 0" \
	bl0=warning:configuration=32 rom_ext=affirming
rule_case "a missing hybrid signature" "hybrid_required = true" \
	rom_ext=warning:configuration=32 bl0=affirming
rule_case "an identity epoch under the policy minimum" "min_epoch = 2" \
	rom_ext=contraindicated:instance-identity=96 bl0=contraindicated:instance-identity=96
rule_case "a denied delegate key" "denied_delegate_key = $(key_of bl0 1)" \
	bl0=contraindicated:executables=96 rom_ext=affirming:$affirmed

# The lifecycle rule: honest evidence of a dev and of an RMA device (ROM_EXT
# certified the state), refused by a production policy; prod passes it.
production='allowed_lifecycle = prod\nallowed_lifecycle = prod_end'
for lc in dev rma; do
	mkdir "$work/$lc" && "$tool" --lifecycle "$lc" "$work/$lc" >/dev/null
	ok $? "evidence_tool --lifecycle $lc: a $lc device's evidence"
	rule_case "a $lc device under a production policy" "$production" \
		rom_ext=contraindicated:hardware=96,instance-identity=2 bl0=contraindicated:hardware=96 -- "$work/$lc"
done
mkdir "$work/debug" && "$tool" --debug-image "$work/debug" >/dev/null
ok $? "evidence_tool --debug-image: a BL0 image with the DEBUG usage flag booted"
rule_case "a debug image under a policy that refuses them" "debug_images_allowed = false" \
	bl0=contraindicated:configuration=96 rom_ext=affirming:$affirmed -- "$work/debug"
# The update state's rules (issue 28; ROM_EXT certified the state): an
# update on trial and a reverted one, honest, each refused by the rule
# that names it and passed without; a fleet-wide revocation sequence (3
# in both) under the policy's minimum is the device's, both submods.
for state in trial reverted; do
	mkdir "$work/update-$state" && "$tool" --update "$state" "$work/update-$state" >/dev/null
	ok $? "evidence_tool --update $state: a device whose update is $state"
	ear_case "an update $state, no update rule" 0 "$(cat "$work/update-$state/nonce.hex")" \
		rom_ext=affirming bl0=affirming -- --ca "$work/update-$state/ca.pem" \
		--nonce "$(cat "$work/update-$state/nonce.hex")" "$work/update-$state/evidence.cose"
	rule_case "revocation sequence 3 under min_revocation_sequence = 4 ($state)" \
		"min_revocation_sequence = 4" rom_ext=warning:executables=32 bl0=warning:executables=32 -- \
		"$work/update-$state"
done
rule_case "an update on trial under require_committed" "require_committed = true" \
	bl0=warning:configuration=32 rom_ext=affirming -- "$work/update-trial"
rule_case "a reverted update under require_committed" "require_committed = true" \
	bl0=warning:configuration=32 rom_ext=affirming -- "$work/update-reverted"
printf 'require_committed = true\nallow_reverted = true\nmin_revocation_sequence = 3\n' >"$work/reverted.policy"
ear_case "a reverted update, require_committed with allow_reverted" 0 \
	"$(cat "$work/update-reverted/nonce.hex")" rom_ext=affirming bl0=affirming -- \
	--ca "$work/update-reverted/ca.pem" --nonce "$(cat "$work/update-reverted/nonce.hex")" \
	--policy "$work/reverted.policy" "$work/update-reverted/evidence.cose"
printf '%b\n' "$production" >"$work/prod.policy"
ear_case "a prod device under a production policy" 0 "$nonce" rom_ext=affirming bl0=affirming -- \
	"${base[@]}" --policy "$work/prod.policy" "$work/evidence.cose"

# Revocation: the CA revokes the device's identity certificate with
# `openssl ca` (its own CRL writer), named by the policy or by --crl.
mkdir "$work/ca" && touch "$work/ca/index.txt" && echo 01 >"$work/ca/crlnumber"
cat >"$work/ca/ca.cnf" <<EOF
[ ca ]
default_ca = fleet
[ fleet ]
database = $work/ca/index.txt
crlnumber = $work/ca/crlnumber
default_md = sha256
default_crl_days = 7
EOF
openssl ca -config "$work/ca/ca.cnf" -keyfile "$work/ca.key" -cert "$work/ca.pem" -gencrl \
	-out "$work/ca/empty.crl" -batch 2>"$work/ca/err" &&
	openssl ca -config "$work/ca/ca.cnf" -keyfile "$work/ca.key" -cert "$work/ca.pem" \
		-revoke "$work/identity.pem" -batch 2>>"$work/ca/err" &&
	openssl ca -config "$work/ca/ca.cnf" -keyfile "$work/ca.key" -cert "$work/ca.pem" -gencrl \
		-out "$work/ca/revoked.crl" -batch 2>>"$work/ca/err"
ok $? "openssl ca: a CRL revoking nothing, and one revoking the identity certificate"
ear_case "a CRL that revokes another certificate" 0 "$nonce" rom_ext=affirming bl0=affirming -- \
	"${base[@]}" --crl "$work/ca/empty.crl" "$work/evidence.cose"
ear_case "a revoked identity certificate (--crl)" 1 "$nonce" \
	rom_ext=contraindicated:instance-identity=96,hardware=0 bl0=contraindicated:instance-identity=96 -- \
	"${base[@]}" --crl "$work/ca/revoked.crl" "$work/evidence.cose"
jq -e '[.failures[].check] == ["VERIFY_IDENTITY_REVOKED"] and .authentic == false' \
	"$work/verdict.json" >/dev/null
ok $? "a revoked identity certificate: VERIFY_IDENTITY_REVOKED alone, not authentic"
printf 'crl = ca/revoked.crl\n' >"$work/revoking.policy"
ear_case "a revoked identity certificate (the policy's crl)" 1 "$nonce" \
	rom_ext=contraindicated:instance-identity=96 bl0=contraindicated:instance-identity=96 -- \
	"${base[@]}" --policy "$work/revoking.policy" "$work/evidence.cose"

# A runtime holding the genuine alias key signs changed certified claims.
lie_case() { # lie expects...
	local dir=$work/lie-$1
	mkdir "$dir" && "$tool" --lie "$1" "$dir" >/dev/null
	ok $? "evidence_tool --lie $1"
	shift
	ear_case "a changed $(basename "$dir" | cut -c5-) claim" 1 "$(cat "$dir/nonce.hex")" "$@" -- \
		--ca "$dir/ca.pem" --nonce "$(cat "$dir/nonce.hex")" "$dir/evidence.cose"
}
lie_case root-key bl0=contraindicated:executables=96 rom_ext=affirming
lie_case path bl0=contraindicated:executables=96 rom_ext=affirming
lie_case lifecycle rom_ext=contraindicated:executables=96 bl0=contraindicated:executables=96

# Reference values (docs/corim.md): corim_tool signs, as otimage corim does,
# the reference values of a boot record's booted stages. The fixture's
# booted ROM_EXT measures e1..e1 and its booted BL0 b5..b5; a record with
# another BL0 (b4..b4), or both stages other, gives reference values the
# evidence's stages are not in.
"$otimage" keygen --out "$work/release.pem" --pub "$work/release.pub" >/dev/null
corim_of() { # name [from to]...: a CoRIM of record.bin with each 32-byte run of from made to
	local name=$1
	shift
	$py - "$work/record.bin" "$work/$name.record" "$@" <<'EOF'
import sys
rec = open(sys.argv[1], "rb").read()
for a, b in zip(sys.argv[3::2], sys.argv[4::2]):
    old, new = bytes([int(a, 16)]) * 32, bytes([int(b, 16)]) * 32
    assert rec.count(old) == 1, a
    rec = rec.replace(old, new)
open(sys.argv[2], "wb").write(rec)
EOF
	"$corim_tool" "$work/$name.record" "$work/release.pem" "$work/$name.corim"
}
corim_of booted && corim_of other-bl0 b5 b4 && corim_of other-both b5 b4 e1 e0
ok $? "corim_tool: reference values of the booted release, of another BL0, of another release"
refvals=(--corim-key "$work/release.pub" --corim)
ear_case "reference values that list the booted release" 0 "$nonce" rom_ext=affirming:$affirmed \
	bl0=affirming:$affirmed -- "${base[@]}" "${refvals[@]}" "$work/booted.corim" "$work/evidence.cose"
ear_case "a BL0 measurement not in the reference values" 1 "$nonce" bl0=warning:executables=33 \
	rom_ext=affirming:$affirmed -- "${base[@]}" "${refvals[@]}" "$work/other-bl0.corim" \
	"$work/evidence.cose"
jq -e '[.failures[] | {check, stage}] == [{check: "VERIFY_REFERENCE_MISMATCH", stage: "bl0"}]' \
	"$work/verdict.json" >/dev/null
ok $? "a BL0 measurement not in the reference values: VERIFY_REFERENCE_MISMATCH for bl0 alone"
ear_case "neither stage's measurement in the reference values" 1 "$nonce" \
	rom_ext=warning:executables=33 bl0=warning:executables=33 -- "${base[@]}" "${refvals[@]}" \
	"$work/other-both.corim" "$work/evidence.cose"

# A flipped byte (^0xff) in each part of the evidence (evidence_regions.py,
# cbor2): the evidence is not authentic and nothing is affirmed.
$py tests/interop/evidence_regions.py "$work/evidence.cose" 37 >"$work/regions" 2>&1
ok $? "evidence_regions.py finds the parts of the evidence"
flip_case() { # region expects...
	local region=$1 at byte
	at=$(awk -v r="$region" '$2 == r { print $1; exit }' "$work/regions")
	shift
	cp "$work/evidence.cose" "$work/flip.cose"
	byte=$(od -An -tu1 -j "$at" -N1 "$work/flip.cose" | tr -d ' ')
	printf "\\$(printf %03o $((byte ^ 0xff)))" |
		dd of="$work/flip.cose" bs=1 seek="$at" conv=notrunc status=none
	ear_case "byte $at flipped ($region)" 1 "$nonce" "$@" -- "${base[@]}" "$work/flip.cose"
}
flip_case structure rom_ext=none:instance-identity=1,hardware=0 bl0=none:instance-identity=1
flip_case cert rom_ext=contraindicated:hardware=0 bl0=contraindicated:hardware=0
flip_case payload rom_ext=contraindicated:instance-identity=99 bl0=contraindicated:instance-identity=99
flip_case signature rom_ext=contraindicated:instance-identity=99,executables=0 \
	bl0=contraindicated:instance-identity=99

# What a relying party must refuse: an edited EAR, another verifier's key.
"$verify" --ear "$work/ear.key" --policy "$work/rule.policy" "${base[@]}" "$work/evidence.cose" \
	>"$work/ear.jwt" 2>/dev/null # refused: its statuses are not affirming
$py - "$work/ear.jwt" >"$work/edited.jwt" <<'EOF'
import base64, json, sys
h, p, s = open(sys.argv[1]).read().strip().split(".")
claims = json.loads(base64.urlsafe_b64decode(p + "=" * (-len(p) % 4)))
for sub in claims["submods"].values():
    sub["ear.status"] = "affirming"
p = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
print(f"{h}.{p}.{s}")
EOF
! node tests/interop/ear_jose.mjs "$work/ear.pub" "$work/edited.jwt" >/dev/null 2>&1
ok $? "npm jose refuses an EAR whose statuses were edited to affirming"
! "$py311" -c 'import jwt, sys; jwt.decode(open(sys.argv[1]).read().strip(), open(sys.argv[2], "rb").read(), algorithms=["ES256"])' \
	"$work/edited.jwt" "$work/ear.pub" 2>/dev/null
ok $? "PyJWT refuses an EAR whose statuses were edited to affirming"
openssl pkey -in "$work/other.key" -pubout -out "$work/other.pub" 2>/dev/null
! node tests/interop/ear_jose.mjs "$work/other.pub" "$work/ear.jwt" >/dev/null 2>&1
ok $? "npm jose refuses the EAR under another verifier's key"
! "$py311" -c 'import jwt, sys; jwt.decode(open(sys.argv[1]).read().strip(), open(sys.argv[2], "rb").read(), algorithms=["ES256"])' \
	"$work/ear.jwt" "$work/other.pub" 2>/dev/null
ok $? "PyJWT refuses the EAR under another verifier's key"

# --ear-raw-evidence carries the evidence itself, base64url.
"$verify" --ear "$work/ear.key" --ear-raw-evidence "${base[@]}" "$work/evidence.cose" >"$work/ear.jwt"
node tests/interop/ear_jose.mjs "$work/ear.pub" "$work/ear.jwt" >"$work/jose.json" 2>/dev/null &&
	$py - "$work/jose.json" "$work/evidence.cose" <<'EOF'
import base64, json, sys
claims = json.load(open(sys.argv[1]))["payload"]
ev = open(sys.argv[2], "rb").read()
raw = base64.urlsafe_b64decode(claims["ear.raw-evidence"] + "==")
in_subs = [s for s in claims["submods"].values() if "ear.raw-evidence" in s]
sys.exit(0 if raw == ev and not in_subs else 1)
EOF
ok $? "--ear-raw-evidence: the EAR's ear.raw-evidence is the evidence, no submodule has one (read by jose)"

# The command line around it (tap.sh's expect_rc): exit codes of an unusable key, usage.
expect_rc 2 "otattest-verify: --ear with --json is a usage error" \
	"$verify" --ear "$work/ear.key" --json "${base[@]}" "$work/evidence.cose"
expect_rc 2 "otattest-verify: --ear-raw-evidence without --ear is a usage error" \
	"$verify" --ear-raw-evidence "${base[@]}" "$work/evidence.cose"
openssl ecparam -name secp384r1 -genkey -noout -out "$work/p384.key" 2>/dev/null
expect_rc 11 "otattest-verify: a P-384 EAR key is malformed input" \
	"$verify" --ear "$work/p384.key" "${base[@]}" "$work/evidence.cose"
grep -q "P-256" "$work/out"
ok $? "otattest-verify says the EAR key is not P-256"
openssl pkey -in "$work/ear.key" -aes256 -passout pass:pw -out "$work/enc.key" 2>/dev/null
expect_rc 10 "otattest-verify: an encrypted EAR key is an invalid argument, asked for nothing" \
	"$verify" --ear "$work/enc.key" "${base[@]}" "$work/evidence.cose" </dev/null
expect_rc 22 "otattest-verify: a missing EAR key cannot be read" \
	"$verify" --ear "$work/missing.key" "${base[@]}" "$work/evidence.cose"
expect_rc 0 "otattest-verify --help" "$verify" --help
grep -q -- "--ear KEY" "$work/out" && grep -q -- "--ear-raw-evidence" "$work/out" && grep -q -- "--crl FILE" "$work/out"
ok $? "otattest-verify --help documents --ear, --ear-raw-evidence and --crl"

finish
