#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make bench-stack: this project against a TPM with tpm2-abrmd, side by
# side, in one run. See tests/bench/README.md and docs/performance.md.
set -euo pipefail

# The e2e name of the guest run on BUS (tests/e2e/README.md, E2E_BUS).
run_name() {
	case $1 in dbus-daemon) echo bench-stack ;; *) echo "bench-stack@$1" ;; esac
}

usage() {
	cat <<'USAGE'
Usage: tests/bench/stack.sh [--update-docs]

Measures, in one run:
  1. the device's boot verification (otattest-model on the host): BL0
     check on the tag path vs the ECDSA and hybrid signature paths, with
     0, 1 and 2 delegates (tests/bench/boot-sweep.sh);
  2. in a QEMU guest holding both this project's device and a swtpm
     TPM 2.0 (tpm-crb): Attest over D-Bus vs TPM2_Quote through
     tpm2-abrmd with 1, 4 and 16 clients; one client's Ping, property
     reads and PCR read; each daemon's resident memory at rest and under
     load (tests/bench/scenarios/bench-stack.sh, otattest-loadgen). Run
     twice, one guest after the other: with dbus-daemon as the system
     bus, then with dbus-broker (bench-stack@dbus-broker); the first
     table puts the two side by side.
Prints the table with the ratios and writes build/bench/stack.md (the
table) and build/bench/stack.json (every figure). With --update-docs the
table also replaces the one in docs/performance.md.

Environment: BENCH_SECONDS (window per run, default 5), BENCH_ROUNDS
(default 3; each figure is the median over rounds), BENCH_CLIENTS
(default "1 4 16"), BOOT_SWEEP_BOOTS (boots per configuration).

Exit status: 0 when the run completed (the targets are reported, never
enforced: figures depend on the machine); 1 when a part failed.
USAGE
}

update_docs=0
case ${1:-} in
-h | --help) usage; exit 0 ;;
--update-docs) update_docs=1 ;;
"") ;;
*) usage >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=build/bench
buses=(dbus-daemon dbus-broker)
mkdir -p "$out"
for bus in "${buses[@]}"; do
	rm -rf "build/e2e/$(run_name "$bus")" # so that the progress below follows this run's log
done

echo "bench-stack: 1/2 boot verification on the device model" >&2
# On a tmpfs, ROM start to runtime is not dominated by the model's
# state-file renames (boot-sweep.sh --help).
if [ -z "${BOOT_SWEEP_DIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	export BOOT_SWEEP_DIR=/dev/shm/otattest-boot-sweep
fi
tests/bench/boot-sweep.sh >"$out/boot.jsonl"

reports=()
for bus in "${buses[@]}"; do
	run=build/e2e/$(run_name "$bus")
	echo "bench-stack: 2/2 the guest on $bus: otattestd and tpm2-abrmd under load (several minutes)" >&2
	# Progress: the guest's log lines, as they come (tail ends with this script).
	(
		while [ ! -d "$run/out" ]; do sleep 1; done
		tail -n +1 -F --pid=$$ "$run/out/bench.log" 2>/dev/null | sed -u "s/^/bench-stack: $bus: /" >&2
	) &
	rc=0
	# One guest at a time: two would share the machine's CPUs and skew both.
	tests/e2e/run.sh --scenarios tests/bench/scenarios -j1 "$(run_name "$bus")" || rc=$?
	sleep 1 # the last progress lines
	[ $rc = 0 ] || { echo "bench-stack: the guest run on $bus failed (logs: $run/)" >&2; exit 1; }
	reports+=("$bus=$run")
done

/usr/bin/python3 tests/bench/stack-report.py "$out/boot.jsonl" "$out/stack.md" "$out/stack.json" "${reports[@]}"
echo "bench-stack: figures in $out/stack.json, table in $out/stack.md" >&2

if [ $update_docs = 1 ]; then
	/usr/bin/python3 - "$out/stack.md" docs/performance.md <<'PY'
import datetime, sys
table = open(sys.argv[1]).read()
doc = open(sys.argv[2]).read()
begin, end = "<!-- bench-stack:begin -->", "<!-- bench-stack:end -->"
head, rest = doc.split(begin, 1)
_, tail = rest.split(end, 1)
stamp = "Measured %s with `make bench-stack`.\n\n" % datetime.date.today().isoformat()
open(sys.argv[2], "w").write(head + begin + "\n" + stamp + table + end + tail)
PY
	echo "bench-stack: docs/performance.md updated" >&2
fi
