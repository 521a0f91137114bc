#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# libotattest.so's ABI against its committed baseline (libabigail): the
# public structs' layouts and the exported functions' signatures, which
# dpkg-gensymbols (names only) cannot see.
#  - the SONAME is libotattest.so.N for libotattest/build.mk's
#    LIBOTA_SOVERSION, and the Debian runtime package is libotattestN;
#  - abidiff finds no difference at all between the build and
#    libotattest/abi/libotattest.so.N.abi (else: `make abi-baseline`);
#  - nor anything but additions against that baseline as first committed
#    (an incompatible change needs a new SONAME, not a new baseline);
#  - the check can fail: a copy of the library built with a field added to
#    struct ota_otp_info is reported by abidiff, `make abi-baseline`'s
#    script refuses it under the same SONAME and takes it under a new one.
# Prints "N passed, N failed".   B= for the build directory.
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${B:-build}
suite=lib-abi
. tests/interop/tap.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
so=$B/libotattest.so
command -v abidiff >/dev/null || fail_early "abidiff is missing (abigail-tools; make deps)"
make -s B="$B" "$so" >/dev/null || fail_early "cannot build $so"

n=$(sed -n 's/^LIBOTA_SOVERSION := \([0-9][0-9]*\)$/\1/p' libotattest/build.mk)
[ -n "$n" ] || fail_early "libotattest/build.mk: no LIBOTA_SOVERSION"
soname=libotattest.so.$n
baseline=libotattest/abi/$soname.abi
[ "$(objdump -p "$so" | awk '$1 == "SONAME" {print $2}')" = "$soname" ]
ok $? "$so's SONAME is $soname (LIBOTA_SOVERSION $n)"

# The runtime package is named for the SONAME (Debian policy 8.1), and
# nothing of another one is left in debian/.
pkgs=$(sed -n 's/^Package: \(libotattest[0-9][0-9]*\)$/\1/p' debian/control)
[ "$pkgs" = "libotattest$n" ] &&
	[ "$(head -n1 "debian/libotattest$n.symbols" 2>/dev/null)" = "$soname libotattest$n #MINVER#" ] &&
	grep -qx "usr/lib/\${DEB_HOST_MULTIARCH}/$soname\*" "debian/libotattest$n.install" 2>/dev/null &&
	grep -q "^Depends: libotattest$n (= \${binary:Version})" debian/control &&
	[ "$(find debian -maxdepth 1 -name 'libotattest[0-9]*' ! -name "libotattest$n.*" | wc -l)" = 0 ]
ok $? "debian/: the runtime package is libotattest$n (control: '$(echo $pkgs)'), its symbols and install files name $soname, libotattest-dev depends on it"

# The baseline and the build, described the same way.
[ -f "$baseline" ] && grep -q "soname='$soname'" "$baseline"
ok $? "$baseline exists and describes $soname"
grep -q "name='ota_otp_info'" "$baseline" && grep -q "name='ota_verdict'" "$baseline" &&
	grep -q "name='ota_verify_evidence'" "$baseline"
ok $? "the baseline describes the public structs (ota_otp_info, ota_verdict) and functions (ota_verify_evidence)"
scripts/lib-abi.sh dump "$so" "$work/now.abi" || fail_early "abidw failed on $so"
abidiff "$baseline" "$work/now.abi" >"$work/d" 2>&1
rc=$?
[ "$rc" = 0 ] || sed 's/^/    /' "$work/d" | head -60
ok $rc "abidiff: $so is $baseline's ABI (exit $rc; a deliberate change: make abi-baseline)"
from=$(scripts/lib-abi.sh reference "$soname" "$work/ref.abi") || fail_early "no reference for $soname"
abidiff --no-added-syms "$work/ref.abi" "$work/now.abi" >"$work/d" 2>&1
rc=$?
[ "$rc" = 0 ] || sed 's/^/    /' "$work/d" | head -60
ok $rc "abidiff: nothing but additions since $soname's first baseline ($from; exit $rc; an incompatible change needs a new SONAME)"

# The check can fail. A copy of the public headers with a field added at
# the start of struct ota_otp_info (ota_otp_decode's and
# ota_anchors_bl0's argument), the library built from it (CPPFLAGS from the
# environment come before the tree's -I).
mkdir -p "$work/inc"
cp -r libotattest/include/otattest "$work/inc/"
sed -i '/^struct ota_otp_info {$/a\	uint32_t abi_test_added;' "$work/inc/otattest/otp.h"
grep -q abi_test_added "$work/inc/otattest/otp.h" || fail_early "could not mutate struct ota_otp_info"
CPPFLAGS="-I$work/inc" make -s B="$work/b" "$work/b/libotattest.so" >"$work/build.log" 2>&1 ||
	{ tail -20 "$work/build.log"; fail_early "cannot build the mutated library"; }
export LIB_ABI_HEADERS=$work/inc/otattest LIB_ABI_DIR=$work/abi
scripts/lib-abi.sh dump "$work/b/libotattest.so" "$work/mut.abi" || fail_early "abidw failed on the mutated library"
abidiff "$baseline" "$work/mut.abi" >"$work/d" 2>&1
rc=$?
[ $((rc & 4)) = 4 ] && grep -q "struct ota_otp_info" "$work/d" && grep -q "type size changed" "$work/d" &&
	grep -q "'uint32_t abi_test_added', at offset 0" "$work/d"
ok $? "a field added to struct ota_otp_info: abidiff reports the size and the new member (exit $rc)"
abidiff --no-added-syms "$work/ref.abi" "$work/mut.abi" >/dev/null 2>&1
rc=$?
[ "$rc" != 0 ]
ok $? "...and it is not an addition: the first-baseline check fails on it (exit $rc)"
mkdir -p "$work/abi"
cp "$baseline" "$work/abi/"
scripts/lib-abi.sh update "$work/b/libotattest.so" >"$work/out" 2>&1
rc=$?
[ "$rc" = 1 ] && grep -q "incompatible with $soname" "$work/out" && cmp -s "$baseline" "$work/abi/$soname.abi"
ok $? "make abi-baseline's script refuses it under $soname and leaves the baseline (exit $rc)"
m=$((n + 1))
rm -f "$work/b/libotattest.so"
CPPFLAGS="-I$work/inc" make -s B="$work/b" LIBOTA_SOVERSION="$m" "$work/b/libotattest.so" >>"$work/build.log" 2>&1 ||
	fail_early "cannot relink the mutated library as libotattest.so.$m"
scripts/lib-abi.sh update "$work/b/libotattest.so" >"$work/out" 2>&1
rc=$?
[ "$rc" = 0 ] && [ -f "$work/abi/libotattest.so.$m.abi" ] && [ ! -e "$work/abi/$soname.abi" ] &&
	grep -q "soname='libotattest.so.$m'" "$work/abi/libotattest.so.$m.abi" &&
	grep -q "name='abi_test_added'" "$work/abi/libotattest.so.$m.abi"
ok $? "...and writes it as libotattest.so.$m.abi once the SONAME is bumped, removing $soname.abi (exit $rc)"
finish
