#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libotattest.so exports its API and nothing else (issue 30): every symbol
# it exports is one its installed headers (libotattest/include/otattest)
# declare, every such function the library defines is exported, all in
# the version node OTATTEST_1, no internal symbol (slh_*, otu_*, the
# verifier's caches) is, and debian/libotattest2.symbols (which
# dpkg-gensymbols holds the package to) lists the same names.
# Prints "N passed, N failed".   B= for the build directory.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${B:-build}
suite=lib-symbols
. tests/interop/tap.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
so=$B/libotattest.so
make -s B="$B" "$so" "$B/libotattest-host.a" "$B/libotattest-core.a" >/dev/null || fail_early "cannot build $so"

# name@version of each exported (defined, dynamic) symbol.
objdump -T "$so" | awk '$2 == "g" && $4 != "*UND*" {print $NF "@" $(NF-1)}' | sort -u >"$work/exported"
[ -s "$work/exported" ] || fail_early "$so exports nothing"
sed 's/@.*//' "$work/exported" | grep -vx OTATTEST_1 | sort -u >"$work/names"
# Identifiers the public headers mention, and the library's own global definitions.
cat libotattest/include/otattest/*.h | grep -oE '\b[A-Za-z_][A-Za-z0-9_]*\b' | sort -u >"$work/ids"
nm -g --defined-only "$B/libotattest-host.a" "$B/libotattest-core.a" 2>/dev/null |
	awk 'NF == 3 {print $3}' | sort -u >"$work/defined"
comm -12 "$work/ids" "$work/defined" >"$work/api"

comm -23 "$work/names" "$work/ids" >"$work/d"
ok $([ ! -s "$work/d" ] && echo 0 || echo 1) \
	"every exported symbol is declared in a public header ($(wc -l <"$work/names") exported) $(head -5 "$work/d" | tr '\n' ' ')"
comm -13 "$work/names" "$work/api" >"$work/d"
ok $([ ! -s "$work/d" ] && echo 0 || echo 1) \
	"every public function the library defines is exported ($(wc -l <"$work/api")) $(head -5 "$work/d" | tr '\n' ' ')"
grep -E '^(slh_|otu_|ota_fast_|ota_chain_cache_)' "$work/names" >"$work/d"
ok $([ ! -s "$work/d" ] && echo 0 || echo 1) "no internal symbol exported $(head -5 "$work/d" | tr '\n' ' ')"
grep -v '@OTATTEST_1$' "$work/exported" >"$work/d"
ok $([ ! -s "$work/d" ] && echo 0 || echo 1) "every exported symbol is in version node OTATTEST_1 $(head -5 "$work/d" | tr '\n' ' ')"
# (The SONAME and the package's name: tests/tools/lib-abi.sh.)
sed -n 's/^ \([^@ ]*\)@.*/\1/p' debian/libotattest2.symbols | grep -vx OTATTEST_1 | sort -u >"$work/deb"
diff "$work/names" "$work/deb" >"$work/d"
ok $? "debian/libotattest2.symbols lists exactly the exported names $(head -5 "$work/d" | tr '\n' ' ')"
finish
