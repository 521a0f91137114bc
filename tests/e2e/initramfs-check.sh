#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The guest's base initramfs (tests/e2e/lib/initramfs.sh) is cached by its
# inputs. A kernel whose modules do not resolve (its package half installed,
# depmod not run yet: a `make deps` still running) must fail the build, not
# cache an image without 9p, after which every guest of that kernel stopped
# at "E2E-INIT-FAIL: mount the host root (9p tag 'root')" until the cache was
# removed by hand. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
suite=e2e-initramfs
. tests/interop/tap.sh
E2E_ROOT=$PWD
E2E_BUILD=$(mktemp -d)
trap 'rm -rf "$E2E_BUILD"' EXIT
. tests/e2e/lib/kernel.sh
. tests/e2e/lib/initramfs.sh
E2E_KERNEL=
E2E_KVER=$(scripts/kernel-version.sh --kernel 6.1 2>/dev/null) || fail_early "no 6.1 guest kernel (make deps)"
want=("${E2E_BASE_MODULES[@]}")

E2E_BASE_MODULES=("${want[@]}" otattest_no_such_module)
err=$(e2e_base_initramfs 2>&1 >/dev/null)
ok $((! $?)) "a module that does not resolve fails the base image"
case $err in *"module otattest_no_such_module does not resolve for kernel $E2E_KVER"*) r=0 ;; *) r=1 ;; esac
ok $r "and names the module and the kernel (got: ${err%%$'\n'*})"
[ ! -e "$E2E_BUILD/initramfs/base-$E2E_KVER.cpio" ] && [ ! -e "$E2E_BUILD/initramfs/base-$E2E_KVER.cpio.key" ]
ok $? "nothing is cached"

E2E_BASE_MODULES=("${want[@]}")
out=$(e2e_base_initramfs 2>&1)
ok $? "the real module set builds ($out)"
mods=$(cpio -i --to-stdout e2e/base-modules <"$out" 2>/dev/null)
for m in 9p 9pnet_virtio overlay; do
	grep -q "/$m\.ko" <<<"$mods"
	ok $? "the base image loads $m"
done
key=$(cat "$out.key")
grep -q "modules.dep" <(e2e_base_inputs)
ok $? "the cache key covers the kernel's modules.dep (a depmod run rebuilds it; key $key)"
finish
