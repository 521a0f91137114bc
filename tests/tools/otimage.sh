#!/usr/bin/env bash
# otimage from the command line, the way an operator and a script use it:
# every subcommand, --help for each, --json parsed with jq, one-line errors
# naming file and field, exit codes by status class, and nothing written
# when a command fails.
#
# Prints one line per check and "N passed, N failed"; exits 1 on failure.
# OTIMAGE=path tests another build (an ASan one, say) as is.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
otimage=${OTIMAGE:-$B/otimage}
# Exit codes: status classes from otattest/status.h, 2 for usage.
E_USAGE=2 E_INVALID=10 E_MALFORMED=11 E_VERIFY=12 E_POLICY=13 E_IO=22

if [ -z "${OTIMAGE:-}" ] && ! make -s "$otimage" >/dev/null; then
	echo "otimage cli: cannot build $otimage"
	echo "0 passed, 1 failed"
	exit 1
fi
if ! command -v jq >/dev/null; then
	echo "otimage cli: jq is not installed (run: make deps)"
	echo "0 passed, 1 failed"
	exit 1
fi
# The firmware's alias certificates come from its runtime on the software HAL.
evidence_tool=$B/tests/interop/evidence_tool
if ! make -s "$evidence_tool" >/dev/null; then
	echo "otimage cli: cannot build $evidence_tool"
	echo "0 passed, 1 failed"
	exit 1
fi
# A stage executable to sign (firmware/build.mk): ROM_EXT's rv32 image.
rom_ext_elf=$B/rv32/rom_ext.elf
if ! make -s "$rom_ext_elf" >/dev/null; then
	echo "otimage cli: cannot build $rom_ext_elf"
	echo "0 passed, 1 failed"
	exit 1
