#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One version number from one place (issue 30): debian/changelog's upstream
# version (mk/common.mk) is what otattestctl, otattestd, otattest-verify
# and otimage --version print, what otattest.pc says, and what every man
# page's header names. (D-Bus's Version property: e2e daemon-unit.)
# Prints "N passed, N failed".   B= for the build directory.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${B:-build}
suite=version
. tests/interop/tap.sh
want=$(dpkg-parsechangelog -l debian/changelog -S Version 2>/dev/null | sed 's/-[^-]*$//')
[ -n "$want" ] || fail_early "debian/changelog: no version"
mans=$(cd docs/man && ls)
# shellcheck disable=SC2086 # one word per page
make -s B="$B" "$B/otattestctl" "$B/otattestd" "$B/otattest-verify" "$B/otimage" "$B/otattest.pc" \
	$(printf "$B/man/%s " $mans) >/dev/null || fail_early "cannot build"

for tool in otattestctl otattestd otattest-verify otimage; do
	got=$("$B/$tool" --version 2>&1)
	[ "$got" = "$tool $want" ]
	ok $? "$tool --version prints '$tool $want' (got '$got')"
done
got=$(PKG_CONFIG_PATH=$B pkg-config --modversion otattest 2>&1)
[ "$got" = "$want" ]
ok $? "pkg-config --modversion otattest: $want (got '$got')"
for m in $mans; do
	th=$(grep -m1 '^\.TH ' "$B/man/$m")
	case "$th" in *"\"otattest $want\""*) r=0 ;; *) r=1 ;; esac
	ok $r "$m names otattest $want ($th)"
	grep -q '@VERSION@' "$B/man/$m"
	ok $((! $?)) "$m as built has no @VERSION@ left"
done
finish
