#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/deps.sh on a plain Debian 12 (issue 30, item 5): a minimal
# chroot (debootstrap --variant=minbase bookworm, from the mirror this
# machine's apt sources name), none of this machine's toolchains. There
# `deps.sh --check` and `deps.sh` must each stop at once, exit 1, with the
# one message naming every missing toolchain and how to get it, and
# install nothing; with stand-ins for the toolchains on PATH, --check
# names every missing Debian, npm and PyPI package. The messages are
# compared line by line. Prints "N passed, N failed".
# The chroot is kept in DEPS_CHROOT_CACHE (default
# /var/cache/otattest/deps-chroot/) under the suite, the variant and
# debootstrap's version: the first run pays the debootstrap (about 150 MB
# fetched and unpacked), later ones only copy deps.sh in.
set -uo pipefail
cd "$(dirname "$0")/../.."
suite=deps-chroot
. tests/interop/tap.sh
[ "$(id -u)" = 0 ] || fail_early "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || fail_early "debootstrap is not installed (scripts/deps.sh)"

# The mirror: the first Debian archive URI in the apt sources.
mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
	grep -v security | head -n1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb  *\(\[[^]]*\] *\)\{0,1\}\([^ ]*\) .*/\2/p' /etc/apt/sources.list \
	/etc/apt/sources.list.d/*.list 2>/dev/null | grep -v security | head -n1)
[ -n "$mirror" ] || fail_early "no Debian mirror in the apt sources"

key=bookworm-minbase-$(dpkg-query -W -f='${Version}' debootstrap)
root=${DEPS_CHROOT_CACHE:-/var/cache/otattest/deps-chroot}/$key
if [ ! -f "$root.ok" ]; then
	start=$(date +%s)
	rm -rf "$root" "$root.tmp"
	mkdir -p "$root.tmp"
	debootstrap --variant=minbase bookworm "$root.tmp" "$mirror" >"$root.log" 2>&1 ||
		fail_early "debootstrap failed: $(tail -3 "$root.log" | tr '\n' ' ')"
	mv "$root.tmp" "$root" && touch "$root.ok"
	echo "# debootstrap --variant=minbase bookworm: $(($(date +%s) - start)) s (cached in $root)"
fi

# What deps.sh reads, at its place in a copy of the tree.
rm -rf "$root/src" && mkdir -p "$root/src/scripts" "$root/src/libotattest/tools/veraison" "$root/src/tests/interop"
cp scripts/deps.sh scripts/kernel-version.sh "$root/src/scripts/"
cp libotattest/tools/veraison/go.mod "$root/src/libotattest/tools/veraison/"
cp tests/interop/package.json tests/interop/package-lock.json "$root/src/tests/interop/" 2>/dev/null
go_want=$(sed -n 's/^go //p' libotattest/tools/veraison/go.mod)
node_want=$(grep -o '"node": *">= *[0-9][0-9.]*"' tests/interop/package-lock.json | grep -o '[0-9][0-9.]*' | sort -V | tail -n1)

# in_chroot PATH-PREFIX ARGS...: deps.sh in the chroot with a clean
# environment; stdout in $work/out, stderr in $work/err, status in $rc.
work=$(mktemp -d)
trap 'rm -rf "$work" "$root/src"' EXIT
in_chroot() {
	local pre=$1
	shift
	chroot "$root" /usr/bin/env -i HOME=/root LC_ALL=C.UTF-8 \
		PATH="$pre/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin" \
		/bin/bash /src/scripts/deps.sh "$@" >"$work/out" 2>"$work/err"
	rc=$?
}
same() { # expected-file name
	diff -u "$1" "$work/err" >"$work/diff"
	ok $? "$2"
	[ -s "$work/diff" ] && sed 's/^/#   /' "$work/diff"
}

chroot "$root" dpkg-query -W >"$work/pkgs-before"
printf '%s\n' "deps: missing toolchains: node >= $node_want (have: none; Debian 12's nodejs is 18: nodejs.org's release or NodeSource's nodejs package); npm (comes with that node); go >= $go_want (have: none; Go's own release for linux-amd64 on PATH)" >"$work/want-toolchains"

in_chroot "" --check
ok $([ "$rc" = 1 ] && echo 0 || echo 1) "deps.sh --check on a plain Debian 12 fails (exit $rc)"
same "$work/want-toolchains" "deps.sh --check: one message naming every missing toolchain and its source"
ok $([ ! -s "$work/out" ] && echo 0 || echo 1) "deps.sh --check prints nothing else"

in_chroot "" 
ok $([ "$rc" = 1 ] && echo 0 || echo 1) "deps.sh (install) on a plain Debian 12 stops at once (exit $rc)"
same "$work/want-toolchains" "deps.sh: the same one message, before installing anything"
chroot "$root" dpkg-query -W >"$work/pkgs-after"
cmp -s "$work/pkgs-before" "$work/pkgs-after"
ok $? "deps.sh installed nothing"

