#!/usr/bin/env bash
# The firmware and libotattest core are freestanding: no heap, no libc
# beyond mem*/str*, hardware only through firmware/include/hal.h, and they
# build for rv32imc -Os (DESIGN.md; HACKING.md). `make size` builds them
# that way but nothing else looks at the result, so this suite does:
#  1. `make size` passes: every object compiles for rv32imc and the
#     delegation verifier with its containment check is within 2048 bytes,
#     and with its policy checks and DLGC/DLGS parsing within 3584;
#  2. every symbol the objects use and do not define is a HAL entry point
#     declared in hal.h, an address the linker scripts define, a routine of
#     the start-up code (firmware/base/*.S) or a libgcc helper: no malloc,
#     printf, OpenSSL...;
#  3. the mem*/str* they use are the ones firmware/lib/rv32_libc.c defines;
#  4. every object has a dependency file, so a header change rebuilds it;
#  5. writable data is zero-initialised and named at file scope (no
#     function-local statics), so a stage image gives each a RAM home.
# Prints one line per check and "N passed, N failed"; exits 1 on failure.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
NM=${RV32_NM:-riscv64-unknown-elf-nm}
RV32_OBJDUMP=${RV32_OBJDUMP:-riscv64-unknown-elf-objdump}
# Integer helpers gcc may call for 64-bit arithmetic on rv32 (libgcc).
LIBGCC='^__(ashl|ashr|lshr|mul|div|udiv|mod|umod|clz|ctz|popcount|bswap)[sd]i[23]$'

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

if ! command -v "$NM" >/dev/null; then
	echo "rv32: $NM is not installed (run: make deps)"
	echo "0 passed, 1 failed"
	exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if make -s B="$B" size >"$work/size" 2>&1; then
	ok "make size: every module builds for rv32imc -Os"
else
	bad "make size failed:"
	sed 's/^/     /' "$work/size"
fi
if grep -q '^delegation verifier .*budget 2048: ok)$' "$work/size"; then
	ok "$(grep '^delegation verifier' "$work/size" | tr -s ' ')"
else
	bad "delegation verifier not within its 2048-byte budget: $(grep '^delegation verifier' "$work/size")"
fi
if grep -q '^delegation with policy and parsing .*budget 3584: ok)$' "$work/size"; then
	ok "$(grep '^delegation with policy' "$work/size" | tr -s ' ')"
else
	bad "delegation with its policy checks and parsing not within 3584 bytes: $(grep '^delegation with' "$work/size")"
fi

make -s B="$B" rv32-objs >"$work/objs"
mapfile -t objs <"$work/objs"
missing=0 nodep=0
for o in "${objs[@]}"; do
	[ -f "$o" ] || missing=$((missing + 1))
	[ -f "${o%.o}.d" ] || nodep=$((nodep + 1))
done
if [ "${#objs[@]}" -gt 0 ] && [ "$missing" -eq 0 ]; then
	ok "${#objs[@]} rv32 objects"
else
	bad "rv32 objects: ${#objs[@]} listed, $missing missing"
fi
# 4. A header change rebuilds the rv32 objects that include it, so `make
#    size` never measures an object compiled against an older header: each
#    object has a dependency file, and make, told the header is new (-W,
#    nothing is touched), would recompile an object of each stage.
if [ "$nodep" -eq 0 ]; then
	ok "every rv32 object has a dependency file"
else
	bad "$nodep of ${#objs[@]} rv32 objects have no dependency file (-MMD)"
