# SPDX-License-Identifier: MIT
# Guest initramfs images, built from host files.
#
# The base image (busybox, bash, the module stacks for virtio-9p and
# overlayfs, users and groups) is the same for every scenario and cached
# under build/e2e/initramfs/. Each scenario gets a second, small cpio
# archive (its scripts, modules, binaries and files) that is appended to the
# base: the kernel unpacks concatenated archives in order, later entries
# replacing earlier ones. Both are uncompressed: unpacking is cheaper under
# TCG than decompressing.
#
# The base holds no harness script: /init and the guest library come with
# each scenario's archive, so editing them never invalidates the cache.
#
# Host binaries are copied with their ldd closure to the paths they have on
# the host, so a scenario names a binary the same way in both modes.
#
# Host side only. Needs E2E_ROOT, E2E_BUILD, E2E_KVER, E2E_KERNEL (lib/kernel.sh).

# Users and groups the guest knows (both modes). Test users: e2e-user is
# unprivileged; e2e-update is in otattest-update, the group allowed to
# rotate tags and reset for update.
E2E_PASSWD="root:x:0:0:root:/root:/bin/bash
messagebus:x:100:101::/nonexistent:/usr/sbin/nologin
otattest:x:990:990:otattest daemon:/nonexistent:/usr/sbin/nologin
e2e-user:x:4001:4001:e2e unprivileged user:/tmp:/bin/bash
e2e-update:x:4002:4002:e2e update agent:/tmp:/bin/bash
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin"
E2E_GROUP="root:x:0:
messagebus:x:101:
otattest:x:990:
otattest-update:x:991:e2e-update
e2e-user:x:4001:
e2e-update:x:4002:
nogroup:x:65534:"

# Modules both modes load at boot, in dependency order (resolved from the
# guest kernel's modules.dep): virtio-pci and 9p for the shares, overlay for
# the systemd mode's root.
E2E_BASE_MODULES=(virtio_pci 9pnet_virtio 9p overlay)

# e2e_stage_file ROOT SRC [DEST]: copy SRC (dereferenced) into ROOT at DEST
# (default: SRC's own path). The directory part is canonicalised so that,
# on a merged-/usr host, /lib/x/y lands in usr/lib/x/y behind the top-level
# symlinks that e2e_stage_skeleton mirrors.
e2e_stage_file() {
	local root=$1 src=$2 dest=${3:-$2} dir
	dir=$(realpath -m "$(dirname "$dest")")
	mkdir -p "$root$dir"
	cp -L --preserve=mode "$src" "$root$dir/$(basename "$dest")"
}

# e2e_stage_binary ROOT BIN...: a host binary plus every library ldd says
# it loads (the dynamic loader and RUNPATH libraries such as systemd's
# libsystemd-shared included), each at its host path.
e2e_stage_binary() {
	local root=$1 bin lib
	shift
	for bin in "$@"; do
		[ -e "$bin" ] || { echo "initramfs: no such binary: $bin" >&2; return 1; }
		e2e_stage_file "$root" "$bin"
		# ldd prints "name => /path (addr)" and "/path (addr)"; static
		# binaries print "not a dynamic executable" (exit 1).
		while read -r lib; do
			[ -e "$lib" ] && e2e_stage_file "$root" "$lib"
		done < <(ldd "$bin" 2>/dev/null | sed -n -e 's/.*=> \(\/[^ ]*\) .*/\1/p' -e 's/^[[:space:]]*\(\/[^ ]*\) .*/\1/p')
	done
}

# e2e_stage_debs ROOT CTRL PKG...: the files of the tree's Debian packages
# PKG (scripts/deb-build.sh --cached --upgrade: built once per tree; the
# build tests/tools/deb.sh judges) under ROOT, where dpkg puts them, and
# each one's control files (postinst...) in CTRL/PKG/. On a merged-/usr
# host a package's /lib, /bin and /sbin go under /usr, where dpkg's writes
# through those symlinks land (and where a copy over the guest root can
# put them).
e2e_stage_debs() {
	local root=$1 ctrl=$2 d p debs d2
	shift 2
	d=$("$E2E_ROOT/scripts/deb-build.sh" --cached --upgrade) || return 1
	mkdir -p "$root" "$ctrl"
	for p in "$@"; do
		debs=("$d/${p}_"*.deb)
		[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || { echo "e2e_stage_debs: not one package $p in $d" >&2; return 1; }
		dpkg-deb -x "${debs[0]}" "$root" && dpkg-deb -e "${debs[0]}" "$ctrl/$p" || return 1
	done
	for d2 in bin sbin lib; do
		if [ -L "/$d2" ] && [ -d "$root/$d2" ] && [ ! -L "$root/$d2" ]; then
			mkdir -p "$root/usr/$d2" && cp -a "$root/$d2/." "$root/usr/$d2/" && rm -rf "${root:?}/$d2" || return 1
		fi
	done
}

# e2e_stage_skeleton ROOT: directories and the host's merged-/usr symlinks.
e2e_stage_skeleton() {
	local root=$1 d
	mkdir -p "$root"/{usr/bin,usr/sbin,usr/lib,usr/lib64,dev,proc,sys,run,tmp,etc,root,var,e2e,newroot}
	for d in bin sbin lib lib64; do
		if [ -L "/$d" ]; then
			ln -sfn "$(readlink "/$d")" "$root/$d"
		else
			mkdir -p "$root/$d"
		fi
	done
	chmod 1777 "$root/tmp"
}

# e2e_cpio ROOT OUT: pack ROOT as a newc archive owned by root.
e2e_cpio() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$2.tmp.$$" &&
		mv "$2.tmp.$$" "$2"
}

