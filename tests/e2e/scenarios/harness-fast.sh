# SPDX-License-Identifier: MIT
# The fast mode itself: users and groups, dropping privileges, the result
# share both ways, a host hook talking to QEMU's QMP socket and to the guest.
E2E_DESCRIPTION="fast mode: users, setpriv, share, host hook, QMP"
E2E_MODE=fast
E2E_TIMEOUT=30

guest_main() {
	e2e_assert_eq "root" "$(id -un)" "guest_main runs as"
	e2e_assert_eq 4001 "$(e2e_as e2e-user id -u)" "e2e_as e2e-user: uid"
	e2e_assert_match '.*otattest-update.*' "$(e2e_as e2e-update id -Gn)" "e2e-update's groups"
	e2e_expect_fail "e2e-user cannot write /etc" e2e_as e2e-user sh -c ': >/etc/e2e-probe'

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
