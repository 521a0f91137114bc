#!/usr/bin/env bash
# Run libFuzzer targets (docs/fuzzing.md).
#
#   run-fuzz.sh smoke SECONDS TARGET...
#       make fuzz-smoke / make test: each target for SECONDS from the kept
#       corpus (tests/fuzz/corpus/<target>/) plus what earlier smoke runs
#       grew in build/fuzz/corpus/<target>/, FUZZ_JOBS targets at once
#       (default: the CPUs). Nothing in the tree changes.
#   run-fuzz.sh plateau TARGET...
#       make fuzz: each target until it stops finding coverage
#       (FUZZ_PLATEAU seconds, default 60, without a new unit) or for
#       FUZZ_MAX seconds (default 240), whichever comes first; then the
#       kept corpus is minimised with -merge=1: named seeds stay, the
#       hash-named units are replaced by the ones that add coverage; past
#       FUZZ_CORPUS_KB (default 1024) per target the largest are left out,
#       so the tree stays small (whole flash images are 128 KiB each).
#
# Each target's figures (executions, executions per second, coverage
# counters, stop reason, corpus size) go to build/fuzz/results/<target>.run
# as key=value lines; scripts/fuzz-coverage.py adds line and branch
# coverage and prints the table. Prints "N passed, N failed".
set -u
mode=$1
shift
if [ "$mode" = smoke ]; then
	secs=$1
	shift
fi
plateau=${FUZZ_PLATEAU:-60}
max=${FUZZ_MAX:-240}
out=build/fuzz/results
mkdir -p "$out"
pass=0 fail=0

# stat KEY LOG: one of libFuzzer's final statistics.
stat() {
	sed -n "s/^stat::$1: *//p" "$2" | tail -n1
}

# The last "cov: N ft: N" libFuzzer printed.
counters() {
	grep -ao 'cov: [0-9]* ft: [0-9]*' "$1" | tail -n1 | awk '{print $2, $4}'
}

# run_plateau BIN CORPUS LOG: fuzz until FUZZ_PLATEAU seconds pass with no
# NEW unit (counted from the end of the corpus load) or FUZZ_MAX is up.
# Sets stop= and returns the fuzzer's status (72 when interrupted here).
run_plateau() {
	local bin=$1 corpus=$2 log=$3 pid news=0 n last=-1 rc
	"$bin" -max_total_time="$max" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="build/fuzz/$(basename "$bin")-" "$corpus" >"$log" 2>&1 &
	pid=$!
	stop=bound
	while kill -0 "$pid" 2>/dev/null; do
		sleep 2
		if [ "$last" -lt 0 ]; then
			grep -aq 'INITED' "$log" && last=$SECONDS
			continue
		fi
		n=$(grep -ac 'NEW  *cov:' "$log")
		if [ "$n" != "$news" ]; then
			news=$n
			last=$SECONDS
		elif [ $((SECONDS - last)) -ge "$plateau" ]; then
			stop=plateau
			kill -INT "$pid"
			break
		fi
	done
	wait "$pid"
	rc=$?
	[ "$stop" = plateau ] && [ "$rc" = 72 ] && rc=0
	return "$rc"
}

# merge BIN NAME WORK: minimise the kept corpus with what this run grew.
merge() {
	local bin=$1 name=$2 work=$3 keep=tests/fuzz/corpus/$2 tmp=build/fuzz/merge/$2 f
	rm -rf "$tmp"
	mkdir -p "$tmp" "$keep"
	for f in "$keep"/*; do
		[ -f "$f" ] || continue
		[[ $(basename "$f") =~ ^[0-9a-f]{40}$ ]] || cp "$f" "$tmp"/
	done
	"$bin" -merge=1 -timeout=10 -rss_limit_mb=2048 "$tmp" "$work" "$keep" \
		>"build/fuzz/$name.merge.log" 2>&1 || return 1
	find "$keep" -maxdepth 1 -type f -regextype posix-extended -regex '.*/[0-9a-f]{40}' -delete
	# Smallest first, while the budget lasts (libFuzzer's merge already
	# prefers the smaller of two units that add the same coverage).
	find "$tmp" -maxdepth 1 -type f -regextype posix-extended -regex '.*/[0-9a-f]{40}' \
		-printf '%s %p\n' | sort -n | awk -v budget=$((${FUZZ_CORPUS_KB:-1024} * 1024)) \
		'{ total += $1; if (total <= budget) print $2 }' | xargs -r cp -t "$keep"/
}

# run_one TARGET: one target, its line on stdout; returns its status.
run_one() {
	local t=$1 name corpus seeds log start rc stop secs_run execs rate cov ft units bytes
	name=$(basename "$t")
	corpus=build/fuzz/corpus/$name
	seeds=tests/fuzz/corpus/$name
	log=build/fuzz/$name.log
	mkdir -p "$corpus"
	[ -d "$seeds" ] && cp -n "$seeds"/* "$corpus"/ 2>/dev/null
	start=$SECONDS
	if [ "$mode" = smoke ]; then
		"$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix=build/fuzz/"$name"- "$corpus" >"$log" 2>&1
		rc=$?
		stop=bound
	else
		run_plateau "$t" "$corpus" "$log"
		rc=$?
	fi
	secs_run=$((SECONDS - start))
	if [ "$rc" = 0 ] && [ "$mode" = plateau ] && ! merge "$t" "$name" "$corpus"; then
		echo "fuzz $name: merging the corpus failed, see build/fuzz/$name.merge.log"
		rc=1
	fi
	execs=$(stat number_of_executed_units "$log")
	rate=$(stat average_exec_per_sec "$log")
	read -r cov ft < <(counters "$log")
	units=$(find "$seeds" -maxdepth 1 -type f 2>/dev/null | wc -l)
	bytes=$(du -sb "$seeds" 2>/dev/null | cut -f1)
	if [ "$rc" = 0 ]; then
		echo "fuzz $name: ok, ${execs:-?} runs in ${secs_run}s (${rate:-?}/s, stopped: $stop), cov ${cov:-?} ft ${ft:-?}"
	else
		echo "fuzz $name: FAILED (status $rc), see $log"
		tail -n 30 "$log"
	fi
	if [ "$mode" = plateau ]; then
		cat >"$out/$name.run" <<-EOF
			target=$name
			status=$rc
			date=$(date -u +%Y-%m-%d)
			seconds=$secs_run
			stop=$stop
			plateau=$plateau
			max=$max
			executions=${execs:-0}
			exec_per_sec=${rate:-0}
			cov=${cov:-0}
			ft=${ft:-0}
			corpus_units=$units
			corpus_bytes=${bytes:-0}
			load=$(cut -d' ' -f1 /proc/loadavg)
		EOF
	fi
	return "$rc"
}

# Smoke runs are bounded, so FUZZ_JOBS of them (default: the CPUs) run at
# once; each one's line is printed in the order given. The plateau runs
# measure executions per second and go one at a time.
parallel=1
[ "$mode" = smoke ] && parallel=${FUZZ_JOBS:-$(nproc)}
pids=() lines=()
for t in "$@"; do
	while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do
		wait -n
	done
	line=build/fuzz/$(basename "$t").line
	run_one "$t" >"$line" 2>&1 &
	pids+=($!)
	lines+=("$line")
done
for i in "${!pids[@]}"; do
	if wait "${pids[$i]}"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
	cat "${lines[$i]}"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
