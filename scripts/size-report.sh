#!/usr/bin/env bash
# Print rv32imc -Os .text bytes per freestanding module (object file).
# usage: size-report.sh <rv32-build-dir> <objects...>
set -euo pipefail
root=$1; shift
size=${RV32_SIZE:-riscv64-unknown-elf-size}
printf '%-48s %8s\n' "module (rv32imc -Os)" ".text"
total=0
for o in "$@"; do
	t=$(LC_ALL=C "$size" -A "$o" | awk '$1 ~ /^\.text/ {s += $2} END {print s + 0}')
	total=$((total + t))
	printf '%-48s %8d\n' "${o#"$root"/}" "$t"
done
printf '%-48s %8d\n' "total" "$total"
