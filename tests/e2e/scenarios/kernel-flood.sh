# SPDX-License-Identifier: MIT
# Local users flooding the driver directly over netlink, many processes
# each, while the device answers every request 300 ms late (model fault
# delay), the shipped otattestd serves D-Bus and the hung-task detector
# reports any task blocked uninterruptibly for 2 s (on the debug kernel,
# which has no detector, the kill check of (2) stands in):
#
# (1) an unprivileged user (e2e-user, 16 processes) asks for everything
#     that goes to the device: every request is refused at once (EPERM,
#     before it queues), so meanwhile the update agent's RotateTags
#     through otattestd and another user's Attest through otattestd are
#     served: both return while all 16 flooders still flood (the flood
#     lasts until the scenario stops it). (The old driver let them queue
#     behind the flood in an uninterruptible mutex: the hung-task detector
#     fired and a rotation waited for every flooder, so with a flood that
#     does not end it would never return.) Their times are logged, beside
#     the same calls with no flood, and never judged: on a slow guest (the
#     debug kernel) sixteen flooders take most of its one CPU, which says
#     nothing about the driver.
# (2) root (12 processes), which may use the device: each caller holds at
#     most caller_queue=4 of the readers' lane (the rest get EBUSY at
#     once), the rotation is granted the mailbox before every waiting
#     reader, otattestd's rotation and a reader's Attest are served while
#     all 12 still flood;
#     then the flooders are SIGKILLed while they wait for the device:
#     every one is gone within 2 s (the waits are killable), and the
#     request in flight is still finished by the device.
# The kernel log must show no hung task (the runner's check).
E2E_DESCRIPTION="netlink floods by many processes: unprivileged refused at once, root bounded; rotation and readers served; killed flooders gone, no hung task"
E2E_MODE=systemd
E2E_TIMEOUT=180
E2E_DEVICE=1
E2E_MODULES=(build/kernel/otattest.ko)
E2E_BUILD_TARGETS=(build/otattestd build/otattestctl build/systemd/otattestd.service build/otimage
	build/tests/e2e/kernel/otattest-nltest)
