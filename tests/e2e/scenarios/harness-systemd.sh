# SPDX-License-Identifier: MIT
# The systemd mode itself: systemd is PID 1 outside a container, hardening
# options take effect for real, journald, the system bus and udevd run, units
# installed into the /etc overlay by guest_setup start.
E2E_DESCRIPTION="systemd mode: PID 1, hardened unit, system bus, udevd, overlay"
E2E_MODE=systemd
E2E_TIMEOUT=60
E2E_FILES=("tests/e2e/lib/guest.sh:/etc/e2e/copied-file")

guest_setup() {
	# Runs chrooted in the new root before systemd starts.
	cat >/etc/systemd/system/e2e-hardened.service <<'UNIT'
[Unit]
Description=e2e hardened probe
DefaultDependencies=no
[Service]
Type=oneshot
RemainAfterExit=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
NoNewPrivileges=yes
SystemCallFilter=@system-service
SystemCallFilter=~@mount
ReadWritePaths=/run/e2e/out
ExecStart=/usr/bin/bash -c 'out=/run/e2e/out/hardened; touch /etc/e2e-x 2>/dev/null && echo etc-writable >>$out || echo etc-readonly >>$out; touch /tmp/e2e-private && echo tmp-writable >>$out; ls /tmp | wc -l >>$out; grep -E "^(NoNewPrivs|Seccomp):" /proc/self/status | tr -d "\t" >>$out; unshare -m true 2>/dev/null && echo mount-allowed >>$out || echo mount-denied >>$out'
UNIT
}

guest_main() {
	e2e_assert_eq systemd "$(cat /proc/1/comm)" "PID 1"
	# PID 1's own view (a child's systemd-detect-virt still finds the
	# host's /.dockerenv through 9p and says container-other).
	e2e_assert_eq qemu "$(systemctl show -p Virtualization --value)" "PID 1 sees a VM, not a container"
	e2e_assert_eq activating "$(systemctl is-active e2e-scenario.service || true)" "this scenario as a unit"
	cmp /etc/e2e/copied-file "$E2E_DIR/lib/guest.sh" || e2e_fail "E2E_FILES copy differs"

	systemctl start e2e-hardened.service
	e2e_assert_eq etc-readonly "$(sed -n 1p "$E2E_OUT/hardened")" "ProtectSystem=strict: /etc"
	e2e_assert_eq tmp-writable "$(sed -n 2p "$E2E_OUT/hardened")" "PrivateTmp: /tmp writable"
	e2e_assert_eq 1 "$(sed -n 3p "$E2E_OUT/hardened")" "PrivateTmp: only its own file in /tmp"
	e2e_assert_eq NoNewPrivs:1 "$(sed -n 4p "$E2E_OUT/hardened")" "NoNewPrivileges"
	e2e_assert_eq Seccomp:2 "$(sed -n 5p "$E2E_OUT/hardened")" "SystemCallFilter: seccomp filter mode"
	e2e_assert_eq mount-denied "$(sed -n 6p "$E2E_OUT/hardened")" "SystemCallFilter=~@mount"

	# The real system bus, started without its default dependencies.
	systemctl start --job-mode=ignore-dependencies dbus.socket dbus.service
	e2e_assert_match '"[0-9a-f]{32}"' "$(busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetId | cut -d' ' -f2)" "system bus GetId"
	e2e_assert_eq 4001 "$(e2e_as e2e-user busctl --system call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus GetConnectionUnixUser s org.freedesktop.DBus >/dev/null && id -u e2e-user)" "unprivileged user on the system bus"

	# udevd, for sd-device monitors: not started unless asked.
	systemctl start --job-mode=ignore-dependencies systemd-udevd-control.socket \
		systemd-udevd-kernel.socket systemd-udevd.service
	udevadm trigger --settle --action=change /sys/class/mem/null
	# The database entry exists only once udevd processed the device.
	[ -e /run/udev/data/c1:3 ] || e2e_fail "udevd wrote no database entry for /dev/null"
	e2e_log "ok: udevd processed an event"

	# journald runs, so services' journal output is kept (out/journal.log).
	echo hello-journal | systemd-cat -t e2e-journal-probe
	e2e_wait_for 5 "the journal entry" sh -c 'journalctl -t e2e-journal-probe -o cat | grep -q hello-journal'
	e2e_log "ok: journald keeps service output"

	systemd-analyze security --offline=yes /etc/systemd/system/e2e-hardened.service >/tmp/security.txt 2>&1 || true
	e2e_save /tmp/security.txt
}
