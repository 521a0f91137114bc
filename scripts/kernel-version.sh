#!/usr/bin/env bash
# Print the kernel version the guest boots and the module is built for.
# Never the host's `uname -r`: this machine runs another kernel.
#
# Which kernel: --kernel K, else $OTATTEST_KERNEL, else 6.1.
#   6.1, 6.12  a Debian 12 kernel series (linux-image-6.1 / linux-image-6.12):
#              the newest version of that series with both /boot/vmlinuz-<v>
#              and /usr/src/linux-headers-<v>
#   debug      the debug kernel built from linux-source-6.12 with KASAN,
#              lockdep, kmemleak, KFENCE and UBSAN (scripts/kernel-debug.sh;
#              `make kernel-debug` builds it): its kbuild tree and bzImage
#
#   scripts/kernel-version.sh [--kernel K]            the version
#   scripts/kernel-version.sh [--kernel K] --headers  the directory kbuild runs in
#   scripts/kernel-version.sh [--kernel K] --image    the kernel image QEMU boots
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kernel=${OTATTEST_KERNEL:-6.1}
what=version
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?--kernel needs a name}; shift ;;
	--kernel=*) kernel=${1#--kernel=} ;;
	--headers) what=headers ;;
	--image) what=image ;;
	*) echo "kernel-version: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done

if [ "$kernel" = debug ]; then
	dir=$("$here/kernel-debug.sh" --dir) || exit 1
	if [ ! -f "$dir/done" ]; then
		echo "kernel-version: the debug kernel is not built ($dir): make kernel-debug" >&2
		exit 1
	fi
	case $what in
	headers) echo "$dir/obj" ;;
	image) echo "$dir/bzImage" ;;
	*) cat "$dir/release" ;;
	esac
	exit 0
fi
case $kernel in
6.1 | 6.12) ;;
*) echo "kernel-version: unknown kernel '$kernel' (6.1, 6.12 or debug)" >&2; exit 2 ;;
esac
best=""
for img in /boot/vmlinuz-"$kernel".*; do
	[ -e "$img" ] || continue
	v=${img#/boot/vmlinuz-}
	[ -d "/usr/src/linux-headers-$v" ] || continue
	if [ -z "$best" ] || [ "$(printf '%s\n%s\n' "$best" "$v" | sort -V | tail -n1)" = "$v" ]; then
		best=$v
	fi
done
if [ -z "$best" ]; then
	pkg=linux-image-amd64\ and\ linux-headers-amd64
	[ "$kernel" = 6.12 ] && pkg=linux-image-6.12-amd64\ and\ linux-headers-6.12-amd64
	echo "kernel-version: no $kernel kernel with matching headers (install $pkg: make deps)" >&2
	exit 1
fi
case $what in
headers) echo "/usr/src/linux-headers-$best" ;;
image) echo "/boot/vmlinuz-$best" ;;
*) echo "$best" ;;
esac
