#!/usr/bin/env bash
# The `make test` suite for "the netlink C is what the spec generates":
# each file kernel/netlink/ynl-gen.sh writes from kernel/netlink/otattest.yaml
# must equal the committed one. So that a pass means something, the same
# comparison must also fail for a spec with one check changed (the device
# name one byte shorter), in each file that check reaches.
# Prints "N passed, N failed"; exits non-zero on any failure.
#   kernel/netlink/check-gen.sh     (B= for the build dir; make netlink-gen-check)
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${B:-build}
work=$(realpath -m "$B/netlink-gen-check")
rm -rf "$work"
mkdir -p "$work"
. kernel/suite-lib.sh

mapfile -t outputs < <(kernel/netlink/ynl-gen.sh outputs)

# 1. The committed files are the generator's output.
if B=$B kernel/netlink/ynl-gen.sh generate "$work/spec" >"$work/gen.log" 2>&1; then
	result OK "generated from kernel/netlink/otattest.yaml"
	for f in "${outputs[@]}"; do
		if diff -u "$f" "$work/spec/$f" >"$work/diff.log" 2>&1; then
			result OK "$f is up to date"
		else
			result FAIL "$f differs from what the spec generates (make netlink-gen)" "$work/diff.log"
		fi
	done
else
	result FAIL "the generator failed" "$work/gen.log"
fi

# 2. The comparison sees a change: device-name's max-len 31 -> 30 must
#    change the kernel policies and the daemon's bounds.
sed 's/^          max-len: 31$/          max-len: 30/' kernel/netlink/otattest.yaml >"$work/changed.yaml"
if cmp -s kernel/netlink/otattest.yaml "$work/changed.yaml"; then
	result FAIL "the self-test found no device-name max-len 31 to change in the spec"
elif B=$B kernel/netlink/ynl-gen.sh generate "$work/changed" "$work/changed.yaml" \
	>"$work/changed.log" 2>&1; then
	for f in kernel/netlink-gen.c daemon/otattestd/genl-bounds.h; do
		if cmp -s "$f" "$work/changed/$f"; then
			result FAIL "a changed spec leaves $f as committed: the check would miss it"
		else
			result OK "a changed spec changes $f (the check sees it)"
		fi
	done
else
	result FAIL "the generator failed on the changed spec" "$work/changed.log"
fi

finish netlink-gen