E2E_REQUIRES=(kernel/mailbox.c daemon/otattestd/main.c qemu-model/board/*.c firmware/lib/*.c)

# Shared helpers; the host tree is visible in the guest at its own path.
. "${E2E_SRC:-${E2E_ROOT:-.}}/tests/e2e/scenarios/daemon-lib.bash" ||
	{ echo "cannot read daemon-lib.bash" >&2; return 1; }

FLOOD_NLTEST=build/tests/e2e/kernel/otattest-nltest
FLOOD_DELAY_MS=300

host_prepare() {
	daemon_provision
}

guest_setup() {
	daemon_guest_setup
	# A reader of its own: not the flooder, not the update agent.
	useradd --uid 4012 --user-group --no-create-home --shell /usr/sbin/nologin e2e-reader
}

host_hook() {
	# The first wait covers the guest's boot and otattestd's start: on the
	# debug kernel at load 11 the scenario began 318 s after QEMU, most of
	# the 120 s times 3 this wait had.
	e2e_wait_guest slow 300
	e2e_model_ctl fault delay "$FLOOD_DELAY_MS" >/dev/null
	e2e_tell_guest slow
	e2e_wait_guest fast 150
	e2e_model_ctl fault delay 0 >/dev/null
	e2e_tell_guest fast
}

# flood_start USER N SECONDS: N processes of USER, each flooding one
# command (attest, sign, certs, record in turn), 10 ms between answers (a
# spinning flooder would only measure the guest's one CPU), for SECONDS or
# until SIGTERM; the counts in /tmp/flood.USER.I.COMMAND.
flood_start() {
	local user=$1 n=$2 secs=$3 i cmd
	local cmds=("attest 00112233445566778899aabbccddeeff" "sign 0 00112233445566778899aabbccddeeff" certs record)
	for ((i = 0; i < n; i++)); do
		cmd=${cmds[i % ${#cmds[@]}]}
		e2e_as "$user" "$E2E_SRC/$FLOOD_NLTEST" flood -t "$secs" -i 10 $cmd \
			>"/tmp/flood.$user.$i.${cmd%% *}" 2>&1 &
	done
}

# flood_all_running USER N WHEN: all N of USER's flooders still flood.
flood_all_running() {
	e2e_assert_eq "$2" "$(pgrep -u "$1" -cx otattest-nltest || true)" "$1's flooders still flooding $3"
}

# flood_started USER N: wait until all N of USER's flooders run (a loaded
# guest takes a while to start sixteen processes through e2e_as).
flood_started() {
	e2e_wait_for 30 "all $2 of $1's flooders running" \
		sh -c '[ "$(pgrep -u "$1" -cx otattest-nltest)" = "$2" ]' sh "$1" "$2"
}

guest_main() {
	local kv f before after e KT_NLTEST

	# Any task blocked uninterruptibly for 2 s is reported (and fails the
	# run). The debug kernel has no hung-task detector (its fragment leaves
	# out CONFIG_DETECT_HUNG_TASK): there the SIGKILL check of (2) stands in
	# (a flooder in an uninterruptible wait would outlive its 2 s), with the
	# calls that must return while the floods run. Every other kernel must
	# have the detector.
	if [ -e /proc/sys/kernel/hung_task_timeout_secs ]; then
		echo 2 >/proc/sys/kernel/hung_task_timeout_secs
		e2e_log "hung-task detector: reports any task blocked uninterruptibly for 2 s"
	elif [ "${E2E_KERNEL:-}" = debug ]; then
		e2e_log "hung-task detector: absent on the debug kernel (no CONFIG_DETECT_HUNG_TASK); the 2 s SIGKILL check of the waiting flooders stands in"
	else
		e2e_fail "no /proc/sys/kernel/hung_task_timeout_secs on kernel $(uname -r): the hung-task check would be lost"
	fi
	daemon_start ready
	e2e_signal slow
	e2e_wait_host slow 30

	# The same two calls with no flood first, at the device's 300 ms: their
	# times beside the flooded ones, for the log only.
	daemon_logged "RotateTags by the update agent, no flood" e2e_as e2e-update "$DAEMON_CTL" rotate
	daemon_logged "Attest through otattestd by another user, no flood" \
		e2e_as e2e-reader "$DAEMON_CTL" -q attest -o /tmp/ev0
	kv=$(daemon_prop TagKeyVersion | cut -d' ' -f2)

	# (1) The unprivileged flood, until it is stopped below: a rotation or an
	# attestation that waited for it to end would not return while it runs.
	flood_start e2e-user 16 $((600 * ${E2E_WAIT_SCALE:-1}))
	flood_started e2e-user 16
	sleep 3
	daemon_logged "RotateTags by the update agent during e2e-user's flood" \
		e2e_as e2e-update "$DAEMON_CTL" rotate
	daemon_logged "Attest through otattestd by another user during e2e-user's flood" \
		e2e_as e2e-reader "$DAEMON_CTL" -q attest -o /tmp/ev1
	flood_all_running e2e-user 16 "after the rotation and the attestation (served during the flood)"
	e2e_assert_eq "u $((kv + 1))" "$(daemon_prop TagKeyVersion)" "TagKeyVersion after the rotation"
	pkill -TERM -u e2e-user -x otattest-nltest
	wait
	for f in /tmp/flood.e2e-user.*; do
		grep -q '^sent=' "$f" || e2e_fail "a flooder did not finish: $(cat "$f")"
		e2e_log "${f#/tmp/flood.}: $(tr '\n' ' ' <"$f")"
	done
	# Every device command refused at once; the snapshot read served.
	e2e_assert_eq 0 "$(cat /tmp/flood.e2e-user.*.{attest,sign,certs} | sed -n 's/^ok=//p' | awk '{s += $1} END {print s + 0}')" \
		"device commands e2e-user's flooders got through"
	[ "$(cat /tmp/flood.e2e-user.*.{attest,sign,certs} | sed -n 's/^EPERM=//p' | awk '{s += $1} END {print s + 0}')" -ge 100 ] ||
		e2e_fail "fewer than 100 refusals: was it a flood?"
	grep -q '^ok=[1-9]' /tmp/flood.e2e-user.3.record || e2e_fail "GET_RECORD (the snapshot) refused to e2e-user"

	# (2) root's flood: bounded, the rotation first, then killed while it waits.
	kv=$(daemon_prop TagKeyVersion | cut -d' ' -f2)
	flood_start root 12 $((600 * ${E2E_WAIT_SCALE:-1})) # killed below, long before
	flood_started root 12
	sleep 3
	daemon_logged "RotateTags by the update agent during root's flood" \
		e2e_as e2e-update "$DAEMON_CTL" rotate
	daemon_logged "Attest through otattestd by another user during root's flood" \
		e2e_as e2e-reader "$DAEMON_CTL" -q attest -o /tmp/ev2
	flood_all_running root 12 "after the rotation and the attestation (served during the flood)"
	e2e_assert_eq "u $((kv + 1))" "$(daemon_prop TagKeyVersion)" "TagKeyVersion after the second rotation"
	# Root's own rotation, directly: ahead of the readers root has waiting,
	# it waits at most for the one request the device is serving.
	KT_NLTEST=$E2E_SRC/$FLOOD_NLTEST
	"$KT_NLTEST" rotate >/tmp/rot-root.out || e2e_fail "ROTATE_TAGS as root: $(tr '\n' ' ' </tmp/rot-root.out)"
	e=$(sed -n 's/^elapsed_ms=//p' /tmp/rot-root.out)
	e2e_log "ROTATE_TAGS as root during root's flood: $e ms (device ${FLOOD_DELAY_MS} ms per answer)"
	[ "$e" -le $((5 * FLOOD_DELAY_MS)) ] || e2e_fail "the rotation waited behind the readers ($e ms)"
	# Some are waiting for the device right now: kill them there.
	e2e_wait_for 10 "a flooder waiting inside the driver" sh -c \
		'for p in $(pgrep -x otattest-nltest); do grep -q otattest_mbox /proc/$p/stack && exit 0; done; exit 1'
	before=$(pgrep -cx otattest-nltest)
	pkill -KILL -x otattest-nltest
	e2e_wait_for 2 "all $before killed flooders gone" sh -c '! pgrep -x otattest-nltest >/dev/null'
	wait
	# The device finishes what was in flight; the driver then serves the next.
	e2e_signal fast
	e2e_wait_host fast 30
	e2e_wait_for 10 "ATTEST as root once the orphan is answered" \
		"$KT_NLTEST" attest 0123456789abcdef0123456789abcdef
	after=$(daemon_prop State)
	e2e_assert_eq 's "ready"' "$after" "State at the end"
	e=$(dmesg | grep -c 'blocked for more than' || true)
	e2e_assert_eq 0 "$e" "hung-task reports"
	daemon_save_journal
}
