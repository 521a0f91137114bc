#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make soak: 32 clients on otattestd for minutes while the daemon and the
# device model are killed at random moments; every answer judged.
set -euo pipefail

usage() {
	cat <<'USAGE'
Usage: tests/bench/soak.sh

Boots one systemd guest with the shipped otattestd on a provisioned
device and runs tests/bench/scenarios/soak.sh in it: 31 unprivileged
readers (State and Stages reads, GetRecord, Attest with every evidence
verified against the CA and its nonce) and one member of otattest-update
rotating the boot tags, for SOAK_SECONDS. Meanwhile the guest restarts or
SIGKILLs otattestd, and the host SIGKILLs the device (the split model's
device process), which cold boots again on its state, each at random
moments.

It passes when no answer was wrong (evidence that does not verify, a
record that does not validate, a rotation that skipped a version),
unexpected (an error other than Busy, Timeout, DeviceUnavailable or
LimitExceeded) or lost (no answer in 180 s); when otattestd's resident
memory grew by at most SOAK_RSS_KIB over its last SOAK_CALM seconds
(which leave it alone); and when the kernel log is clean.

Environment (defaults): SOAK_SECONDS=240, SOAK_CALM=100, SOAK_RSS_KIB=2048.
Reports: build/e2e/soak/out/readers.json and rotator.json.

Exit status: 0 passed, 1 failed.
USAGE
}
case ${1:-} in
-h | --help) usage; exit 0 ;;
"") ;;
*) usage >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
secs=${SOAK_SECONDS:-240}
calm=${SOAK_CALM:-100}
if [ "$secs" -lt $((calm + 40)) ]; then
	echo "soak: SOAK_SECONDS ($secs) must leave 40 s of chaos before the last SOAK_CALM ($calm) s" >&2
	exit 2
fi
echo "soak: 32 clients for ${secs}s with otattestd and the model killed at random (about $((secs / 60 + 2)) minutes)" >&2
rc=0
tests/e2e/run.sh --scenarios tests/bench/scenarios -j1 soak || rc=$?
out=build/e2e/soak/out
for f in readers rotator; do
	[ -s "$out/$f.json" ] || continue
	jq -r --arg f "$f" '"soak: \($f): ok \(.ok), named errors \(.named), retried after a daemon kill \(.retried), wrong \(.wrong), unexpected \(.unexpected), lost \(.lost)"' "$out/$f.json"
done
if [ -s "$out/readers.json" ]; then
	jq -r '"soak: longest time without a right answer to any client: \(.longest_gap_ms) ms"' "$out/readers.json"
	jq -r '.ops | to_entries[] | "soak:   \(.key): ok \(.value.ok)\(if .value.verified then " (evidence verified: \(.value.verified))" else "" end), errors \(.value.errors)"' "$out/readers.json"
	jq -r '.rss[] | "soak: otattestd pid \(.pid): \(.seen_s)s, RSS \(.settled_kib) -> \(.last_kib) KiB (peak \(.peak_kib))\(if .judged then ", growth \(.growth_kib) KiB, judged" else "" end)"' "$out/readers.json"
fi
[ -s "$out/chaos-daemon" ] && echo "soak: otattestd killed $(wc -l <"$out/chaos-daemon") times: $(awk '{print $2}' "$out/chaos-daemon" | sort | uniq -c | tr -s ' ' | tr '\n' ',')"
[ -s "$out/chaos-model" ] && echo "soak: the device killed and restarted $(wc -l <"$out/chaos-model") times"
exit $rc
