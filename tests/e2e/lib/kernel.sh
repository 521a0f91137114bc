# SPDX-License-Identifier: MIT
# The guest kernel. E2E_KERNEL (a scenario's setting, else the runner's
# --kernel or environment, else 6.1) names it, as scripts/kernel-version.sh
# understands it:
#   6.1, 6.12  Debian 12's kernel of that series (the module is built
#              against the matching linux-headers), booted either as the
#              bzImage or, faster, as the uncompressed vmlinux inside it
#              (PVH entry)
#   debug      the debug kernel from linux-source-6.12 with KASAN, lockdep,
#              kmemleak, KFENCE and UBSAN (scripts/kernel-debug.sh, built
#              and cached on first use), booted as its own vmlinux
#
# Why the vmlinux: Debian's bzImage is xz-compressed and decompressing it
# under TCG costs about 3 s of every boot. The vmlinux is extracted once per
# kernel build and cached under build/e2e/kernel/<version>/.
#
# Host side only. Needs E2E_ROOT and E2E_BUILD (set by the runner).

# The series the default module targets (build/kernel/otattest.ko...) are
# built for; any other kernel's modules go to build/kernels/<name>/.
E2E_KERNEL_DEFAULT=6.1

# e2e_kernel_version: the version the guest boots.
e2e_kernel_version() {
	"$E2E_ROOT/scripts/kernel-version.sh" --kernel "${E2E_KERNEL:-$E2E_KERNEL_DEFAULT}"
}

# e2e_kernel_prepare: make sure E2E_KERNEL can boot: the debug kernel is
# built (minutes the first time, then cached); the others need nothing.
e2e_kernel_prepare() {
	[ "${E2E_KERNEL:-}" = debug ] || return 0
	"$E2E_ROOT/scripts/kernel-debug.sh" >/dev/null
}

# e2e_kernel_module_target T: the make target of module T (a default
# target, build/...) for E2E_KERNEL.
e2e_kernel_module_target() {
	local k=${E2E_KERNEL:-$E2E_KERNEL_DEFAULT}
	if [ "$k" = "$E2E_KERNEL_DEFAULT" ]; then
		echo "$1"
	else
		echo "build/kernels/$k/${1#build/}"
	fi
}

# e2e_kernel_has_modules: whether the guest kernel has modules on the host
# to resolve (the debug kernel has what the guest needs built in).
e2e_kernel_has_modules() {
	[ "${E2E_KERNEL:-}" != debug ]
}

# e2e_kernel_extract BZIMAGE OUT: write the vmlinux ELF in BZIMAGE's payload
# to OUT. The x86 boot protocol (>= 2.08) records where the compressed
# payload sits: setup_sects at 0x1f1, payload_offset and payload_length at
# 0x248 (relative to the protected-mode code, which starts after the setup
# sectors). The payload's last 4 bytes are the uncompressed size, appended
# by the kernel build; they are used to check the result.
e2e_kernel_extract() {
	local img=$1 out=$2 setup_sects proto off len want magic tmp
	proto=$(od -An -tu2 -j $((0x206)) -N2 "$img" | tr -d ' ')
	if [ -z "$proto" ] || [ "$proto" -lt $((0x208)) ]; then
		echo "kernel: $img: boot protocol $proto has no payload fields" >&2
		return 1
	fi
	setup_sects=$(od -An -tu1 -j $((0x1f1)) -N1 "$img" | tr -d ' ')
	[ "$setup_sects" -eq 0 ] && setup_sects=4
	read -r off len < <(od -An -tu4 -j $((0x248)) -N8 "$img")
	off=$(((setup_sects + 1) * 512 + off))
	want=$(od -An -tu4 -j $((off + len - 4)) -N4 "$img" | tr -d ' ')
	magic=$(od -An -tx1 -j "$off" -N6 "$img" | tr -d ' ')
	tmp=$out.tmp.$$
	case $magic in
	fd377a585a00*) # xz
		tail -c +$((off + 1)) "$img" | head -c $((len - 4)) | xz -dc >"$tmp" ;;
	28b52ffd*) # zstd
		tail -c +$((off + 1)) "$img" | head -c $((len - 4)) | zstd -dcq >"$tmp" ;;
	*)
		echo "kernel: $img: payload compression $magic not handled" >&2
		return 1 ;;
	esac || { rm -f "$tmp"; echo "kernel: $img: decompressing the payload failed" >&2; return 1; }
	if [ "$(stat -c %s "$tmp")" != "$want" ] ||
		[ "$(od -An -tx1 -N4 "$tmp" | tr -d ' ')" != 7f454c46 ]; then
		rm -f "$tmp"
		echo "kernel: $img: payload is not the expected ELF of $want bytes" >&2
		return 1
	fi
	mv "$tmp" "$out"
}

# e2e_kernel_image: print the image QEMU boots. E2E_KERNEL_BOOT selects
# "vmlinux" (default; falls back to the bzImage if extraction fails) or
# "bzimage". The cache key is the version plus the bzImage's size and
# mtime, so a reinstalled package with the same version is noticed.
e2e_kernel_image() {
	local ver img dir key
	ver=$(e2e_kernel_version) || return 1
	if [ "${E2E_KERNEL:-}" = debug ]; then
		"$E2E_ROOT/scripts/kernel-version.sh" --kernel debug --image
		return
	fi
	img=/boot/vmlinuz-$ver
	if [ "${E2E_KERNEL_BOOT:-vmlinux}" = bzimage ]; then
		echo "$img"
		return 0
	fi
	dir=$E2E_BUILD/kernel/$ver
	key="$ver $(stat -c '%s %Y' "$img")"
	if [ -f "$dir/vmlinux" ] && [ "$(cat "$dir/key" 2>/dev/null)" = "$key" ]; then
		echo "$dir/vmlinux"
		return 0
	fi
	mkdir -p "$dir"
	if e2e_kernel_extract "$img" "$dir/vmlinux"; then
		echo "$key" >"$dir/key"
		echo "$dir/vmlinux"
	else
		echo "kernel: booting the compressed $img instead (slower)" >&2
		echo "$img"
	fi
}
