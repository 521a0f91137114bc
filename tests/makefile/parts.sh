#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The build is one make over every part's build.mk (HACKING.md, "Build
# conventions"). A part whose build.mk is missing must stop the build with
# make's own error naming the file, never vanish from it silently: with
# `-include` a checkout that lost firmware/build.mk still "builds", just
# without firmware, and every suite of that part is dropped from make test.
#  1. no Makefile or build.mk includes a build.mk with -include (sinclude);
#  2. in a copy of the tree (symlinks, nothing in it is changed) that lacks
#     one part's build.mk - a top part, and a suite's under tests/ - make,
#     reading the makefiles (make -q Makefile: nothing is built), fails and
#     names the missing file;
#  3. the same copy with nothing missing reads (so 2 fails for the reason
#     it says).
#   tests/makefile/parts.sh
# Prints one line per check and "N passed, N failed"; exits 1 on failure.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. Every include of a build.mk is strict.
cd "$root"
soft=$(git ls-files 'Makefile' '*.mk' | xargs grep -nE '^[[:space:]]*(-include|sinclude)[[:space:]].*build\.mk' || true)
if [ -z "$soft" ]; then
	ok "every build.mk is included with include (a missing one stops make)"
else
	bad "build.mk files included with -include, dropped silently when missing:"
	printf '     %s\n' "$soft"
fi

# A tree of symlinks to the real one, with the file $1 (a build.mk) left out:
# each directory on the way to it is a directory of symlinks to its entries.
mirror() {
	local t=$1 skip=$2 dir=$root rel="" part
	mkdir -p "$t"
	for e in "$root"/*; do [ "${e##*/}" = build ] || ln -s "$e" "$t/${e##*/}"; done
	[ -n "$skip" ] || return 0
	IFS=/ read -ra parts <<<"$skip"
	for part in "${parts[@]}"; do
		rel=${rel:+$rel/}$part
		rm "$t/$rel"
		[ "$rel" = "$skip" ] && break
		mkdir "$t/$rel"
		for e in "$root/$rel"/* "$root/$rel"/.[!.]*; do
			[ -e "$e" ] && ln -s "$e" "$t/$rel/${e##*/}"
		done
	done
}

# 3 first: the whole copy parses.
mirror "$tmp/whole" ""
if make -q -C "$tmp/whole" Makefile >"$tmp/whole.log" 2>&1; then
	ok "a symlinked copy of the tree reads every build.mk"
else
	bad "a symlinked copy of the whole tree does not parse:"
	tail -5 "$tmp/whole.log" | sed 's/^/     /'
fi

# 2. A missing part stops make and is named.
for part in firmware/build.mk qemu-model/build.mk tests/rv32/build.mk; do
	t=$tmp/no-${part//\//-}
	mirror "$t" "$part"
	if make -q -C "$t" Makefile >"$t.log" 2>&1; then
		bad "make reads the tree without $part and goes on: the part is dropped silently"
	elif grep -q "$part" "$t.log"; then
		ok "without $part make stops: $(grep -m1 "$part" "$t.log" | sed 's/^make[^:]*: //')"
	else
		bad "make failed without $part but did not name it:"
		tail -3 "$t.log" | sed 's/^/     /'
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
