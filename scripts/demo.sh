#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make demo: provision an otattest device the way a manufacturer and an
# owner would, personalize it the way a factory does (the device's CSR for
# its identity key, signed by the manufacturer CA, the certificate back
# into the device, the lifecycle moved on), run it, and show how it
# booted. A sequence of labelled steps; each later part of the project
# (QEMU guest, driver, daemon, attestation) adds its own steps after the
# model is up.
#
#   scripts/demo.sh [WORKDIR]     (default build/demo; made afresh)
#
# Needs build/otimage, build/otattest-model and build/tests/model/model-peer
# (the Makefile's demo target builds them), openssl and jq. Exits non-zero
# at the first step that fails, after stopping the model.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-build}
bin=$root/$B
work=${1:-$root/$B/demo}
otimage=$bin/otimage
model=$bin/otattest-model
peer=$bin/tests/model/model-peer
rom_elf=$bin/rv32/rom.elf
rom_ext_elf=$bin/rv32/rom_ext.elf
bl0_elf=$bin/rv32/bl0.elf
model_pid=

for tool in "$otimage" "$model" "$peer" "$rom_elf" "$rom_ext_elf" "$bl0_elf"; do
	[ -x "$tool" ] || { echo "demo: $tool is missing; run 'make demo'" >&2; exit 2; }
done

step=0
step() {
	step=$((step + 1))
	printf '\n== %d. %s\n' "$step" "$*"
}
# Run otimage quietly; its full report goes to the log, its errors to the screen.
oti() {
	echo "+ otimage $*" >>"$work/otimage.log"
	"$otimage" "$@" >>"$work/otimage.log"
}
stop_model() {
	if [ -n "$model_pid" ] && kill -0 "$model_pid" 2>/dev/null; then
		"$model" ctl --state-dir="$work/device" stop >/dev/null 2>&1 || kill "$model_pid"
		wait "$model_pid" 2>/dev/null || true
	fi
	model_pid=
}
trap stop_model EXIT

rm -rf "$work"
mkdir -p "$work/keys" "$work/images"
cd "$work"

step "Manufacturer: a CA for device identity certificates"
oti ca --key keys/ca.key --cert keys/ca.pem
openssl x509 -in keys/ca.pem -noout -subject | sed 's/^/   /'

step "Keys: creator (signs ROM_EXT), owner (root of BL0 trust), a delegate that signs BL0"
oti keygen --out keys/creator.key --pub keys/creator.pub
oti keygen --out keys/owner.key --pub keys/owner.pub
oti keygen --out keys/bl0-signer.key --pub keys/bl0-signer.pub
oti delegate --parent-key keys/owner.key --delegate-pub keys/bl0-signer.pub --type leaf \
	--svn-min 1 --svn-max 20 --out keys/bl0-signer.cert
for k in creator owner bl0-signer; do
	printf '   %-11s key id %s\n' "$k" "$("$otimage" inspect --json "keys/$k.pub" | jq -r .key_id)"
done
echo "   owner -> bl0-signer: leaf delegation, SVN 1..20"

step "Signed images: ROM_EXT by the creator key, BL0 by the delegate (chain in the image); the factory's personalization firmware, signed the same way"
# ROM_EXT and BL0 are the firmware's rv32 stage images ($B/rv32/rom_ext.elf,
# bl0.elf): each one's code is the payload, its load address and entry
# point a signed LOAD extension (docs/formats.md). The model runs them on
# its emulated core (--core=rv32, docs/model.md): ROM jumps to the ROM_EXT
# code it verified, ROM_EXT to the BL0 code it verified.
oti sign --key keys/creator.key --stage rom_ext --svn 1 --payload "$rom_ext_elf" \
	--out images/rom_ext.img
oti sign --key keys/bl0-signer.key --cert keys/bl0-signer.cert --stage bl0 --svn 3 \
	--payload "$bl0_elf" --out images/bl0.img
for i in rom_ext bl0; do
	"$otimage" inspect --json "images/$i.img" |
		jq -r --arg i "$i" '"   \($i) code: \(.payload_length) bytes from \($i).elf, loaded at \(.load.load_address), extensions \([.extensions[].type] | join(","))"'
