#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make test's two runners (HACKING.md, "Build conventions"), on stand-in
# suites and unit binaries in a scratch directory:
#  1. scripts/run-suites.sh runs the pooled suites at the same time (each
#     stand-in waits, at most 20 s, for the other to have started: run one
#     after another, the first gives up and fails);
#  2. a suite in SUITES_ALONE runs with no other suite running (the pooled
#     ones leave a marker while they run; the alone one fails if it sees
#     one) and after them;
#  3. each suite's output is printed whole between its "== suite NAME" and
#     "== suite NAME: Ns" lines, though the pooled ones wrote theirs
#     interleaved in time;
#  4. a failing suite is counted and named, and the exit status says so;
#  5. scripts/run-unit.sh likewise: two binaries at once, each binary's
#     output whole after its "== NAME", a failing one counted and named.
# Prints one line per check and "N passed, N failed"; exits 1 on failure.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
suite=runners
. "$root/tests/interop/tap.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A stand-in suite NAME PEER: marks itself running, writes two lines with
# the wait for PEER's start between them, then its counts.
standin() {
	cat >"$work/$1" <<EOF
#!/usr/bin/env bash
touch "$work/running.$1" "$work/started.$1"
echo "$1 first line"
for _ in \$(seq 200); do [ -e "$work/started.$2" ] && break; sleep 0.1; done
echo "$1 second line"
rm -f "$work/running.$1"
if [ -e "$work/started.$2" ]; then echo "1 passed, 0 failed"; else echo "$1: $2 never started beside me"; echo "0 passed, 1 failed"; exit 1; fi
EOF
	chmod +x "$work/$1"
}
standin s1 s2
standin s2 s1
cat >"$work/lonely" <<EOF
#!/usr/bin/env bash
ls "$work"/running.* >/dev/null 2>&1 && { echo "lonely: another suite is running"; echo "0 passed, 1 failed"; exit 1; }
[ -e "$work/started.s1" ] && [ -e "$work/started.s2" ] || { echo "lonely: ran before the pool"; echo "0 passed, 1 failed"; exit 1; }
echo "1 passed, 0 failed"
EOF
printf '#!/bin/sh\necho "broken says why"\necho "0 passed, 1 failed"\nexit 1\n' >"$work/broken"
chmod +x "$work/lonely" "$work/broken"

# block NAME FILE: the lines between "== suite NAME" and "== suite NAME: Ns".
block() {
	sed -n "\\#^== suite $1\$#,\\#^== suite $1: [0-9]*s\$#p" "$2" | sed '1d;$d'
}

SUITE_JOBS=2 SUITES_ALONE="$work/lonely" "$root/scripts/run-suites.sh" \
	"$work/lonely" "$work/s1" "$work/broken" "$work/s2" >"$work/suites.out" 2>&1
rc=$?
ok "$([ "$rc" != 0 ]; echo $?)" "run-suites.sh exits non-zero when a suite fails (exit $rc)"
grep -qx 'suites: 3 passed, 1 failed' "$work/suites.out"
ok $? "run-suites.sh counts 3 passed, 1 failed"
grep -qx "failed suites: $work/broken" "$work/suites.out"
ok $? "run-suites.sh names the failing suite"
for s in s1 s2; do
	[ "$(block "$work/$s" "$work/suites.out")" = "$(printf '%s first line\n%s second line\n1 passed, 0 failed' $s $s)" ]
	ok $? "$s ran beside the other pooled suite, its output whole in its block"
done
[ "$(block "$work/lonely" "$work/suites.out")" = "1 passed, 0 failed" ]
ok $? "the SUITES_ALONE suite ran after the pool, with nothing beside it"
grep -q "broken says why" <(block "$work/broken" "$work/suites.out")
ok $? "a failing suite's own words are in its block"
[ "$(grep -c '^== suite ' "$work/suites.out")" = 8 ]
ok $? "each suite has one opening and one closing line"

# Unit binaries: the same stand-ins (their counts are check's in real life).
rm -f "$work"/started.* "$work"/running.*
UNIT_JOBS=2 "$root/scripts/run-unit.sh" "$work/s1" "$work/broken" "$work/s2" >"$work/unit.out" 2>&1
rc=$?
ok "$([ "$rc" != 0 ]; echo $?)" "run-unit.sh exits non-zero when a binary fails (exit $rc)"
grep -qx 'unit test binaries: 2 passed, 1 failed' "$work/unit.out"
ok $? "run-unit.sh counts 2 passed, 1 failed"
grep -qx "failed: $work/broken (exit 1)" "$work/unit.out"
ok $? "run-unit.sh names the failing binary"
for s in s1 s2; do
	[ "$(sed -n "\\#^== $work/$s\$#,+3p" "$work/unit.out" | sed 1d)" = \
		"$(printf '%s first line\n%s second line\n1 passed, 0 failed' $s $s)" ]
	ok $? "unit binary $s ran beside another, its output whole after its name"
done
finish
