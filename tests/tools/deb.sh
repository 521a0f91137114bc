#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Debian packages (issue 30): `make deb` builds them with debhelper
# (dpkg-buildpackage -b, unsigned) and lintian passes them (no error or
# warning without a written override); each package holds what it should;
# dpkg-gensymbols holds libotattest2 to debian/libotattest2.symbols (and
# fails on a symbols file that lists one symbol too few); the maintainer
# scripts are debhelper's alone. Prints "N passed, N failed".
# The packages come from scripts/deb-build.sh --cached --upgrade (what
# `make deb` runs, kept under the digest of the tree's files and the build
# tools, DEB_CACHE): a second run of the same tree builds nothing.
set -uo pipefail
cd "$(dirname "$0")/../.."
suite=deb
. tests/interop/tap.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The build runs offline (GOPROXY=off, debian/rules): otattest-veraison's
# Go modules come from Go's module cache, which make deps fills, and
# whose lack deps.sh --check names (a fresh machine's make deps; make deb
# failed in the package build's go build).
mkdir -p "$work/gomodcache"
GOMODCACHE=$work/gomodcache scripts/deps.sh --check >"$work/deps.out" 2>&1
rc=$?
ok $([ "$rc" = 1 ] && grep -q "^deps: the Go modules of libotattest/tools/veraison/go.sum are not in Go's module cache" \
	"$work/deps.out" && echo 0 || echo 1) "deps.sh --check fails naming the Go modules when Go's module cache lacks them (exit $rc)"
chmod -R u+w "$work/gomodcache"

start=$(date +%s)
out=$(scripts/deb-build.sh --cached --upgrade 2>"$work/deb.log")
rc=$?
echo "# scripts/deb-build.sh --cached --upgrade: exit $rc in $(($(date +%s) - start)) s: $out"
[ "$rc" = 0 ] || { tail -30 "$work/deb.log" | sed 's/^/#   /'; fail_early "the package build failed"; }
cp "$out/lintian.txt" "$work/lintian.txt"
ok 0 "dpkg-buildpackage built the packages, lintian ran"

ver=$(dpkg-parsechangelog -l debian/changelog -S Version)
for p in otattestd otattest-tools libotattest2 libotattest-dev; do
	ls "$out/${p}_${ver}_"*.deb >/dev/null 2>&1
	ok $? "$p $ver built"
done
ls "$out/otattest-dkms_${ver}_all.deb" >/dev/null 2>&1
ok $? "otattest-dkms $ver (all) built"