done
# The factory's personalization firmware: the same builds, salted, so that
# each is an image of its own with its own measurement.
oti sign --key keys/creator.key --stage rom_ext --svn 1 --payload "$rom_ext_elf" --salt random \
	--out images/rom_ext-perso.img
oti sign --key keys/bl0-signer.key --cert keys/bl0-signer.cert --stage bl0 --svn 3 \
	--payload "$bl0_elf" --salt random --out images/bl0-perso.img
for i in rom_ext bl0 rom_ext-perso bl0-perso; do
	printf '   %-13s %s\n' "$i" "$("$otimage" inspect --json "images/$i.img" |
		jq -r '"SVN \(.security_version), measurement \(.measurement)"')"
done

step "Device images: OTP in test_unlocked, the manufacturing state (keys, owner config digest, secret); flash with the personalization firmware and no identity certificate"
oti owner-config --key keys/owner.pub --out images/owner.cfg
oti provision --out images/otp.img --creator-key keys/creator.pub \
	--owner-config images/owner.cfg --lifecycle test_unlocked --tag-boot on
oti pack --out images/flash-factory.img --rom-ext-a images/rom_ext-perso.img \
	--bl0-a images/bl0-perso.img --owner-config images/owner.cfg
echo "   otp.img $(stat -c %s images/otp.img) bytes, flash-factory.img $(stat -c %s images/flash-factory.img) bytes"

# start_model [LOAD-OPTIONS...]: the model on $work/device, ready when its control socket answers.
# Its core runs the stage images, starting in the mask ROM at every reset.
start_model() {
	"$model" --state-dir="$work/device" --core=rv32 --rom-image="$rom_elf" "$@" \
		2>>"$work/model.log" &
	model_pid=$!
	for _ in $(seq 200); do
		"$model" ctl --state-dir="$work/device" status >/dev/null 2>&1 && break
		kill -0 "$model_pid" 2>/dev/null || { cat "$work/model.log" >&2; exit 1; }
		sleep 0.05
	done
	"$model" ctl --state-dir="$work/device" status | tr ' ' '\n' |
		grep -E '^(state|boot-status|record-generation)=' | sed 's/^/   /'
}

step "Power on in the factory: otattest-model with those images (ivshmem server + device)"
start_model --load-flash=images/flash-factory.img --load-otp=images/otp.img
echo "   ivshmem socket: $work/device/ivshmem.sock (QEMU: -chardev socket,path=...,id=ota"
echo "                   -device ivshmem-doorbell,chardev=ota,vectors=2)"

step "Personalization: the device signs a CSR for its identity key (GET_IDENTITY_CSR); the key never leaves it"
"$peer" --state-dir="$work/device" call get-identity-csr --out=images/csr.der | sed 's/^/   /'
openssl req -inform der -in images/csr.der -noout -verify -subject 2>&1 | sed 's/^/   /'

step "The manufacturer CA checks the request and issues the identity certificate (otimage ca-sign)"
oti ca-sign --csr images/csr.der --ca-key keys/ca.key --ca-cert keys/ca.pem --out images/identity.der
openssl x509 -inform der -in images/identity.der -noout -subject | sed 's/^/   identity certificate: /'
openssl verify -CAfile keys/ca.pem <(openssl x509 -inform der -in images/identity.der) |
	sed 's#^.*: #   checked against the CA: #'

step "The certificate goes back into the device (SET_IDENTITY_CERT); the fuse programmer moves the lifecycle to dev"
"$peer" --state-dir="$work/device" call set-identity-cert images/identity.der | sed 's/^/   /'
"$model" ctl --state-dir="$work/device" otp lifecycle dev | sed 's/^/   /'

step "Power cycle: out of manufacturing, the device serves its chain (GET_CERTS): alias -> identity -> CA"
"$model" ctl --state-dir="$work/device" power-cycle | sed 's/^/   /'
mkdir -p "$work/certs"
"$peer" --state-dir="$work/device" certs "$work/certs" | sed 's/^/   /'
cmp -s "$work/certs/identity.der" images/identity.der &&
	echo "   the identity certificate served is the one the CA issued"
