#!/usr/bin/env bash
# Run non-unit suites (interop, fuzz smoke, model, e2e); each is an
# executable that prints its own "N passed, N failed". One summary at the
# end, with each suite's wall time (slowest first) so the 30-minute CI target
# (HACKING.md) can be followed suite by suite.
set -u
pass=0 fail=0 failed=() times=()
for s in "$@"; do
	echo "== suite $s"
	t0=$(date +%s)
	if "$s"; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$s"); fi
	t=$(($(date +%s) - t0))
	echo "== suite $s: ${t}s"
	times+=("$t $s")
done
echo "suite times (seconds, slowest first):"
printf '%s\n' "${times[@]}" | sort -rn | awk '{ printf "  %5d  %s\n", $1, $2 }'
echo "suites: $pass passed, $fail failed"
[ "$fail" -eq 0 ] || { echo "failed suites: ${failed[*]}"; exit 1; }
