#!/bin/bash
# SPDX-License-Identifier: MIT
# Veraison's arc (the EAR command-line tool of github.com/veraison/ear),
# built from the Go module proxy at the version tests/interop/arc/go.mod
# pins (go.sum holds every dependency; GOFLAGS=-mod=readonly refuses to
# change either). `go install ...@version` is not used: it asks the proxy
# for the module's version list, which the proxy here refuses (403).
#
# Cached outside the tree, under $ARC_CACHE (/var/cache/otattest/arc):
#   <version>-<digest>/arc   the binary; digest: go.mod, go.sum, this script
# A run that finds the binary builds nothing. First run: about 1 minute
# (the module downloads and the build on 2 shared cores); then nothing.
#
# Usage: scripts/arc-build.sh [--print-path]
#   --print-path  print the binary's path (building first if needed) and nothing else
set -euo pipefail

ARC_CACHE=${ARC_CACHE:-/var/cache/otattest/arc}
root=$(cd "$(dirname "$0")/.." && pwd)
mod=$root/tests/interop/arc

quiet=0
[ "${1:-}" = --print-path ] && quiet=1
say() { [ "$quiet" = 1 ] || echo "arc-build: $*"; }

command -v go >/dev/null || { echo "arc-build: no Go toolchain (go) on PATH" >&2; exit 1; }
version=$(cd "$mod" && GOFLAGS=-mod=readonly go list -m -f '{{.Version}}' github.com/veraison/ear)
digest=$(cat "$mod/go.mod" "$mod/go.sum" "$root/scripts/arc-build.sh" | sha256sum | cut -c1-16)
dir=$ARC_CACHE/$version-$digest
bin=$dir/arc

if [ ! -x "$bin" ]; then
	mkdir -p "$dir"
	exec 9>"$dir/lock"
	flock 9
	if [ ! -x "$bin" ]; then
		say "building Veraison's arc $version into $dir"
		if ! (cd "$mod" && GOFLAGS=-mod=readonly go build -trimpath -o "$bin.tmp" \
			github.com/veraison/ear/arc) >"$dir/build.log" 2>&1; then
			echo "arc-build: go build failed: $dir/build.log" >&2
			tail -5 "$dir/build.log" >&2
			exit 1
		fi
		mv "$bin.tmp" "$bin"
	fi
fi
if [ "$quiet" = 1 ]; then echo "$bin"; else say "up to date: $bin"; fi
