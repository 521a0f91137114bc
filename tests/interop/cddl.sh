#!/usr/bin/env bash
# Grammars (docs/verifier.md, "Grammars: CDDL"): otattest's evidence, CoRIM
# and EAR held to the specifications' own CDDL, vendored in
# tests/interop/cddl/ (SOURCES.md), with PyPI cddl-verifier and cbor-diag
# (pinned in scripts/deps.sh) under python3.11 (cddl_check.py):
#  - first the validator on each specification's own examples: the valid
#    ones pass, violations planted in them fail (and, for EAT, pass once
#    the extended-claims-label feature is on: why it stays off);
#  - fresh evidence (evidence_tool: the firmware's runtime on the software
#    HAL) as an EAT Claims-Set (RFC 9711 + the profile's claims from
#    docs/evidence.md) and as the profile's otattest-evidence, and each
#    violation planted in it refused where it breaks a grammar;
#  - a fresh CoRIM (corim_tool, the writer of otimage corim) against the
#    CoRIM draft's CDDL, its Veraison form refused, violations refused;
#  - fresh EARs from otattest-verify --ear (a pass, a refusal, and with
#    --ear-raw-evidence) against the EAR draft's CDDL, violations refused.
# Prints one line per check and "N passed, N failed"; exits 1 on failure.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
tool=$B/tests/interop/evidence_tool
verify=$B/otattest-verify
corim_tool=$B/tests/interop/corim_tool
py311=$(command -v python3.11 || true)
check=tests/interop/cddl_check.py

suite="cddl"
# shellcheck source=tests/interop/tap.sh
. tests/interop/tap.sh
[ -n "$py311" ] && "$py311" -c 'import cddl_verifier, cbor_diag, cbor2' 2>/dev/null ||
	fail_early "python3.11 with PyPI cddl-verifier, cbor-diag and cbor2 is needed (scripts/deps.sh)"
make -s "$tool" "$verify" "$corim_tool" >/dev/null || fail_early "cannot build $tool, $verify and $corim_tool"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run_check NAME ARGS...: cddl_check.py's checks counted as ours.
run_check() {
	local name=$1 rc
	shift
	"$py311" "$check" "$@" >"$work/check.out" 2>&1
	rc=$?
	tally "$name" "$work/check.out"
	# A crash or a usage error prints no summary: count it, and show why.
	grep -qE '^[0-9]+ passed, [0-9]+ failed$' "$work/check.out" || tail -5 "$work/check.out"
	grep -qE '^[0-9]+ passed, [0-9]+ failed$' "$work/check.out"
	ok $? "$name: cddl_check.py ran to its summary (exit $rc)"
}

run_check "EAT examples" examples eat
run_check "CoRIM examples" examples corim
run_check "EAR examples" examples ear

"$tool" "$work" >/dev/null 2>&1 || fail_early "evidence_tool failed"
run_check "evidence" evidence "$work/evidence.cose"
run_check "evidence, planted" evidence-plants "$work/evidence.cose"

openssl ecparam -name prime256v1 -genkey -noout -out "$work/key.pem" 2>/dev/null ||
	fail_early "openssl cannot make a key"
"$corim_tool" "$work/record.bin" "$work/key.pem" "$work/draft.corim" &&
	"$corim_tool" "$work/record.bin" "$work/key.pem" "$work/veraison.corim" veraison
ok $? "corim_tool writes the booted release's CoRIM in both tag forms"
run_check "CoRIM" corim "$work/draft.corim"
run_check "CoRIM, planted" corim-plants "$work/draft.corim"
"$py311" "$check" corim "$work/veraison.corim" >"$work/out" 2>&1
[ $? = 1 ] && grep -q "tagged-concise-mid-tag: .*requires CBOR tag 506, but the data is not tagged" "$work/out"
ok $? "CoRIM: Veraison's tag form, << 506({...}) >>, is not the draft's tagged-concise-mid-tag"

nonce=$(cat "$work/nonce.hex")
"$verify" --ear "$work/key.pem" --ca "$work/ca.pem" --nonce "$nonce" "$work/evidence.cose" >"$work/pass.jwt"
ok $? "otattest-verify --ear: an affirming EAR"
"$verify" --ear "$work/key.pem" --ca "$work/ca.pem" --nonce "00${nonce:2}" "$work/evidence.cose" >"$work/fail.jwt"
[ $? = 1 ]
ok $? "otattest-verify --ear: a contraindicated EAR (another nonce)"
"$verify" --ear "$work/key.pem" --ear-raw-evidence --ca "$work/ca.pem" --nonce "$nonce" \
	"$work/evidence.cose" >"$work/raw.jwt"
ok $? "otattest-verify --ear --ear-raw-evidence"
run_check "EAR" ear "$work/pass.jwt" "$work/fail.jwt" "$work/raw.jwt"
# Planted: the claims set of the affirming EAR, edited (the signature is not
# the grammar's business).
"$py311" - "$work/pass.jwt" "$work" <<'PYEOF'
import base64, json, sys
tok = open(sys.argv[1]).read().strip().split(".")[1]
ear = json.loads(base64.urlsafe_b64decode(tok + "=" * (-len(tok) % 4)))
sub = next(iter(ear["submods"]))
plants = {
    "no-verifier-id": {k: v for k, v in ear.items() if k != "ear.verifier-id"},
    "status-text": {**ear, "submods": {**ear["submods"], sub: {**ear["submods"][sub], "ear.status": "pass"}}},
    "iat-text": {**ear, "iat": str(ear["iat"])},
    "raw-in-submodule": {**ear, "submods": {**ear["submods"],
                                            sub: {**ear["submods"][sub], "ear.raw-evidence": "AAAA"}}},
}
for name, e in plants.items():
    json.dump(e, open(f"{sys.argv[2]}/plant-{name}.json", "w"))
PYEOF
ok $? "violations planted in the affirming EAR's claims"
run_check "EAR, planted" ear --invalid "$work"/plant-*.json

finish
