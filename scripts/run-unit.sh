#!/usr/bin/env bash
# Run check-based unit test binaries; each prints check's own summary
# ("100%: Checks: N, Failures: 0, Errors: 0"). Exit non-zero if any fails.
#
# UNIT_JOBS binaries run at once (default: the CPUs). Each binary is one
# process at a time (check forks one test after another), and many of them
# spend their time waiting on a child, a bus or a file, so one after
# another left a core idle for most of make test's two unit steps. Each
# binary's output is kept apart and printed whole, "== NAME" first, when it
# ends; a failing binary is named again at the end.
set -u
jobs=${UNIT_JOBS:-$(nproc)}
out=$(mktemp -d "${TMPDIR:-/tmp}/run-unit.XXXXXX")
trap 'rm -rf "$out"' EXIT
pass=0 fail=0 failed=() running=0
declare -A name log # pid -> binary, pid -> its output

# finish: wait for one running binary, print its output, count it.
finish() {
	local pid rc
	wait -n -p pid
	rc=$?
	echo "== ${name[$pid]}"
	cat "${log[$pid]}"
	if [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		failed+=("${name[$pid]} (exit $rc)")
	fi
	unset "name[$pid]" "log[$pid]"
	running=$((running - 1))
}

i=0
for t in "$@"; do
	[ "$running" -lt "$jobs" ] || finish
	i=$((i + 1))
	CK_FORK=yes "$t" >"$out/$i" 2>&1 &
	name[$!]=$t
	log[$!]=$out/$i
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do finish; done
[ "$fail" -eq 0 ] || printf 'failed: %s\n' "${failed[@]}"
echo "unit test binaries: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