# Stand-ins for the three toolchains Debian 12 does not provide (each
# answers only what deps.sh asks: node its version and no npm dependency
# installed), so the check goes on to the packages. No python3.11: Debian's
# is in the package list, and with none every PyPI pin is missing.
st=$root/src/stubs/usr/local/bin
mkdir -p "$st"
printf '#!/bin/sh\n[ "$1" = --version ] && { echo v%s; exit 0; }\nsed -n '"'"'/"dependencies"/,/}/s/^ *"\\([^"]*\\)": .*/\\1/p'"'"' package.json\n' "$node_want" >"$st/node"
printf '#!/bin/sh\nexit 0\n' >"$st/npm"
printf '#!/bin/sh\n[ "$1 $2" = "env GOVERSION" ] && echo go%s\n' "$go_want" >"$st/go"
chmod 755 "$st"/*
in_chroot /src/stubs --check
ok $([ "$rc" = 1 ] && echo 0 || echo 1) "deps.sh --check with the toolchains, no packages: fails (exit $rc)"
# Every package of deps.sh's list that the chroot lacks, in its order.
missing=$(bash -c 'packages=(); eval "$(sed -n "/^packages=(/,/^)/p" scripts/deps.sh)"; printf "%s\n" "${packages[@]}"' |
	while read -r p; do chroot "$root" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"; done | tr '\n' ' ')
pypi=$(sed -n '/^pypi=(/,/^)/p' scripts/deps.sh | grep -o '[A-Za-z0-9_.-]*==[0-9.]*' | tr '\n' ' ')
{
	echo "deps: no deb-src in the apt sources (scripts/fwupd-build.sh needs it)"
	echo "deps: missing Debian packages: ${missing% }"
	echo "deps: npm packages for tests/interop are not installed"
	echo "deps: missing PyPI packages for python3.11: ${pypi% }"
	echo "deps: the Go modules of libotattest/tools/veraison/go.sum are not in Go's module cache (make deb builds offline)"
} >"$work/want-packages"
[ -f tests/interop/package.json ] || sed -i '/npm packages/d' "$work/want-packages"
same "$work/want-packages" "deps.sh --check names every missing Debian, npm and PyPI package and deb-src"
# deps.sh --python on the plain Debian 12: Debian's python3.11, pip and
# venv from the mirror, the PyPI pins from PyPI into the venv (Debian's
# Python is externally managed), its python3.11 first on PATH. Done once
# per deps.sh and chroot (a copy of the chroot, kept beside it: about two
# minutes and 80 MB fetched the first time); what it left is checked on
# every run, and a second deps.sh --python must find nothing to do.
# pip gets the CA bundle this machine trusts (PIP_CERT, as the host's own
# pip does: where this runs, HTTPS may pass a proxy whose CA only the
# host's bundle has); apt fetches over HTTP from the mirror as it is.
pyroot=$root-python-$(cat scripts/deps.sh | sha256sum | cut -c1-16)
if [ ! -f "$pyroot.ok" ]; then
	start=$(date +%s)
	rm -rf "$root"-python-* && cp -a "$root" "$pyroot"
	cp -L /etc/ssl/certs/ca-certificates.crt "$pyroot/etc/host-ca.crt"
	chroot "$pyroot" /usr/bin/env -i HOME=/root LC_ALL=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin \
		PIP_CERT=/etc/host-ca.crt /bin/bash /src/scripts/deps.sh --python >"$pyroot.log" 2>&1
	echo "$?" >"$pyroot.rc"
	# A failure (the network, say) is tried again on the next run.
	[ "$(cat "$pyroot.rc")" = 0 ] && touch "$pyroot.ok"
	echo "# deps.sh --python in a copy of the chroot: $(($(date +%s) - start)) s (kept in $pyroot)"
fi
ok $([ "$(cat "$pyroot.rc")" = 0 ] && echo 0 || echo 1) "deps.sh --python on a plain Debian 12 installs (exit $(cat "$pyroot.rc"); $pyroot.log)"
[ "$(cat "$pyroot.rc")" = 0 ] || tail -5 "$pyroot.log" | sed 's/^/#   /'
in_py() {
	chroot "$pyroot" /usr/bin/env -i HOME=/root LC_ALL=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/usr/sbin:/bin:/sbin "$@"
}
got=$(in_py dpkg-query -W -f='${Package} ${Status}\n' python3.11 python3-pip python3-venv 2>/dev/null | grep -c "install ok installed")
ok $([ "$got" = 3 ] && echo 0 || echo 1) "Debian's python3.11, python3-pip and python3-venv installed ($got of 3)"
want=$(printf '%s\n' $pypi | sort)
got=$(in_py python3.11 -c 'import importlib.metadata as m, sys
for p in sys.argv[1:]: print(p + "==" + m.version(p))' $(printf '%s\n' $pypi | sed 's/==.*//') 2>&1 | sort)
[ "$got" = "$want" ]
ok $? "python3.11 on PATH ($(in_py sh -c 'command -v python3.11')) has every PyPI pin at its version"
[ "$got" = "$want" ] || diff <(echo "$want") <(echo "$got") | sed 's/^/#   /'
in_py python3.11 -c 'import jwt, cwt, cddl_verifier, cbor_diag, cbor2, cryptography' 2>"$work/err"
ok $? "the interop checks' imports work there"
cp -a "$root/src/." "$pyroot/src/" 2>/dev/null
in_py /bin/bash /src/scripts/deps.sh --python >"$work/out" 2>"$work/err"
rc=$?
ok $([ "$rc" = 0 ] && [ "$(cat "$work/out")" = "deps: all present" ] && [ ! -s "$work/err" ] && echo 0 || echo 1) \
	"a second deps.sh --python has nothing to do (exit $rc: $(head -c 200 "$work/out" "$work/err" | tr '\n' ' '))"
finish
