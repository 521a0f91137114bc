#!/usr/bin/env bash
# Sum the rv32imc -Os .text of a group of objects and hold it to a budget.
# usage: size-budget.sh "<name>" <budget-bytes> <objects...>
# Exits 1 when the group is over budget (make size fails then).
set -euo pipefail
name=$1 budget=$2; shift 2
size=${RV32_SIZE:-riscv64-unknown-elf-size}
total=0
for o in "$@"; do
	t=$(LC_ALL=C "$size" -A "$o" | awk '$1 ~ /^\.text/ {s += $2} END {print s + 0}')
	total=$((total + t))
done
verdict=ok
[ "$total" -le "$budget" ] || verdict=OVER
printf '%-48s %8d  (budget %d: %s)\n' "$name" "$total" "$budget" "$verdict"
[ "$verdict" = ok ]
