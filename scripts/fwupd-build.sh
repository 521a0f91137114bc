#!/bin/bash
# SPDX-License-Identifier: MIT
# fwupd with the otattest plugin (daemon/fwupd/otattest) built in.
#
# fwupd 2.x links its plugins into the daemon and loads none from outside,
# so the plugin is built the way fwupd's own are: Debian's source package
# of the fwupd Debian 12 ships (apt-get source, its patches applied by
# dpkg-source), the plugin folder copied to plugins/otattest, and
# plugins/meson.build's table cut down to that plugin alone; meson and
# ninja do the rest, with the features the plugin does not need off.
#
# Cached outside the tree, under $FWUPD_CACHE (/var/cache/otattest/fwupd):
#   <version>/src     the unpacked source (once per version)
#   <version>/build   meson's build directory (ninja rebuilds only what changed)
#   <version>/prefix  the installed fwupd: bin/fwupdmgr, libexec/fwupd/fwupd, ...
#   <version>/stamp   the plugin digest the prefix was installed from
# A run whose version and plugin digest match the stamp does nothing. The
# prefix is under /var so the e2e guest, whose /var is a writable overlay
# over the host's, can run it where it lies.
#
# Usage: scripts/fwupd-build.sh [--print-prefix]
#   --print-prefix  print the prefix (building first if needed) and nothing else
# Needs deb-src in the apt sources (docs/fwupd.md) and the build
# dependencies scripts/deps.sh installs.
set -euo pipefail

FWUPD_DEB_VERSION=${FWUPD_DEB_VERSION:-2.0.20-1~deb12u2}
FWUPD_CACHE=${FWUPD_CACHE:-/var/cache/otattest/fwupd}
root=$(cd "$(dirname "$0")/.." && pwd)
plugin=$root/daemon/fwupd/otattest

quiet=0
[ "${1:-}" = --print-prefix ] && quiet=1
say() { [ "$quiet" = 1 ] || echo "fwupd-build: $*"; }
log() { if [ "$quiet" = 1 ]; then "$@" >>"$logf" 2>&1; else "$@" 2>&1 | tee -a "$logf"; fi; }

base=$FWUPD_CACHE/$FWUPD_DEB_VERSION
prefix=$base/prefix
# otattest's own headers the plugin includes (names, numbers, the error
# class table), so nothing is spelt twice.
headers=("$root"/libotattest/include/otattest/*.h "$root/daemon/common/dbus-api.h")
# The plugin digest: its files, those headers and this script (the options live here).
digest=$( (cd "$plugin" && find . -type f | LC_ALL=C sort | xargs sha256sum
	sha256sum "${headers[@]}" | sed "s|$root/||"; sha256sum <"$root/scripts/fwupd-build.sh") |
	sha256sum | cut -c1-16)

if [ "$(cat "$base/stamp" 2>/dev/null)" = "$digest" ] && [ -x "$prefix/bin/fwupdmgr" ]; then
	[ "$quiet" = 1 ] && echo "$prefix" || say "up to date: $prefix (plugin $digest)"
	exit 0
fi

mkdir -p "$base"
logf=$base/build.log
: >"$logf"
exec 9>"$base/lock"
flock 9

upstream=${FWUPD_DEB_VERSION%%-*}
if [ ! -f "$base/src/meson.build" ]; then
	say "unpacking Debian's fwupd $FWUPD_DEB_VERSION"
	rm -rf "$base/src" "$base/dl"
	mkdir -p "$base/dl"
	if ! (cd "$base/dl" && apt-get source --download-only "fwupd=$FWUPD_DEB_VERSION") >>"$logf" 2>&1; then
		echo "fwupd-build: apt-get source fwupd=$FWUPD_DEB_VERSION failed (is deb-src enabled? docs/fwupd.md); $logf" >&2
		exit 1
	fi
	dpkg-source --no-check -x "$base/dl/fwupd_$FWUPD_DEB_VERSION.dsc" "$base/src" >>"$logf" 2>&1
	# Only our plugin: the table's entries become the one line of ours.
	python3 - "$base/src/plugins/meson.build" <<'EOF'
import re, sys
p = sys.argv[1]
t = open(p).read()
t, n = re.subn(r"(?ms)^plugins = \{\n.*?^\}\n", "plugins = {\n  'otattest': false,\n}\n", t, count=1)
if n != 1:
    sys.exit("plugins/meson.build: no plugins table")
open(p, "w").write(t)
EOF
fi

# The plugin as it is now (a removed file is removed there too).
rm -rf "$base/src/plugins/otattest"
cp -r "$plugin" "$base/src/plugins/otattest"
mkdir -p "$base/src/plugins/otattest/include/otattest"
cp "${headers[@]}" "$base/src/plugins/otattest/include/otattest/"

if [ ! -f "$base/build/build.ninja" ]; then
	say "configuring (first build: a few minutes)"
	# Features the plugin and the e2e guest do not use are off; HSI stays
	# on (fwupdmgr security). The libraries land in prefix/lib and the
	# programs find them through their RUNPATH.
	log meson setup "$base/build" "$base/src" \
		--prefix="$prefix" --libdir=lib --sysconfdir="$prefix/etc" \
		--localstatedir=/var --buildtype=debugoptimized --wrap-mode=nofallback \
		-Dc_link_args="-Wl,-rpath,$prefix/lib" \
		-Dbuild=all -Dhsi=enabled -Dsystemd=enabled -Dtests=false -Dman=false \
		-Ddocs=disabled -Dintrospection=disabled -Dbluez=disabled -Dpassim=disabled \
		-Dcbor=disabled -Dgnutls=disabled -Dpolkit=disabled -Dumockdev_tests=disabled \
		-Dvalgrind=disabled -Dblkid=disabled -Dlibdrm=disabled -Dlibmnl=disabled \
		-Dplugin_flashrom=disabled -Dplugin_modem_manager=disabled -Dprotobuf=disabled \
		-Dreadline=disabled -Dlvfs=disabled -Dbash_completion=false -Dfish_completion=false \
		-Dfirmware-packager=false -Dmetainfo=false -Defi_binary=false \
		-Dplugin_uefi_capsule_splash=false -Dsupported_build=enabled \
		-Dsystemd_root_prefix="$prefix" -Dlibarchive=enabled -Dvendor_metadata=false
fi
say "building"
log nice -n 10 ninja -C "$base/build"
say "installing into $prefix"
rm -rf "$prefix"
# Installed with DESTDIR so nothing lands outside the cache (localstatedir
# is /var for the running daemon); the prefix part is moved into place.
rm -rf "$base/destdir"
log env DESTDIR="$base/destdir" meson install -C "$base/build" --no-rebuild
mv "$base/destdir$prefix" "$prefix"
rm -rf "$base/destdir"
echo "$digest" >"$base/stamp"
[ "$quiet" = 1 ] && echo "$prefix" || say "done: $prefix (plugin $digest)"
