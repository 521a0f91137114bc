#!/usr/bin/env bash
# CoRIM interop (docs/corim.md): reference values `otimage corim` signs,
#  - read by code nobody in otattest wrote: Veraison's cocli
#    (`cocli corim display`) and its corim library (go/corimcheck: the COSE
#    signature with go-cose, each CoMID validated, stage class, SVN, digest
#    and signer key ids printed), both built from the Go module pinned in
#    go/go.mod and go/go.sum, and compared with what the images are;
#  - given to otattest-verify beside evidence the firmware's runtime signed
#    (evidence_tool): the release the evidence booted passes, a CoRIM that
#    does not list a stage's measurement is VERIFY_REFERENCE_MISMATCH, a
#    CoRIM signed by another key or cut short stops the run.
# Prints one line per check and "N passed, N failed"; exits 1 on failure.
set -u
cd "$(dirname "$0")/../.."
root=$PWD
B=${B:-build}
otimage=$B/otimage
verify=$B/otattest-verify
evtool=$B/tests/interop/evidence_tool
corim_tool=$B/tests/interop/corim_tool
gobin=$root/$B/tests/interop/go

suite="corim interop"
# shellcheck source=tests/interop/tap.sh
. tests/interop/tap.sh
make -s "$otimage" "$verify" "$evtool" "$corim_tool" >/dev/null ||
	fail_early "cannot build $otimage, $verify, $evtool and $corim_tool"
command -v go >/dev/null || fail_early "no Go toolchain (go) on PATH"
mkdir -p "$gobin"
# The module's go.sum pins every dependency; -mod=readonly refuses to change it.
for what in "-o $gobin/cocli github.com/veraison/corim/cocli" "-o $gobin/corimcheck ./corimcheck"; do
	# shellcheck disable=SC2086 # the words of $what are go build's arguments
	(cd tests/interop/go && GOFLAGS=-mod=readonly go build $what) >"$gobin/build.log" 2>&1 ||
		fail_early "cd tests/interop/go && GOFLAGS=-mod=readonly go build $what: $(cat "$gobin/build.log")"
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A release: ROM_EXT under the creator key, BL0 through a delegate of the owner.
cd "$work" || exit 1
q() { "$root/$otimage" "$@" >/dev/null; }
q keygen --out release.pem --pub release.pub
q keygen --out other.pem --pub other.pub
q keygen --out creator.pem --pub creator.pub
q keygen --out owner.pem --pub owner.pub
q keygen --out team.pem --pub team.pub
q delegate --parent-key owner.pem --delegate-pub team.pub --type leaf --svn-min 1 --svn-max 20 \
	--out team.cert
head -c 8192 /dev/urandom >rom_ext.bin
head -c 8192 /dev/urandom >bl0.bin
q sign --key creator.pem --stage rom_ext --svn 2 --payload rom_ext.bin --out rom_ext.img
q sign --key team.pem --cert team.cert --stage bl0 --svn 7 --payload bl0.bin --out bl0.img
expect_rc 0 "otimage corim signs the release" \
	"$root/$otimage" corim --key release.pem --id release-7 --out release.corim rom_ext.img bl0.img

oti() { "$root/$otimage" "$@"; }
expect_rc 11 "otimage corim: a file that is no image" oti corim --key release.pem --id x --out bad.corim release.pub
expect_rc 10 "otimage corim: a public key cannot sign" oti corim --key release.pub --id x --out bad.corim bl0.img
expect_rc 2 "otimage corim: --id is required" oti corim --key release.pem --out bad.corim bl0.img
expect_rc 21 "otimage corim: at most 16 images" oti corim --key release.pem --id x --out bad.corim \
	bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img \
	bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img
[ ! -e bad.corim ]
ok $? "  and nothing is written"
expect_rc 10 "otimage corim: an existing file is not replaced without --force" \
	oti corim --key release.pem --id release-7 --out release.corim rom_ext.img bl0.img

# What the CoRIM must say, from otimage inspect (the device's parsers).
expected() { # image -> the line corimcheck prints for it
	"$root/$otimage" inspect --json "$1" | jq -r '
		(if .stage == "rom_ext" then ["1", "bcd6ffbf-cd11-5784-b19b-6a5ef07b876c"]
		 else ["2", "cb325f08-374d-525b-a7d4-ef522472e489"] end) as $c
		| (if (.certificates | length) == 0 then [.signer_key_id]
		   else [.certificates[0].parent_key_id] + [.certificates[].delegate_key_id] end) as $keys
		| "stage=\(.stage) vendor=otattest layer=\($c[0]) class=\($c[1]) svn=\(.security_version) sha256=\(.measurement) keys=\($keys | join(","))"'
}
{
	echo "corim-id=release-7 signer=otattest tags=2"
	expected rom_ext.img
	expected bl0.img
} >want
"$gobin/corimcheck" release.corim release.pub >got 2>&1
ok $? "Veraison's corim library decodes the CoRIM and verifies its signature"
diff -u want got >diff.out
ok $? "it reads each image's stage class, SVN, SHA-256 digest and signer key ids"
[ "$(grep -c 'keys=.*,' got)" = 1 ]
ok $? "BL0's signer key ids are the owner's root key and its delegate's"
"$gobin/corimcheck" release.corim other.pub >out 2>&1
[ $? != 0 ] && grep -q signature out
ok $? "Veraison's library refuses the signature under another key"

