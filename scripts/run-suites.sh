#!/usr/bin/env bash
# Run non-unit suites (interop, fuzz smoke, model, e2e); each is an
# executable that prints its own "N passed, N failed". One summary at the end.
set -u
pass=0 fail=0 failed=()
for s in "$@"; do
	echo "== suite $s"
	if "$s"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$s"); fi
done
echo "suites: $pass passed, $fail failed"
[ "$fail" -eq 0 ] || { echo "failed suites: ${failed[*]}"; exit 1; }