fi
otimage=$(realpath "$otimage")
evidence_tool=$(realpath "$evidence_tool")
rom_ext_elf=$(realpath "$rom_ext_elf")
src_dir=$(pwd)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0 fail=0

ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
check() { # check NAME CMD...: pass when CMD succeeds
	local name=$1
	shift
	if "$@"; then ok "$name"; else bad "$name"; fi
}
oti() { "$otimage" "$@"; }
# rc NAME WANT ARGS...: otimage ARGS exits with exactly WANT; stdout/stderr kept.
rc() {
	local name=$1 want=$2 got
	shift 2
	oti "$@" >out.txt 2>err.txt
	got=$?
	if [ "$got" -eq "$want" ]; then
		ok "$name (exit $got)"
	else
		bad "$name: expected exit $want, got $got: otimage $*"
		sed 's/^/     /' err.txt
	fi
}
# err_is TEXT: the last command printed exactly this one line on stderr.
err_is() {
	if [ "$(cat err.txt)" = "$1" ] && [ "$(wc -l <err.txt)" -eq 1 ]; then
		ok "error line: $1"
	else
		bad "error line: want '$1', got '$(cat err.txt)'"
	fi
}
err_has() { if grep -qF -- "$1" err.txt; then ok "error names '$1'"; else bad "error lacks '$1': $(cat err.txt)"; fi; }
no_stdout() { if [ ! -s out.txt ]; then ok "nothing on stdout"; else bad "stdout not empty: $(head -c 200 out.txt)"; fi; }
absent() { if [ ! -e "$1" ]; then ok "$1 not written"; else bad "$1 was written"; fi; }
# jqt NAME FILTER FILE: jq -e FILTER holds on FILE (which must be JSON).
# (jq -e holds on empty input: an empty file fails here.)
jqt() { if [ -s "$3" ] && jq -e "$2" "$3" >/dev/null 2>&1; then ok "$1"; else bad "$1: jq '$2' on $(head -c 300 "$3")"; fi; }
# poke FILE OFFSET HEXBYTE: overwrite one byte.
poke() { printf "\\x$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
mode_of() { stat -c %a "$1"; }

# ---- help and usage -----------------------------------------------------
rc "otimage --help" 0 --help
for c in keygen sign delegate owner-config pack provision fuse inspect ca ca-sign revocation; do
	check "tool help lists $c" grep -q "^    $c " out.txt
done
for c in keygen sign delegate owner-config pack provision fuse inspect ca ca-sign revocation; do
	rc "$c --help" 0 "$c" --help
	check "$c --help is a manual page" \
		bash -c 'grep -q "^NAME" out.txt && grep -q "^SYNOPSIS" out.txt && grep -q "^OPTIONS" out.txt && grep -q "^EXIT STATUS" out.txt && grep -q "^EXAMPLES" out.txt'
	# Every long option the command parses is in its manual page.
	src=${c%-config}
	src=$src_dir/libotattest/tools/otimage/cmd_${src//-/_}.c
	undocumented=""
	for o in $(grep -oE '\{ "[a-z-]+", (required|no)_argument' "$src" | cut -d'"' -f2); do
		grep -q -- "--$o" out.txt || undocumented="$undocumented --$o"
	done
	check "$c --help documents every option its code parses${undocumented:+ (missing:$undocumented)}" \
		test -z "$undocumented" -a -f "$src"
done
rc "no command" $E_USAGE
rc "unknown command" $E_USAGE frobnicate
err_has "unknown command 'frobnicate'"
rc "unknown option" $E_USAGE keygen --bogus
rc "missing --out" $E_USAGE sign --key k.pem
rc "bad --alg" $E_USAGE keygen --alg rsa --out x.pem
absent x.pem

# ---- keygen -------------------------------------------------------------
rc "keygen ecdsa" 0 keygen --out root.pem --pub root.pub --json
cp out.txt keygen.json
jqt "keygen --json: algorithm and a 32-byte key id" \
	'.algorithm == "ecdsa-p256" and (.key_id | test("^[0-9a-f]{64}$")) and (.ecdsa_public_key | length) == 128' keygen.json
check "private key is 0600" test "$(mode_of root.pem)" = 600
check "public key is 0644" test "$(mode_of root.pub)" = 644
check "private key is PKCS#8 PEM" grep -q "BEGIN PRIVATE KEY" root.pem
check "openssl reads it as P-256" bash -c "openssl pkey -in root.pem -noout -text | grep -q 'NIST CURVE: P-256'"
rc "keygen refuses to replace a key" $E_INVALID keygen --out root.pem
err_is "otimage: root.pem: output file exists (use --force to replace it)"
cp root.pem root.before
rc "keygen --force replaces it" 0 keygen --out root.pem --pub root.pub --force
check "the key changed" bash -c '! cmp -s root.pem root.before'
rc "keygen hybrid" 0 keygen --alg hybrid --out hroot.pem --pub hroot.pub --json
cp out.txt hkeygen.json
jqt "hybrid key has an SLH-DSA public key" '.algorithm == "hybrid" and (.slhdsa_public_key | length) == 64' hkeygen.json
check "SLH-DSA secret key file is 112 bytes, 0600" bash -c 'test $(stat -c %s hroot.pem.spx) = 112 && test $(stat -c %a hroot.pem.spx) = 600'
check "SLH-DSA public key file is 112 bytes" test "$(stat -c %s hroot.pub.spx)" = 112
rc "export the public part" 0 keygen --key hroot.pem --pub hexport.pub --json
cp out.txt hexport.json
check "exported public key is the same" cmp -s hexport.pub hroot.pub
check "exported SLH-DSA public key file is the same" cmp -s hexport.pub.spx hroot.pub.spx

# keygen --name: the key names file (docs/keynames.md).
rc "keygen --name adds the key to a new names file" 0 keygen --out named.pem --name owner-2026 --names-file key-names --json
cp out.txt named.json
check "names file holds '<key id> <name>'" test "$(cat key-names)" = "$(jq -r .key_id named.json) owner-2026"
jqt "keygen --json: the name" '.name == "owner-2026"' named.json
rc "the same name again changes nothing" 0 keygen --key named.pem --name owner-2026 --names-file key-names
check "still one line" test "$(wc -l <key-names)" = 1
rc "another name for a named key" $E_INVALID keygen --key named.pem --name other --names-file key-names
err_has "already named \"owner-2026\""
rc "a name another key has" $E_INVALID keygen --out named2.pem --name owner-2026 --names-file key-names
err_has "line 1 gives the name \"owner-2026\" to another key"
absent named2.pem
rc "a name outside the alphabet" $E_INVALID keygen --out named2.pem --name 'a b' --names-file key-names
absent named2.pem
rc "--name without --names-file" $E_USAGE keygen --out named2.pem --name x
printf 'not a names line\n' >>key-names
cp key-names key-names.bad
rc "a names file that does not parse is refused" $E_INVALID keygen --out named2.pem --name signer --names-file key-names
err_has "key-names: value is malformed or out of range: line 2: expected a key id"
absent named2.pem
check "and left as it was" cmp -s key-names key-names.bad
printf '%s last-no-newline' "$(printf 1%.0s $(seq 64))" >key-names
rc "a last line without its newline gets one" 0 keygen --out named3.pem --name third --names-file key-names --json
check "both lines intact" test "$(wc -l <key-names)" = 2
for k in inter leaf other; do oti keygen --out $k.pem --pub $k.pub >/dev/null; done
for k in hinter hleaf; do oti keygen --alg hybrid --out $k.pem --pub $k.pub >/dev/null; done

# ---- sign ---------------------------------------------------------------
head -c 4000 /dev/urandom >code.bin
rc "sign direct" 0 sign --key root.pem --stage rom_ext --svn 3 --payload code.bin --out re.img --json
cp out.txt sign.json
jqt "sign --json" '.stage == "rom_ext" and .security_version == 3 and .delegation_depth == 0 and .hybrid == false' sign.json
check "signer key id is the root's" test "$(jq -r .signer_key_id sign.json)" = "$(oti inspect --json root.pem | jq -r .key_id)"
rc "inspect --root-key verifies it" 0 inspect --json --root-key root.pub re.img
cp out.txt re.json
jqt "inspect image" '.format == "image" and .payload_length == 4000 and (.measurement == "'"$(jq -r .measurement sign.json)"'")' re.json
rc "inspect against another root" $E_VERIFY inspect --root-key other.pub re.img
no_stdout

cat >bl0.conf <<'EOF'
# BL0 for the lab fleet
stage = bl0
security_version = 6
payload = code.bin
slots = a
lifecycle = dev,prod
flags = tag-boot
max_key_version = 7
salt = 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
EOF
rc "sign from a config file" 0 sign --key root.pem --config bl0.conf --out c.img
rc "inspect it" 0 inspect --json c.img
cp out.txt c.json
jqt "config fields made it into the manifest" \
	'.stage == "bl0" and .security_version == 6 and .max_key_version == 7 and .usage.slots == "a" and .usage.lifecycle == "dev,prod" and (.salt | startswith("0011"))' c.json
rc "options override the config" 0 sign --key root.pem --config bl0.conf --svn 9 --slots b --out c2.img
oti inspect --json c2.img >c2.json
jqt "overridden fields" '.security_version == 9 and .usage.slots == "b" and .max_key_version == 7' c2.json
printf 'stage = bl0\nsecurity_version = 1\npayload = code.bin\ncolour = blue\n' >bad.conf
rc "config: unknown key" $E_INVALID sign --key root.pem --config bad.conf --out x.img
err_is "otimage: bad.conf: line 4: config file sets a key otimage does not know: 'colour'"
absent x.img
printf 'stage = bl0\nsecurity_version = 6\nsecurity_version = 7\npayload = code.bin\n' >dup.conf
rc "config: a key given twice" $E_INVALID sign --key root.pem --config dup.conf --out x.img
err_is "otimage: dup.conf: line 3: config file sets a key twice: 'security_version'"
absent x.img
printf 'stage bl0\n' >bad2.conf
rc "config: not key = value" $E_INVALID sign --key root.pem --config bad2.conf --out x.img
err_has "bad2.conf: line 1"
printf 'stage = bl0\nsecurity_version = 256\npayload = code.bin\n' >bad3.conf
rc "config: value out of range" $E_INVALID sign --key root.pem --config bad3.conf --out x.img
err_has "bad3.conf:2: security_version"
rc "sign: --svn out of range" $E_INVALID sign --key root.pem --stage bl0 --svn 256 --payload code.bin --out x.img
err_is "otimage: --svn: value is malformed or out of range: '256', expected 0..255"
rc "sign: missing payload file" $E_IO sign --key root.pem --stage bl0 --svn 1 --payload nope.bin --out x.img
err_is "otimage: nope.bin: reading or writing a file failed: No such file or directory"
rc "sign: public key cannot sign" $E_INVALID sign --key root.pub --stage bl0 --svn 1 --payload code.bin --out x.img
err_is "otimage: root.pub: a private key is needed but the file holds a public key"
echo "not a key" >junk.pem
rc "sign: junk key file" $E_MALFORMED sign --key junk.pem --stage bl0 --svn 1 --payload code.bin --out x.img
err_is "otimage: junk.pem: key file is not a PEM private or public key"
absent x.img

# ---- delegate -----------------------------------------------------------
rc "delegate intermediate" 0 delegate --parent-key root.pem --delegate-pub inter.pub --type intermediate \
	--svn-min 4 --svn-max 20 --lifecycle dev,prod --out inter.cert --json
cp out.txt inter.json
jqt "intermediate certificate" '.format == "certificate" and .type == "intermediate" and .constraints.svn_min == 4 and .constraints.svn_max == 20 and .hybrid == false' inter.json
check "certificate file is one DLGC" test "$(stat -c %s inter.cert)" = 224
rc "delegate leaf under it" 0 delegate --parent-key inter.pem --parent-cert inter.cert --delegate-pub leaf.pub \
	--type leaf --svn-min 5 --svn-max 9 --lifecycle dev --out leaf.cert --json
cp out.txt leaf.json
jqt "leaf inherits what it does not narrow" '.constraints.slots == "a,b" and .constraints.lifecycle == "dev" and .constraints.flags == "tag-boot"' leaf.json
rc "child wider than parent (svn_min)" $E_POLICY delegate --parent-key inter.pem --parent-cert inter.cert \
	--delegate-pub leaf.pub --type leaf --svn-min 3 --svn-max 9 --out wide.cert
err_is "otimage: inter.cert: --svn-min: child certificate lowers its parent's minimum SVN"
absent wide.cert
rc "child wider than parent (lifecycle)" $E_POLICY delegate --parent-key inter.pem --parent-cert inter.cert \
	--delegate-pub leaf.pub --type leaf --lifecycle rma --out wide.cert
err_has "--lifecycle: child certificate allows lifecycle states its parent does not"
rc "child wider than parent (device)" 0 delegate --parent-key root.pem --delegate-pub inter.pub --type intermediate \
	--device 00112233445566778899aabbccddeeff --out bound.cert
rc "bound parent, unbound child" $E_POLICY delegate --parent-key inter.pem --parent-cert bound.cert \
	--delegate-pub leaf.pub --type leaf --device any --out wide.cert
err_has "--device"
rc "a leaf cannot delegate" $E_MALFORMED delegate --parent-key leaf.pem --parent-cert leaf.cert \
	--delegate-pub other.pub --type leaf --out deep.cert
err_has "a leaf certificate cannot delegate further"
rc "parent key is not the certificate's delegate" $E_INVALID delegate --parent-key other.pem --parent-cert inter.cert \
	--delegate-pub leaf.pub --type leaf --out x.cert
rc "hybrid delegate under an ECDSA parent" $E_INVALID delegate --parent-key root.pem --delegate-pub hinter.pub \
	--type intermediate --out x.cert
absent x.cert
rc "bad --type" $E_USAGE delegate --parent-key root.pem --delegate-pub inter.pub --type branch --out x.cert

rc "sign with two delegates" 0 sign --key leaf.pem --cert inter.cert --cert leaf.cert --stage bl0 --svn 6 \
	--payload code.bin --out chain.img --json
cp out.txt chain.json
jqt "depth 2" '.delegation_depth == 2' chain.json
rc "chain verifies under the root" 0 inspect --json --root-key root.pub chain.img
cp out.txt chaini.json
jqt "inspect lists both certificates" '(.certificates | length) == 2 and .certificates[0].type == "intermediate" and .certificates[1].type == "leaf" and .usage.lifecycle == "dev"' chaini.json
rc "image SVN above the leaf's" $E_POLICY sign --key leaf.pem --cert inter.cert --cert leaf.cert --stage bl0 --svn 10 \
	--payload code.bin --out x.img
err_is "otimage: manifest.security_version: image SVN is above the leaf certificate's maximum"
rc "signer is not the leaf" $E_VERIFY sign --key inter.pem --cert inter.cert --cert leaf.cert --stage bl0 --svn 6 \
	--payload code.bin --out x.img
err_has "--key: image signer key is not the end of its delegation chain"
rc "certificates out of order" $E_MALFORMED sign --key leaf.pem --cert leaf.cert --cert inter.cert --stage bl0 --svn 6 \
	--payload code.bin --out x.img
absent x.img

# Hybrid: root -> leaf, both hybrid: DLGS and SPXS, all verified.
rc "hybrid delegate" 0 delegate --parent-key hroot.pem --delegate-pub hleaf.pub --type leaf --svn-max 50 --out hleaf.cert --json
cp out.txt hleaf.json
jqt "hybrid certificate carries the delegate's SLH-DSA key" '.hybrid == true and .delegate_slhdsa_public_key == "'"$(jq -r .slhdsa_public_key < <(oti inspect --json hleaf.pub))"'"' hleaf.json
check "hybrid certificate file is DLGC + DLGS" test "$(stat -c %s hleaf.cert)" = $((224 + 7936))
rc "hybrid sign" 0 sign --key hleaf.pem --cert hleaf.cert --stage bl0 --svn 2 --payload code.bin --out hy.img --json
cp out.txt hy.json
jqt "hybrid image" '.hybrid == true and .delegation_depth == 1' hy.json
rc "hybrid image verifies (ECDSA and SLH-DSA)" 0 inspect --root-key hroot.pub hy.img
size=$(stat -c %s hy.img)
cp hy.img hy-bad.img
poke hy-bad.img $((size - 100)) 00
poke hy-bad.img $((size - 99)) 00
rc "tampered SLH-DSA signature" $E_VERIFY inspect --root-key hroot.pub hy-bad.img
err_is "otimage: hy-bad.img: manifest.ext[2] (SPXS): image SLH-DSA signature is invalid"
no_stdout

# ---- the device check: otimage's verdict is the device's (docs/otimage.md) ----
rc "inspect with nothing known of the device" 0 inspect --json chain.img
cp out.txt dc.json
jqt "accepted, and what could not be applied is listed" \
	'.device_check.status == "OK" and .device_check.stage == "bl0" and .device_check.root_key_given == false and .device_check.signatures_verified == false and (.device_check.not_applied | any(startswith("lifecycle state: no --otp"))) and (.device_check.not_applied | any(. == "root key: none given; certificate 1'"'"'s signatures not verified"))' dc.json
rc "inspect --root-key: every signature down from the root" 0 inspect --json --root-key root.pub chain.img
jqt "signatures verified under the given root" '.device_check.signatures_verified == true and .device_check.root_key_given == true and .device_check.root_key_id == "'"$(oti inspect --json root.pub | jq -r .key_id)"'"' out.txt
rc "another root key: looked up by the first certificate's parent" $E_VERIFY inspect --root-key other.pub chain.img
err_is "otimage: chain.img: manifest.ext[0] (DLGC).parent_key_id: no provisioned root key matches the image or chain"
rc "another root key for a direct image" $E_VERIFY inspect --root-key other.pub re.img
err_is "otimage: re.img: manifest.signer_key_id: no provisioned root key matches the image or chain"
# The ROM takes no delegation: a ROM_EXT under a delegate is refused as the ROM refuses it.
rc "sign: a ROM_EXT through a delegate" $E_POLICY sign --key leaf.pem --cert inter.cert --cert leaf.cert \
	--stage rom_ext --svn 6 --payload code.bin --out x.img
err_is "otimage: --cert: delegation chain is deeper than the owner config allows: certificate 1: the ROM takes no delegation"
absent x.img
# Under a hybrid root every link is hybrid (a DLGS) and so is the image (an SPXS).
rc "delegate: an ECDSA-only delegate under a hybrid root" $E_POLICY delegate --parent-key hroot.pem \
	--delegate-pub leaf.pub --type leaf --out x.cert
err_is "otimage: --delegate-pub: hybrid is required but a certificate has no SLH-DSA companion: under a hybrid root every delegate is hybrid"
absent x.cert
rc "delegate a hybrid intermediate" 0 delegate --parent-key hroot.pem --delegate-pub hinter.pub \
	--type intermediate --out hinter.cert
rm -f x.cert
rc "delegate: a hybrid leaf to its intermediate's own key (two DLGS for one key)" $E_MALFORMED \
	delegate --parent-key hinter.pem --parent-cert hinter.cert --delegate-pub hinter.pub --type leaf --out x.cert
err_is "otimage: --delegate-pub: an extension that may appear once appears twice: the parent's own key: an image cannot carry both its SLH-DSA companions"
absent x.cert
# An SLH-DSA part with no trusted key to check it under is invalid (exit 12), as on
# the device: here the hybrid root provisioned ECDSA-only (its P-256 half alone).
cp hroot.pub hroot-ecdsa.pub
rc "a DLGS under an ECDSA-only root" $E_VERIFY inspect --root-key hroot-ecdsa.pub hy.img
err_is "otimage: hy.img: manifest.ext[1] (DLGS): delegation certificate SLH-DSA signature is invalid"
rc "sign directly with the hybrid root" 0 sign --key hroot.pem --stage bl0 --svn 2 --payload code.bin --out hyd.img
rc "an SPXS under an ECDSA-only root" $E_VERIFY inspect --root-key hroot-ecdsa.pub hyd.img
err_is "otimage: hyd.img: manifest.ext[0] (SPXS): image SLH-DSA signature is invalid"
# ECDSA signs the 32-byte measurement itself: openssl verifies r || s as
# ECDSA-SHA256 over [64, signed_end) with the PEM public key.
python3 - <<'PY'
img = open("re.img", "rb").read()
open("region.bin", "wb").write(img[64:int.from_bytes(img[84:88], "little")])
def der_int(x):
    b = x.to_bytes(x.bit_length() // 8 + 1, "big")
    return b"\x02" + bytes([len(b)]) + b
body = der_int(int.from_bytes(img[0:32], "big")) + der_int(int.from_bytes(img[32:64], "big"))
open("sig.der", "wb").write(b"\x30" + bytes([len(body)]) + body)
PY
check "openssl verifies an image signature as ECDSA-SHA256 over the signed region" \
	bash -c 'openssl dgst -sha256 -verify root.pub -signature sig.der region.bin >/dev/null'

# With the device's own OTP and owner config, the device's own verdict.
oti owner-config --key root.pub --max-depth 2 --out lab.cfg >/dev/null
oti owner-config --key root.pub --max-depth 1 --out lab1.cfg >/dev/null
rc "an OTP in test_unlocked, chain length 8" 0 provision --creator-key root.pub --owner-config lab.cfg \
	--lifecycle test_unlocked --chain-max-svn 8 --out lab-otp.bin
rc "a dev-only image on a device in test_unlocked" $E_POLICY inspect --otp lab-otp.bin --owner-config lab.cfg chain.img
err_is "otimage: chain.img: manifest.usage.lifecycle_mask: image may not run in the device's lifecycle state: the device is in test_unlocked"
rc "fuse the device to dev" 0 fuse lab-otp.bin --lifecycle dev
rc "the same image on the device in dev, slot b" 0 inspect --json --otp lab-otp.bin --owner-config lab.cfg --slot b chain.img
jqt "checked in dev and slot b, only the boot data floor left out" \
	'.device_check.lifecycle == "dev" and .device_check.slot == "b" and .device_check.signatures_verified == true and .device_check.not_applied == ["anti-rollback floor in boot data: kept in the device'"'"'s flash"]' out.txt
rc "--slot is a or b" $E_INVALID inspect --otp lab-otp.bin --owner-config lab.cfg --slot c chain.img
rc "--root-key and --owner-config exclude each other" $E_USAGE inspect --root-key root.pub --owner-config lab.cfg chain.img
oti owner-config --key other.pub --out other.cfg >/dev/null
rc "an owner config the OTP does not name" $E_VERIFY inspect --otp lab-otp.bin --owner-config other.cfg chain.img
err_is "otimage: chain.img: --owner-config: owner config does not match the digest provisioned in OTP"
cp lab-otp.bin lab-floor.bin
oti fuse lab-floor.bin --floor bl0=7 >/dev/null
rc "below the OTP floor (rollback, exit 14)" 14 inspect --otp lab-floor.bin --owner-config lab.cfg chain.img
err_is "otimage: chain.img: manifest.security_version: image security version is below the anti-rollback floor: floor 7"
oti fuse lab-floor.bin --floor bl0=10 >/dev/null
rc "the floor above the leaf's ceiling revokes it (exit 14)" 14 inspect --otp lab-floor.bin --owner-config lab.cfg chain.img
err_is "otimage: chain.img: manifest.ext[1] (DLGC).constraints.svn_max: anti-rollback floor is above a delegate's SVN ceiling: delegate revoked: floor 10"
cp lab-otp.bin lab-revoked.bin
oti fuse lab-revoked.bin --revoke owner:0 >/dev/null
rc "a revoked owner key (exit 15)" 15 inspect --otp lab-revoked.bin --owner-config lab.cfg chain.img
err_is "otimage: chain.img: manifest.ext[0] (DLGC).parent_key_id: the root key that signed the image is revoked"
rc "depth 2 under an owner allowing 1" $E_POLICY inspect --owner-config lab1.cfg chain.img
err_is "otimage: chain.img: manifest.ext[1] (DLGC): delegation chain is deeper than the owner config allows: the owner config allows 1"
rc "sign above the device's chain length (a limit, exit 21)" 21 sign --key root.pem --stage bl0 --svn 9 \
	--payload code.bin --otp lab-otp.bin --owner-config lab.cfg --out x.img
err_is "otimage: manifest.security_version: security version is above the supported maximum: at most 8"
absent x.img
rc "sign for the device" 0 sign --key root.pem --stage bl0 --svn 8 --payload code.bin --otp lab-otp.bin \
	--owner-config lab.cfg --out lab.img --json
jqt "sign prints the device's verdict" '.device_check.status == "OK" and .device_check.lifecycle == "dev" and .device_check.signatures_verified == true' out.txt
rc "delegate: a parent that is no owner key" $E_VERIFY delegate --parent-key other.pem --delegate-pub leaf.pub \
	--type leaf --owner-config lab.cfg --out x.cert
err_is "otimage: --parent-key: no provisioned root key matches the image or chain"
rc "delegate: an intermediate under an owner allowing depth 1" $E_POLICY delegate --parent-key root.pem \
	--delegate-pub inter.pub --type intermediate --owner-config lab1.cfg --out x.cert
err_is "otimage: --type: delegation chain is deeper than the owner config allows: the owner config allows 1"
oti provision --creator-key root.pub --owner-config lab.cfg --lifecycle dev --floor-bl0 10 --out lab2-otp.bin >/dev/null
rc "delegate: a ceiling below the device's floor" 14 delegate --parent-key root.pem --delegate-pub leaf.pub \
	--type leaf --svn-max 9 --otp lab2-otp.bin --owner-config lab.cfg --out x.cert
err_is "otimage: --svn-max: anti-rollback floor is above a delegate's SVN ceiling: delegate revoked: floor 10"
absent x.cert
rc "delegate for the device" 0 delegate --parent-key root.pem --delegate-pub leaf.pub --type leaf \
	--svn-min 10 --otp lab2-otp.bin --owner-config lab.cfg --out lab-leaf.cert --json
jqt "delegate prints the certificate and the device's verdict on images under it" \
	'.format == "certificate" and .type == "leaf" and .device_check.status == "OK" and (.device_check.not_applied | index("signatures: policy only, nothing verified") != null)' out.txt

# ---- malformed images: one line, the field, exit 11, nothing else ----------
cp re.img bad.img
poke bad.img 84 ff; poke bad.img 85 ff; poke bad.img 86 ff; poke bad.img 87 ff  # signed_end
rc "inspect: signed_end out of range" $E_MALFORMED inspect bad.img
err_is "otimage: bad.img: manifest.signed_end: signed region is out of range"
no_stdout
cp re.img bad.img
poke bad.img 64 58
rc "inspect: bad magic" $E_MALFORMED inspect --json bad.img
err_is "otimage: bad.img: file is not in any format otimage knows"
cp chain.img bad.img
poke bad.img $(( $(jq -r .extensions[1].offset chaini.json) + 20 )) 01   # DLGC reserved word
rc "inspect: reserved certificate field" $E_MALFORMED inspect bad.img
err_is "otimage: bad.img: manifest.ext[1] (DLGC): a reserved certificate field is not zero"
head -c 200 re.img >short.img
rc "inspect: truncated image" $E_MALFORMED inspect short.img
err_is "otimage: short.img: manifest: image is shorter than its manifest header"
head -c 400 re.img >short.img
rc "inspect: image cut after its header" $E_MALFORMED inspect short.img
err_is "otimage: short.img: manifest.image_length: image length field disagrees with the image or its slot"
# An image file is the image: image_length bytes and nothing after (docs/formats.md).
{ cat re.img; printf x; } >trailing.img
rc "inspect: a byte after the image" $E_MALFORMED inspect trailing.img
err_is "otimage: trailing.img: manifest.image_length: image length field disagrees with the image or its slot: $(stat -c %s re.img) bytes of image in a file of $(stat -c %s trailing.img)"
head -c 1000 /dev/urandom >random.bin
rc "inspect: unknown file" $E_MALFORMED inspect random.bin
err_is "otimage: random.bin: file is not in any format otimage knows"
rc "inspect: missing file" $E_IO inspect missing.bin

# ---- owner config, pack ---------------------------------------------------
rc "owner-config" 0 owner-config --key root.pub --key other.pub:prod --max-depth 2 --out owner.cfg --json
cp out.txt owner.json
jqt "owner config" '.format == "owner-config" and (.keys | length) == 2 and .keys[1].lifecycle_mask == "prod" and .direct_boot == true and .max_delegation_depth == 2' owner.json
check "owner config is 480 bytes" test "$(stat -c %s owner.cfg)" = 480
rc "hybrid required with an ECDSA key" $E_MALFORMED owner-config --key root.pub --hybrid-required on --out x.cfg
err_has "--hybrid-required"
rc "depth 3" $E_MALFORMED owner-config --key root.pub --max-depth 3 --out x.cfg
rc "five keys" 21 owner-config --key root.pub --key other.pub --key inter.pub --key leaf.pub --key hroot.pub --out x.cfg
absent x.cfg

rc "pack" 0 pack --rom-ext-a re.img --bl0-a chain.img --bl0-b hy.img --owner-config owner.cfg --out flash.bin --json
cp out.txt flash.json
check "flash is 1 MiB" test "$(stat -c %s flash.bin)" = 1048576
jqt "flash layout" '.format == "flash" and (.regions | length) == 12 and .boot_data_in_use == 1 and .tag_table_in_use == 1' flash.json
jqt "slots as packed" '[.regions[] | select(.name == "rom_ext_a" or .name == "bl0_a" or .name == "bl0_b") | .state] == ["OK", "OK", "OK"] and ([.regions[] | select(.name == "rom_ext_b")][0].state == "erased")' flash.json
jqt "owner config in flash" '[.regions[] | select(.name == "owner_config")][0].digest == "'"$(jq -r .digest owner.json)"'"' flash.json
check "the slot holds the image bytes" cmp -s re.img <(dd if=flash.bin bs=1 skip=65536 count=$(stat -c %s re.img) status=none)
rc "pack: BL0 image in a ROM_EXT slot" $E_POLICY pack --rom-ext-a chain.img --out x.bin
err_is "otimage: chain.img: manifest.identifier: image identifier does not match the boot stage: a BL0 image for slot rom_ext_a"
rc "pack: malformed image" $E_MALFORMED pack --bl0-a bad.img --out x.bin
err_has "bad.img: manifest.ext[1] (DLGC)"
rc "pack: image larger than its slot" 21 pack --bl0-a chain.img --bl0-slot-size 2048 --out x.bin
rc "pack: bad owner config" $E_MALFORMED pack --owner-config re.img --out x.bin
absent x.bin
# A torn boot data copy: the device (and inspect) falls back to the other.
cp flash.bin torn.bin
poke torn.bin $((4096 + 20)) 07
rc "inspect a flash image with a corrupt boot data copy" 0 inspect --json torn.bin
cp out.txt torn.json
jqt "falls back to copy 0" '.boot_data_in_use == 0 and ([.regions[] | select(.name == "boot_data_1")][0].state == "BOOT_DATA_DIGEST_MISMATCH")' torn.json
cp flash.bin badlayout.bin
poke badlayout.bin 9 10     # page_size 2048 -> 4096
rc "inspect: flash page size" $E_MALFORMED inspect badlayout.bin
err_is "otimage: badlayout.bin: layout.page_size: flash page size is not supported"

# ---- provision, fuse --------------------------------------------------------
head -c 32 /dev/urandom >secret.bin
secret_hex=$(od -An -tx1 secret.bin | tr -d ' \n')
rc "provision" 0 provision --creator-key root.pub:dev,prod --creator-key hroot.pub --owner-config owner.cfg \
	--lifecycle prod --device-id 000102030405060708090a0b0c0d0e0f --secret-file secret.bin \
	--floor-bl0 3 --epoch 1 --out otp.bin --json
cp out.txt otp.json
jqt "provisioned OTP" '.format == "otp" and .lifecycle == "prod" and .tag_boot == true and .floor_bl0 == 3 and .epoch == 1 and .device_id == "000102030405060708090a0b0c0d0e0f" and (.creator_keys | length) == 2 and .creator_keys[1].algorithm == "hybrid" and .secret_digest_ok == true' otp.json
jqt "owner config digest provisioned" '.owner_config_digest == "'"$(jq -r .digest owner.json)"'"' otp.json
check "OTP image is 1024 bytes, 0600" bash -c 'test $(stat -c %s otp.bin) = 1024 && test $(stat -c %a otp.bin) = 600'
oti inspect otp.bin >otp.txt
check "the device secret is never printed" bash -c "! grep -qi '$secret_hex' otp.json otp.txt"
check "...not even a part of it" bash -c "! grep -qi '${secret_hex:0:16}' otp.json otp.txt"
rc "provision: secret file of the wrong size" $E_INVALID provision --creator-key root.pub --secret-file code.bin --out x.bin
rc "provision: no creator key" $E_USAGE provision --out x.bin
rc "provision: bad lifecycle" $E_INVALID provision --creator-key root.pub --lifecycle beta --out x.bin
absent x.bin

cp otp.bin otp.before
rc "fuse: raise the BL0 floor" 0 fuse otp.bin --floor bl0=8 --json
cp out.txt fuse.json
jqt "floor raised" '.floor_bl0 == 8 and .floor_rom_ext == 0' fuse.json
cp otp.bin otp.raised
rc "fuse: lowering is refused" $E_INVALID fuse otp.bin --floor bl0=7
err_is "otimage: otp.bin: --floor: OTP programming may only set bits, never clear them: 'bl0=7': floors only go up"
check "the OTP image is unchanged" cmp -s otp.bin otp.raised
rc "fuse: bump epoch and revoke" 0 fuse otp.bin --bump-epoch --revoke creator:1 --revoke owner:0 --out otp2.bin --json
cp out.txt fuse2.json
jqt "epoch and revocations" '.epoch == 2 and .creator_keys[1].revoked == true and .owner_keys_revoked == [0]' fuse2.json
check "--out leaves the input alone" cmp -s otp.bin otp.raised
check "only bits were set" python3 -c "
a = open('otp.before', 'rb').read(); b = open('otp2.bin', 'rb').read()
raise SystemExit(any(x & ~y for x, y in zip(a, b)))"
rc "fuse: nothing to do" $E_USAGE fuse otp.bin
rc "fuse: bad slot" $E_INVALID fuse otp.bin --revoke creator:9
cp otp.bin otpbad.bin
poke otpbad.bin 30 ff     # features, inside HW_CFG
rc "fuse: refuses a damaged OTP image" $E_MALFORMED fuse otpbad.bin --bump-epoch
err_is "otimage: otpbad.bin: otp.hw_cfg_digest: an OTP partition digest does not match"
# The lifecycle leaves manufacturing once, for dev, prod or prod_end.
rc "provision in test_unlocked (manufacturing)" 0 provision --creator-key root.pub \
	--lifecycle test_unlocked --out otp-tu.bin --json
jqt "test_unlocked as provisioned" '.lifecycle == "test_unlocked" and .lifecycle_provisioned == "test_unlocked"' out.txt
cp otp-tu.bin otp-tu.before
rc "fuse: test_unlocked to prod" 0 fuse otp-tu.bin --lifecycle prod --json
jqt "prod in effect, test_unlocked as provisioned" '.lifecycle == "prod" and .lifecycle_provisioned == "test_unlocked"' out.txt
check "...by setting bits of the transition word only" python3 -c "
a = open('otp-tu.before', 'rb').read(); b = open('otp-tu.bin', 'rb').read()
raise SystemExit(any(x != y for x, y in zip(a[:720] + a[724:], b[:720] + b[724:])) or any(x & ~y for x, y in zip(a, b)))"
cp otp-tu.bin otp-tu.prod
rc "fuse: to the state it is in changes nothing" 0 fuse otp-tu.bin --lifecycle prod
check "...the image is the same" cmp -s otp-tu.bin otp-tu.prod
rc "fuse: a second transition is refused" $E_INVALID fuse otp-tu.bin --lifecycle dev
err_is "otimage: otp-tu.bin: --lifecycle: the lifecycle leaves only test_unlocked, once, for dev, prod or prod_end: 'dev'"
check "...the image is unchanged" cmp -s otp-tu.bin otp-tu.prod
rc "fuse: a device provisioned in prod does not move" $E_INVALID fuse otp.bin --lifecycle dev
rc "fuse: test_unlocked to rma is not an exit from manufacturing" $E_INVALID fuse otp-tu.before \
	--lifecycle rma --out x.bin
absent x.bin
rc "fuse: an unknown lifecycle" $E_INVALID fuse otp-tu.before --lifecycle beta --out x.bin
cp otp-tu.before otp-glitch.bin
poke otp-glitch.bin 720 01  # a partly programmed transition word
rc "inspect: a glitched transition word is no lifecycle" $E_MALFORMED inspect otp-glitch.bin
err_is "otimage: otp-glitch.bin: otp.lifecycle: OTP lifecycle state is not a valid encoding"
head -c 1000 otp.bin >otpshort.bin
rc "inspect: truncated OTP" $E_MALFORMED inspect otpshort.bin
err_is "otimage: otpshort.bin: otp: OTP image is shorter than its layout: 1000 bytes, expected 1024"

# ---- ca, and the identity certificate ca-sign issues for a device's CSR ------
rc "ca" 0 ca --key ca.key --cert ca.pem --json
cp out.txt ca.json
jqt "ca prints its certificate as inspect does" \
	'.format == "x509-certificate" and .role == "ca" and .ca == true and .path_length == 1 and .subject == "CN=otattest manufacturer CA,O=otattest" and .issuer == .subject and .key_usage == ["keyCertSign", "cRLSign"]' ca.json
check "CA key is 0600, certificate 0644" bash -c 'test $(stat -c %a ca.key) = 600 && test $(stat -c %a ca.pem) = 644'
check "openssl reads a self-signed CA:TRUE, pathlen:1" bash -c \
	"openssl x509 -in ca.pem -noout -ext basicConstraints | grep -q 'CA:TRUE, pathlen:1' && openssl verify -CAfile ca.pem ca.pem >/dev/null"
oti inspect --json ca.key >cakey.json
jqt "the certificate's key is the key file's (same otattest key id)" '.key_id == "'"$(jq -r .key_id cakey.json)"'"' ca.json
# Two identifiers of one key (docs/formats.md): the otattest key id is SHA-256
# of X || Y; X.509's subject key id the first 20 bytes of SHA-256 of 04 || X || Y.
openssl x509 -in ca.pem -noout -pubkey | openssl pkey -pubin -outform DER | tail -c 65 >ca.point
check "key_id is SHA-256 over X || Y" \
	test "$(jq -r .key_id ca.json)" = "$(tail -c 64 ca.point | sha256sum | cut -c1-64)"
check "subject_key_id is SHA-256 over 04 || X || Y, 20 bytes" \
	test "$(jq -r .subject_key_id ca.json)" = "$(sha256sum <ca.point | cut -c1-40)"
cp ca.key ca.key.before
rc "ca: existing files are not replaced" $E_INVALID ca --key ca.key --cert ca2.pem
check "...the key file is unchanged" cmp -s ca.key ca.key.before
absent ca2.pem
rc "ca: --cn too long" $E_USAGE ca --key x.key --cert x.pem --cn "$(printf 'c%.0s' $(seq 65))"
absent x.key
oti ca --key other-ca.key --cert other-ca.pem >/dev/null

# The device's request, made the way the firmware makes it (a P-256 key;
# O and CN as UTF8Strings, one RDN each; ecdsa-with-SHA256).
devid=00112233445566778899aabbccddeeff
openssl ecparam -name prime256v1 -genkey -noout -out dev.key 2>/dev/null
openssl ecparam -name prime256v1 -genkey -noout -out other.key 2>/dev/null
openssl ecparam -name secp384r1 -genkey -noout -out p384.key 2>/dev/null
# csr KEY SUBJECT OUT [openssl req options...]
csr() { openssl req -new -key "$1" -subj "$2" -outform DER -out "$3" "${@:4}" 2>/dev/null; }
csr dev.key "/O=otattest/CN=otattest identity $devid" dev.csr
rc "ca-sign a device's CSR" 0 ca-sign --csr dev.csr --ca-key ca.key --ca-cert ca.pem \
	--out identity.der --json
cp out.txt idcert.json
check "identity certificate is DER, 0644" bash -c 'test $(stat -c %a identity.der) = 644 && openssl x509 -inform der -in identity.der -noout'
check "openssl verify: the identity certificate chains to the CA" bash -c \
	'openssl x509 -inform der -in identity.der -out identity.pem && openssl verify -CAfile ca.pem identity.pem >/dev/null'
check "...and not to another CA" bash -c '! openssl verify -CAfile other-ca.pem identity.pem >/dev/null 2>&1'
check "it certifies the key the request names" bash -c \
	'test "$(openssl req -inform der -in dev.csr -pubkey -noout)" = "$(openssl x509 -in identity.pem -pubkey -noout)"'
jqt "ca-sign prints it as inspect does: device identity of this device, CA:TRUE pathlen 0, issued by the CA" \
	'.format == "x509-certificate" and .role == "device-identity" and .device_id == "'"$devid"'" and .ca == true and .path_length == 0 and .issuer == "CN=otattest manufacturer CA,O=otattest" and .key_usage == ["keyCertSign"]' idcert.json
rc "inspect the identity certificate as PEM too" 0 inspect --json identity.pem
jqt "PEM and DER describe the same certificate" '.serial == "'"$(jq -r .serial idcert.json)"'"' out.txt
openssl req -new -key dev.key -subj "/O=otattest/CN=otattest identity $devid" -out dev-pem.csr 2>/dev/null
rc "ca-sign: a PEM request, and --device-id of this device" 0 ca-sign --csr dev-pem.csr \
	--ca-key ca.key --ca-cert ca.pem --device-id "$devid" --out identity2.der
rc "ca-sign: the output exists" $E_INVALID ca-sign --csr dev.csr --ca-key ca.key --ca-cert ca.pem \
	--out identity2.der
rc "ca-sign: --force replaces it" 0 ca-sign --csr dev.csr --ca-key ca.key --ca-cert ca.pem \
	--out identity2.der --force
rc "ca-sign: --csr missing" $E_USAGE ca-sign --ca-key ca.key --ca-cert ca.pem --out x.der
# Each refusal writes nothing and says why in one line.
refuse() { # refuse NAME EXIT CSR [extra options]: ca-sign of CSR fails, nothing written
	local name=$1 want=$2 req=$3
	shift 3
	rc "ca-sign: $name" "$want" ca-sign --csr "$req" --ca-key ca.key --ca-cert ca.pem --out x.der "$@"
	no_stdout
	absent x.der
}
cp dev.csr bad-sig.csr
poke bad-sig.csr $(($(stat -c %s dev.csr) - 1)) "$(printf %02x $((0x$(tail -c 1 dev.csr | od -An -tx1 | tr -d ' ') ^ 1)))"
refuse "a request whose signature was tampered with" $E_VERIFY bad-sig.csr
err_is "otimage: bad-sig.csr: csr.signature: the request's signature does not verify under the key it names"
# A request signed by dev.key that names other.key: someone else's key, no proof of possession.
python3 - <<'PY'
import subprocess
def point(key):
    der = subprocess.run(["openssl", "ec", "-in", key, "-pubout", "-outform", "DER"],
                         capture_output=True, check=True).stdout
    return der[-65:]
csr = open("dev.csr", "rb").read()
assert csr.count(point("dev.key")) == 1
open("other-key.csr", "wb").write(csr.replace(point("dev.key"), point("other.key")))
PY
refuse "a request for another key than the one that signed it" $E_VERIFY other-key.csr
err_is "otimage: other-key.csr: csr.signature: the request's signature does not verify under the key it names"
csr p384.key "/O=otattest/CN=otattest identity $devid" p384.csr
refuse "a P-384 key" $E_MALFORMED p384.csr
err_is "otimage: p384.csr: csr.subjectPKInfo: key is not an ECDSA P-256 key"
csr dev.key "/O=otattest/CN=otattest identity $devid" sha384.csr -sha384
refuse "signed with SHA-384" $E_VERIFY sha384.csr
err_is "otimage: sha384.csr: csr.signatureAlgorithm: the request's signature does not verify under the key it names: ecdsa-with-SHA384, the device signs ecdsa-with-SHA256"
subject_err="otimage: x.csr: csr.subject: the request's subject is not an otattest device identity: expected O=otattest, CN=otattest identity <32 lower-case hex digits>"
for subj in "/O=otattest/CN=otattest alias $devid" "/O=otattest/CN=otattest identity ${devid^^}" \
	"/O=otattest/CN=otattest identity ${devid:2}" "/CN=otattest identity $devid/O=otattest" \
	"/C=DE/O=otattest/CN=otattest identity $devid" "/O=otattest/CN=otattest identity $devid/OU=x" \
	"/O=otattest+CN=otattest identity $devid"; do
	csr dev.key "$subj" x.csr -multivalue-rdn
	refuse "subject $subj" $E_POLICY x.csr
	err_is "$subject_err"
done
refuse "a request of another device than --device-id" $E_POLICY dev.csr --device-id ffeeddccbbaa99887766554433221100
err_is "otimage: dev.csr: csr.subject: the request's subject is not an otattest device identity: a request of another device than --device-id ffeeddccbbaa99887766554433221100"
head -c 200 /dev/urandom >junk.csr
refuse "garbage" $E_MALFORMED junk.csr
err_is "otimage: junk.csr: csr: file is not a DER PKCS#10 certificate request"
{ cat dev.csr; printf x; } >trailing.csr
refuse "a byte after the request" $E_MALFORMED trailing.csr
rc "ca-sign: a CA key that is not the certificate's" $E_INVALID ca-sign --csr dev.csr \
	--ca-key other-ca.key --ca-cert ca.pem --out x.der
err_is "otimage: other-ca.key: --ca-key: key does not match the certificate it is used with: not the key of ca.pem"
absent x.der
rc "provision: the CA options are gone, and it says where they went" $E_USAGE provision \
	--creator-key root.pub --ca-key ca.key --ca-cert ca.pem --identity-cert x.der --out x.bin
err_has "otimage ca-sign"
absent x.bin
rc "pack the identity certificate" 0 pack --rom-ext-a re.img --bl0-a chain.img --owner-config owner.cfg \
	--identity-cert identity.der --out flash-id.bin --json
cp out.txt flashid.json
jqt "the flash holds it, intact" '[.regions[] | select(.name == "identity_cert")][0] | .der_length == '"$(stat -c %s identity.der)"' and .der_sha256 == "'"$(sha256sum identity.der | cut -c1-64)"'"' flashid.json
cat ca.pem identity.pem >bundle.pem
rc "inspect: a PEM bundle is not one certificate" $E_MALFORMED inspect bundle.pem
err_is "otimage: bundle.pem: x509: certificate is malformed: not exactly one DER or PEM X.509 certificate"
head -c 300 identity.der >short.der
rc "inspect: a truncated DER certificate" $E_MALFORMED inspect short.der
err_has "short.der: x509: certificate is malformed"
no_stdout

# ---- inspect: what an alias certificate certifies -------------------------
# Certificates the firmware's ROM_EXT issued on the software HAL
# (tests/interop/evidence_tool): the fixture's boot, and its BL0 as a DEBUG
# image that booted on the slow path after a tag mismatch.
mkdir ev evd && "$evidence_tool" ev >/dev/null && "$evidence_tool" --debug-tag-mismatch evd >/dev/null
check "evidence_tool made the device's alias certificates" test -s ev/alias.pem -a -s evd/alias.pem
rc "inspect an alias certificate" 0 inspect --json --key-names /dev/null ev/alias.pem
cp out.txt alias.json
jqt "alias: the device state ROM_EXT certified" \
	'.role == "alias" and .certifies_results == true and .device_state == {"lifecycle": "prod", "epoch": 1, "min_svn": 5, "floor_rom_ext": 1, "floor_bl0": 4, "chain_max_svn": 128, "tag_key_version": 3, "rom_identity": .device_state.rom_identity, "dice_flags": "0x00000001", "reset_reason": "cold", "update_state": "committed", "primary_slot": "a", "booted_slot": "a", "revocation_sequence": 0, "revocation_sequence_device": 0, "trial_boots": 0, "revert_reason": "none", "refused_attempts": 1, "refused_slots": "bl0-b"} and (.device_state.rom_identity | test("^[0-9a-f]{64}$"))' alias.json
jqt "alias: ROM_EXT on the tag path, ECDSA, no DEBUG, its root key as short hex" \
	'.tcb[0] | .stage == "rom_ext" and .svn == 2 and .path == "tag" and .path_reason == "none" and .scheme == "ecdsa-p256" and .delegation_depth == 0 and .tag_key_version == 3 and .usage_flags == "tag-boot" and .debug == false and .key_ids == ["'"$(printf 'c1%.0s' $(seq 32))"'"] and .keys == ["c1c1c1c1c1c1c1c1"]' alias.json
jqt "alias: the fixture's BL0 signature-retagged, hybrid, depth 1, not DEBUG" \
	'.tcb[1] | .stage == "bl0" and .svn == 5 and .path == "signature-retagged" and .path_reason == "image-changed" and .scheme == "ecdsa-p256+slh-dsa-sha2-128s" and .delegation_depth == 1 and .debug == false and (.key_ids | length) == 2' alias.json
jqt "alias: the device and the identity that issued it" \
	'.device_id == "d0d1d2d3d4d5d6d7d8d9dadbdcdddedf" and .issuer_device_id == .device_id' alias.json
# ---- inspect: evidence (ATTEST's COSE_Sign1), described with the verifier's decoders
rc "inspect evidence" 0 inspect --json --key-names /dev/null ev/evidence.cose
cp out.txt evidence.json
jqt "evidence: its nonce, device, generation, the three attempts, not verified" \
	'.format == "evidence" and .nonce == "'"$(cat ev/nonce.hex)"'" and .device_id == "d0d1d2d3d4d5d6d7d8d9dadbdcdddedf" and .generation == 42 and .min_svn == 5 and ([.attempts[] | .stage + "/" + .slot + "/" + .status] == ["rom_ext/a/OK", "bl0/b/SIG_ECDSA_INVALID", "bl0/a/OK"]) and (.verified | startswith("no"))' evidence.json
jqt "evidence: each certificate of its chain as inspect describes certificates" \
	'[.certificates[].role] == ["alias", "device-identity"] and .certificates[0].tcb[1].stage == "bl0"' evidence.json
rc "inspect evidence in text" 0 inspect --key-names /dev/null ev/evidence.cose
check "text: format, nonce and the attempts" bash -c \
	'grep -qx "format: evidence" out.txt && grep -qx "nonce: $(cat ev/nonce.hex)" out.txt && grep -qx "    status: SIG_ECDSA_INVALID" out.txt'
head -c 100 ev/evidence.cose >ev-truncated.cose
rc "inspect: truncated evidence" $E_MALFORMED inspect ev-truncated.cose
err_has "COSE_Sign1"
no_stdout

bl0_root=$(printf '01%.0s' $(seq 32)) bl0_leaf=$(printf '02%.0s' $(seq 32))
printf '# fleet\n%s owner-root\n' "$bl0_root" >fleet-names
rc "inspect the DEBUG image's alias certificate with key names" 0 inspect --json \
	--key-names fleet-names evd/alias.pem
cp out.txt aliasd.json
jqt "alias: BL0 slow path after a tag mismatch, DEBUG by name, its signers by name or short hex" \
	'.tcb[1] | .path == "signature-retagged" and .path_reason == "tag-mismatch" and .usage_flags == "tag-boot,debug" and .debug == true and .key_ids == ["'"$bl0_root"'", "'"$bl0_leaf"'"] and .keys == ["owner-root", "0202020202020202"]' aliasd.json
rc "the same in text" 0 inspect --key-names fleet-names evd/alias.pem
check "text: device state, path reason, usage flags and key names" bash -c \
	'grep -qx "device_state:" out.txt && grep -qx "  lifecycle: prod" out.txt && grep -qx "  min_svn: 5" out.txt &&
	 grep -qx "    path_reason: tag-mismatch" out.txt && grep -qx "    usage_flags: tag-boot,debug" out.txt &&
	 grep -qx "    debug: yes" out.txt && grep -qx "      - owner-root" out.txt && grep -qx "      - 0202020202020202" out.txt'
printf '%s owner-root\n%s bad name\n' "$bl0_root" "$bl0_leaf" >bad-names
rc "inspect: a key names file that does not parse" $E_INVALID inspect --key-names bad-names evd/alias.pem
err_has "otimage: bad-names: value is malformed or out of range: line 2: "
no_stdout
rc "inspect: a --key-names file that does not exist" $E_IO inspect --key-names nowhere evd/alias.pem
err_has "nowhere"
# Edited copies of the BL0 entry's StageResults (the signature no longer
# matters: inspect describes, it does not verify). vi_edit IN OUT INDEX VALUE
# sets the INDEX-th INTEGER of the last vendorInfo (0: its version).
vi_edit() {
	python3 - "$@" <<'PY'
import re, sys
src, dst, index, value = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
der = open(src, "rb").read()
# 88 LL 30 LL-2 02 01 02: the last vendorInfo (BL0's) and its version 2.
m = [m for m in re.finditer(rb"\x88(.)\x30(.)\x02\x01\x02", der, re.S) if m[1][0] == m[2][0] + 2][-1]
at = m.start() + 4
pos = at + 3 * index + 2
assert der[pos - 2:pos] == b"\x02\x01"
open(dst, "wb").write(der[:pos] + bytes([value]) + der[pos + 1:])
PY
}
openssl x509 -in evd/alias.pem -outform DER -out alias.der
# tcb_refused OUT INDEX VALUE WHAT DETAIL: the copy with that INTEGER set is
# refused with exactly one line ending in DETAIL, and prints nothing else.
tcb_refused() {
	vi_edit alias.der "$1" "$2" "$3"
	rc "inspect: an alias certificate $4" $E_MALFORMED inspect "$1"
	err_is "otimage: $1: x509.multi_tcb_info: certificate is malformed: $5"
	no_stdout
}
tcb_refused alias-v1.der 0 1 "with StageResults version 1" \
	"StageResults version 1, from firmware before pathReason and usageFlags: otimage reads version 2"
tcb_refused alias-v3.der 0 3 "with StageResults version 3" \
	"DeviceState or StageResults version 3: otimage reads DeviceState 2 and StageResults 2"
shape="the alias certificate's TCB info does not have the shape docs/evidence.md gives"
tcb_refused alias-flags.der 6 4 "certifying an unknown usage flag" "$shape"
tcb_refused alias-reason.der 5 11 "certifying a path reason past the last" "$shape"
# An alias certificate from before the profile (model, svn, layer and
# fwids only) certifies no results, and one without TCB info nothing: both
# are shown as such, never as certifying more.
python3 - <<'PY'
import datetime
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

def tlv(tag, body):
    assert len(body) < 0x80
    return bytes([tag, len(body)]) + body

fwid = tlv(0x30, tlv(0x06, bytes.fromhex("608648016503040201")) + tlv(0x04, b"\xb5" * 32))
entry = tlv(0x30, tlv(0x81, b"bl0") + tlv(0x83, b"\x05") + tlv(0x84, b"\x02") + tlv(0xa6, fwid))
key = ec.generate_private_key(ec.SECP256R1())
dev = "d0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
def cert(out, ext):
    b = (x509.CertificateBuilder()
         .subject_name(x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "otattest"),
                                  x509.NameAttribute(NameOID.COMMON_NAME, "otattest alias " + dev)]))
         .issuer_name(x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "otattest"),
                                 x509.NameAttribute(NameOID.COMMON_NAME, "otattest identity " + dev)]))
         .public_key(key.public_key()).serial_number(1)
         .not_valid_before(datetime.datetime(2025, 1, 1)).not_valid_after(datetime.datetime(9999, 12, 31)))
    if ext:
        b = b.add_extension(x509.UnrecognizedExtension(x509.ObjectIdentifier("2.23.133.5.4.5"), ext), False)
    open(out, "wb").write(b.sign(key, hashes.SHA256()).public_bytes(serialization.Encoding.DER))
