#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Boot-to-scenario time of both guest modes, booting the extracted vmlinux
# (PVH) against the baseline, Debian's compressed bzImage, measured in the
# same run with the boots interleaved so that machine load hits both alike.
#
#   tests/e2e/bench-boot.sh [-n ROUNDS]     (default 5)
#
# The time is the host's: QEMU started -> the guest's scenario started (see
# README.md, "Timing"). Prints the median per mode and kernel image and the
# ratio bzImage / vmlinux. It is a benchmark, not a test: it gates nothing.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=5
[ "${1:-}" = -n ] && rounds=$2
declare -A t
for ((i = 0; i < rounds; i++)); do
	for k in vmlinux bzimage; do
		arg=; [ $k = bzimage ] && arg=--bzimage
		"$root/tests/e2e/run.sh" -j1 $arg harness-fast harness-systemd >/dev/null ||
			{ echo "bench-boot: a scenario failed; see build/e2e/" >&2; exit 1; }
		for m in fast systemd; do
			t[$k.$m]+="$(cat "$root/build/e2e/harness-$m/boot-seconds") "
		done
	done
done
median() { tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
printf '%-8s %10s %10s %8s   (median of %d boots, seconds)\n' mode vmlinux bzImage ratio "$rounds"
for m in fast systemd; do
	v=$(median <<<"${t[vmlinux.$m]}")
	b=$(median <<<"${t[bzimage.$m]}")
	printf '%-8s %10.2f %10.2f %7.2fx\n' "$m" "$v" "$b" "$(awk -v a="$b" -v b="$v" 'BEGIN { print a / b }')"
done
