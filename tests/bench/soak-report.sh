#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# soak-report.sh OUT WALL RC: the report of one `make soak` run (markdown)
# from the run's out/ directory (build/e2e/soak/out), its wall time in
# seconds and the runner's exit status. tests/bench/soak.sh prints it and
# with --update-docs puts it in docs/performance.md.
set -uo pipefail

out=$1 wall=$2 rc=$3 s=$1/soak
[ -d "$s" ] || { echo "soak-report: no $s" >&2; exit 1; }
. "$out/soak.conf"

readers=("$s"/readers-*.json)
agent=$s/agent.json

echo "One run, $(date -u '+%-d %B %Y'), \`SOAK_SECONDS=$SOAK_SECONDS make soak\`" \
	"(SOAK_CALM=$SOAK_CALM, $SOAK_UIDS reader uids x $SOAK_CLIENTS clients, think $SOAK_THINK s${SOAK_PLANT:+, SOAK_PLANT=$SOAK_PLANT}):" \
	"$([ "$rc" = 0 ] && echo passed || echo "**failed** (exit $rc)") in $((wall / 60)) min $((wall % 60)) s wall time."
echo

echo "**Readers** (answers per operation and class, all uids):"
echo
echo "| operation | ok | named | retried | wrong | unexpected | lost | errors by name |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
if [ -e "${readers[0]}" ]; then
	jq -s -r '
		map(.ops | to_entries[]) | group_by(.key)[] |
		(.[0].key) as $op |
		(map(.value) | {ok: (map(.ok) | add), named: (map(.named) | add), retried: (map(.retried) | add),
			wrong: (map(.wrong) | add), unexpected: (map(.unexpected) | add), lost: (map(.lost) | add),
			verified: (map(.verified // 0) | add),
			errors: (map(.errors | to_entries[]) | group_by(.key) | map({key: (.[0].key | sub(".*\\.";"")), value: (map(.value) | add)}) | from_entries)}) |
		"| \($op)\(if .verified > 0 then " (\(.verified) evidences verified)" else "" end) | \(.ok) | \(.named) | \(.retried) | \(.wrong) | \(.unexpected) | \(.lost) | \(.errors | to_entries | map("\(.key) \(.value)") | join(", ")) |"' \
		"${readers[@]}"
fi
[ -s "$s/rotator.json" ] && jq -r '.ops.rotate | "| RotateTags (rotator) | \(.ok) | \(.named) | \(.retried) | \(.wrong) | \(.unexpected) | \(.lost) | \(.errors | to_entries | map("\(.key | sub(".*\\.";"")) \(.value)") | join(", ")) |"' "$s/rotator.json"
echo
if [ -e "${readers[0]}" ]; then
	echo "**Busy per reader uid** (share of its answers): $(jq -s -r 'map(([.ops[].errors["org.otattest.BootAttest1.Error.Busy"] // 0] | add) as $b |
		(.ok + .named + .retried + .wrong + .unexpected + .lost) as $n | "\($b)/\($n)") | join(", ")' "${readers[@]}");" \
		"highest $(jq -s -r 'map(([.ops[].errors["org.otattest.BootAttest1.Error.Busy"] // 0] | add) * 100 / ([.ok, .named, .retried, .wrong, .unexpected, .lost] | add)) | max | . * 1000 | round / 1000' "${readers[@]}") %."
	echo "Longest time with no right answer to any reader of a uid: $(jq -s -r 'map(.longest_gap_ms) | max' "${readers[@]}") ms."
	echo
fi

if [ -s "$agent" ]; then
	echo "**Update agent** (answers per step and class; a named answer is retried):"
	echo
	echo "| step | ok | named | wrong | unexpected | lost | errors by name |"
	echo "|---|---:|---:|---:|---:|---:|---|"
	jq -r '.answers | to_entries[] | "| \(.key) | \(.value.ok // 0) | \(.value.named // 0) | \(.value.wrong // 0) | \(.value.unexpected // 0) | \(.value.lost // 0) | \(.value.errors | to_entries | map(select(.key != "-")) | map("\(.key) \(.value)") | join(", ")) |"' "$agent"
	echo
	echo "Cycles: $(jq -r '.cycles // 0' "$agent"); done:" \
		"$(jq -r '.steps | "\(.installed // 0) installs acknowledged, \(.trial // 0) trials, \(.committed // 0) commits, \(."trial-left" // 0) trials left (\(."trial-reverted" // 0) reverted by a cold boot, \(."trial-reverted-by-device" // 0) reverted by the device itself), \(."trial-reverted-by-fault" // 0) trials ended by a fault before their commit, \(."trial-reverted-before-commit" // 0) reverted by the device before the agent'"'"'s commit (their boots spent by resets such as tag rotations), \(.ratcheted // 0) ratchets, \(.revoked // 0) signed revocations, \(."revoke-not-raised" // 0) revocations refused as raising nothing (a ratchet had reached their floor)"' "$agent")."
	echo "Steps retried after a named answer: $(jq -r '.retried | to_entries | map("\(.key) \(.value)") | join(", ") | if . == "" then "none" else . end' "$agent")."
	echo "Faults injected: $(jq -r '.faults | to_entries | map("\(.key) \(.value)") | join(", ")' "$agent")" \
		"($(jq -r '[.faults[]] | add // 0' "$agent") in all)."
	echo "Checkpoints judged: $(jq -r .checkpoints "$agent"), each with an evidence verified on the host ($(jq -r '.answers["host-verify"].ok // 0' "$agent") passed," \
		"$(jq -r '.answers["host-verify"].wrong // 0' "$agent") failed). Boot history at the end: $(jq -r '.history_entries // "?"' "$agent") entries."
	[ "$(jq -r '.planted | length' "$agent")" = 0 ] || echo "Planted: $(jq -r '.planted | join(", ")' "$agent")."
	echo "Judge's findings: **$(jq -r .judge_failures "$agent")**."
	if [ -s "$s/judge-failures" ]; then
		echo
		echo '```'
		head -n 20 "$s/judge-failures"
		echo '```'
	fi
	echo
fi

echo "**Memory** (resident set, KiB, sampled; pid in parentheses):"
echo
echo "| minute | otattestd | device process (otattest-model) |"
echo "|---:|---|---|"
awk 'FNR == 1 { f++; t0 = $1 }
	{ m = int(($1 - t0) / 60); v[f, m] = $3 " (" $2 ")"; if (m > max) max = m }
	END { for (i = 0; i <= max; i++) printf "| %d | %s | %s |\n", i, ((1, i) in v) ? v[1, i] : "-", ((2, i) in v) ? v[2, i] : "-" }' \
	"$s/daemon-rss" "$out/model-rss" 2>/dev/null
echo
echo "(the last sample of each minute; minutes from each sampler's start)"
echo
[ -e "${readers[0]}" ] && jq -r --arg max "$SOAK_RSS_KIB" '.rss[] | select(.judged) |
	"otattestd pid \(.pid), seen \(.seen_s) s: \(.settled_kib) KiB 20 s after it appeared, \(.last_kib) KiB at its end: growth \(.growth_kib) KiB (bound \($max) KiB)."' "${readers[0]}" 2>/dev/null
[ -s "$s/model-rss-judged" ] && sed 's/^/Device process: /; s/$/ (bound '"$SOAK_RSS_KIB"' KiB)./' "$s/model-rss-judged"
echo "Kernel log: $([ "$rc" = 0 ] && echo "clean (the e2e runner's check)" || echo "see build/e2e/soak/out/dmesg.log")."
