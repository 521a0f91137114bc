#!/usr/bin/env bash
# make bench-veraison: evidences appraised per second by Veraison's services
# with the otattest scheme, against otattest-verify on the same evidence,
# in one run (docs/veraison.md, docs/performance.md). A benchmark, not a
# test: it prints figures and ratios and fails only when an answer is
# wrong (every appraisal must affirm the honest evidence).
#
#   otattest-verify --batch --jobs 1     the baseline: libotattest, one thread
#   otattest-verify --batch              one thread per CPU
#   otattest-veraison appraise --repeat  the scheme's Go code in-process, one thread
#   Veraison, 1 client / C clients       newSession + post evidence per appraisal, HTTP
#                                        on loopback, VTS over gRPC, the plugin over go-plugin
#
# BENCH_VERAISON_N (default 400) appraisals by Veraison, BENCH_LOCAL_N
# (10000) by the in-process verifiers (they are 10-60x faster: a run of
# the same count would be over before the clock says much);
# BENCH_VERAISON_CLIENTS (4).
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${B:-build}
n=${BENCH_VERAISON_N:-400}
clients=${BENCH_VERAISON_CLIENTS:-4}
local_n=${BENCH_LOCAL_N:-10000}
tool=$B/tests/interop/evidence_tool
verify=$B/otattest-verify
vx=build/veraison/bin/otattest-veraison
make -s "$tool" "$verify" veraison >/dev/null

work=$(mktemp -d)
trap 'libotattest/tools/veraison/deploy/veraison.sh stop "$work/veraison" 2>/dev/null; rm -rf "$work"' EXIT
"$tool" "$work" >/dev/null
nonce=$(cat "$work/nonce.hex")
for ((i = 0; i < local_n; i++)); do echo "$work/evidence.cose"; done >"$work/list"

rate_verify() { # jobs...: evidences/s from otattest-verify --batch's summary
	"$verify" --batch --ca "$work/ca.pem" --nonce "$nonce" "$@" - <"$work/list" 2>&1 >/dev/null |
		sed -n 's/.* \([0-9.]*\) evidences\/s.*/\1/p'
}
base=$(rate_verify --jobs 1)
all=$(rate_verify)
inproc=$("$vx" appraise --ca "$work/ca.pem" --nonce "$nonce" --repeat "$local_n" "$work/evidence.cose" 2>&1 >/dev/null |
	sed -n 's/.*: \([0-9.]*\) evidences\/s.*/\1/p')

libotattest/tools/veraison/deploy/veraison.sh start "$work/veraison" >/dev/null
. "$work/veraison/env"
"$vx" ta-corim --ca "$work/ca.pem" --out "$work/ca.corim"
"$vx" provision --url "$PROVISIONING_URL" "$work/ca.corim" >/dev/null
# A first session warms the plugin's processes and the stores.
"$vx" bench --url "$VERIFICATION_URL" --nonce "$nonce" --n 5 --clients 1 "$work/evidence.cose" >/dev/null
one=$("$vx" bench --url "$VERIFICATION_URL" --nonce "$nonce" --n "$n" --clients 1 "$work/evidence.cose" |
	sed -n 's/.*: \([0-9.]*\) evidences\/s.*/\1/p')
many=$("$vx" bench --url "$VERIFICATION_URL" --nonce "$nonce" --n "$n" --clients "$clients" "$work/evidence.cose" |
	sed -n 's/.*: \([0-9.]*\) evidences\/s.*/\1/p')

printf 'one honest evidence appraised %d times by each local verifier, %d times by Veraison; %s CPUs, one run\n' \
	"$local_n" "$n" "$(nproc)"
printf '%-52s %12s %10s\n' "" "evidences/s" "ratio"
row() { printf '%-52s %12.0f %9.2fx\n' "$1" "$2" "$(awk -v a="$2" -v b="$base" 'BEGIN { print a / b }')"; }
row "otattest-verify --batch --jobs 1 (baseline)" "$base"
row "otattest-verify --batch --jobs $(nproc)" "$all"
row "otattest scheme in-process (Go), 1 thread" "$inproc"
row "Veraison services + scheme, 1 client" "$one"
row "Veraison services + scheme, $clients clients" "$many"
