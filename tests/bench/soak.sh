#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make soak: a fleet's load, an update agent and faults at random on the
# whole stack for minutes or hours; every answer and the device's state
# judged (tests/bench/README.md, "make soak").
set -euo pipefail

usage() {
	cat <<'USAGE'
Usage: tests/bench/soak.sh [--update-docs]

Boots one systemd guest with the shipped otattestd on a provisioned
device and runs tests/bench/scenarios/soak.sh in it for SOAK_SECONDS:

  a fleet's readers   SOAK_UIDS unprivileged uids with SOAK_CLIENTS clients
                      each (State and Stages reads, GetRecord, Attest with
                      every evidence verified against the CA and its
                      nonce), each client waiting SOAK_THINK seconds
                      between requests: under the per-user bounds
  a rotator           RotateTags every ~30 s
  an update agent     install -> update reset -> commit (or a trial left
                      to a cold boot), ratchet, signed revocations
  faults at random    power cuts inside flash writes, the device SIGKILLed
                      (inside OTP writes too), otattestd SIGKILLed or
                      restarted, a warm reset during an install, the
                      driver unloaded and reloaded, the history file
                      truncated

and judges every answer (ok, a named error a client must expect, or
retried; never wrong, unexpected or lost) and, after every step and every
fault, the device against what the agent saw acknowledged (the image it
boots, the last commit, floors and revocation sequence never back, a
fresh evidence verified on the host against the CA, its nonce and a policy
of the expected state); at the end the boot history (every generation
seen since the last truncation, once, in order), the memory of otattestd
and of the device process over their last SOAK_CALM seconds (no faults
then), Busy below 1% of each reader's answers, and the kernel log.

Environment (defaults): SOAK_SECONDS=600 (7200 for a release),
SOAK_CALM=100, SOAK_RSS_KIB=2048, SOAK_UIDS=8, SOAK_CLIENTS=2,
SOAK_THINK=0.3:0.9. SOAK_PLANT=forget-commit,floor-back,stale-nonce plants
faults the judge must find (the run must then fail; see
tests/bench/README.md).

--update-docs  put the report between the soak markers of
               docs/performance.md (a passing run only).

Reports: build/e2e/soak/out/soak/ (agent.json, readers-N.json,
rotator.json, events, judge-failures, daemon-rss), out/model-rss, and
the report as markdown in build/e2e/soak/report.md. SOAK_NAME=soak-short
runs the same under make test's name (build/e2e/soak-short).

Exit status: 0 passed, 1 failed, 2 usage.
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
secs=${SOAK_SECONDS:-600}
calm=${SOAK_CALM:-100}
if [ "$secs" -lt $((calm + 40)) ]; then
	echo "soak: SOAK_SECONDS ($secs) must leave 40 s of faults before the last SOAK_CALM ($calm) s" >&2
	exit 2
fi
export SOAK_SECONDS=$secs SOAK_CALM=$calm
# The scenario: soak, or soak-short (make test's; its own run directory).
name=${SOAK_NAME:-soak}
echo "soak: ${secs}s of fleet load, updates and faults (about $((secs / 60 + 4)) minutes)${SOAK_PLANT:+, planted: $SOAK_PLANT}" >&2
rc=0
start=$SECONDS
tests/e2e/run.sh --scenarios tests/bench/scenarios -j1 "$name" || rc=$?
wall=$((SECONDS - start))
tests/bench/soak-report.sh "build/e2e/$name/out" "$wall" "$rc" >"build/e2e/$name/report.md" || true
cat "build/e2e/$name/report.md"
if [ "$update_docs" = 1 ]; then
	[ "$rc" = 0 ] || { echo "soak: failed; docs/performance.md left alone" >&2; exit "$rc"; }
	python3 - "build/e2e/$name/report.md" docs/performance.md <<'PY'
import sys
rep = open(sys.argv[1]).read()
doc = open(sys.argv[2]).read()
a, b = doc.index("<!-- soak:begin -->\n"), doc.index("<!-- soak:end -->")
open(sys.argv[2], "w").write(doc[:a] + "<!-- soak:begin -->\n" + rep + doc[b:])
PY
fi
exit $rc
