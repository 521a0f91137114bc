#!/usr/bin/env bash
# The `make test` suite for "clean under W=1 and sparse": kernel/check.sh
# on otattest.ko must pass against each kernel series the guest boots
# (Debian 12's 6.1 and 6.12; the debug kernel's check is the first step of
# tests/e2e/kernel-debug.sh, also in make test, which builds that kernel
# when it is not cached), and,
# so that a pass means something, the same check must fail on two scratch
# modules that each carry one defect only that tool reports (a W=1-only
# warning; a sparse-only address-space error). Prints "N passed, N failed";
# exits non-zero on any failure.
#   kernel/check-suite.sh        (from the top of the tree; B= for the build dir)
set -uo pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
kdir=$(scripts/kernel-version.sh --headers) || exit 1
work=$(realpath -m "$B/kernel/check-suite")
rm -rf "$work"
mkdir -p "$work"
. kernel/suite-lib.sh

# 0. The module against the other series (docs/kernel-abi.md, "Two kernel series").
for k in 6.12; do
	if ! kd=$(scripts/kernel-version.sh --kernel "$k" --headers 2>"$work/kdir-$k.out"); then
		result FAIL "no $k kernel headers" "$work/kdir-$k.out"
	elif kernel/check.sh "$kd" "$PWD/kernel" "$PWD/libotattest/include" "$work/otattest-$k" \
		>"$work/otattest-$k.out" 2>&1; then
		result OK "otattest.ko on $k ($(scripts/kernel-version.sh --kernel "$k")): $(tail -n1 "$work/otattest-$k.out")"
	else
		result FAIL "otattest.ko is not W=1 and sparse clean on $k" "$work/otattest-$k.out"
	fi
done

# A scratch module in $work/$1 whose only source is stdin.
scratch() {
	mkdir -p "$work/$1"
	cat >"$work/$1/scratch.c"
	echo 'obj-m := scratch.o' >"$work/$1/Kbuild"
}

# 1. The module itself.
if kernel/check.sh "$kdir" "$PWD/kernel" "$PWD/libotattest/include" "$work/otattest" \
	>"$work/otattest.out" 2>&1; then
	result OK "otattest.ko on 6.1 ($(scripts/kernel-version.sh)): $(tail -n1 "$work/otattest.out")"
else
	result FAIL "otattest.ko is not W=1 and sparse clean" "$work/otattest.out"
fi

# 2. W=1 is really on: a global function without a prototype
#    (-Wmissing-prototypes, which only W=1 enables).
scratch w1 <<'EOF'
#include <linux/module.h>
int otattest_check_no_prototype(void) { return 0; }
MODULE_LICENSE("GPL");
EOF
if kernel/check.sh "$kdir" "$work/w1" /nonexistent "$work/w1-out" >"$work/w1.out" 2>&1; then
	result FAIL "check.sh passed a module with a W=1 warning" "$work/w1.out"
elif grep -q 'Wmissing-prototypes' "$work/w1.out"; then
	result OK "check.sh fails on a W=1 warning (-Wmissing-prototypes)"
else
	result FAIL "check.sh failed, but not for the W=1 warning" "$work/w1.out"
fi

# 3. sparse really runs: an __iomem pointer dereferenced as plain memory
#    (gcc is silent; sparse reports the cast that drops the address space).
scratch sparse <<'EOF'
#include <linux/module.h>
#include <linux/io.h>
static u32 otattest_check_read(void __iomem *reg) { return *(u32 *)reg; }
static int __init otattest_check_init(void) { return otattest_check_read(NULL) ? 0 : 0; }
module_init(otattest_check_init);
MODULE_LICENSE("GPL");
EOF
if kernel/check.sh "$kdir" "$work/sparse" /nonexistent "$work/sparse-out" >"$work/sparse.out" 2>&1; then
	result FAIL "check.sh passed a module with a sparse warning" "$work/sparse.out"
elif grep -q 'address space' "$work/sparse.out"; then
	result OK "check.sh fails on a sparse warning (cast removes address space)"
else
	result FAIL "check.sh failed, but not for the sparse warning" "$work/sparse.out"
fi

finish kernel-check
