#!/usr/bin/env bash
# Run check-based unit test binaries; each prints check's own summary
# ("100%: Checks: N, Failures: 0, Errors: 0"). Exit non-zero if any fails.
set -u
pass=0 fail=0
for t in "$@"; do
	echo "== $t"
	if CK_FORK=yes "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "unit test binaries: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
