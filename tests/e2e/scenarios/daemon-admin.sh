# SPDX-License-Identifier: MIT
# The privileged half of the D-Bus API (daemon-api has the rest): RotateTags
# and UpdateReset are refused with AccessDenied for an unprivileged user
# and done for a member of otattest-update; SignWithStableKey is refused to
# both and done for a member of otattest-sign; the rotation bumps
# TagKeyVersion, the update reset boots slot B and an unprivileged
# watcher sees RecordChanged. With WatchdogSec= cut to 3 s the same
# otattestd process serves it all: it pings the watchdog (sd-event) while
# it works. On a slower guest (E2E_WAIT_SCALE, the debug kernel) the 3 s
# are scaled like the harness's waits: at scale 9 the guest's otattestd
# missed 3 s while starting ("Watchdog timeout (limit 3s)!"), a guest too
# slow for the figure, not a daemon that stopped pinging; the scenario
# still runs many times the watchdog's period.
E2E_DESCRIPTION="otattestd: RotateTags/UpdateReset AccessDenied unprivileged, done by otattest-update"
E2E_MODE=systemd
# Also on dbus-broker, as Fedora's and Arch's system bus (NAME@dbus-broker).
E2E_BUS_VARIANTS=(dbus-broker)
E2E_TIMEOUT=120
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
	# The stable-key user: in otattest-sign (made by the shipped sysusers file).
	useradd --uid 4013 --user-group -G otattest-sign --no-create-home --shell /usr/sbin/nologin e2e-signer
	printf '[Service]\nWatchdogSec=%ss\n' "$((3 * ${E2E_WAIT_SCALE:-1}))" \
		>/etc/systemd/system/otattestd.service.d/watchdog.conf
}

guest_main() {
	local v pid0 t0
	daemon_start ready
	pid0=$(daemon_pid)
	t0=$SECONDS
	e2e_assert_eq "$((3 * ${E2E_WAIT_SCALE:-1}))s" "$(systemctl show -p WatchdogUSec --value otattestd.service)" \
		"WatchdogSec for this test"

	# Privileged: refused for e2e-user (D-Bus policy, then the daemon), done for otattest-update.
	daemon_expect_exit 20 "RotateTags as e2e-user" e2e_as e2e-user "$DAEMON_CTL" rotate
	grep -q 'AccessDenied' /tmp/expect.out || e2e_fail "no AccessDenied for e2e-user"
	daemon_expect_exit 20 "UpdateReset as e2e-user" e2e_as e2e-user "$DAEMON_CTL" update-reset
	v=$(daemon_prop TagKeyVersion | cut -d' ' -f2)
	e2e_as e2e-update "$DAEMON_CTL" rotate | tee /tmp/rotate.txt
	grep -q "tag key version $v -> $((v + 1))" /tmp/rotate.txt || e2e_fail "rotation did not bump the key version"
	e2e_wait_for 10 "TagKeyVersion $((v + 1))" test "$(daemon_prop TagKeyVersion)" = "u $((v + 1))"

	# SignWithStableKey: only for otattest-sign (the bus policy refuses the others).
	local msg
	msg="16 $(seq -s ' ' 1 16) 0"
	e2e_as e2e-signer busctl --system call "$DAEMON_BUS" "$DAEMON_DEV" "$DAEMON_IFACE" SignWithStableKey ayu $msg \
		>/tmp/sign.out || e2e_fail "SignWithStableKey as e2e-signer: $(cat /tmp/sign.out)"
	grep -qE '^ayay 64( [0-9]+){64} 64( [0-9]+){64}$' /tmp/sign.out || e2e_fail "signature and key not 64 bytes each: $(cat /tmp/sign.out)"
	for who in e2e-user e2e-update; do
		e2e_as "$who" busctl --system call "$DAEMON_BUS" "$DAEMON_DEV" "$DAEMON_IFACE" SignWithStableKey ayu $msg \
			>/tmp/sign.out 2>&1 && e2e_fail "SignWithStableKey as $who succeeded"
		grep -qE 'Access denied|Rejected send message|not authorized' /tmp/sign.out || e2e_fail "SignWithStableKey as $who: $(cat /tmp/sign.out)"
	done
	e2e_log "SignWithStableKey: done for otattest-sign, refused to e2e-user and e2e-update"

	# UpdateReset into slot B as the update agent: the record moves on and
	# RecordChanged says so (watched by an unprivileged client).
	local gen watch_pid
	gen=$(daemon_prop Generation | cut -d' ' -f2)
	e2e_as e2e-user "$DAEMON_CTL" --json watch >/tmp/watch.json 2>&1 &
	watch_pid=$!
	sleep 0.5
	e2e_as e2e-update "$DAEMON_CTL" --json update-reset --slot b | tee /tmp/reset.json
	grep -q '"boot_status":"OK"' /tmp/reset.json || e2e_fail "update reset did not boot"
	grep -q '"booted_slot":"b"' /tmp/reset.json || e2e_fail "update reset did not boot slot b"
	e2e_wait_for 10 "a newer record" sh -c "[ \"\$(busctl --system get-property $DAEMON_BUS $DAEMON_DEV $DAEMON_IFACE Generation | cut -d' ' -f2)\" -gt $gen ]"
	e2e_wait_for 10 "RecordChanged seen by watch" grep -q '"event":"record-changed"' /tmp/watch.json
	kill "$watch_pid"
	grep -q '"event":"daemon-' /tmp/watch.json && e2e_fail "watch reported otattestd starting or stopping"
	e2e_save /tmp/watch.json
	e2e_assert_eq 's "update"' "$(daemon_prop ResetReason)" "ResetReason after UpdateReset"

	# The watchdog would have killed a process that stopped pinging it.
	while ((SECONDS - t0 < 8 * ${E2E_WAIT_SCALE:-1})); do sleep 1; done
	e2e_assert_eq "$pid0" "$(daemon_pid)" "otattestd's PID after $((SECONDS - t0)) s with WatchdogSec=$((3 * ${E2E_WAIT_SCALE:-1}))s"
	e2e_assert_eq 0 "$(systemctl show -p NRestarts --value otattestd.service)" "restarts (watchdog)"
	daemon_save_journal
}
