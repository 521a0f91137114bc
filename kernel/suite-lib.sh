# Sourced by the kernel's `make test` suites (check-suite.sh,
# netlink/check-gen.sh): one "ok"/"not ok" line per check and the closing
# "NAME: N passed, N failed" run-suites.sh and CI read.
pass=0 fail=0

result() { # result OK|FAIL what [log]
	if [ "$1" = OK ]; then
		pass=$((pass + 1))
		echo "ok - $2"
	else
		fail=$((fail + 1))
		echo "not ok - $2"
		[ -z "${3:-}" ] || sed 's/^/    /' "$3" | head -n 60
	fi
}

finish() { # finish NAME: the summary line; the suite's exit status
	echo "$1: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}
