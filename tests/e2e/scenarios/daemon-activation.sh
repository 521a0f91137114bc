# SPDX-License-Identifier: MIT
# How otattestd gets started, with the shipped files only: the udev rule
# starts it when the device appears (TAG+="systemd", SYSTEMD_WANTS), and
# the D-Bus activation file starts it when a client calls the name while
# it is stopped. Its sd-device monitor then follows uevents (remove, add).
E2E_DESCRIPTION="otattestd: started by the udev rule on device add, and by D-Bus activation"
E2E_MODE=systemd
# Also on dbus-broker, as Fedora's and Arch's system bus (NAME@dbus-broker).
E2E_BUS_VARIANTS=(dbus-broker)
# 180: on the debug kernel (times 3, plus its 120 s teardown) the guest
# reached the scenario after 121 s and passed at uptime 374 s, then the
# rmmod and kmemleak scans ran out of 480 s.
E2E_TIMEOUT=180
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c qemu-model/board/*.c firmware/lib/*.c)

# Shared helpers; the host tree is visible in the guest at its own path.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

host_prepare() {
	daemon_provision
}

guest_setup() {
	daemon_guest_setup
	# The udev rule: the package's in /usr/lib/udev/rules.d, or the tree's.
	if [ "$DAEMON_FROM" = tree ]; then
		mkdir -p /etc/udev/rules.d
		cp "$E2E_SRC/systemd/99-otattest.rules" /etc/udev/rules.d/
	fi
}

daemon_active() {
	systemctl is-active --quiet otattestd.service
}

guest_main() {
	local unit
	daemon_bus_up
	systemctl start --job-mode=ignore-dependencies systemd-udevd-control.socket \
		systemd-udevd-kernel.socket systemd-udevd.service
	daemon_active && e2e_fail "otattestd runs before anything asked for it"

	# The device appears: udev tags it for systemd, which pulls in the service.
	e2e_insmod otattest
	udevadm settle -t 20
	e2e_wait_for 30 "otattestd started by the udev rule" daemon_active
	unit=$(systemd-escape --path --suffix=device "$(readlink -f /sys/class/otattest/otattest0)")
	e2e_assert_match '.*otattestd.service.*' "$(systemctl show -p Wants --value "$unit")" \
		"the device unit wants otattestd.service"
	e2e_wait_for 15 "otattest0 ready" daemon_state_is ready

	# otattestd's sd-device monitor follows uevents on its own: a synthetic
	# "remove" uevent, for which the driver sends no netlink event, makes
	# the device absent; the "add" after it makes it ready again.
	udevadm trigger --settle --action=remove /sys/class/otattest/otattest0
	e2e_wait_for 10 "State absent after a remove uevent (sd-device monitor)" daemon_state_is absent
	udevadm trigger --settle --action=add /sys/class/otattest/otattest0
	e2e_wait_for 15 "State ready after an add uevent (sd-device monitor)" daemon_state_is ready

	# Stopped as otattestd(8) says, with its socket: systemctl then has
	# no "its triggering units are still active" warning to give (it
	# does for the service alone: the socket can still activate it).
	systemctl stop otattestd.socket otattestd.service 2>/tmp/stop.err ||
		e2e_fail "systemctl stop failed: $(cat /tmp/stop.err)"
	[ -s /tmp/stop.err ] && e2e_fail "systemctl stop printed: $(tr '\n' ' ' </tmp/stop.err)"
	daemon_active && e2e_fail "otattestd still active after stop"
	systemctl -q is-active otattestd.socket && e2e_fail "otattestd.socket still active after stop"
	# Called by a client: D-Bus activation starts it again, its socket first.
	e2e_as e2e-user "$DAEMON_CTL" -q --json status >/tmp/status.json ||
		e2e_fail "the call that should have activated otattestd failed: $(cat /tmp/status.json)"
	daemon_active || e2e_fail "D-Bus activation did not start otattestd.service"
	systemctl -q is-active otattestd.socket || e2e_fail "D-Bus activation did not bring otattestd.socket back"
	# Through the alias the activation file names (hostnamed's pattern).
	e2e_assert_match '.*dbus-org.otattest.BootAttest1.service.*' "$(systemctl show -p Names --value otattestd.service)" \
		"otattestd.service's names"
	if systemctl -q is-active dbus-broker.service; then
		# dbus-broker logs no successful activation: it asks systemd for
		# the unit the activation file names, and that file names only
		# the alias, so the activation that just worked went through it.
		grep -qx 'SystemdService=dbus-org.otattest.BootAttest1.service' \
			"$DAEMON_ACTIVATION" ||
			e2e_fail "the activation file does not name dbus-org.otattest.BootAttest1.service"
	else
		journalctl --no-pager -b >/tmp/j.txt 2>&1 || true
		grep -q "unit='dbus-org.otattest.BootAttest1.service'" /tmp/j.txt ||
			e2e_fail "dbus-daemon did not activate through dbus-org.otattest.BootAttest1.service"
	fi
	e2e_log "activated by a call: $(head -c 200 /tmp/status.json)"
	daemon_save_journal
}
