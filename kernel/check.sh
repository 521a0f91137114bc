#!/usr/bin/env bash
# make kernel-check: build otattest.ko with W=1 (the kernel's extra
# compiler warnings) and C=2 (sparse on every file, not only rebuilt ones)
# in a scratch directory, and fail on any warning or error either prints.
#   kernel/check.sh KDIR SRCDIR INCLUDEDIR [OUTDIR]
set -euo pipefail
kdir=$1 src=$2 inc=$3 out=${4:-$(mktemp -d)}
rm -rf "$out"
mkdir -p "$out"
for f in "$src"/*.c "$src"/*.h "$src"/Kbuild; do
	ln -s "$f" "$out/"
done
ln -s "$inc" "$out/uapi" # <uapi/otattest/genl.h> (see Kbuild)
log=$out/check.log
# A make above this script (make -jN test-kernel-debug) hands its jobserver
# down through MAKEFLAGS; kbuild's own make then warns that it cannot use
# it, and that line would fail the check. The check runs its own make.
unset MAKEFLAGS MFLAGS MAKELEVEL
if ! make -C "$kdir" M="$out" OTATTEST_INCLUDE="$inc" W=1 C=2 modules >"$log" 2>&1; then
	cat "$log"
	echo "kernel-check: build failed"
	exit 1
fi
if grep -E "warning:|error:" "$log"; then
	echo "kernel-check: FAILED: W=1 or sparse reported the lines above"
	exit 1
fi
sparse_runs=$(grep -c "^  CHECK " "$log" || true)
echo "kernel-check: W=1 and sparse clean ($sparse_runs files checked by sparse)"