# e2e_base_inputs: everything the base image is made of, for its cache key.
e2e_base_inputs() {
	printf '%s\n' "$E2E_KVER" "${E2E_KERNEL:-}" "$E2E_PASSWD" "$E2E_GROUP" "${E2E_BASE_MODULES[*]}"
	stat -c '%n %s %Y' /usr/bin/busybox /usr/bin/bash "$E2E_ROOT"/tests/e2e/lib/initramfs.sh
	if e2e_kernel_has_modules; then
		stat -c '%n %s %Y' "/lib/modules/$E2E_KVER/modules.dep" 2>/dev/null || echo "no modules.dep"
	fi
}

# e2e_base_initramfs: print the path of the cached base image, building it
# when its inputs changed.
e2e_base_initramfs() {
	local dir=$E2E_BUILD/initramfs out key root m a mods=()
	out=$dir/base-$E2E_KVER.cpio
	key=$(e2e_base_inputs | sha256sum | cut -d' ' -f1)
	if [ -f "$out" ] && [ "$(cat "$out.key" 2>/dev/null)" = "$key" ]; then
		echo "$out"
		return 0
	fi
	root=$dir/base.root
	rm -rf "$root"
	mkdir -p "$dir"
	e2e_stage_skeleton "$root"

	# busybox provides the small tools (mount, insmod, switch_root...);
	# bash runs every script, so scenarios use one shell in both modes.
	e2e_stage_file "$root" /usr/bin/busybox
	for a in $(/usr/bin/busybox --list); do
		[ -e "$root/usr/bin/$a" ] || ln -s busybox "$root/usr/bin/$a"
	done
	e2e_stage_binary "$root" /usr/bin/bash
	ln -sfn bash "$root/usr/bin/sh"

	# Modules, deduplicated, in the order modprobe would load them (none
	# for a kernel that has them built in: lib/kernel.sh).
	# A module that does not resolve (the kernel's package half installed,
	# depmod not run yet) fails the build: a base image without 9p would be
	# cached and every guest would stop at "mount the host root".
	local deps
	for m in "${E2E_BASE_MODULES[@]}"; do
		e2e_kernel_has_modules || break
		if ! deps=$(modprobe -S "$E2E_KVER" --show-depends "$m" 2>&1) ||
			! grep -q '^insmod \|^builtin ' <<<"$deps"; then
			echo "e2e: module $m does not resolve for kernel $E2E_KVER (is linux-image-$E2E_KVER fully installed? depmod -a $E2E_KVER): $deps" >&2
			rm -rf "$root"
			return 1
		fi
		while read -r _ path _; do
			case " ${mods[*]} " in *" $path "*) ;; *) mods+=("$path") ;; esac
		done < <(grep '^insmod ' <<<"$deps")
	done
	# Debian's 6.12 modules are xz-compressed: busybox's insmod would
	# first offer the kernel the compressed file (a spurious "Invalid ELF
	# header magic" line each) and then unpack it under TCG. Unpacked here.
	: >"$root/e2e/base-modules"
	for m in "${mods[@]}"; do
		case $m in
		*.ko.xz)
			mkdir -p "$root$(dirname "$m")"
			xz -dc "$m" >"$root${m%.xz}"
			m=${m%.xz}
			;;
		*.ko.zst)
			mkdir -p "$root$(dirname "$m")"
			zstd -dcq "$m" >"$root${m%.zst}"
			m=${m%.zst}
			;;
		*) e2e_stage_file "$root" "$m" ;;
		esac
		echo "$m" >>"$root/e2e/base-modules"
	done

	printf '%s\n' "$E2E_PASSWD" >"$root/etc/passwd"
	printf '%s\n' "$E2E_GROUP" >"$root/etc/group"
	printf 'passwd: files\ngroup: files\nshadow: files\n' >"$root/etc/nsswitch.conf"
	# libnss_files so that getpwnam() in host binaries (dbus-daemon's
	# policy, the daemon's credential checks) finds the users above.
	for a in /lib/x86_64-linux-gnu/libnss_files.so.2; do
		[ -e "$a" ] && e2e_stage_file "$root" "$a"
	done
	echo e2e-guest >"$root/etc/hostname"
	echo 0123456789abcdef0123456789abcdef >"$root/etc/machine-id"

	e2e_cpio "$root" "$out" || return 1
	rm -rf "$root"
	echo "$key" >"$out.key"
	echo "$out"
}