cert("alias-old.der", tlv(0x30, entry))
cert("alias-none.der", None)
PY
rc "inspect: an alias certificate from before the profile" 0 inspect --json alias-old.der
cp out.txt old.json
jqt "...certifies no results: SVN and measurement only, no device state" \
	'.role == "alias" and .certifies_results == false and (has("device_state") | not) and .tcb == [{"stage": "bl0", "svn": 5, "measurement": "'"$(printf 'b5%.0s' $(seq 32))"'"}]' old.json
rc "inspect: an alias certificate without TCB info" 0 inspect --json alias-none.der
cp out.txt none.json
jqt "...certifies nothing" '.role == "alias" and .certifies_results == false and .tcb == []' none.json

# ---- inspect: every other format ----------------------------------------
for f in root.pem root.pub hroot.pem.spx hroot.pub.spx inter.cert hleaf.cert owner.cfg; do
	rc "inspect $f" 0 inspect --json "$f"
	cp out.txt i.json
	jqt "inspect $f is JSON with a format" '.format | type == "string"' i.json
done
rc "inspect a private key" 0 inspect --json hroot.pem
cp out.txt k.json
jqt "key: private and hybrid, no secret printed" '.private == true and .algorithm == "hybrid" and (keys | map(test("secret|private_key")) | any | not)' k.json
check "no private key material in the output" bash -c "! grep -q 'PRIVATE' out.txt"
dd if=flash.bin of=bd.bin bs=1 skip=4096 count=96 status=none
rc "inspect a boot data copy" 0 inspect --json bd.bin
cp out.txt bd.json
jqt "boot data" '.format == "boot-data" and .counter == 1 and .written_by == "factory"' bd.json
dd if=flash.bin of=tt.bin bs=1 skip=8192 count=240 status=none
rc "inspect a tag table copy" 0 inspect --json tt.bin
cp out.txt tt.json
jqt "tag table" '.format == "tag-table" and (.entries | length) == 4 and ([.entries[].valid] | any | not)' tt.json
# A boot record as the device exports it: header and one BL0 stage.
python3 - <<'PY'
import struct
stage = struct.pack("<8I32s96s", 2, 1, 0x739, 1, 1, 1, 6, 0, b"\x11" * 32, b"\x22" * 32 + b"\x33" * 32 + bytes(32))
stage += struct.pack("<2I", 5, 9) + struct.pack("<4I16s", 3, 2, 1, 0, bytes(16))
stage += struct.pack("<QIIQ", 123456, 1, 0, 999)
assert len(stage) == 224
hdr = struct.pack("<4sHHIIII16sIIIIIIIIII32sQ2I", b"OTBR", 1, 128, 128 + 224, 7, 1, 1, bytes(range(16)),
                  2, 6, 0, 6, 1, 3, 1, 0x739, 1, 128, b"\x44" * 32, 5000, 0, 0)
