#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The e2e scenarios of `make test` on Debian 12's 6.1 (the default kernel):
# every scenario but kernel-fuzz-live, which `make test` runs on the debug
# kernel instead (tests/e2e/kernel-debug.sh, with the scenarios listed in
# tests/e2e/kernel/debug-make-test.list: KASAN, lockdep, kmemleak, KFENCE
# and UBSAN watching). The other scenarios of that list run here too: the
# production kernel is their point as much as the checkers are.
# docs/kernel-abi.md, "Under the kernel's checkers", has the sets and the
# seconds. Prints "N passed, N failed" (run.sh's line).
set -uo pipefail
cd "$(dirname "$0")/../.."
names=()
while read -r name _; do
	[ "$name" = kernel-fuzz-live ] || names+=("$name")
done < <(tests/e2e/run.sh --list)
exec tests/e2e/run.sh "$@" "${names[@]}"
