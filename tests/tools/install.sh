#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make install` the way a Debian package build runs it: DESTDIR and
# PREFIX are honoured, every file lands where its consumer looks for it
# (systemd, dbus-daemon, udev, sysusers, polkit, pkg-config, man), nothing
# is written outside DESTDIR$PREFIX, the unit names the installed daemon,
# and a program builds and runs against the installed library through its
# pkg-config file alone. Prints "N passed, N failed".
#   tests/tools/install.sh     (from anywhere; B= for the build directory)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
B=${B:-build}
work=$(mktemp -d "${TMPDIR:-/tmp}/otattest-install.XXXXXX")
pass=0 fail=0
# Afterwards the build tree holds the unit and otattest.pc for the default PREFIX again.
trap 'rm -rf "$work"; make -s B="$B" "$B/systemd/otattestd.service" "$B/otattest.pc" >/dev/null 2>&1' EXIT

ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { fail=$((fail + 1)); echo "not ok - $*"; }
check() { # check WHAT COMMAND...
	local what=$1
	shift
	if "$@" >"$work/check.out" 2>&1; then ok "$what"; else bad "$what"; sed 's/^/    /' "$work/check.out"; fi
}

# What a package ships, relative to PREFIX.
expected=(
	bin/otattest-verify bin/otattestctl libexec/otattestd
	lib/libotattest.so lib/libotattest.so.2 lib/libotattest.so.2.0 lib/pkgconfig/otattest.pc
	lib/systemd/system/otattestd.service lib/systemd/system/otattestd.socket lib/sysusers.d/otattest.conf
	lib/systemd/system/otattest-metrics.service lib/systemd/system/otattest-metrics.timer
	lib/systemd/catalog/otattest.catalog share/otattest/prometheus/otattest-alerts.yml
	lib/udev/rules.d/99-otattest.rules
	share/dbus-1/system.d/org.otattest.BootAttest1.conf
	share/dbus-1/system-services/org.otattest.BootAttest1.service
	share/dbus-1/interfaces/org.otattest.BootAttest1.xml
	share/polkit-1/actions/org.otattest.BootAttest1.policy share/polkit-1/rules.d/50-otattest.rules
	share/man/man8/otattestd.8 share/man/man8/otattestctl.8 share/man/man1/otattest-verify.1
	bin/otimage bin/otattest-veraison share/man/man1/otimage.1 share/man/man1/otattest-veraison.1
	share/bash-completion/completions/otattestctl share/bash-completion/completions/otimage
	share/bash-completion/completions/otattest-verify
	libexec/otattest/rauc/otattest-rauc-backend libexec/otattest/rauc/otattest-rauc-install
	libexec/otattest/rauc/otattest-rauc-service lib/systemd/system/rauc.service.d/otattest-rauc.conf
	lib/tmpfiles.d/otattest-rauc.conf share/otattest/rauc/system.conf
)
for h in libotattest/include/otattest/*.h; do expected+=("include/otattest/${h##*/}"); done

# A consumer of the library: decodes nothing, just links and calls it.
cat >"$work/consumer.c" <<'EOF'
#include <stdio.h>
#include <otattest/verify.h>
int main(void)
{
	struct ota_policy p;

	ota_policy_init(&p);
	/* A trust store from no PEM at all must be refused, with a status. */
	printf("%s\n", ota_trust_load_pem("", 0, &(struct ota_trust *){ 0 }) == OTA_OK ? "accepted" : "refused");
	return 0;
}
EOF

for prefix in /usr /opt/otattest; do
	dest=$work/dest${prefix//\//_}
	if ! make -s B="$B" install DESTDIR="$dest" PREFIX="$prefix" >"$work/make.log" 2>&1; then
		bad "make install PREFIX=$prefix DESTDIR=..."
		sed 's/^/    /' "$work/make.log"
		continue
	fi
	ok "make install PREFIX=$prefix DESTDIR=..."

	(cd "$dest$prefix" && printf '%s\n' "${expected[@]}" | sort) >"$work/want"
	(cd "$dest$prefix" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort) >"$work/got"
	check "PREFIX=$prefix: exactly the files a package ships" diff -u "$work/want" "$work/got"
	# ... but the admin's configuration, which lives in /etc whatever PREFIX is.
	check "PREFIX=$prefix: nothing written outside DESTDIR$prefix but /etc/otattest/key-names" \
		test -z "$(cd "$dest" && find . -mindepth 1 \( -type f -o -type l \) ! -path ".$prefix/*" \
			! -path ./etc/otattest/key-names)"
	check "PREFIX=$prefix: the key names template is installed" \
		grep -qx '# otattest key names (docs/keynames.md, otattestctl(8)): one key a line,' \
		"$dest/etc/otattest/key-names"
	check "PREFIX=$prefix: executables are executable" \
		test -x "$dest$prefix/libexec/otattestd" -a -x "$dest$prefix/bin/otattestctl" -a -x "$dest$prefix/bin/otattest-verify"
	check "PREFIX=$prefix: the unit starts $prefix/libexec/otattestd" \
		grep -qx "ExecStart=$prefix/libexec/otattestd" "$dest$prefix/lib/systemd/system/otattestd.service"
	check "PREFIX=$prefix: the metrics service runs $prefix/bin/otattestctl" \
		grep -q "^ExecStart=$prefix/bin/otattestctl --quiet metrics --output " \
		"$dest$prefix/lib/systemd/system/otattest-metrics.service"
	check "PREFIX=$prefix: otattest.pc says prefix=$prefix" grep -qx "prefix=$prefix" "$dest$prefix/lib/pkgconfig/otattest.pc"
	check "PREFIX=$prefix: libotattest.so -> .so.2 -> .so.2.0" \
		test "$(readlink "$dest$prefix/lib/libotattest.so")" = libotattest.so.2 -a \
		"$(readlink "$dest$prefix/lib/libotattest.so.2")" = libotattest.so.2.0
	# pkg-config finds the staged copy the way a package build's sysroot does.
	flags=$(PKG_CONFIG_PATH="$dest$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest" \
		pkg-config --cflags --libs otattest 2>"$work/pc.err")
	if cc -o "$work/consumer" "$work/consumer.c" $flags >"$work/cc.log" 2>&1 &&
		[ "$(LD_LIBRARY_PATH="$dest$prefix/lib" "$work/consumer")" = refused ]; then
		ok "PREFIX=$prefix: a program builds with 'pkg-config otattest' and runs on the installed library"
	else
		bad "PREFIX=$prefix: a program does not build or run against the installed library ($flags)"
		sed 's/^/    /' "$work/pc.err" "$work/cc.log"
	fi
done

# The key names file: KEY_NAMES= installs the given one; a reinstall
# without it keeps what the admin has.
dest=$work/dest-names
printf '%s owner\n' "$(printf 'ab%.0s' $(seq 32))" >"$work/names"
make -s B="$B" install DESTDIR="$dest" PREFIX=/usr KEY_NAMES="$work/names" >"$work/make.log" 2>&1
check "KEY_NAMES= installs that file" cmp "$work/names" "$dest/etc/otattest/key-names"
echo "# the admin's edit" >>"$dest/etc/otattest/key-names"
cp "$dest/etc/otattest/key-names" "$work/names.edited"
make -s B="$B" install DESTDIR="$dest" PREFIX=/usr >"$work/make.log" 2>&1
check "a reinstall keeps the admin's key names" cmp "$work/names.edited" "$dest/etc/otattest/key-names"

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