assert len(hdr) == 128
open("record.bin", "wb").write(hdr + stage)
PY
rc "inspect a boot record" 0 inspect --json record.bin
cp out.txt rec.json
jqt "boot record" '.format == "boot-record" and .reset_reason == "cold" and .min_svn == 6 and (.stages | length) == 1 and .stages[0].path == "tag" and .stages[0].delegation_depth == 1 and (.stages[0].key_ids | length) == 2 and .stages[0].booted == true and .stages[0].path_reason == "none" and .stages[0].debug == false and .stages[0].effective.flags == "tag-boot"' rec.json
# The same stage re-tagged after a forged tag, its image with the DEBUG usage flag (issue 19).
python3 - <<'PY'
rec = bytearray(open("record.bin", "rb").read())
s = 128
rec[s + 12:s + 16] = (3).to_bytes(4, "little")         # path: signature-retagged
rec[s + 160 + 16:s + 160 + 20] = (3).to_bytes(4, "little")  # effective usage flags: tag-boot,debug
rec[s + 212:s + 214] = (3).to_bytes(2, "little")        # path_reason: tag-mismatch
open("record-mismatch.bin", "wb").write(rec)
PY
rc "inspect a boot record with a tag mismatch" 0 inspect --json record-mismatch.bin
cp out.txt rec-mm.json
jqt "path reason and DEBUG" '.stages[0].path == "signature-retagged" and .stages[0].path_reason == "tag-mismatch" and .stages[0].debug == true and .stages[0].effective.flags == "tag-boot,debug"' rec-mm.json
head -c 200 record.bin >rec-short.bin
rc "inspect: truncated boot record" $E_MALFORMED inspect rec-short.bin
err_is "otimage: rec-short.bin: record.length: boot record length field is inconsistent"
rc "inspect text output" 0 inspect chain.img
check "text output is key: value lines" grep -q "^security_version: 6$" out.txt

