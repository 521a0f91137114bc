#!/usr/bin/env bash
# The debug guest kernel (issue 33): Debian 12's linux-source-6.12 configured
# with tinyconfig + the kernel's kvm_guest.config + the tree's fragment
# tests/e2e/kernel/debug-kernel.config (KASAN, lockdep, kmemleak, KFENCE,
# UBSAN, atomic-sleep and debugobjects checks), merged by the kernel's own
# scripts/kconfig/merge_config.sh, built once and cached outside the tree.
#
#   scripts/kernel-debug.sh          build when not cached; print the directory
#   scripts/kernel-debug.sh --dir    print the directory for the current inputs
#                                    (built or not)
#
# The directory is $OTATTEST_CACHE/kernel-debug/<key> (default cache
# /var/cache/otattest), the key a digest of the source package's version and
# tarball, the fragment, this script and the compiler, so a change to any of
# them builds anew and a second run costs nothing. It holds:
#   src        a link to the unpacked source, $OTATTEST_CACHE/kernel-debug/src-<key>
#   obj/       the kbuild output (O=), where modules build (M=)
#   bzImage    the image QEMU boots (not the PVH vmlinux: see below)
#   release    `make kernelrelease`         config    the final .config
#   build.log  the build's output           done      present when complete
# Needs flex, bison, bc, libelf-dev (scripts/deps.sh). The first build takes
# minutes (docs/kernel-abi.md has the measured time); the lock file makes a
# second caller wait for the first instead of building twice.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tarball=${OTATTEST_KERNEL_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
fragment=$here/tests/e2e/kernel/debug-kernel.config
cache=${OTATTEST_CACHE:-/var/cache/otattest}/kernel-debug

[ -f "$tarball" ] || { echo "kernel-debug: no $tarball (install linux-source-6.12: make deps)" >&2; exit 1; }
srckey=$(
	{
		dpkg-query -W -f='${Package} ${Version}\n' linux-source-6.12 2>/dev/null || true
		stat -c '%n %s %Y' "$tarball"
	} | sha256sum | cut -c1-16
)
key=$(
	{
		echo "$srckey"
		sha256sum "$fragment" "$0" | cut -d' ' -f1
		gcc --version | head -n1
	} | sha256sum | cut -c1-16
)
dir=$cache/$key
# The unpacked source depends on the tarball alone: shared by every
# configuration of it (a changed fragment does not unpack it again).
src=$cache/src-$srckey
if [ "${1:-}" = --dir ]; then
	echo "$dir"
	exit 0
fi
[ -f "$dir/done" ] && { echo "$dir"; exit 0; }

mkdir -p "$dir"
exec 9>"$cache/.lock" # one build at a time: two would share src and the CPUs
flock 9
[ -f "$dir/done" ] && { echo "$dir"; exit 0; } # built while we waited

for tool in flex bison bc; do
	command -v "$tool" >/dev/null || { echo "kernel-debug: $tool is missing (make deps)" >&2; exit 1; }
done
[ -f /usr/include/libelf.h ] || { echo "kernel-debug: libelf-dev is missing (make deps)" >&2; exit 1; }

log=$dir/build.log
t0=$(date +%s)
echo "kernel-debug: building the debug kernel in $dir (minutes; log: $log)" >&2
{
	if [ ! -f "$src/.unpacked" ]; then
		rm -rf "$src"
		mkdir -p "$src"
		tar -xJf "$tarball" -C "$src" --strip-components=1
		: >"$src/.unpacked"
	fi
	# An obj/ left by an interrupted build of the same key is kept: kbuild
	# rebuilds only what is missing or out of date.
	mkdir -p "$dir/obj"
	ln -sfn "$src" "$dir/src"
	kmake() { nice -n 10 make -C "$src" O="$dir/obj" ARCH=x86_64 "$@"; }
	kmake tinyconfig
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$dir/obj" \
		"$dir/obj/.config" kernel/configs/kvm_guest.config "$fragment")
	kmake olddefconfig
} >"$log" 2>&1 || { tail -n 30 "$log" >&2; echo "kernel-debug: configuring failed (see $log)" >&2; exit 1; }

# Every setting the fragment asks for must have survived olddefconfig.
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) want=$line ;;
	"# CONFIG_"*" is not set") want=$line ;;
	*) continue ;;
	esac
	name=$(sed -E 's/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1/; s/=.*//' <<<"$want")
	got=$(grep -E "^(# )?$name[= ]" "$dir/obj/.config" || echo "# $name is not set")
	if [ "$got" != "$want" ]; then
		echo "kernel-debug: the fragment asks for '$want', the config has '$got'" >&2
		bad=1
	fi
done <"$fragment"
[ $bad = 0 ] || exit 1

if ! { nice -n 10 make -C "$src" O="$dir/obj" ARCH=x86_64 -j"$(nproc)" bzImage modules &&
	make -s -C "$src" O="$dir/obj" ARCH=x86_64 kernelrelease >"$dir/release"; } >>"$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "kernel-debug: the build failed (see $log)" >&2
	exit 1
fi
[ -f "$dir/obj/Module.symvers" ] || { echo "kernel-debug: no Module.symvers after the build" >&2; exit 1; }
# The bzImage, not the vmlinux through PVH as for Debian's kernels: this
# KASAN kernel entered at its PVH note triple-faults before its first
# console line (QEMU 7.2, TCG; -d cpu_reset shows the reset), while the
# same build booted through the bzImage's own setup code runs.
cp "$dir/obj/arch/x86/boot/bzImage" "$dir/bzImage"
cp "$dir/obj/.config" "$dir/config"
echo "$(($(date +%s) - t0))" >"$dir/build-seconds"
: >"$dir/done"
echo "kernel-debug: built $(cat "$dir/release") in $(cat "$dir/build-seconds")s" >&2
echo "$dir"
