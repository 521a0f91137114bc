#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make demo` as a suite: scripts/demo.sh runs in a scratch work directory
# and must exit 0 and show each part of its story (issue 7): factory
# provisioning and personalization (the device's CSR verified, the CA's
# certificate checked, the chain the device then serves), the model's
# record, a power cycle on the tag path, the stage images on the emulated
# core (each stage's first PC, BL0's GET_INFO), and in the QEMU guest otattestctl
# status, an attestation
# verified on the host by otattest-verify and the independent check, a tag
# rotation, and a reboot on the fast path with both boots' timings.
# Prints "N passed, N failed".
#   tests/tools/demo.sh        (from anywhere; B= for the build directory)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
B=${B:-build}
work=$(mktemp -d "${TMPDIR:-/tmp}/otattest-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

rc=0
B=$B scripts/demo.sh "$work/demo" >"$work/out" 2>&1 || rc=$?
if [ "$rc" -eq 0 ]; then
	pass=$((pass + 1)) && echo "ok - scripts/demo.sh exits 0"
else
	fail=$((fail + 1)) && echo "not ok - scripts/demo.sh exits $rc"
	tail -n 40 "$work/out" | sed 's/^/    /'
fi

# expect WHAT EXTENDED-REGEX: a line of the demo's output matches.
expect() {
	if grep -Eq -- "$2" "$work/out"; then
		pass=$((pass + 1))
		echo "ok - $1"
	else
		fail=$((fail + 1))
		echo "not ok - $1 (no line matches '$2')"
	fi
}
expect "the model cold boots the factory images" '^   boot-status=OK$'
expect "the device's CSR verifies under its own key" '^   Certificate request self-signature verify OK$'
expect "identity certificate checked against the CA" 'checked against the CA: OK$'
expect "the device serves the certificate it was given" 'the identity certificate served is the one the CA issued'
expect "its chain from the alias key to the CA" 'alias certificate chained to the CA: OK$'
expect "no CSR once out of manufacturing" 'no more CSRs: get-identity-csr: RUNTIME_NOT_MANUFACTURING'
expect "the lifecycle moved by the fuse programmer" 'otp.img: lifecycle dev \(provisioned test_unlocked\)'
expect "the record as a guest reads it" 'record generation [0-9]+, [0-9]+ bytes, [0-9]+ stage attempts, boot OK'
expect "the production firmware's first boot verifies signatures" '^   +path: signature-retagged$'
expect "host power cycle: ROM_EXT on the tag path" '^   rom_ext slot a: tag, [0-9]+ ns, [1-9][0-9]* device cycles$'
expect "host power cycle: BL0 on the tag path" '^   bl0 slot a: tag, [0-9]+ ns, [1-9][0-9]* device cycles$'
# The stage images ran on the core: each stage's first instruction at its entry (issue 26).
expect "the core ran ROM, ROM_EXT and BL0 from their entries" \
	'^   rom-insns=[1-9][0-9]* rom-first-pc=0x00008000 rom-ext-insns=[1-9][0-9]* rom-ext-first-pc=0x10200000 bl0-insns=[1-9][0-9]* bl0-first-pc=0x10280000 device-cycles=[1-9][0-9]* host-ns=[1-9][0-9]*$'
expect "BL0 v1 answers GET_INFO" '^   runtime-version: 1\.0\.0$'
expect "the guest part passed" 'PASS daemon-demo '
expect "otattestctl status in the guest" '^   otattest0  ready$'
# The record's cycles per stage, the cycle model's (issue 26, docs/hal.md).
expect "otattestctl status shows each stage's device cycles" '^       device cycles [1-9][0-9]*$'
expect "first boot verified by signature" '^     bl0 +a +signature-retagged '
expect "a tag rotation" 'tag key version 0 -> 1, [0-9]+ stage\(s\) re-tagged'
expect "the reboot takes the fast path" '^     bl0 +a +tag '
expect "both boots' timings" 'second boot \(tag path\) +[0-9.]+ ms +[0-9.]+ ms'
expect "otattest-verify passes the evidence on the host" 'verdict: PASS \(evidence authentic: yes\)'
expect "the independent check passes the evidence" '^   [1-9][0-9]* passed, 0 failed$'

echo "demo: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