openssl verify -CAfile keys/ca.pem -untrusted <(openssl x509 -inform der -in images/identity.der) \
	<(openssl x509 -inform der -in "$work/certs/alias.der") |
	sed 's#^.*: #   alias certificate chained to the CA: #'
"$peer" --state-dir="$work/device" call get-identity-csr 2>&1 | sed 's/^/   no more CSRs: /' || true

step "Production firmware into both slots through the flash controller (the update agent's path); the device leaves the factory"
for s in a b; do
	"$model" ctl --state-dir="$work/device" install rom_ext "$s" images/rom_ext.img | sed 's/^/   /'
	"$model" ctl --state-dir="$work/device" install bl0 "$s" images/bl0.img | sed 's/^/   /'
done
stop_model
# The device as it leaves the factory, for the guest part below: its own
# OTP and flash (its boot data is its own from its first boot on, anchored
# in OTP; a freshly packed flash would no longer be taken).
cp "$work/device/otp.bin" images/otp.img
cp "$work/device/flash.bin" images/flash.img
"$otimage" inspect --json images/otp.img |
	jq -r '"   otp.img: lifecycle \(.lifecycle) (provisioned \(.lifecycle_provisioned))"'

step "Power on in the field: the production firmware's first boot verifies every signature and writes tags"
start_model
"$peer" --state-dir="$work/device" info | sed 's/^/   /'
"$peer" --state-dir="$work/device" record --out="$work/record.bin" | sed 's/^/   /'
"$otimage" inspect "$work/record.bin" | sed 's/^/   /'

step "On the core: instructions each stage retired and the first PC it fetched, the boot's modelled device cycles and the host time it took (the model's core-boot trace); BL0 answers GET_INFO"
core_trace() {
	tail -n 1 <(grep ' core-boot ' "$work/model.log") | tr ' ' '\n' |
		grep -E '^((rom|rom-ext|bl0)-(insns|first-pc)|device-cycles|host-ns)=' | paste -sd' ' |
		sed 's/^/   /'
}
core_trace
"$peer" --state-dir="$work/device" call get-info | sed 's/^/   /'

step "Second boot: a power cycle takes the tag fast path where the first wrote tags"
"$model" ctl --state-dir="$work/device" power-cycle | sed 's/^/   /'
"$peer" --state-dir="$work/device" record --out="$work/record2.bin" >/dev/null
"$otimage" inspect --json "$work/record2.bin" |
	jq -r '.stages[] | "   \(.stage) slot \(.slot): \(.path), \(.verify_time_ns) ns, \(.verify_cycles) device cycles"'
core_trace

step "Stop (state kept in $work/device)"
stop_model
echo "   model log: $work/model.log, otimage log: $work/otimage.log"

# ---- The host side: a QEMU guest with the driver, otattestd and otattestctl ----
# The guest half is the e2e scenario daemon-demo, booted by the e2e harness
# (tests/e2e/run.sh builds the module, daemon and CLI it needs; with
# E2E_DAEMON_FROM=packages otattestd, otattestctl and their files come
# from the Debian packages instead: tests/e2e/README.md). It gets a
# copy of this demo's device as it left the factory (images/otp.img,
# images/flash.img), so its first boot verifies signatures and writes tags,
# and the power cycle it asks for boots on the tag path.
from="the build tree's"
[ "${E2E_DAEMON_FROM:-tree}" = packages ] && from="the Debian packages'"
step "In a QEMU guest: otattest.ko, and $from hardened otattestd.service and otattestctl"
echo "   (tests/e2e/run.sh daemon-demo: the device as it left the factory; logs in $B/e2e/daemon-demo/)"
guest_rc=0
DAEMON_PROVISION_FROM=$work E2E_CORE=rv32 "$root/tests/e2e/run.sh" daemon-demo | sed 's/^/   /' ||
	guest_rc=$?
if [ -f "$root/build/e2e/daemon-demo/out/demo.txt" ]; then
	sed 's/^/   /' "$root/build/e2e/daemon-demo/out/demo.txt"
fi
[ "$guest_rc" -eq 0 ] || { echo "demo: the guest part failed (see $root/build/e2e/daemon-demo/)" >&2; exit 1; }