grep -E '^[EW]: ' "$work/lintian.txt" >"$work/d"
ok $([ ! -s "$work/d" ] && echo 0 || echo 1) "lintian: no error or warning $(head -5 "$work/d" | tr '\n' ' ')"
ls "$out"/upgrade/otattestd_"$(dpkg-parsechangelog -l debian/changelog -S Version)"+1_*.deb >/dev/null 2>&1
ok $? "the upgrade build (one revision later) is there"
# Every override says why (a comment line above it).
r=0
for f in debian/*.lintian-overrides debian/source/lintian-overrides; do
	[ -e "$f" ] || continue
	awk '/^[^#]/ && prev !~ /^#/ {bad = 1} {prev = $0} END {exit bad}' "$f" || { r=1; echo "# $f: an override without a reason"; }
done
ok $r "every lintian override carries a written reason"

# contents PACKAGE PATH...: each path is in the package.
contents() {
	local p=$1 f missing=""
	shift
	dpkg-deb -c "$out/${p}_${ver}_"*.deb | awk '{print $6}' | sed 's|^\./|/|; s|/$||' >"$work/c"
	for f in "$@"; do grep -qx "$f" "$work/c" || missing+=" $f"; done
	[ -z "$missing" ]
	ok $? "$p holds $# expected paths${missing:+, missing:$missing}"
}
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
contents otattestd /usr/libexec/otattestd /lib/systemd/system/otattestd.service \
	/lib/systemd/system/otattestd.socket /lib/systemd/system/otattest-metrics.timer \
	/usr/share/dbus-1/system.d/org.otattest.BootAttest1.conf \
	/usr/share/dbus-1/system-services/org.otattest.BootAttest1.service \
	/usr/share/polkit-1/actions/org.otattest.BootAttest1.policy /usr/share/polkit-1/rules.d/50-otattest.rules \
	/usr/lib/sysusers.d/otattestd.conf /usr/lib/systemd/catalog/otattest.catalog \
	/lib/udev/rules.d/99-otattest.rules /usr/share/man/man8/otattestd.8.gz /etc/otattest/key-names
contents otattest-tools /usr/bin/otattestctl /usr/bin/otattest-verify /usr/bin/otimage /usr/bin/otattest-veraison \
	/usr/share/man/man8/otattestctl.8.gz /usr/share/man/man1/otattest-verify.1.gz \
	/usr/share/man/man1/otimage.1.gz /usr/share/man/man1/otattest-veraison.1.gz \
	/usr/share/bash-completion/completions/otattestctl /usr/share/bash-completion/completions/otimage \
	/usr/share/bash-completion/completions/otattest-verify
contents libotattest2 "/usr/lib/$ma/libotattest.so.2" "/usr/lib/$ma/libotattest.so.2.0"
# The SONAME transition (libotattest.so.1 -> .so.2) as Debian policy 8.1
# has it: libotattest2 holds no file of libotattest1, so it neither
# conflicts with, breaks nor replaces it and the two install side by side
# (programs built against .so.1 keep libotattest1); libotattest-dev,
# which keeps its name, moves to libotattest2.
dpkg-deb -c "$out/libotattest2_${ver}_"*.deb | awk '{print $6}' | grep -E 'libotattest\.so\.1|/libotattest1(/|$)' >"$work/d"
rel=$(dpkg-deb -f "$out/libotattest2_${ver}_"*.deb Conflicts Breaks Replaces Provides)
[ ! -s "$work/d" ] && [ -z "$rel" ]
ok $? "libotattest2 shares no path with libotattest1 and declares no Conflicts, Breaks, Replaces or Provides $rel $(head -3 "$work/d" | tr '\n' ' ')"
dpkg-deb -f "$out/libotattest-dev_${ver}_"*.deb Depends | grep -q "libotattest2 (= $ver)"
ok $? "libotattest-dev depends on libotattest2 (= $ver)"
contents libotattest-dev "/usr/lib/$ma/libotattest.so" "/usr/lib/$ma/pkgconfig/otattest.pc" \
	/usr/include/otattest/verify.h
upv=${ver%-*}
contents otattest-dkms "/usr/src/otattest-$upv/dkms.conf" "/usr/src/otattest-$upv/Kbuild" \
	"/usr/src/otattest-$upv/main.c" "/usr/src/otattest-$upv/uapi/otattest/genl.h"
dpkg-deb --fsys-tarfile "$out/otattest-dkms_${ver}_all.deb" | tar -xOf - "./usr/src/otattest-$upv/dkms.conf" >"$work/dkms.conf"
grep -qx "PACKAGE_VERSION=\"$upv\"" "$work/dkms.conf"
ok $? "dkms.conf names version $upv"

# The symbols file, as dpkg-gensymbols holds the library to it (level 4:
# any difference fails): passes as shipped, fails with a symbol left out.
mkdir -p "$work/lib/DEBIAN" "$work/x"
dpkg-deb -x "$out/libotattest2_${ver}_"*.deb "$work/x"
sp() { # SYMBOLS-FILE
	(cd "$work" && dpkg-gensymbols -q -c4 -plibotattest2 -v"$ver" -P"$work/x" -O/dev/null \
		-e"$work/x/usr/lib/$ma/libotattest.so.2.0" -I"$1" 2>&1)
}
sp "$PWD/debian/libotattest2.symbols" >"$work/d"
ok $? "dpkg-gensymbols -c4: the library matches debian/libotattest2.symbols $(head -3 "$work/d" | tr '\n' ' ')"
sed '3d' debian/libotattest2.symbols >"$work/short.symbols"
sp "$work/short.symbols" >/dev/null
ok $((! $?)) "dpkg-gensymbols -c4 fails when the symbols file lacks one symbol"

# Maintainer scripts come from debhelper, but for otattestd's postrm,
# whose one hand-written step removes the state directory on purge (no
# helper of debhelper 13 does; debian/otattestd.postrm says why).
ls debian/*.postinst debian/*.preinst debian/*.prerm debian/*.postrm debian/postinst debian/prerm \
	debian/postrm debian/preinst 2>/dev/null | grep -vx debian/otattestd.postrm >"$work/d"
ok $([ ! -s "$work/d" ] && echo 0 || echo 1) "no hand-written maintainer scripts in debian/ but otattestd.postrm $(tr '\n' ' ' <"$work/d")"
grep -Ev '^[[:space:]]*(#|$)' debian/otattestd.postrm >"$work/d"
printf '%s\n' 'set -e' 'if [ "$1" = "purge" ]; then' '	rm -rf /var/lib/otattestd' 'fi' 'exit 0' | diff - "$work/d" >/dev/null
ok $? "debian/otattestd.postrm does nothing but remove /var/lib/otattestd on purge (and #DEBHELPER#)"
dpkg-deb -e "$out/otattestd_${ver}_"*.deb "$work/ctl"
grep -q 'dh_installsystemd' "$work/ctl/postinst" && grep -q 'dh_installsysusers\|systemd-sysusers' "$work/ctl/postinst"
ok $? "otattestd's postinst: debhelper's systemd and sysusers sections"
grep -q "dbus-org.otattest.BootAttest1.service\|deb-systemd-helper" "$work/ctl/postinst"
ok $? "otattestd's postinst enables the unit (its D-Bus alias) through deb-systemd-helper"
grep -q 'dh_installsystemd' "$work/ctl/postrm" && grep -q 'rm -rf /var/lib/otattestd' "$work/ctl/postrm"
ok $? "otattestd's postrm: debhelper's systemd section and the state directory's removal on purge"
grep -q "deb-systemd-invoke stop .*'otattestd.socket'" "$work/ctl/prerm" 2>/dev/null
ok $? "otattestd's prerm stops otattestd.socket on remove (and with it a running otattestd, which Requires= it)"
! grep -q "deb-systemd-invoke stop" "$work/ctl/preinst" 2>/dev/null
ok $? "otattestd's preinst stops nothing before an upgrade (the postinst's restart of the socket restarts a running daemon; a lone stop of the service warns and leaves it stopped)"
dpkg-deb -e "$out/otattest-dkms_${ver}_all.deb" "$work/dctl"
grep -q 'dh_dkms\|dkms' "$work/dctl/postinst"
ok $? "otattest-dkms's postinst: dh_dkms's section"
finish