# ---- field revocation commands and the version string ------------------------
rc "revocation: an owner's BL0 floor for one device" 0 revocation --key root.pem --sequence 3 \
	--floor bl0=11 --device 00112233445566778899aabbccddeeff --out rev3.bin --json
check "revocation is 144 bytes" test "$(stat -c %s rev3.bin)" = 144
jqt "revocation: what was signed" '.format == "revocation" and .action == "raise-floor" and .value == 11 and .sequence == 3 and .device == "00112233445566778899aabbccddeeff"' out.txt
rc "inspect reads it" 0 inspect rev3.bin
check "inspect names the action" grep -q "^action: raise-floor$" out.txt
rc "revocation: sequence 0" $E_INVALID revocation --key root.pem --sequence 0 --epoch 2 --out rev0.bin
absent rev0.bin
rc "revocation: sequence past 256" $E_INVALID revocation --key root.pem --sequence 257 --epoch 2 --out rev0.bin
rc "revocation: two actions" $E_USAGE revocation --key root.pem --sequence 4 --epoch 2 --floor bl0=1 --out rev0.bin
rc "revocation: a public key cannot sign" $E_INVALID revocation --key root.pub --sequence 4 --epoch 2 --out rev0.bin
absent rev0.bin
rc "sign: a version string" 0 sign --key root.pem --stage rom_ext --svn 2 --payload code.bin \
	--version-string 2.4.1-rc1 --out versioned.img --json
