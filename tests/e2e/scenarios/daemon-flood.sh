# SPDX-License-Identifier: MIT
# One user floods otattestd over D-Bus, with the device answering every
# request a second late (model fault delay) so that calls pile up:
#
# (1) 300 connections of e2e-user (as many as the bus lets it open: 256
#     on dbus-daemon's system bus), each with an Attest waiting: another
#     user's Attest and the update agent's RotateTags are served within
#     seconds. otattestd's bounds are per user:
#     e2e-user's calls beyond its four get Busy at once. (The old table of
#     256 connections filled with e2e-user's and refused everyone else
#     LimitExceeded.)
# (2) e2e-user then floods thousands of calls that are refused at once:
#     Attest beyond its queue (Busy) and RotateTags, which an admin's
#     D-Bus policy drop-in lets it send (as the shipped policy says to do
#     for polkit to decide; otattestd runs --no-polkit here) and otattestd
#     refuses (AccessDenied, logged at the audit lines' own priority),
#     while the update agent rotates twice and update-resets: the journal
#     keeps every audit line (rotation, update reset, each once, with the
#     uid) and never drops otattestd's lines. journald's rate limit is set
#     low here (50 lines of a priority per 30 s, before its free-space
#     factor) so that a daemon logging each refusal would reach it within
#     this run, for its refusals' priority and its audit lines' alike.
E2E_DESCRIPTION="otattestd: 300 connections of one user lock out nobody; a refusal flood keeps every audit line"
E2E_MODE=systemd
E2E_TIMEOUT=170
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage)
E2E_REQUIRES=(kernel/mailbox.c daemon/otattestd/main.c qemu-model/board/*.c firmware/lib/*.c)

# Shared helpers; the host tree is visible in the guest at its own path.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

host_prepare() {
	daemon_provision
}

guest_setup() {
	daemon_guest_setup
	useradd --uid 4012 --user-group --no-create-home --shell /usr/sbin/nologin e2e-reader
	mkdir -p /etc/systemd/journald.conf.d
	printf '[Journal]\nRateLimitIntervalSec=30s\nRateLimitBurst=50\n' \
		>/etc/systemd/journald.conf.d/e2e-flood.conf
	# The admin lets e2e-user send RotateTags, for otattestd to decide.
	cat >/etc/dbus-1/system.d/otattest-rotate-e2e-user.conf <<-'EOF'
		<busconfig>
		  <policy user="e2e-user">
		    <allow send_destination="org.otattest.BootAttest1"
		           send_interface="org.otattest.BootAttest1.Device" send_member="RotateTags"/>
		  </policy>
		</busconfig>
	EOF
	printf '[Service]\nExecStart=\nExecStart=%s --no-polkit\n' "$DAEMON_EXE" \
		>/etc/systemd/system/otattestd.service.d/no-polkit.conf
}

host_hook() {
	e2e_wait_guest slow 120
	e2e_model_ctl fault delay 1000 >/dev/null
	e2e_tell_guest slow
	e2e_wait_guest fast 150
	e2e_model_ctl fault delay 0 >/dev/null
	e2e_tell_guest fast
}

# flood_bus MODE N [METHOD]: a python3-dbus client of e2e-user's. "hold"
# opens N connections, sends one Attest on each without waiting, prints
# how many it opened and sent, and keeps them until /tmp/flood-stop
# exists; "burst" sends N calls of METHOD (Attest, RotateTags) on one
# connection as fast as it can.
flood_bus() {
	e2e_as e2e-user /usr/bin/python3 - "$@" <<'PY'
import os, sys, time, dbus, dbus.lowlevel
mode, n = sys.argv[1], int(sys.argv[2])
method = sys.argv[3] if len(sys.argv) > 3 else "Attest"
addr = "unix:path=/run/dbus/system_bus_socket"
def call(bus, member):
    m = dbus.lowlevel.MethodCallMessage("org.otattest.BootAttest1",
        "/org/otattest/BootAttest1/device/otattest0", "org.otattest.BootAttest1.Device", member)
    if member == "Attest":
        m.append(dbus.ByteArray(os.urandom(16)), signature="ay")
    bus.send_message(m)
def attest(bus):
    call(bus, "Attest")
if mode == "hold":
    conns, refused = [], 0
    for i in range(n):
        try:
            c = dbus.bus.BusConnection(addr)
        except dbus.exceptions.DBusException:
            refused += 1
            continue
        attest(c)
        c.flush()
        conns.append(c)
    print("opened=%d refused_by_bus=%d" % (len(conns), refused), flush=True)
    open("/tmp/flood-held", "w").close()
    while not os.path.exists("/tmp/flood-stop"):
        time.sleep(0.2)
else:
    c = dbus.bus.BusConnection(addr)
    for i in range(n):
        call(c, method)
    c.flush()
    print("sent=%d %s" % (n, method), flush=True)
PY
}

# audit_lines MID: otattestd's journal entries with that MESSAGE_ID for uid 4002.
audit_lines() {
	journalctl --no-pager -q -o cat _SYSTEMD_UNIT=otattestd.service MESSAGE_ID="$1" OTATTEST_UID=4002 | wc -l
}

guest_main() {
	local mid_rot mid_upd mid_sup mid_den rot0 upd0 pid bpid
	mid_rot=$(sed -n 's/^#define MID_ROTATION_FINISHED "\(.*\)"$/\1/p' "$E2E_SRC/daemon/otattestd/log.h")
	mid_upd=$(sed -n 's/^#define MID_UPDATE_RESET "\(.*\)"$/\1/p' "$E2E_SRC/daemon/otattestd/log.h")
	mid_sup=$(sed -n 's/^#define MID_REFUSALS_SUPPRESSED "\(.*\)"$/\1/p' "$E2E_SRC/daemon/otattestd/log.h")
	mid_den=$(sed -n 's/^#define MID_ACCESS_DENIED "\(.*\)"$/\1/p' "$E2E_SRC/daemon/otattestd/log.h")
	[ -n "$mid_rot" ] && [ -n "$mid_upd" ] || e2e_fail "message ids not found in daemon/otattestd/log.h"

	daemon_start ready
	e2e_signal slow
	e2e_wait_host slow 30

	# (1) 300 connections, each with an Attest waiting on the slow device.
	flood_bus hold 300 >/tmp/hold.out 2>&1 &
	pid=$!
	e2e_wait_for 120 "e2e-user's connections open" test -e /tmp/flood-held
	e2e_log "e2e-user: $(cat /tmp/hold.out)"
	daemon_timed "Attest by another user beside 300 connections of e2e-user" 20 \
		e2e_as e2e-reader "$DAEMON_CTL" -q attest -o /tmp/ev1
	daemon_timed "RotateTags by the update agent beside them" 20 \
		e2e_as e2e-update "$DAEMON_CTL" rotate
	# The bus allows a user only so many connections: close them for (2).
	: >/tmp/flood-stop
	wait "$pid" || e2e_fail "the connections' holder failed: $(cat /tmp/hold.out)"

	# (2) A flood of calls refused at once (e2e-user's queue is full), with
	# audit lines made in the middle of it.
	rot0=$(audit_lines "$mid_rot")
	upd0=$(audit_lines "$mid_upd")
	flood_bus burst 3000 >/tmp/burst1.out 2>&1 &
	bpid=$!
	e2e_as e2e-update "$DAEMON_CTL" rotate >/tmp/rot2.out 2>&1 || e2e_fail "rotation during the flood: $(cat /tmp/rot2.out)"
	flood_bus burst 3000 RotateTags >/tmp/burst2.out 2>&1
	e2e_as e2e-update "$DAEMON_CTL" update-reset --slot b >/tmp/upd.out 2>&1 ||
		e2e_fail "update reset during the flood: $(cat /tmp/upd.out)"
	e2e_as e2e-update "$DAEMON_CTL" rotate >/tmp/rot3.out 2>&1 || e2e_fail "rotation during the flood: $(cat /tmp/rot3.out)"
	wait "$bpid" || e2e_fail "the first burst failed: $(cat /tmp/burst1.out)"
	e2e_log "bursts: $(cat /tmp/burst1.out /tmp/burst2.out | tr '\n' ' ')"
	e2e_signal fast
	e2e_wait_host fast 30

	# Every audit line is in the journal, once each, with who asked.
	e2e_wait_for 15 "two rotation audit lines of uid 4002 in the journal" \
		test "$(audit_lines "$mid_rot")" -ge $((rot0 + 2))
	e2e_assert_eq $((rot0 + 2)) "$(audit_lines "$mid_rot")" "rotation audit lines of the flood (each once)"
	e2e_assert_eq $((upd0 + 1)) "$(audit_lines "$mid_upd")" "update reset audit lines of the flood"
	journalctl --no-pager -o cat | grep 'Suppressed [0-9]* messages from otattestd.service' &&
		e2e_fail "journald dropped otattestd's lines"
	# The refusals are there too: the first ones, and their count in a summary.
	e2e_log "access denials logged: $(journalctl --no-pager -q -o cat _SYSTEMD_UNIT=otattestd.service MESSAGE_ID="$mid_den" | wc -l)"
	e2e_wait_for 20 "a summary of the refusals not logged" sh -c \
		"journalctl --no-pager -q -o cat _SYSTEMD_UNIT=otattestd.service MESSAGE_ID=$mid_sup | grep -q 'uid 4001: '"
	e2e_log "summaries: $(journalctl --no-pager -q -o cat _SYSTEMD_UNIT=otattestd.service MESSAGE_ID="$mid_sup" | tr '\n' '|')"
	e2e_log "otattestd journal lines in all: $(journalctl --no-pager -q -o cat _SYSTEMD_UNIT=otattestd.service | wc -l)"
	daemon_save_journal
}
