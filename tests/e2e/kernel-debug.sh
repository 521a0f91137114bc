#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The driver under the kernel's own checkers (issue 33; docs/kernel-abi.md,
# "Under the kernel's checkers"): on the debug kernel (KASAN generic inline,
# lockdep, kmemleak, KFENCE, UBSAN, DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS;
# scripts/kernel-debug.sh builds it once and caches it), the module is held
# to W=1 and sparse, then the scenarios run with tests/e2e/run.sh --kernel
# debug: after each one the harness unloads the module, scans kmemleak and
# fails the scenario on any KASAN, KFENCE, UBSAN, lockdep, atomic-sleep,
# debugobjects or kmemleak report, naming the checker.
#
#   tests/e2e/kernel-debug.sh          the make test set: the scenarios in
#                                      tests/e2e/kernel/debug-make-test.list
#                                      (kernel-netlink, -sysfs, -hotplug and
#                                      kernel-fuzz-live for E2E_FUZZ_SECONDS,
#                                      default 20): each debug guest costs
#                                      minutes under TCG, so make test takes
#                                      the ones that reach every netlink
#                                      command, the sysfs files, unbind and
#                                      rebind, and hostile requests
#   tests/e2e/kernel-debug.sh --full   make test-kernel-debug: also the
#                                      daemon scenarios that drive the driver,
#                                      kernel-fuzz-live for 120 s by default
#   -j N                               scenarios at once (default: CPUs)
#
# Ends with a report (scenarios run, requests fuzzed, checker reports by
# checker) and "N passed, N failed" on a line of its own.
set -uo pipefail
cd "$(dirname "$0")/../.."
full=0 jobs=$(nproc)
while [ $# -gt 0 ]; do
	case $1 in
	--full) full=1 ;;
	-j) jobs=$2; shift ;;
	-j*) jobs=${1#-j} ;;
	*) echo "kernel-debug: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
. tests/e2e/lib/logscan.sh
. kernel/suite-lib.sh # result, finish

t0=$(date +%s)
if ! dir=$(scripts/kernel-debug.sh); then
	result FAIL "building the debug kernel"
	finish kernel-debug
	exit 1
fi
result OK "debug kernel $(cat "$dir/release") ($dir; built in $(cat "$dir/build-seconds")s the first time, now $(($(date +%s) - t0))s)"

B=${B:-build}
work=$(realpath -m "$B/kernel/check-debug")
mkdir -p "$(dirname "$work")"
if kernel/check.sh "$dir/obj" "$PWD/kernel" "$PWD/libotattest/include" "$work" >"$work.out" 2>&1; then
	result OK "otattest.ko on the debug kernel: $(tail -n1 "$work.out")"
else
	result FAIL "otattest.ko is not W=1 and sparse clean on the debug kernel" "$work.out"
fi

# The daemon scenarios that drive the driver: the daemon's netlink client
# against the module (requests, events, hotplug, restarts, flooding).
scenarios=()
if [ $full = 1 ]; then
	while read -r name _; do scenarios+=("$name"); done < <(tests/e2e/run.sh --list 'kernel-*')
else
	mapfile -t scenarios < <(grep -v '^#' tests/e2e/kernel/debug-make-test.list)
fi
if [ $full = 1 ]; then
	scenarios+=(daemon-api daemon-activation daemon-hotplug daemon-flood daemon-restart
		daemon-tag-mismatch daemon-admin update-netlink-install update-netlink-refusals)
	export E2E_FUZZ_SECONDS=${E2E_FUZZ_SECONDS:-120}
else
	export E2E_FUZZ_SECONDS=${E2E_FUZZ_SECONDS:-20}
fi
t1=$(date +%s)
tests/e2e/run.sh -j"$jobs" --kernel debug "${scenarios[@]}" | tee "$B/e2e/kernel-debug.out"
rc=${PIPESTATUS[0]}
secs=$(($(date +%s) - t1))
n=$(grep -cE '^(PASS|FAIL|SKIP) ' "$B/e2e/kernel-debug.out")
[ "$rc" = 0 ] && result OK "$n scenarios on the debug kernel in ${secs}s" ||
	result FAIL "scenarios on the debug kernel failed (${secs}s; above)"

# The report: what ran, what was fuzzed, what each checker said.
echo "kernel-debug report:"
echo "  scenarios run: $n ($(grep -c '^PASS ' "$B/e2e/kernel-debug.out") passed)"
sent=0
# Only this run's: build/e2e/kernel-fuzz-live/ may hold an earlier run's log.
for f in "$B"/e2e/kernel-fuzz-live/out/guest.log; do
	[ -f "$f" ] && grep -qE '^(PASS|FAIL|SKIP) +kernel-fuzz-live ' "$B/e2e/kernel-debug.out" || continue
	for v in $(grep -oE '\bsent=[0-9]+' "$f" | cut -d= -f2); do sent=$((sent + v)); done
done
echo "  requests fuzzed (kernel-fuzz-live, ${E2E_FUZZ_SECONDS}s): $sent"
declare -A by=()
while IFS= read -r line; do
	c=$(e2e_kernel_checker "$line")
	by[${c:-other}]=$((${by[${c:-other}]:-0} + 1))
done < <(for s in $(awk '/^(PASS|FAIL|SKIP) /{print $2}' "$B/e2e/kernel-debug.out"); do
	cat "$B/e2e/$s/kernel-problems" 2>/dev/null
done | grep -a . || true)
for c in KASAN KFENCE UBSAN lockdep DEBUG_ATOMIC_SLEEP DEBUG_OBJECTS kmemleak other; do
	echo "  $c reports: ${by[$c]:-0}"
done
finish kernel-debug