rc "inspect shows it" 0 inspect versioned.img
check "version_string: 2.4.1-rc1" grep -q "^version_string: 2.4.1-rc1$" out.txt
rc "sign: a version string of 17 characters" $E_INVALID sign --key root.pem --stage rom_ext --svn 2 \
	--payload code.bin --version-string 12345678901234567 --out versioned2.img
absent versioned2.img

# ---- stage executables: the payload is code, LOAD says where it runs --------
rc "sign: a stage executable (rv32 ELF)" 0 sign --key root.pem --stage rom_ext --svn 2 \
	--payload "$rom_ext_elf" --out stage.img --json
rc "inspect it" 0 inspect --json stage.img
jqt "a signed, critical LOAD extension at ROM_EXT's window and entry" '([.extensions[] | select(.type == "LOAD" and .signed and .critical)] | length) == 1 and .load.load_address == "0x10200000" and .load.entry == "0x10200000"' out.txt
check "the payload is the ELF's code segment, not the file" bash -c "test \$(jq .payload_length out.txt) -lt \$(stat -c %s '$rom_ext_elf')"
printf '\177ELF not an executable' >junk.elf
rc "sign: an ELF that is not a stage executable" $E_INVALID sign --key root.pem --stage rom_ext \
	--svn 2 --payload junk.elf --out junk.img
err_has "--payload"
absent junk.img

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
