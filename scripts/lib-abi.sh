#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libotattest.so's ABI baseline, with libabigail (abidw, abidiff; Debian's
# abigail-tools). The baseline is libotattest/abi/<SONAME>.abi: abidw's
# description of the library's exported functions and the public types
# they reach (types defined in libotattest/include/otattest only).
#
#   scripts/lib-abi.sh dump SO OUT     describe SO in OUT (abixml)
#   scripts/lib-abi.sh reference SONAME OUT
#                                      OUT := the baseline SONAME had when it
#                                      was first committed (git), or the
#                                      working tree's if it never was; prints
#                                      where it came from
#   scripts/lib-abi.sh update SO       (make abi-baseline) rewrite SO's
#                                      baseline; refused when SO is
#                                      incompatible with that reference
#                                      (anything but added functions or
#                                      variables): bump the SONAME instead
#
# LIB_ABI_HEADERS: the public headers' directory SO was built with
# (default libotattest/include/otattest). LIB_ABI_DIR: where `update`
# writes (default libotattest/abi; tests/tools/lib-abi.sh points it at a
# scratch directory). docs/packaging.md, "The library's ABI".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
headers=${LIB_ABI_HEADERS:-$root/libotattest/include/otattest}
dir=${LIB_ABI_DIR:-$root/libotattest/abi}

command -v abidw >/dev/null && command -v abidiff >/dev/null ||
	{ echo "lib-abi: abidw and abidiff are missing (Debian: apt-get install abigail-tools; make deps)" >&2; exit 2; }

# No paths, locations or build directories in the file: it changes only
# when the ABI does. Type ids are hashes, stable from one dump to the next.
dump() { # so out
	abidw --headers-dir "$headers" --drop-private-types --no-corpus-path \
		--no-comp-dir-path --no-show-locs --type-id-style hash --out-file "$2" "$1"
}

soname_of() {
	objdump -p "$1" | awk '$1 == "SONAME" {print $2}'
}

reference() { # soname out
	local rel=libotattest/abi/$1.abi first
	first=$(git -C "$root" log --diff-filter=A --format=%H -- "$rel" 2>/dev/null | tail -n1)
	if [ -n "$first" ]; then
		git -C "$root" show "$first:$rel" >"$2"
		echo "commit ${first:0:12}"
	elif [ -f "$root/$rel" ]; then
		cp "$root/$rel" "$2"
		echo "working tree (not committed yet)"
	else
		return 1
	fi
}

case ${1:-} in
dump)
	[ $# = 3 ] || { echo "usage: scripts/lib-abi.sh dump SO OUT" >&2; exit 2; }
	dump "$2" "$3"
	;;
reference)
	[ $# = 3 ] || { echo "usage: scripts/lib-abi.sh reference SONAME OUT" >&2; exit 2; }
	reference "$2" "$3"
	;;
update)
	[ $# = 2 ] || { echo "usage: scripts/lib-abi.sh update SO" >&2; exit 2; }
	so=$2
	soname=$(soname_of "$so")
	case $soname in
	libotattest.so.[0-9]*) ;;
	*) echo "lib-abi: $so has no libotattest SONAME ('$soname')" >&2; exit 2 ;;
	esac
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	dump "$so" "$tmp/new.abi"
	if from=$(reference "$soname" "$tmp/ref.abi"); then
		rc=0
		abidiff --no-added-syms "$tmp/ref.abi" "$tmp/new.abi" >"$tmp/diff" 2>&1 || rc=$?
		if [ $((rc & 3)) != 0 ]; then
			cat "$tmp/diff" >&2
			echo "lib-abi: abidiff failed (exit $rc)" >&2
			exit 2
		fi
		if [ "$rc" != 0 ]; then
			cat "$tmp/diff" >&2
			echo "lib-abi: $so is incompatible with $soname's ABI as first committed ($from):" \
				"not written. Bump LIBOTA_SOVERSION in libotattest/build.mk and rename the" \
				"runtime package (docs/packaging.md, \"The library's ABI\")" >&2
			exit 1
		fi
	fi
	mkdir -p "$dir"
	for old in "$dir"/libotattest.so.*.abi; do
		[ -e "$old" ] && [ "$old" != "$dir/$soname.abi" ] && rm -v "$old"
	done
	mv "$tmp/new.abi" "$dir/$soname.abi"
	echo "lib-abi: wrote $dir/$soname.abi"
	;;
*)
	sed -n '3,22s/^# \{0,1\}//p' "$0" >&2
	exit 2
	;;
esac
