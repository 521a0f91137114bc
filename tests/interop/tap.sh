# shellcheck shell=bash
# Sourced by the interop suites: one "ok - ..." or "not ok - ..." line per
# check, counted, and the "N passed, N failed" line the suites end with.
# The suite sets $suite (its name, for fail_early) and, before expect_rc,
# $work (a scratch directory: the command's output is left in $work/out).
pass=0 fail=0

# Nothing can be checked: say why and stop, counted as one failure.
fail_early() {
	echo "$suite: $1"
	echo "0 passed, 1 failed"
	exit 1
}

ok() { # status name
	if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok - $2"; else fail=$((fail + 1)); echo "not ok - $2"; fi
}

expect_rc() { # want name cmd...
	local want=$1 name=$2 rc
	shift 2
	"$@" >"$work/out" 2>&1
	rc=$?
	[ "$rc" = "$want" ]
	ok $? "$name (exit $rc, want $want)"
}

tally() { # label file: a checker's "ok - "/"not ok - " lines counted as ours
	local line
	while read -r line; do
		case "$line" in
		"ok - "*) pass=$((pass + 1)); echo "$1: $line" ;;
		"not ok - "*) fail=$((fail + 1)); echo "$1: $line" ;;
		esac
	done <"$2"
}

finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" = 0 ]
}