fi
for pair in firmware/include/hal/keymgr.h:firmware/lib/tag firmware/include/hal/mbox.h:firmware/runtime/attest \
	libotattest/include/otattest/sha256.h:libotattest/src/core/sha256; do
	hdr=${pair%%:*} obj=$B/rv32/${pair#*:}.o
	if make -n -W "$hdr" B="$B" "$obj" 2>&1 | grep -q -- "-c -o $obj "; then
		ok "a newer $hdr rebuilds $obj"
	else
		bad "$obj would not be rebuilt after a change to $hdr: make size would measure a stale object"
	fi
done

# 5. Every writable object has a RAM home a linked stage image can give it:
#    zero-initialised (.bss/.sbss, which start-up code clears; no .data the
#    image would have to carry and copy) and named at file scope, never a
#    function-local static (gcc names those NAME.N, and their state would
#    outlive the call the way no hand-off in handoff.h is meant to).
"$RV32_OBJDUMP" -h "${objs[@]}" 2>/dev/null | awk '
	/file format/ { obj = $1; sub(/:$/, "", obj) }
	$2 ~ /^\.(s?data|s?bss)/ { print obj, $2, $3 }' >"$work/writable"
initdata=$(awk '$2 ~ /^\.s?data/ && $3 !~ /^0+$/ { print $1 ":" $2 }' "$work/writable" | tr '\n' ' ')
locals=$(awk '$2 ~ /^\.s?bss\..*\.[0-9]+$/ { print $1 ":" $2 }' "$work/writable" | tr '\n' ' ')
if [ ! -s "$work/writable" ]; then
	bad "no writable sections read from the rv32 objects ($RV32_OBJDUMP)"
elif [ -n "$initdata" ]; then
	bad "initialised writable data (start-up code would have to copy it): $initdata"
else
	ok "writable data is zero-initialised only (.bss/.sbss: $(awk '$3 !~ /^0+$/' "$work/writable" | wc -l) objects)"
fi
if [ -z "$locals" ]; then
	ok "no function-local statics: every RAM object is named at file scope"
else
	bad "function-local statics (give each a file-scope name): $locals"
fi

"$NM" -u "${objs[@]}" 2>/dev/null | awk 'NF == 2 { print $2 }' | sort -u >"$work/used"
"$NM" --defined-only "${objs[@]}" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u >"$work/defined"
comm -23 "$work/used" "$work/defined" >"$work/external"
# HAL entry points are the functions hal.h and its per-block headers declare.
grep -ohE '\bhal_[a-z0-9_]+\(' firmware/include/hal.h firmware/include/hal/*.h | tr -d '(' | sort -u >"$work/hal"
# And the addresses the stages' linker scripts define (firmware/base/*.ld:
# the stage windows firmware/lib/stage_place.c copies code into).
grep -ohE '^[[:space:]]*__[a-z0-9_]+[[:space:]]*=' firmware/base/*.ld | tr -d ' \t=' | sort -u >>"$work/hal"
# And what firmware/base's start-up code defines (crt0.S, jump.S: the hand-off).
grep -ohE '^[[:space:]]*\.global[[:space:]]+[a-z_][a-z0-9_]*' firmware/base/*.S | awk '{ print $2 }' >>"$work/hal"
grep -vxFf "$work/hal" "$work/external" | grep -vE "$LIBGCC" >"$work/foreign"
if [ -s "$work/foreign" ]; then
	bad "symbols outside hal.h, the linker scripts, the start-up code and libgcc: $(tr '\n' ' ' <"$work/foreign")"
else
	ok "external symbols are hal.h entry points, linker-script addresses, start-up routines and libgcc helpers only ($(wc -l <"$work/external") in all)"
fi
if grep -qE '^(malloc|calloc|realloc|free|printf|fprintf|snprintf|puts|abort|exit|EVP_.*|OPENSSL_.*)$' "$work/used"; then
	bad "heap, stdio or OpenSSL used: $(grep -E '^(malloc|calloc|realloc|free|printf|fprintf|snprintf|puts|abort|exit|EVP_.*|OPENSSL_.*)$' "$work/used" | tr '\n' ' ')"
else
	ok "no heap, no stdio, no OpenSSL"
fi
libc_used=$(grep -E '^(mem|str)[a-z]+$' "$work/used" | tr '\n' ' ')
libc_ours=$("$NM" --defined-only "$B/rv32/firmware/lib/rv32_libc.o" | awk '$2 == "T" { print $3 }' | sort -u | tr '\n' ' ')
undefined_libc=$(grep -E '^(mem|str)[a-z]+$' "$work/external" | tr '\n' ' ')
if [ -z "$undefined_libc" ]; then
	ok "mem*/str* used ($libc_used) are defined by rv32_libc.c ($libc_ours)"
else
	bad "mem*/str* used but not defined for rv32: $undefined_libc"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
