# SPDX-License-Identifier: MIT
# The shipped unit starts otattestd with its hardening in force, the API
# is on the bus, and systemd-analyze rates the unit at 2.0 or lower. The
# device is factory-blank (never provisioned): its boot fails, and that
# shows as a state with its reason, and as named errors, never silence.
E2E_DESCRIPTION="otattestd: shipped unit, hardening in force, busctl introspect, exposure <= 2.0"
E2E_MODE=systemd
E2E_TIMEOUT=90
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service)
E2E_REQUIRES=(kernel/netlink.c daemon/otattestd/main.c qemu-model/board/*.c)

# Shared helpers; the host tree is visible in the guest at its own path.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

guest_setup() {
	daemon_guest_setup
}

guest_main() {
	local pid status exposure mid
	daemon_start

	pid=$(daemon_pid)
	[ "$pid" -gt 1 ] || e2e_fail "otattestd has no main PID"
	status=$(cat /proc/"$pid"/status)
	e2e_log "$(grep -E '^(Uid|Gid|NoNewPrivs|Seccomp|CapInh|CapPrm|CapEff|CapBnd|CapAmb):' <<<"$status" | tr '\t' ' ' | tr '\n' ';')"
	e2e_assert_eq "$(id -u otattestd)" "$(awk '/^Uid:/ {print $3}' <<<"$status")" "runs as the otattestd user (euid)"
	e2e_assert_eq 1 "$(awk '/^NoNewPrivs:/ {print $2}' <<<"$status")" "NoNewPrivileges"
	e2e_assert_eq 2 "$(awk '/^Seccomp:/ {print $2}' <<<"$status")" "SystemCallFilter: seccomp filter"
	# No capability at all: the device is reached through the socket PID 1
	# opened (otattestd.socket), and the netlink it may open itself changes nothing.
	e2e_assert_eq 0000000000000000 "$(awk '/^CapBnd:/ {print $2}' <<<"$status")" "CapabilityBoundingSet= (empty)"
	e2e_assert_eq 0000000000000000 "$(awk '/^CapEff:/ {print $2}' <<<"$status")" "effective capabilities (none)"
	[ "$(readlink /proc/"$pid"/ns/user)" != "$(readlink /proc/1/ns/user)" ] ||
		e2e_fail "no user namespace of its own (PrivateUsers=)"
	ls -l /proc/"$pid"/fd | grep -q 'socket:' || e2e_fail "no socket passed"
	e2e_assert_eq active "$(systemctl is-active otattestd.socket)" "otattestd.socket"
	[ "$(readlink /proc/"$pid"/ns/mnt)" != "$(readlink /proc/1/ns/mnt)" ] ||
		e2e_fail "no mount namespace of its own (ProtectSystem/PrivateTmp)"
	# ProtectSystem=strict, PrivateTmp: seen from inside the service's namespace.
	nsenter -t "$pid" -m -- sh -c 'touch /usr/e2e-x' 2>/dev/null && e2e_fail "/usr writable for otattestd"
	nsenter -t "$pid" -m -- sh -c 'touch /etc/e2e-x' 2>/dev/null && e2e_fail "/etc writable for otattestd"
	[ -z "$(nsenter -t "$pid" -m -- ls -A /tmp)" ] || e2e_fail "PrivateTmp: /tmp not private"
	nsenter -t "$pid" -m -- test -e /dev/sda && e2e_fail "PrivateDevices: /dev not private"
	nsenter -t "$pid" -m -- test -d /sys/class/otattest || e2e_fail "/sys/class/otattest not visible to sd-device"

	busctl --system introspect "$DAEMON_BUS" "$DAEMON_ROOT" >/tmp/introspect.txt
	e2e_save /tmp/introspect.txt
	grep -q '^org.otattest.BootAttest1.Manager' /tmp/introspect.txt || e2e_fail "Manager interface not introspected"
	grep -q '^org.freedesktop.DBus.ObjectManager' /tmp/introspect.txt || e2e_fail "ObjectManager missing"
	grep -q '^\.GetDevice ' /tmp/introspect.txt || e2e_fail "GetDevice missing"
	# The one version number (debian/changelog, as the build recorded it).
	e2e_assert_eq "s \"$(cat "$E2E_SRC/build/version.stamp")\"" "$(busctl --system get-property "$DAEMON_BUS" "$DAEMON_ROOT" org.otattest.BootAttest1.Manager Version)" "Version property"

	# The watchdog is armed (WatchdogSec=) and otattestd keeps it fed.
	e2e_assert_eq 30s "$(systemctl show -p WatchdogUSec --value otattestd.service)" "WatchdogSec"
	# STATUS= from sd_notify; no "driver not loaded": the genl family was
	# resolved by name.
	e2e_wait_for 15 "otattest0 failed (blank device)" daemon_state_is failed
	e2e_assert_eq '1 device(s), 0 ready' "$(systemctl show -p StatusText --value otattestd.service)" "STATUS= from sd_notify"

	# A failed device: a state with its reason, and named errors.
	e2e_assert_match 'u [0-9]+' "$(daemon_prop StateDetail)" "StateDetail"
	e2e_log "StateMessage: $(daemon_prop StateMessage)"
	[ "$(daemon_prop StateMessage)" != 's ""' ] || e2e_fail "a failed device without a reason"
	daemon_expect_exit 19 "Attest on a failed device" e2e_as e2e-user "$DAEMON_CTL" attest \
		--nonce 00112233445566778899aabbccddeeff -o /tmp/x
	daemon_expect_exit 19 "status of a failed device" e2e_as e2e-user "$DAEMON_CTL" status

	systemd-analyze security --offline=yes --no-pager "$DAEMON_UNIT" >/tmp/security.txt 2>&1 || true
	e2e_save /tmp/security.txt
	exposure=$(sed -n 's/.*Overall exposure level for otattestd.service: \([0-9.]*\).*/\1/p' /tmp/security.txt)
	e2e_log "systemd-analyze security --offline=yes otattestd.service: exposure $exposure"
	awk -v e="$exposure" 'BEGIN { exit !(e != "" && e <= 2.0) }' || e2e_fail "exposure '$exposure' is above 2.0"

	# Structured journal entries: the device and the status as fields, and
	# the caller's place in the source (not the logging helper's).
	mid=$(sed -n 's/^#define MID_DEVICE_ADDED "\([0-9a-f]*\)"$/\1/p' "$E2E_SRC/daemon/otattestd/log.h")
	[ -n "$mid" ] || e2e_fail "MID_DEVICE_ADDED not found in daemon/otattestd/log.h"
	e2e_wait_for 10 "the journal's 'device appeared' entry" sh -c \
		"journalctl --no-pager -o verbose _SYSTEMD_UNIT=otattestd.service MESSAGE_ID=$mid >/tmp/added.txt 2>&1 && grep -q '^ *OTATTEST_DEVICE=otattest0\$' /tmp/added.txt"
	grep -q '^ *CODE_FILE=daemon/otattestd/device_link.c$' /tmp/added.txt ||
		e2e_fail "'device appeared' entry without its source location: $(grep CODE_ /tmp/added.txt | tr -s ' \n' ' ')"
	journalctl --no-pager -o verbose _SYSTEMD_UNIT=otattestd.service OTATTEST_DEVICE=otattest0 \
		>/tmp/device-entries.txt 2>&1 || true
	grep -q '^ *OTATTEST_STATUS=[A-Z0-9_]*$' /tmp/device-entries.txt ||
		e2e_fail "no journal entry of the failed device carries OTATTEST_STATUS="
	grep -q '^ *CODE_FILE=daemon/otattestd/log.c$' /tmp/device-entries.txt &&
		e2e_fail "journal entries name log.c as their source"
	e2e_log "journal: 'device appeared' with OTATTEST_DEVICE, CODE_FILE=daemon/otattestd/device_link.c; $(grep -c '^ *OTATTEST_STATUS=' /tmp/device-entries.txt) entries with OTATTEST_STATUS"

	# A clean stop: SIGTERM, exit 0.
	systemctl stop otattestd.service
	e2e_assert_eq "success" "$(systemctl show -p Result --value otattestd.service)" "clean stop"
	daemon_save_journal
}
