#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make test's soak: tests/bench/soak.sh for 2 minutes (SOAK_SECONDS=120,
# the last 80 s without faults), the same load, update agent, faults and
# judge as `make soak` (tests/bench/README.md). Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
rc=0
SOAK_NAME=soak-short SOAK_SECONDS=${SOAK_SHORT_SECONDS:-120} SOAK_CALM=80 tests/bench/soak.sh || rc=$?
if [ "$rc" = 0 ]; then
	echo "soak-short: 1 passed, 0 failed"
else
	echo "soak-short: 0 passed, 1 failed"
fi
exit "$rc"
