# SPDX-License-Identifier: MIT
# The fast mode itself: users and groups, dropping privileges, files and
# host binaries with their ldd closure (busctl needs systemd's private
# libsystemd-shared), a private system bus, the result share both ways, a
# host hook talking to QEMU's QMP socket and to the guest.
E2E_DESCRIPTION="fast mode: users, setpriv, files, binaries, D-Bus, share, host hook, QMP"
E2E_MODE=fast
E2E_TIMEOUT=30
E2E_BINARIES=(/usr/bin/busctl /usr/bin/jq)
E2E_FILES=("tests/e2e/lib/guest.sh:/etc/e2e/copied-file")
E2E_DBUS=1

guest_main() {
	e2e_assert_eq "root" "$(id -un)" "guest_main runs as"
	e2e_assert_eq 4001 "$(e2e_as e2e-user id -u)" "e2e_as e2e-user: uid"
	e2e_assert_match '.*otattest-update.*' "$(e2e_as e2e-update id -Gn)" "e2e-update's groups"
	e2e_expect_fail "e2e-user cannot write /etc" e2e_as e2e-user sh -c ': >/etc/e2e-probe'

	cmp /etc/e2e/copied-file "$E2E_DIR/lib/guest.sh" || e2e_fail "E2E_FILES copy differs"
	e2e_assert_eq 42 "$(echo '{"a": 42}' | jq .a)" "jq from the host runs"
	e2e_dbus_start
	e2e_assert_match '"[0-9a-f]{32}"' "$(busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetId | cut -d' ' -f2)" "private system bus GetId"
	e2e_assert_eq 4001 "$(e2e_as e2e-user busctl --system call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetConnectionUnixUser s org.freedesktop.DBus >/dev/null && id -u e2e-user)" "unprivileged user on the bus"

	# Round trip with the host hook over the share.
	e2e_signal guest-ready
	e2e_wait_host host-saw-guest 20
	e2e_assert_eq running "$(cat "$E2E_OUT/from-host/qmp-status")" "QEMU status via the host hook's QMP"

	echo "hello from $(hostname)" >/tmp/greeting
	e2e_save /tmp/greeting
}

host_hook() {
	e2e_wait_guest guest-ready 20
	mkdir -p "$E2E_OUT/from-host"
	e2e_qmp query-status | jq -r .status >"$E2E_OUT/from-host/qmp-status.tmp"
	mv "$E2E_OUT/from-host/qmp-status.tmp" "$E2E_OUT/from-host/qmp-status"
	e2e_tell_guest host-saw-guest
}

host_check() {
	[ "$(cat "$E2E_OUT/artifacts/greeting")" = "hello from e2e-guest" ] ||
		e2e_fail "artifact greeting: '$(cat "$E2E_OUT/artifacts/greeting")'"
}
