#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build the Debian packages (debian/) from the tree's files, the way
# `make deb` does: dpkg-buildpackage -b, unsigned, then lintian.
#   scripts/deb-build.sh OUT            packages in OUT/ (lintian's report
#                                       in OUT/lintian.txt; fails on any
#                                       lintian error or warning)
#   scripts/deb-build.sh --upgrade OUT  also OUT/upgrade/: the same source
#                                       one Debian revision later (a
#                                       changelog entry added), built on
#                                       the first build's objects
#   scripts/deb-build.sh --cached [--upgrade]
#                                       the same, into DEB_CACHE (default
#                                       /var/cache/otattest/deb/) under
#                                       the digest of the tree's files
#                                       (less tests/, scripts/, *.md) and the
#                                       build tools: built once per tree;
#                                       prints the directory
# dpkg-buildpackage writes beside the source, so the build runs in a copy
# (OUT/src/otattest: the files git tracks or would add).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
upgrade=0 cached=0
while [ $# -gt 0 ]; do
	case $1 in
	--upgrade) upgrade=1 ;;
	--cached) cached=1 ;;
	-*) echo "deb-build: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
if [ $cached = 1 ]; then
	# What the packages are built from: every file but the tests, the
	# scripts (the completion excepted) and the Markdown documents (make
	# reads tests/build.mk, builds nothing of it).
	digest=$( { { git ls-files -z -co --exclude-standard -- . ':!tests' ':!scripts' ':!*.md'
		git ls-files -z -co --exclude-standard -- scripts/completion; } | sort -z | xargs -0 sha256sum
		dpkg-query -W debhelper dh-dkms lintian dpkg-dev gcc; go version; echo "upgrade=$upgrade"; } |
		sha256sum | cut -c1-16)
	out=${DEB_CACHE:-/var/cache/otattest/deb}/$digest
	# One build per digest: a second caller (an e2e run beside make
	# test's tests/tools/deb.sh) waits for it and takes its result.
	mkdir -p "${out%/*}"
	exec 9>"$out.lock"
	flock 9
	if [ ! -f "$out/ok" ]; then
		rm -rf "$out"
		args=()
		[ $upgrade = 1 ] && args+=(--upgrade)
		"$0" "${args[@]}" "$out" >&2
		touch "$out/ok"
	fi
	echo "$out"
	exit 0
fi
out=${1:?usage: deb-build.sh [--upgrade] OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$out/src/otattest
rm -rf "$out/src" && mkdir -p "$src"
git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$src"
start=$(date +%s)
(cd "$src" && dpkg-buildpackage -b -us -uc -j"$(nproc)")
echo "deb-build: dpkg-buildpackage took $(($(date +%s) - start)) s"
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out"/
lintian --fail-on none --tag-display-limit 0 "$out"/*.changes >"$out/lintian.txt" 2>&1
if grep -E '^[EW]: ' "$out/lintian.txt" >&2; then
	echo "deb-build: lintian reports errors or warnings ($out/lintian.txt)" >&2
	exit 1
fi
if [ $upgrade = 1 ]; then
	# The same source, one revision later: a changelog entry on top, the
	# objects of the first build reused (-nc: no clean).
	ver=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)
	{
		printf 'otattest (%s+1) unstable; urgency=medium\n\n  * Rebuild (e2e deb-lifecycle: an upgrade of the same source).\n\n' "$ver"
		printf ' -- otattest developers <otattest@example.org>  %s\n\n' "$(date -R)"
		cat "$src/debian/changelog"
	} >"$src/debian/changelog.new"
	mv "$src/debian/changelog.new" "$src/debian/changelog"
	rm -f "$src/debian/files" # the first build's list, which -nc would keep
	(cd "$src" && dpkg-buildpackage -b -us -uc -nc -j"$(nproc)")
	mkdir -p "$out/upgrade"
	mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out/upgrade/"
fi
rm -rf "$out/src"
ls "$out"/*.deb
