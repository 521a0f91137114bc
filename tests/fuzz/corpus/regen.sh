#!/usr/bin/env bash
# Regenerate the seed corpora of fuzz_manifest, fuzz_cert, fuzz_flash and
# fuzz_otp with otimage: real images, certificates, flash and OTP images,
# so the fuzzers start from inputs that pass every check and mutate from
# there. Keys are fresh on every run; the corpus is committed as made.
#   tests/fuzz/corpus/regen.sh    (builds build/otimage if needed)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
make -s -C "$root" build/otimage
oti=$root/build/otimage
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
q() { "$oti" "$@" >/dev/null; }
# bytes FILE OFFSET COUNT: a slice of a file on stdout.
bytes() { dd if="$1" bs=1 skip="$2" count="$3" status=none; }
u32() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $((($1 >> 8) & 255)))\\x00\\x00"; }

for k in root inter leaf; do q keygen --out $k.pem --pub $k.pub; done
for k in hroot hleaf; do q keygen --alg hybrid --out $k.pem --pub $k.pub; done
head -c 700 /dev/urandom >code.bin
head -c 64 /dev/urandom >small.bin

q delegate --parent-key root.pem --delegate-pub inter.pub --type intermediate --svn-min 2 --svn-max 40 --out inter.cert
q delegate --parent-key inter.pem --parent-cert inter.cert --delegate-pub leaf.pub --type leaf \
	--svn-min 3 --svn-max 9 --lifecycle dev,prod --device 00112233445566778899aabbccddeeff --out leaf.cert
q delegate --parent-key root.pem --delegate-pub leaf.pub --type leaf --svn-max 20 --slots a --out rootleaf.cert
q delegate --parent-key hroot.pem --delegate-pub hleaf.pub --type leaf --svn-max 20 --out hleaf.cert

q sign --key root.pem --stage rom_ext --svn 1 --payload small.bin --out direct.img
q sign --key root.pem --stage bl0 --svn 5 --payload code.bin --salt random --max-key-version 3 --out salt.img
q sign --key leaf.pem --cert rootleaf.cert --stage bl0 --svn 7 --payload code.bin --out chain1.img
q sign --key leaf.pem --cert inter.cert --cert leaf.cert --stage bl0 --svn 4 --payload small.bin \
	--device 00112233445566778899aabbccddeeff --out chain2.img
q sign --key hroot.pem --stage bl0 --svn 2 --payload small.bin --out hybrid-direct.img
q sign --key hleaf.pem --cert hleaf.cert --stage bl0 --svn 2 --payload small.bin --salt random --out hybrid-chain.img

m=$here/fuzz_manifest
rm -rf "$m" && mkdir -p "$m"
cp direct.img salt.img chain1.img chain2.img hybrid-direct.img hybrid-chain.img "$m"/

# fuzz_cert: parent constraints (a DLGC's bytes 120..160) | image SVN | image
# usage (manifest bytes 136..168) | DLGC | DLGS.
c=$here/fuzz_cert
rm -rf "$c" && mkdir -p "$c"
cert_seed() { # NAME PARENT-CERT SVN IMAGE CERT
	{ bytes "$2" 120 40; u32 "$3"; bytes "$4" 136 32; cat "$5"; } >"$c/$1"
}
cert_seed leaf-under-inter inter.cert 4 chain2.img leaf.cert
cert_seed inter-self inter.cert 10 chain1.img inter.cert
cert_seed rootleaf inter.cert 7 chain1.img rootleaf.cert
cert_seed hybrid-leaf hleaf.cert 2 hybrid-chain.img hleaf.cert

# fuzz_flash: a selector byte, then a small whole flash image or one record.
f=$here/fuzz_flash
rm -rf "$f" && mkdir -p "$f"
q owner-config --key root.pub --key hroot.pub:prod --max-depth 2 --out owner.cfg
q owner-config --key hroot.pub --hybrid-required on --direct-boot off --max-depth 1 --out owner-hybrid.cfg
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj /CN=otattest-fuzz \
	-days 1 -keyout id.key -outform DER -out id.der 2>/dev/null
q pack --flash-size 131072 --rom-ext-slot-size 16384 --bl0-slot-size 16384 \
	--rom-ext-a direct.img --bl0-a chain2.img --bl0-b hybrid-direct.img --owner-config owner.cfg \
	--identity-cert id.der --primary-slot b --tag-key-version 2 --floor-bl0 1 --out flash.bin
{ printf '\x00'; cat flash.bin; } >"$f/flash"
{ printf '\x01'; bytes flash.bin 2048 64; bytes flash.bin 4096 64; } >"$f/boot-data-pair"
{ printf '\x02'; bytes flash.bin 6144 240; bytes flash.bin 8192 240; } >"$f/tag-table-pair"
{ printf '\x03'; cat owner.cfg; } >"$f/owner-config"
{ printf '\x03'; cat owner-hybrid.cfg; } >"$f/owner-config-hybrid"
{ printf '\x04'; bytes flash.bin 12288 1032; } >"$f/identity-cert"

# fuzz_otp: OTP images as provisioned, and after programming counters.
o=$here/fuzz_otp
rm -rf "$o" && mkdir -p "$o"
q provision --creator-key root.pub --owner-config owner.cfg --out otp-dev.bin
q provision --creator-key root.pub:prod --creator-key hroot.pub --owner-config owner-hybrid.cfg \
	--lifecycle prod --tag-boot off --chain-max-svn 200 --epoch 5 --floor-rom-ext 3 --floor-bl0 70 \
	--revoke-owner 1 --out otp-prod.bin
cp otp-prod.bin otp-fused.bin
q fuse otp-fused.bin --floor bl0=130 --bump-epoch --revoke creator:0
cp otp-dev.bin otp-prod.bin otp-fused.bin "$o"/
chmod 644 "$o"/*
echo "corpus: $(ls "$m" | wc -l) manifest, $(ls "$c" | wc -l) cert, $(ls "$f" | wc -l) flash, $(ls "$o" | wc -l) otp seeds"
