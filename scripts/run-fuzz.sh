#!/usr/bin/env bash
# Run each libFuzzer target for a bounded time from its seed corpus.
# usage: run-fuzz.sh <seconds-per-target> <targets...>
set -u
secs=$1; shift
pass=0 fail=0
for t in "$@"; do
	name=$(basename "$t")
	corpus=build/fuzz/corpus/$name
	seeds=tests/fuzz/corpus/$name
	mkdir -p "$corpus"
	[ -d "$seeds" ] && cp -n "$seeds"/* "$corpus"/ 2>/dev/null
	if "$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
		-artifact_prefix=build/fuzz/"$name"- "$corpus" >build/fuzz/"$name".log 2>&1; then
		echo "fuzz $name: ok ($(grep -c '^#' build/fuzz/"$name".log) status lines, ${secs}s)"
		pass=$((pass + 1))
	else
		echo "fuzz $name: FAILED, see build/fuzz/$name.log"; tail -n 30 build/fuzz/"$name".log
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