"$gobin/cocli" corim display -f release.corim --show-tags >display 2>&1
ok $? "cocli corim display accepts it"
grep -q '"vendor": "otattest"' display && grep -q '"model": "rom_ext"' display &&
	grep -q '"model": "bl0"' display && grep -q '"id": "release-7/bl0"' display &&
	grep -q '"type": "exact-value"' display
ok $? "cocli shows each stage's class, tag id and exact SVN"
bl0_b64=$(jq -r '.measurement' <("$root/$otimage" inspect --json bl0.img) | xxd -r -p | base64 -w0)
grep -q "sha-256;$bl0_b64" display
ok $? "cocli shows BL0's SHA-256 digest"
cd "$root" || exit 1

# otattest-verify: the release evidence_tool's device booted, and others.
mkdir -p "$work/ev" && "$evtool" "$work/ev" || fail_early "evidence_tool failed"
nonce=$(cat "$work/ev/nonce.hex")
"$corim_tool" "$work/ev/record.bin" "$work/release.pem" "$work/booted.corim"
ok $? "corim_tool writes the CoRIM of the booted stages"
run_verify() { "$verify" --ca "$work/ev/ca.pem" --nonce "$nonce" "$@" "$work/ev/evidence.cose"; }
expect_rc 0 "the release the evidence booted passes" \
	run_verify --corim "$work/booted.corim" --corim-key "$work/release.pub"
expect_rc 0 "a CoRIM of another release beside it: still passes" \
	run_verify --corim "$work/release.corim" --corim "$work/booted.corim" --corim-key "$work/release.pub"
expect_rc 1 "a CoRIM that lists neither booted measurement fails" \
	run_verify --corim "$work/release.corim" --corim-key "$work/release.pub"
[ "$(grep -c 'FAILED VERIFY_REFERENCE_MISMATCH' "$work/out")" = 2 ] &&
	grep -q "rom_ext measurement .* is not in the reference values" "$work/out"
ok $? "  each stage named with VERIFY_REFERENCE_MISMATCH"
run_verify --json --corim "$work/release.corim" --corim-key "$work/release.pub" >"$work/json"
jq -e '.verdict == "fail" and ([.failures[] | select(.check == "VERIFY_REFERENCE_MISMATCH") | .stage]
	| sort == ["bl0", "rom_ext"])' "$work/json" >/dev/null
ok $? "  --json names VERIFY_REFERENCE_MISMATCH for rom_ext and bl0"
mkdir -p "$work/batch" && cp "$work/ev/evidence.cose" "$work/batch/dev1.cose"
run_batch() { "$verify" --batch --ca "$work/ev/ca.pem" --nonce "$nonce" "$@" "$work/batch"; }
expect_rc 0 "--batch: the release the evidence booted passes" \
	run_batch --corim "$work/booted.corim" --corim-key "$work/release.pub"
expect_rc 1 "--batch: a CoRIM that lists neither fails" \
	run_batch --corim "$work/release.corim" --corim-key "$work/release.pub"
grep -q "dev1.cose: FAIL VERIFY_REFERENCE_MISMATCH, VERIFY_REFERENCE_MISMATCH" "$work/out"
ok $? "  naming VERIFY_REFERENCE_MISMATCH twice"
expect_rc 12 "a CoRIM checked against another key stops the run" \
	run_verify --corim "$work/booted.corim" --corim-key "$work/other.pub"
grep -q "CoRIM .*booted.corim: the CoRIM's signature does not verify" "$work/out"
ok $? "  and says which CoRIM"
head -c 100 "$work/booted.corim" >"$work/short.corim"
expect_rc 11 "a CoRIM cut short stops the run" \
	run_verify --corim "$work/short.corim" --corim-key "$work/release.pub"
expect_rc 2 "--corim without --corim-key is a usage error" run_verify --corim "$work/booted.corim"
expect_rc 11 "--corim-key that is no public key" \
	run_verify --corim "$work/booted.corim" --corim-key "$work/booted.corim"

finish
