#!/usr/bin/env bash
# Run non-unit suites (interop, fuzz smoke, model, e2e); each is an
# executable that prints its own "N passed, N failed". One summary at the
# end, with each suite's wall time (slowest first) so the 30-minute CI target
# (HACKING.md) can be followed suite by suite.
#
# SUITES_ALONE (make test passes TEST_SUITES_ALONE) names the suites that
# use every CPU themselves (the guests, the fuzzers), pin themselves to
# CPUs (the model's kill test) or rewrite build files others read (make
# install): each runs with nothing
# beside it, its output as it comes. The others are single processes that
# mostly wait on one tool or another; SUITE_JOBS of them (default: the
# CPUs) run at once, first, each one's output kept apart and printed whole
# when it ends, between its "== suite NAME" and "== suite NAME: Ns".
set -u
jobs=${SUITE_JOBS:-$(nproc)}
out=$(mktemp -d "${TMPDIR:-/tmp}/run-suites.XXXXXX")
trap 'rm -rf "$out"' EXIT
pass=0 fail=0 failed=() times=() running=0 i=0
declare -A name log start # pid -> suite, its output, its start

# count SUITE RC SECONDS
count() {
	if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$1"); fi
	times+=("$3 $1")
}

# finish: wait for one suite of the pool, print its output, count it.
finish() {
	local pid rc t
	wait -n -p pid
	rc=$?
	t=$(($(date +%s) - ${start[$pid]}))
	echo "== suite ${name[$pid]}"
	cat "${log[$pid]}"
	echo "== suite ${name[$pid]}: ${t}s"
	count "${name[$pid]}" "$rc" "$t"
	unset "name[$pid]" "log[$pid]" "start[$pid]"
	running=$((running - 1))
}

alone=()
for s in "$@"; do
	case " ${SUITES_ALONE:-} " in
	*" $s "*) alone+=("$s"); continue ;;
	esac
	[ "$running" -lt "$jobs" ] || finish
	i=$((i + 1))
	"$s" >"$out/$i" 2>&1 </dev/null &
	name[$!]=$s
	log[$!]=$out/$i
	start[$!]=$(date +%s)
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do finish; done

for s in "${alone[@]}"; do
	echo "== suite $s"
	t0=$(date +%s)
	"$s"
	rc=$?
	t=$(($(date +%s) - t0))
	echo "== suite $s: ${t}s"
	count "$s" "$rc" "$t"
done

echo "suite times (seconds, slowest first):"
printf '%s\n' "${times[@]}" | sort -rn | awk '{ printf "  %5d  %s\n", $1, $2 }'
echo "suites: $pass passed, $fail failed"
[ "$fail" -eq 0 ] || { echo "failed suites: ${failed[*]}"; exit 1; }
