#!/usr/bin/env bash
# CoRIM interop (docs/corim.md): reference values `otimage corim` signs,
#  - read by code nobody in otattest wrote: Veraison's cocli
#    (`cocli corim display`) and its corim library (go/corimcheck: the COSE
#    signature with go-cose, each CoMID validated, stage class, SVN, digest
#    and signer key ids printed), both built from the Go module pinned in
#    go/go.mod and go/go.sum, and compared with what the images are. They
#    read `--tag-form veraison`; the default form, the draft CDDL's
#    506(<< CoMID >>), they decode without its tag 506, so they cannot tell
#    what the tags are: shown here, why both forms exist (docs/corim.md);
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
expect_rc 0 "otimage corim signs the release (the draft's tag form)" \
	"$root/$otimage" corim --key release.pem --id release-7 --out draft.corim rom_ext.img bl0.img
expect_rc 0 "otimage corim --tag-form veraison signs it in Veraison's form" \
	"$root/$otimage" corim --key release.pem --id release-7 --tag-form veraison --out release.corim \
	rom_ext.img bl0.img

oti() { "$root/$otimage" "$@"; }
expect_rc 11 "otimage corim: a file that is no image" oti corim --key release.pem --id x --out bad.corim release.pub
expect_rc 10 "otimage corim: a public key cannot sign" oti corim --key release.pub --id x --out bad.corim bl0.img
expect_rc 2 "otimage corim: --id is required" oti corim --key release.pem --out bad.corim bl0.img
expect_rc 21 "otimage corim: at most 16 images" oti corim --key release.pem --id x --out bad.corim \
	bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img \
	bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img bl0.img
[ ! -e bad.corim ]
ok $? "  and nothing is written"
expect_rc 2 "otimage corim: --tag-form is draft or veraison" \
	oti corim --key release.pem --id x --tag-form cbor --out bad.corim bl0.img
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
# The draft's form: Veraison v1.1.2 decodes the CoRIM but loses each tag 506.
"$gobin/cocli" corim display -f draft.corim --show-tags >display-draft 2>&1
[ "$(grep -c 'unmatched CBOR tag' display-draft)" = 2 ] && ! grep -q '"model"' display-draft
ok $? "cocli v1.1.2 cannot tell the draft form's tags are CoMIDs: $(grep -m1 unmatched display-draft)"
"$gobin/corimcheck" draft.corim release.pub >out 2>&1
[ $? != 0 ] && grep -q "not a tagged CoMID" out
ok $? "nor can its corim library: $(tail -1 out)"

# The key thumbprint vector of docs/corim.md: SHA-256 of X || Y, the key
# id otimage prints for the PEM, and the bytes otimage corim writes.
sed -n '/^```thumbprint-vector$/,/^```$/p' "$root/docs/corim.md" >vector
sed -n '/BEGIN PRIVATE KEY/,/END PRIVATE KEY/p' vector >vector.pem
xy=$(sed -n 's/^X || Y: //p; s/^        \([0-9a-f]\{64\}\)$/\1/p' vector | tr -d '\n')
kid=$(sed -n 's/^key id: //p' vector)
entry=$(sed -n 's/^cryptokeys entry: //p' vector | tr -d ' ')
[ ${#xy} = 128 ] && [ ${#kid} = 64 ] && [ "$entry" = "d9022d82015820$kid" ]
ok $? "docs/corim.md's thumbprint vector: X || Y, the key id, the cryptokeys entry"
[ "$(printf %s "$xy" | xxd -r -p | sha256sum | cut -d' ' -f1)" = "$kid" ]
ok $? "  the key id is SHA-256 of X || Y"
[ "$(openssl pkey -in vector.pem -pubout -outform DER 2>/dev/null | tail -c 64 | xxd -p | tr -d '\n')" = "$xy" ]
ok $? "  X || Y is the PEM's public point (openssl)"
[ "$("$root/$otimage" inspect --json vector.pem | jq -r .key_id)" = "$kid" ]
ok $? "  otimage inspect prints that key id for the PEM"
q sign --key vector.pem --stage rom_ext --svn 1 --payload rom_ext.bin --out vector.img &&
	q corim --key release.pem --id vector --out vector.corim vector.img &&
	xxd -p vector.corim | tr -d '\n' | grep -q "$entry"
ok $? "  otimage corim writes that cryptokeys entry for an image the key signs"
cd "$root" || exit 1

# otattest-verify: both tag forms, the release evidence_tool's device booted, and others.
mkdir -p "$work/ev" && "$evtool" "$work/ev" || fail_early "evidence_tool failed"
nonce=$(cat "$work/ev/nonce.hex")
"$corim_tool" "$work/ev/record.bin" "$work/release.pem" "$work/booted.corim"
ok $? "corim_tool writes the CoRIM of the booted stages"
run_verify() { "$verify" --ca "$work/ev/ca.pem" --nonce "$nonce" "$@" "$work/ev/evidence.cose"; }
expect_rc 0 "the release the evidence booted passes" \
	run_verify --corim "$work/booted.corim" --corim-key "$work/release.pub"
"$corim_tool" "$work/ev/record.bin" "$work/release.pem" "$work/booted-veraison.corim" veraison
expect_rc 0 "  and so does the same release in Veraison's tag form" \
	run_verify --corim "$work/booted-veraison.corim" --corim-key "$work/release.pub"
expect_rc 1 "the draft-form CoRIM of another release fails the evidence" \
	run_verify --corim "$work/draft.corim" --corim-key "$work/release.pub"
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
