#!/usr/bin/env bash
# make bench-fleet: a fleet's evidence (evidence_tool --fleet: BENCH_FLEET_N
# devices, default 1,000, each its own identity and alias certificates;
# every tenth in lifecycle dev, every 25th revoked by the CA's CRL) judged
# under one policy (allowed_lifecycle = prod) and that CRL by each verifier
# in one run (docs/performance.md, docs/veraison.md):
#
#   otattest-verify --batch --jobs 1     the baseline: libotattest, one thread
#   otattest-verify --batch              one thread per CPU
#   otattest-veraison appraise           the scheme's Go code in-process, one thread
#   Veraison, 1 client / C clients       its services (deploy/veraison.sh: one
#                                        vts; one verification instance with
#                                        sqlite stores, then with PostgreSQL
#                                        ones (VERAISON_STORE=postgres), then two
#                                        behind haproxy (VERAISON_VERIFIERS=2)
#                                        on PostgreSQL), the CA as a
#                                        trust-anchor CoRIM and the CRL
#                                        provisioned, the policy through
#                                        Veraison's policy management
#                                        (generated Rego, OPA); every device
#                                        once per run
#
# evidences per second for each, and for Veraison each appraisal's latency
# (newSession + post evidence), p50 and p99. A benchmark, not a test: it
# fails only on a wrong answer: every device must get the same verdict
# from otattest-verify and the scheme (fleet_agree.py), and every EAR
# Veraison signs the statuses the scheme gave that device in-process.
# BENCH_FLEET_CLIENTS (4).
set -euo pipefail
cd "$(dirname "$0")/../.."
B=${B:-build}
n=${BENCH_FLEET_N:-1000}
clients=${BENCH_FLEET_CLIENTS:-4}
tool=$B/tests/interop/evidence_tool
verify=$B/otattest-verify
vx=build/veraison/bin/otattest-veraison
deploy=libotattest/tools/veraison/deploy/veraison.sh
make -s "$tool" "$verify" veraison >/dev/null

work=$(mktemp -d)
configs=("sqlite 1" "postgres 1" "postgres 2") # stores, verification instances
trap 'for c in "${configs[@]}"; do "$deploy" stop "$work/veraison-${c/ /-}" 2>/dev/null; done; rm -rf "$work"' EXIT
"$tool" --fleet "$n" "$work" >/dev/null
ls "$work"/dev-*.cose >"$work/list"
/usr/bin/python3 tests/interop/fleet_agree.py revoke "$work" 25 13
openssl crl -in "$work/fleet.crl" -outform DER -out "$work/fleet.crl.der"
printf 'allowed_lifecycle = prod\n' >"$work/policy"
nonce=$(cat "$work/nonce.hex")
judge=(--ca "$work/ca.pem" --nonce "$nonce" --policy "$work/policy" --crl "$work/fleet.crl")

rate_verify() { # jobs...: evidences/s from otattest-verify --batch's summary (exit 1: some fail)
	{ "$verify" --batch "${judge[@]}" "$@" - <"$work/list" 2>&1 >/dev/null || true; } |
		sed -n 's/.* \([0-9.]*\) evidences\/s.*/\1/p'
}
base=$(rate_verify --jobs 1)
all=$(rate_verify)
"$verify" --batch --json "${judge[@]}" - <"$work/list" >"$work/verify.jsonl" 2>/dev/null || true
# shellcheck disable=SC2046 # one argument per evidence file
inproc=$({ "$vx" appraise "${judge[@]}" $(cat "$work/list") 2>&1 >"$work/scheme.jsonl" || true; } |
	sed -n 's/.*: \([0-9.]*\) evidences\/s.*/\1/p')
/usr/bin/python3 tests/interop/fleet_agree.py compare "$work" "$work/verify.jsonl" "$work/scheme.jsonl" 25 13 \
	>"$work/agree.out" || { cat "$work/agree.out"; exit 1; }
agree=$(sed -n 's/^ok - every device the same verdict from both: //p' "$work/agree.out")

bench() { # clients: the line otattest-veraison bench prints
	# shellcheck disable=SC2046 # one argument per evidence file
	"$vx" bench --url "$VERIFICATION_URL" --nonce "$nonce" --n "$n" --clients "$1" \
		--expect "$work/scheme.jsonl" $(cat "$work/list")
}
declare -A one many
for c in "${configs[@]}"; do
	read -r st verifiers <<<"$c"
	# The policy file through Veraison's policy management (generated Rego).
	VERAISON_POLICY=$work/policy VERAISON_STORE=$st VERAISON_VERIFIERS=$verifiers "$deploy" start "$work/veraison-${c/ /-}" >/dev/null
	. "$work/veraison-${c/ /-}/env"
	"$vx" ta-corim --ca "$work/ca.pem" --out "$work/ca.corim"
	"$vx" provision --url "$PROVISIONING_URL" "$work/ca.corim" >/dev/null
	"$vx" provision --url "$PROVISIONING_URL" --media-type application/pkix-crl "$work/fleet.crl.der" >/dev/null
	# A first pass warms the plugin's processes and the stores.
	"$vx" bench --url "$VERIFICATION_URL" --nonce "$nonce" --n 5 --clients 1 "$work/dev-0000.cose" >/dev/null
	one[$c]=$(bench 1)
	many[$c]=$(bench "$clients")
	"$deploy" stop "$work/veraison-${c/ /-}"
done

rate() { sed -n 's/.* \([0-9.]*\) evidences\/s.*/\1/p' <<<"$1"; }
ms() { sed -n "s/.*$1 \([0-9.]*\) ms.*/\1/p" <<<"$2"; }
printf '%d devices (%s), each verdict the same from otattest-verify and the scheme; %s CPUs, one run\n' \
	"$n" "$agree" "$(nproc)"
printf '%-58s %12s %8s %9s %9s\n' "" "evidences/s" "ratio" "p50 ms" "p99 ms"
row() { printf '%-58s %12.0f %7.2fx %9s %9s\n' "$1" "$2" "$(awk -v a="$2" -v b="$base" 'BEGIN { print a / b }')" \
	"${3:--}" "${4:--}"; }
row "otattest-verify --batch --jobs 1 (baseline)" "$base"
row "otattest-verify --batch --jobs $(nproc)" "$all"
row "otattest scheme in-process (Go), 1 thread" "$inproc"
for c in "${configs[@]}"; do
	read -r st verifiers <<<"$c"
	what="Veraison ($st, $verifiers verification$([ "$verifiers" = 1 ] || echo "s, haproxy"))"
	row "$what, 1 client" "$(rate "${one[$c]}")" "$(ms p50 "${one[$c]}")" "$(ms p99 "${one[$c]}")"
	row "$what, $clients clients" "$(rate "${many[$c]}")" "$(ms p50 "${many[$c]}")" "$(ms p99 "${many[$c]}")"
done
