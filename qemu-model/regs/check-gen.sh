#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The `make test` suite for "the register map is what the descriptions
# generate" (docs/registers.md):
#  1. every file qemu-model/regs/regtool.py writes equals the committed one;
#  2. the comparison sees a change: one register moved and made writable in
#     a copy of a description changes that block's header (the offset, which
#     the model's table takes from it), the model's table (the access type)
#     and the page;
#  3. the generator refuses a description that breaks a rule (two
#     registers at one offset, a reset value outside the fields, a block
#     the top does not place), naming it;
#  4. every generated header compiles on its own for the host and for
#     rv32imc (freestanding, -Werror).
# Prints one line per check and "N passed, N failed"; exits 1 on failure.
#   qemu-model/regs/check-gen.sh     (B= for the build dir; make regs-gen-check)
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
PY=/usr/bin/python3
tool=qemu-model/regs/regtool.py
work=$(realpath -m "$B/regs-gen-check")
rm -rf "$work"
mkdir -p "$work"
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

mapfile -t outputs < <($PY $tool outputs)
if [ "${#outputs[@]}" -lt 4 ]; then
	bad "regtool.py outputs listed ${#outputs[@]} files"
fi

# 1. Committed = generated.
if $PY $tool generate "$work/gen" >"$work/gen.log" 2>&1; then
	stale=()
	for f in "${outputs[@]}"; do
		diff -u "$f" "$work/gen/$f" >>"$work/diff.log" 2>&1 || stale+=("$f")
	done
	if [ ${#stale[@]} -eq 0 ]; then
		ok "${#outputs[@]} files are what qemu-model/regs/*.yaml generate"
	else
		bad "differ from what the descriptions generate (make regs-gen): ${stale[*]}"
		head -40 "$work/diff.log" | sed 's/^/     /'
	fi
else
	bad "the generator failed: $(cat "$work/gen.log")"
fi

# A copy of the descriptions, $1 applied to one file with sed.
variant() {
	local dir=$work/$1 file=$2 expr=$3
	mkdir -p "$dir/src"
	cp qemu-model/regs/*.yaml "$dir/src/"
	sed -i "$expr" "$dir/src/$file"
	! cmp -s "qemu-model/regs/$file" "$dir/src/$file"
}

# 2. A moved register changes every output that carries it.
if variant moved hmac.yaml 's/^    offset: 0x14$/    offset: 0x1c/; s/^    offset: 0x0c$/    offset: 0x14/;
	/name: ERR_CODE/,/access:/s/access: ro/access: rw/' &&
	$PY $tool generate "$work/moved/out" "$work/moved/src" >"$work/moved.log" 2>&1; then
	for f in qemu-model/regs/hmac_regs.h qemu-model/chip/regs_gen.c docs/registers.md; do
		if cmp -s "$f" "$work/moved/out/$f"; then
			bad "moving hmac's ERR_CODE and making it rw leaves $f as committed: the check would miss it"
		else
			ok "moving hmac's ERR_CODE and making it rw changes $f"
		fi
	done
else
	bad "could not generate from the moved description: $(cat "$work/moved.log" 2>/dev/null)"
fi

# 3. Descriptions that break a rule are refused, by name.
refused() {
	local name=$1 want=$2
	if $PY $tool generate "$work/$name/out" "$work/$name/src" >"$work/$name.log" 2>&1; then
		bad "$name: the generator accepted it"
	elif grep -q "$want" "$work/$name.log"; then
		ok "$name refused: $(head -1 "$work/$name.log")"
	else
		bad "$name refused without naming it: $(cat "$work/$name.log")"
	fi
}
variant overlap kmac.yaml 's/^    offset: 0x0c$/    offset: 0x08/' && refused overlap "kmac.yaml: .*overlaps"
variant resetbits rstmgr.yaml '0,/^    access: rw$/s//    access: rw\n    reset: 0x100/' &&
	refused resetbits "rstmgr.yaml: register RESET_REQ: reset 0x100 has bits outside the fields"
variant unplaced top.yaml '/name: rom_ctrl, base/d' && refused unplaced "block rom_ctrl is described but not placed"

# 4. The headers stand alone, on the host and on rv32imc.
hdrs=0 hdr_bad=()
for f in "${outputs[@]}"; do
	case $f in *.h) ;; *) continue ;; esac
	hdrs=$((hdrs + 1))
	printf '#include "%s"\n' "${f##*/}" >"$work/one.c"
	cc -std=gnu11 -Wall -Wextra -Werror -Iqemu-model/regs -fsyntax-only "$work/one.c" 2>>"$work/cc.log" &&
		riscv64-unknown-elf-gcc --specs=picolibc.specs -march=rv32imc -mabi=ilp32 -ffreestanding \
			-std=gnu11 -Wall -Wextra -Werror -Iqemu-model/regs -fsyntax-only "$work/one.c" 2>>"$work/cc.log" ||
		hdr_bad+=("$f")
done
if [ ${#hdr_bad[@]} -eq 0 ] && [ "$hdrs" -gt 0 ]; then
	ok "$hdrs generated headers compile alone for the host and rv32imc"
else
	bad "headers that do not compile alone: ${hdr_bad[*]}"
	head -20 "$work/cc.log" | sed 's/^/     /'
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
